// What the extension keeps across IDE windows: the saved project (the one last loaded or
// saved) and since when it is the saved one. The core lives in the window, so closing the
// window ends it: the window writes the saved project to extension storage whenever it changes
// and starts from it; the unsaved changes are in the journal (journal.ts), written before each
// is acknowledged, and offered back as "Restore unsaved changes" when the window starts again.
//
// `unsaved` is read for workspaces kept before the journal, which held the edited project and
// this flag; a core started from one is marked unsaved again (restoreUnsaved). It is written false.
import type { Ide } from "../../index.ts";
import { messageOf } from "../../services/errors.ts";
import { parseSideProject } from "../../services/side/index.ts";
import type { SideProject } from "../../services/side/index.ts";

export const WORKSPACE_KEY = "workspace";

export interface Workspace {
  project: SideProject;
  unsaved: boolean;
  /** When `project` became the saved project (ms since the epoch; 0 unknown): a journal must be newer to be offered. */
  savedAt: number;
}

/** The storage area the workspace lives in (chrome.storage.local in the extension). */
export interface WorkspaceStorage {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

export type StoredWorkspace = { workspace: Workspace | null; problem: string | null };

/** The workspace kept by the last window, or null; `problem` says why a kept one was unusable. */
export async function loadWorkspace(storage: WorkspaceStorage): Promise<StoredWorkspace> {
  let stored: unknown;
  try {
    stored = (await storage.get(WORKSPACE_KEY))[WORKSPACE_KEY];
  } catch (error) {
    return { workspace: null, problem: `The kept project could not be read: ${messageOf(error)}` };
  }
  if (stored === undefined) return { workspace: null, problem: null };
  const record = (typeof stored === "object" && stored !== null ? stored : {}) as { project?: unknown; unsaved?: unknown; savedAt?: unknown };
  const parsed = parseSideProject(record.project);
  if (!parsed.ok) {
    return { workspace: null, problem: `The kept project is not a usable .side project (${parsed.problem}); a new one was started.` };
  }
  const savedAt = typeof record.savedAt === "number" && Number.isFinite(record.savedAt) && record.savedAt >= 0 ? record.savedAt : 0;
  return { workspace: { project: parsed.project, unsaved: record.unsaved === true, savedAt }, problem: null };
}

/**
 * Writes the workspace now (saved since `savedAt`, what the window started from) and after
 * every change of the saved project (a load, a save, discarded changes: saved since then), in
 * order: a write waits for the one before it, and only the latest state is written next.
 * `onError` hears a write that failed (storage full, say). A change made before stop() that
 * is waiting behind a write under way is still written: it happened.
 */
export function keepWorkspace(ide: Ide, storage: WorkspaceStorage, onError: (reason: string) => void, savedAt = 0): { stop(): void } {
  let lastSaved: SideProject | null = null;
  let writing: Promise<void> | null = null;
  let next: Workspace | null = null;

  function write() {
    if (writing || !next) return;
    const workspace = next;
    next = null;
    writing = storage
      .set({ [WORKSPACE_KEY]: workspace })
      .catch((error: unknown) => onError(messageOf(error)))
      .finally(() => {
        writing = null;
        write();
      });
  }

  function check() {
    const saved = ide.getSavedProject();
    if (saved === lastSaved) return;
    const since = lastSaved === null ? savedAt : Date.now();
    lastSaved = saved;
    next = { project: saved, unsaved: false, savedAt: since };
    write();
  }

  check();
  const subscription = ide.subscribe(check);
  return { stop: () => subscription.unsubscribe() };
}

/** A core started from a workspace kept before the journal: marked unsaved if it was. */
export function restoreUnsaved(ide: Ide, workspace: Workspace | null): void {
  if (workspace?.unsaved) ide.send({ type: "user.editProject" });
}
