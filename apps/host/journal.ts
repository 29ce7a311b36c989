// The host's journal of unsaved changes (CONTRACT round 4): one file in the user's data
// folder, beside the token (~/.ide-core/journal.json for npm start). Each write replaces it
// whole (written beside it, then renamed over it), synchronously, so it is on disk before the
// edit's reply or view leaves; a crash leaves the old journal or the new one, never half.
import { readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { Journal } from "../../core/journal.ts";
import { isNewerThanSaved, journalText, readJournal } from "../../services/journal/index.ts";
import type { SideProject } from "../../services/side/index.ts";

export const JOURNAL_FILE_NAME = "journal.json";

/** Where a journal that is not offered goes: beside it, named for why and when. */
function moveAside(path: string, why: "unreadable" | "older", now: number): string {
  const aside = `${path}.${why}-${now}`;
  renameSync(path, aside);
  return aside;
}

/**
 * What the journal file holds at start: a journal newer than the saved project (written after
 * `savedAt`, ms since the epoch), or the problem with one that cannot be used, which is moved
 * aside and named (never applied in part, never silently dropped).
 */
export function readJournalFile(path: string, savedAt: number, now = Date.now()): Journal["found"] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    return { problem: `The journal of unsaved changes ${path} could not be read (${(error as Error).message}); nothing of it was applied.` };
  }
  const read = readJournal(text);
  if (!read.ok) {
    const aside = moveAside(path, "unreadable", now);
    return { problem: `The journal of unsaved changes ${path} could not be read: ${read.problem}. It was moved aside to ${aside}; nothing of it was applied.` };
  }
  if (!isNewerThanSaved(read.record, savedAt)) {
    const aside = moveAside(path, "older", now);
    return { problem: `The journal of unsaved changes ${path} is older than the saved project, so it was not offered. It was moved aside to ${aside}.` };
  }
  return { project: read.record.project };
}

/** The journal port over `path`: what it found at start, and synchronous writes. */
export function fileJournal(path: string, savedAt: number): Journal {
  const partial = `${path}.partial`;
  let folderMade = false;
  return {
    found: readJournalFile(path, savedAt),
    write(project: SideProject | null) {
      if (project === null) {
        rmSync(path, { force: true });
        return;
      }
      if (!folderMade) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      folderMade = true;
      writeFileSync(partial, journalText(JSON.stringify(project), Date.now()), { encoding: "utf8", mode: 0o600 });
      renameSync(partial, path);
    },
  };
}
