// What the extension's trace database (drivers/webextension/traceShelf.ts) holds, read in the
// page that has it by `page.evaluate(readTraceDatabase, TRACE_DATABASE)`: self-contained, as a
// function evaluated in a page must be.
import type { TraceManifest } from "../../services/traces/index.ts";

export interface StoredTraceFile {
  type: string;
  /** Its size: bytes of a picture, characters of a DOM snapshot. */
  bytes: number;
  /** A picture's first three bytes, in hex. */
  head: string;
  /** A DOM snapshot's text. */
  text: string | null;
}

export interface StoredTraces {
  traces: Array<{ traceId: string; manifest: TraceManifest | null }>;
  /** By "TRACEID/FILE". */
  files: Record<string, StoredTraceFile>;
}

export async function readTraceDatabase(name: string): Promise<StoredTraces> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(name);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const all = <T,>(store: string, ask: (s: IDBObjectStore) => IDBRequest<T>) =>
    new Promise<T>((resolve, reject) => {
      const req = ask(db.transaction([store], "readonly").objectStore(store));
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  const traces = (await all("traces", (s) => s.getAll())) as StoredTraces["traces"];
  const keys = (await all("files", (s) => s.getAllKeys())) as string[];
  const values = (await all("files", (s) => s.getAll())) as Array<{ type: string; data: Uint8Array | string }>;
  db.close();
  const files: StoredTraces["files"] = {};
  keys.forEach((key, i) => {
    const { type, data } = values[i];
    files[key] =
      typeof data === "string"
        ? { type, bytes: data.length, head: "", text: data }
        : { type, bytes: data.length, head: [...data.slice(0, 3)].map((b) => b.toString(16).padStart(2, "0")).join(""), text: null };
  });
  return { traces, files };
}
