// The host's journal of unsaved changes (CONTRACT round 4): one file in the user's data
// folder, beside the token (~/.ide-core/journal.json for npm start), written synchronously so
// it is on disk before the edit's reply or view leaves. An edit of a test's commands appends
// one line (services/journal/ops.ts); any other change, and every COMPACT_BYTES of appended
// lines, writes the file whole beside it and renames it over it, so a crash leaves the old
// journal or the new one. A line cut off by a crash makes the journal unreadable, never half read.
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { Journal } from "../../core/journal.ts";
import { isNewerThanSaved, journalText, readJournal, splicesBetween } from "../../services/journal/index.ts";
import type { SideProject } from "../../services/side/index.ts";

export const JOURNAL_FILE_NAME = "journal.json";
/** Appended lines past this many bytes: the next change writes the journal whole again. */
const COMPACT_BYTES = 4 * 1024 * 1024;

/** Where a journal that is not offered goes: beside it, named for why and when. */
function moveAside(path: string, why: "unreadable" | "older", now: number): string {
  const aside = `${path}.${why}-${now}`;
  try {
    renameSync(path, aside);
    return `It was moved aside to ${aside}`;
  } catch (error) {
    return `It could not be moved aside (${(error as Error).message}) and was left where it is`;
  }
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
    return { problem: `The journal of unsaved changes ${path} could not be read: ${read.problem}. ${aside}; nothing of it was applied.` };
  }
  if (!isNewerThanSaved(read.record, savedAt)) {
    const aside = moveAside(path, "older", now);
    return { problem: `The journal of unsaved changes ${path} is older than the saved project, so it was not offered. ${aside}.` };
  }
  return { project: read.record.project };
}

/** The journal port over `path`: what it found at start, and synchronous writes. */
export function fileJournal(path: string, savedAt: number): Journal {
  const partial = `${path}.partial`;
  let folderMade = false;
  /** The project the file holds now, the file open for appending, and how much was appended. */
  let written: SideProject | null = null;
  let fd: number | null = null;
  let appended = 0;

  function close() {
    if (fd !== null) closeSync(fd);
    fd = null;
    written = null;
  }

  function writeWhole(project: SideProject, now: number) {
    close();
    if (!folderMade) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    folderMade = true;
    writeFileSync(partial, journalText(JSON.stringify(project), now), { encoding: "utf8", mode: 0o600 });
    renameSync(partial, path);
    fd = openSync(path, "a");
    written = project;
    appended = 0;
  }

  return {
    found: readJournalFile(path, savedAt),
    stop: close,
    write(project: SideProject | null) {
      if (project === null) {
        close();
        rmSync(path, { force: true });
        return;
      }
      const now = Date.now();
      const splices = written && fd !== null && appended < COMPACT_BYTES ? splicesBetween(written, project, now) : null;
      if (!splices) return writeWhole(project, now);
      if (splices.length > 0) {
        let lines = "";
        for (const splice of splices) lines += `${JSON.stringify(splice)}\n`;
        appended += writeSync(fd!, lines);
      }
      written = project;
    },
  };
}
