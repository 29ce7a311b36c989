// The extension's journal of unsaved changes (CONTRACT round 4): the project with its unsaved
// changes under the key "journal" of chrome.storage.local, set after each change and awaited
// before the change is acknowledged (createIde holds a plugin's reply and the window's next
// view until the set settles). The IDE window reads it once as it starts; one newer than the
// saved project (the workspace's savedAt) is offered as "Restore unsaved changes".
import type { Journal } from "../../core/journal.ts";
import { messageOf } from "../../services/errors.ts";
import { isNewerThanSaved, journalValue, readJournal } from "../../services/journal/index.ts";
import type { SideProject } from "../../services/side/index.ts";
import { WORKSPACE_KEY } from "./workspace.ts";
import type { Workspace, WorkspaceStorage } from "./workspace.ts";

export const JOURNAL_KEY = "journal";

/**
 * What chrome.storage.local holds at start: a journal newer than the saved project, or why
 * one cannot be used. An unreadable or older one is moved aside to a key of its own, named in
 * the problem; nothing of it is applied.
 */
export async function readStoredJournal(storage: WorkspaceStorage, savedAt: number, now = Date.now()): Promise<Journal["found"]> {
  let stored: unknown;
  try {
    stored = (await storage.get(JOURNAL_KEY))[JOURNAL_KEY];
  } catch (error) {
    return { problem: `The journal of unsaved changes could not be read from extension storage: ${messageOf(error)}. Nothing of it was applied.` };
  }
  if (stored === undefined || stored === null) return null;
  const read = readJournal(stored);
  const why = !read.ok ? "unreadable" : isNewerThanSaved(read.record, savedAt) ? null : "older";
  if (why === null && read.ok) return { project: read.record.project };
  const aside = `${JOURNAL_KEY}.${why}-${now}`;
  try {
    await storage.set({ [aside]: stored, [JOURNAL_KEY]: null });
  } catch (error) {
    return { problem: `The journal of unsaved changes could not be used and could not be moved aside: ${messageOf(error)}.` };
  }
  return {
    problem: !read.ok
      ? `The journal of unsaved changes could not be read: ${read.problem}. It was moved aside to the key "${aside}" of chrome.storage.local; nothing of it was applied.`
      : `The journal of unsaved changes is older than the saved project, so it was not offered. It was moved aside to the key "${aside}" of chrome.storage.local.`,
  };
}

/**
 * The journal port over extension storage; `found` is what readStoredJournal gave. With
 * `saved` (the core's saved project), forgetting the journal keeps the saved project in the
 * workspace in the same set: a load or a save the user was told of survives a window closed
 * at once, before the workspace's own write (keepWorkspace) lands.
 */
export function storageJournal(storage: WorkspaceStorage, found: Journal["found"], saved?: () => SideProject): Journal {
  return {
    found,
    write(project) {
      if (project !== null) return storage.set({ [JOURNAL_KEY]: journalValue(project, Date.now()) });
      if (!saved) return storage.set({ [JOURNAL_KEY]: null });
      const workspace: Workspace = { project: saved(), unsaved: false, savedAt: Date.now() };
      return storage.set({ [JOURNAL_KEY]: null, [WORKSPACE_KEY]: workspace });
    },
  };
}
