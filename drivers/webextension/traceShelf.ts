// The extension's traces (CONTRACT section 17), in the IDE window's IndexedDB (the database
// "ide-core-traces", the extension's origin): what goes in them and when is the trace store's
// (drivers/traces/traceStore.ts); this is its shelf, and the reading the window's time travel
// does (ui/traces.ts' source). Two object stores:
//   traces  { traceId, manifest }  one per test played; the manifest is null until the store
//                                   first wrote it, then as the test played (result null: a
//                                   window closed mid-run leaves it so), then as it ended
//   files   key "TRACEID/NAME"     { type, data }: a picture (JPEG bytes) or a DOM snapshot (text)
// The last KEPT_TRACES traces are kept (those being written count), the oldest go first. Every
// request has a time limit; a database that cannot be opened rejects each call (the store says
// so once per problem, the run goes on).
import { readTraceManifest, TRACE_ID, tracesToDrop } from "../../services/traces/index.ts";
import type { TraceManifest } from "../../services/traces/index.ts";
import { withTimeout } from "../../services/timeout.ts";
import type { TraceShelf } from "../traces/traceStore.ts";

export const TRACE_DATABASE = "ide-core-traces";
const VERSION = 1;
const TRACES = "traces";
const FILES = "files";
const LIMIT_MS = 10_000;

export interface TraceFile {
  type: string;
  data: Uint8Array<ArrayBuffer> | string;
}

interface TraceRecord {
  traceId: string;
  manifest: unknown;
}

const fileKey = (traceId: string, name: string) => `${traceId}/${name}`;
const filesOf = (traceId: string) => IDBKeyRange.bound(`${traceId}/`, `${traceId}/\uffff`);

/** The bytes of a base64 data URL. */
export function bytesOf(dataUrl: string): Uint8Array<ArrayBuffer> {
  const binary = atob(dataUrl.slice(dataUrl.indexOf(",") + 1));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error("the trace database refused the request"));
  });
}

function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error("the trace database refused the change"));
    tx.onabort = () => reject(tx.error ?? new Error("the trace database dropped the change"));
  });
}

function openDatabase(factory: IDBFactory, name: string): Promise<IDBDatabase> {
  return withTimeout(
    new Promise<IDBDatabase>((resolve, reject) => {
      const req = factory.open(name, VERSION);
      req.onupgradeneeded = () => {
        const db = req.result;
        if (!db.objectStoreNames.contains(TRACES)) db.createObjectStore(TRACES, { keyPath: "traceId" });
        if (!db.objectStoreNames.contains(FILES)) db.createObjectStore(FILES);
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error ?? new Error("the trace database could not be opened"));
      req.onblocked = () => reject(new Error("the trace database is held open by an older window"));
    }),
    LIMIT_MS,
    "opening the trace database",
  );
}

export interface IndexedDbTraces {
  shelf: TraceShelf;
  /** The kept traces' manifests (those whose manifest is not usable left out). */
  manifests(): Promise<TraceManifest[]>;
  /** One kept trace's manifest, or null. */
  manifest(traceId: string): Promise<TraceManifest | null>;
  /** One of a trace's files, or null. */
  file(traceId: string, name: string): Promise<TraceFile | null>;
}

/** Traces in the IndexedDB of `factory` (the page's own by default), in the database `name`. */
export function indexedDbTraces(factory: IDBFactory = indexedDB, name = TRACE_DATABASE): IndexedDbTraces {
  let opened: Promise<IDBDatabase> | null = null;
  const db = () => {
    opened ??= openDatabase(factory, name).catch((error: unknown) => {
      opened = null;
      throw error;
    });
    return opened;
  };

  /** One transaction over `stores`, done within the limit. */
  async function change(stores: string[], what: string, work: (tx: IDBTransaction) => void): Promise<void> {
    const tx = (await db()).transaction(stores, "readwrite");
    const done = committed(tx);
    work(tx);
    await withTimeout(done, LIMIT_MS, what);
  }

  async function read<T>(store: string, what: string, ask: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
    const tx = (await db()).transaction([store], "readonly");
    return withTimeout(request(ask(tx.objectStore(store))), LIMIT_MS, what);
  }

  const putFile = (traceId: string, fileName: string, file: TraceFile) =>
    change([FILES], "writing a trace's file", (tx) => tx.objectStore(FILES).put(file, fileKey(traceId, fileName)));

  async function drop(traceIds: string[]) {
    if (traceIds.length === 0) return;
    await change([TRACES, FILES], "removing traces", (tx) => {
      for (const traceId of traceIds) {
        tx.objectStore(TRACES).delete(traceId);
        tx.objectStore(FILES).delete(filesOf(traceId));
      }
    });
  }

  const usable = (record: TraceRecord | undefined): TraceManifest | null => {
    if (!record || record.manifest === null) return null;
    const read = readTraceManifest(record.manifest);
    return read.ok ? read.manifest : null;
  };

  return {
    shelf: {
      open: (traceId) => change([TRACES], "opening a trace", (tx) => tx.objectStore(TRACES).put({ traceId, manifest: null } satisfies TraceRecord)),
      picture: (traceId, fileName, dataUrl) => putFile(traceId, fileName, { type: "image/jpeg", data: bytesOf(dataUrl) }),
      page: (traceId, fileName, html) => putFile(traceId, fileName, { type: "text/html", data: html }),
      keep: (manifest) => change([TRACES], "keeping a trace", (tx) => tx.objectStore(TRACES).put({ traceId: manifest.traceId, manifest } satisfies TraceRecord)),
      drop: (traceId) => drop([traceId]),
      async prune(keep) {
        const ids = (await read(TRACES, "listing traces", (store) => store.getAllKeys())).filter((key): key is string => typeof key === "string");
        await drop(tracesToDrop(ids, keep));
      },
      where: (traceId) => traceId,
    },
    async manifests() {
      const records = (await read(TRACES, "reading the traces", (store) => store.getAll())) as TraceRecord[];
      return records.map(usable).filter((m): m is TraceManifest => m !== null);
    },
    async manifest(traceId) {
      if (!TRACE_ID.test(traceId)) return null;
      return usable((await read(TRACES, "reading a trace", (store) => store.get(traceId))) as TraceRecord | undefined);
    },
    async file(traceId, fileName) {
      const file = (await read(FILES, "reading a trace's file", (store) => store.get(fileKey(traceId, fileName)))) as TraceFile | undefined;
      return file ?? null;
    },
  };
}
