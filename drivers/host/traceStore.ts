// The host's traces (CONTRACT section 17): one folder per test played under `root` (the user's
// data folder's traces/, beside the token), with the manifest (services/traces/: trace.json),
// a JPEG per command and, for a failed command, the page's HTML. What goes in them and when
// is the trace store's (drivers/traces/traceStore.ts); this is its shelf of folders.
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { KEPT_TRACES, MANIFEST_FILE, tracesToDrop } from "../../services/traces/index.ts";
import { traceKeeper } from "../traces/traceStore.ts";
import type { TraceShelf, TraceStore as KeptTraces, TraceStoreOptions as KeeperOptions } from "../traces/traceStore.ts";

export type { FinishedTrace, StepCapture } from "../traces/traceStore.ts";

export interface TraceStore extends KeptTraces {
  /** The folder that holds the traces' folders. */
  readonly root: string;
}

export interface TraceStoreOptions extends KeeperOptions {
  /** The folder that holds the traces' folders. */
  root: string;
}

/** A folder per trace under `root`. */
export function folderShelf(root: string): TraceShelf {
  return {
    open: (traceId) => mkdir(join(root, traceId), { recursive: true }).then(() => {}),
    picture: (traceId, name, dataUrl) => writeFile(join(root, traceId, name), Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64")),
    page: (traceId, name, html) => writeFile(join(root, traceId, name), html),
    keep: (manifest) => writeFile(join(root, manifest.traceId, MANIFEST_FILE), `${JSON.stringify(manifest, null, 1)}\n`),
    drop: (traceId) => rm(join(root, traceId), { recursive: true, force: true }),
    async prune(keep) {
      const ids = await readdir(root).catch(() => [] as string[]);
      for (const id of tracesToDrop(ids, keep)) await rm(join(root, id), { recursive: true, force: true }).catch(() => {});
    },
    where: (traceId) => join(root, traceId),
  };
}

/** Removes all but the newest `keep` traces under `root` (default the last KEPT_TRACES). */
export const pruneTraces = (root: string, keep = KEPT_TRACES) => folderShelf(root).prune(keep);

export function traceStore(options: TraceStoreOptions): TraceStore {
  return { ...traceKeeper(folderShelf(options.root), options), root: options.root };
}
