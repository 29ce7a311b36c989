// What the user had, kept across IDE windows: the loaded project and whether it has unsaved
// changes. The core lives in the window, so closing the window ends it; the contract keeps
// the project and its unsaved changes over a close, and this is how the extension does: the
// window writes them to extension storage whenever they change and starts from them.
//
// In the core a project's content changes only by a load, which also makes it saved; an edit
// only marks it unsaved. So the project and the flag are all there is to keep: after a
// restore, "discard changes" goes back to the same content, as it would have before.
import type { Ide, IdeView } from "../../index.ts";
import { messageOf } from "../../services/errors.ts";
import { parseSideProject } from "../../services/side/index.ts";
import type { SideProject } from "../../services/side/index.ts";

export const WORKSPACE_KEY = "workspace";

export interface Workspace {
  project: SideProject;
  unsaved: boolean;
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
  const record = (typeof stored === "object" && stored !== null ? stored : {}) as { project?: unknown; unsaved?: unknown };
  const parsed = parseSideProject(record.project);
  if (!parsed.ok) {
    return { workspace: null, problem: `The kept project is not a usable .side project (${parsed.problem}); a new one was started.` };
  }
  return { workspace: { project: parsed.project, unsaved: record.unsaved === true }, problem: null };
}

/**
 * Writes the workspace now and after every change to the project or its unsaved flag, in
 * order: a write waits for the one before it, and only the latest state is written next.
 * `onError` hears a write that failed (storage full, say). A change made before stop() that
 * is waiting behind a write under way is still written: it happened.
 */
export function keepWorkspace(ide: Ide, storage: WorkspaceStorage, onError: (reason: string) => void): { stop(): void } {
  let lastProject: SideProject | null = null;
  let lastUnsaved: boolean | null = null;
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

  function check(view: IdeView) {
    const project = ide.getProject();
    if (project === lastProject && view.project.unsaved === lastUnsaved) return;
    lastProject = project;
    lastUnsaved = view.project.unsaved;
    next = { project, unsaved: view.project.unsaved };
    write();
  }

  check(ide.getSnapshot());
  const subscription = ide.subscribe(check);
  return { stop: () => subscription.unsubscribe() };
}

/** A core started from a kept workspace: the project loaded, and marked unsaved if it was. */
export function restoreUnsaved(ide: Ide, workspace: Workspace | null): void {
  if (workspace?.unsaved) ide.send({ type: "user.editProject" });
}
