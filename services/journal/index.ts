// The journal of unsaved changes (CONTRACT round 4, "Nothing lost on a crash"): the project
// as it is after each edit, with the time it was written. Pure: the format, reading it back
// whole or not at all, and whether it is newer than the saved project. The adapters keep it
// (the host in a file beside its token, the extension in chrome.storage.local).
import { z } from "zod";
import { describeZodIssue } from "../validation.ts";
import { parseSideProject } from "../side/index.ts";
import { applySplices } from "./ops.ts";
import type { SideProject } from "../side/index.ts";

export const JOURNAL_FORMAT = "ide-core.journal";
export const JOURNAL_VERSION = 1;

export interface JournalRecord {
  /** When it was written (ms since the epoch). */
  writtenAt: number;
  /** The project with its unsaved changes. */
  project: SideProject;
}

const recordSchema = z.object({
  format: z.literal(JOURNAL_FORMAT),
  version: z.literal(JOURNAL_VERSION),
  writtenAt: z.number().finite().nonnegative(),
  project: z.unknown(),
});

export { splicesBetween } from "./ops.ts";
export type { Splice } from "./ops.ts";

export type JournalRead = { ok: true; record: JournalRecord } | { ok: false; problem: string };

/**
 * The record as stored. `projectJson` is the project already as JSON (JSON.stringify), so an
 * adapter that writes text writes it once; the record is JSON text itself.
 */
export function journalText(projectJson: string, writtenAt: number): string {
  return `{"format":"${JOURNAL_FORMAT}","version":${JOURNAL_VERSION},"writtenAt":${writtenAt},"project":${projectJson}}\n`;
}

/** The record as data, for a store that keeps values (chrome.storage.local). */
export function journalValue(project: SideProject, writtenAt: number): Record<string, unknown> {
  return { format: JOURNAL_FORMAT, version: JOURNAL_VERSION, writtenAt, project };
}

/**
 * A stored record read back: all of it, or a problem naming what is wrong; never a part of it.
 * As text, its first line is the record and each later line a change (ops.ts) made after it.
 */
export function readJournal(stored: unknown): JournalRead {
  let data = stored;
  let changes: string[] = [];
  if (typeof stored === "string") {
    const lines = stored.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    changes = lines.slice(1);
    try {
      data = JSON.parse(lines[0] ?? "");
    } catch (error) {
      return { ok: false, problem: `it is not JSON (${(error as Error).message})` };
    }
  }
  const record = recordSchema.safeParse(data);
  if (!record.success) return { ok: false, problem: `it is not a journal of this IDE: ${describeZodIssue(record.error, "the journal")}` };
  const changed = applySplices(record.data.project, changes);
  if (!changed.ok) return changed;
  const project = parseSideProject(changed.project);
  if (!project.ok) return { ok: false, problem: `its project is not a usable .side project: ${project.problem}` };
  return { ok: true, record: { writtenAt: changed.writtenAt ?? record.data.writtenAt, project: project.project } };
}

/**
 * Whether a start offers the journal: it was written after the saved project was (`savedAt`,
 * ms since the epoch; 0 when unknown). A journal is cleared whenever the project is saved, so
 * one older than the saved project means the project was saved again elsewhere since.
 */
export const isNewerThanSaved = (record: JournalRecord, savedAt: number): boolean => record.writtenAt > savedAt;
