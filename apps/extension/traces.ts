/// <reference types="chrome" />
// The extension window's traces (CONTRACT section 17): runs keep them in the window's IndexedDB
// (drivers/webextension/traceShelf.ts) with the trace store's rules (drivers/traces/), pictured
// by chrome.tabs.captureVisibleTab (drivers/webextension/camera.ts); the window's time travel
// reads them back here (ui/traces.ts' source): a picture as an object URL, a DOM snapshot as
// plain text, so the page under test's HTML is shown and never runs in the extension's origin.
// The mode is createIde's `trace`, "on" unless the extension's storage says otherwise
// (chrome.storage.local `trace`: "on", "off" or "retain-on-failure").
import { listedRuns, traceModeOf } from "../../services/traces/index.ts";
import type { TraceMode } from "../../services/traces/index.ts";
import type { TraceStore } from "../../drivers/traces/traceStore.ts";
import type { IndexedDbTraces } from "../../drivers/webextension/traceShelf.ts";
import type { TraceSource } from "../../ui/traces.ts";

export const TRACE_SETTING = "trace";

/** The trace mode the extension's storage names, "on" when it names none; a bad value is said, and "on" kept. */
export async function storedTraceMode(storage: { get(key: string): Promise<Record<string, unknown>> }): Promise<{ mode: TraceMode; problem: string | null }> {
  const stored = (await storage.get(TRACE_SETTING).catch(() => ({}) as Record<string, unknown>))[TRACE_SETTING];
  if (stored === undefined) return { mode: "on", problem: null };
  const mode = typeof stored === "string" ? traceModeOf(stored) : null;
  return mode ? { mode, problem: null } : { mode: "on", problem: `The stored trace mode ${JSON.stringify(stored)} is not "on", "off" or "retain-on-failure": traces stay on.` };
}

/** The window's kept runs as its time travel reads them: those being written from the store, the others from IndexedDB. */
export function extensionTraceSource(kept: IndexedDbTraces, store: TraceStore): TraceSource {
  const problem = (what: string) => (error: unknown) => {
    throw new Error(`The extension's traces could not be read (${what}): ${error instanceof Error ? error.message : String(error)}`);
  };
  return {
    async runs() {
      return listedRuns(store.live(), await kept.manifests().catch(problem("the list")));
    },
    async trace(traceId) {
      const manifest = store.live().find((m) => m.traceId === traceId) ?? (await kept.manifest(traceId).catch(problem(traceId)));
      if (!manifest) throw new Error(`No kept run has the id ${traceId} (the last 20 runs are kept).`);
      return manifest;
    },
    async file(traceId, name) {
      const file = await kept.file(traceId, name).catch(problem(`${traceId}/${name}`));
      if (!file) throw new Error(`The run ${traceId} has no file ${name}.`);
      // The page's HTML as text: a blob of HTML would be a document of the extension's origin.
      return URL.createObjectURL(new Blob([file.data], { type: file.type.startsWith("image/") ? file.type : "text/plain;charset=utf-8" }));
    },
    release: (url) => URL.revokeObjectURL(url),
  };
}
