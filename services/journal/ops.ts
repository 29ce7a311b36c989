// The journal as an append-only text: its first line is a whole record (journalText), each
// later line one change of a test's commands as a splice, so an edit appends a few hundred
// bytes rather than the whole project. A change that is not a splice of one test's commands
// (a test added, a name changed) writes the whole record again. Read back whole or not at all.
import { z } from "zod";
import type { SideProject } from "../side/index.ts";

/** One test's commands changed: `del` removed at `at`, `ins` put there. `w` is when. */
export interface Splice {
  w: number;
  t: number;
  at: number;
  del: number;
  ins: unknown[];
}

export const spliceSchema = z.object({
  w: z.number().finite().nonnegative(),
  t: z.number().int().nonnegative(),
  at: z.number().int().nonnegative(),
  del: z.number().int().nonnegative(),
  ins: z.array(z.unknown()),
});

/**
 * The splices that turn `before` into `after`, found by identity (the machines copy only what
 * an edit changes), or null when the change is not only splices of commands.
 */
export function splicesBetween(before: SideProject, after: SideProject, writtenAt: number): Splice[] | null {
  if (before === after) return [];
  const keys = Object.keys(after);
  if (keys.length !== Object.keys(before).length) return null;
  for (const key of keys) {
    if (key !== "tests" && (after as Record<string, unknown>)[key] !== (before as Record<string, unknown>)[key]) return null;
  }
  if (before.tests.length !== after.tests.length) return null;
  const splices: Splice[] = [];
  for (let t = 0; t < after.tests.length; t++) {
    const old = before.tests[t];
    const now = after.tests[t];
    if (old === now) continue;
    const testKeys = Object.keys(now);
    if (testKeys.length !== Object.keys(old).length) return null;
    for (const key of testKeys) {
      if (key !== "commands" && (now as Record<string, unknown>)[key] !== (old as Record<string, unknown>)[key]) return null;
    }
    const a = old.commands;
    const b = now.commands;
    let start = 0;
    while (start < a.length && start < b.length && a[start] === b[start]) start++;
    let endA = a.length;
    let endB = b.length;
    while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
      endA--;
      endB--;
    }
    splices.push({ w: writtenAt, t, at: start, del: endA - start, ins: b.slice(start, endB) });
  }
  return splices;
}

/** Applies journal lines after the first to the record's project data; a problem names the line. */
export function applySplices(project: unknown, lines: readonly string[]): { ok: true; project: unknown; writtenAt: number | null } | { ok: false; problem: string } {
  const data = project as { tests?: Array<{ commands?: unknown[] }> };
  let writtenAt: number | null = null;
  for (let i = 0; i < lines.length; i++) {
    let splice: Splice;
    try {
      const parsed = spliceSchema.safeParse(JSON.parse(lines[i]));
      if (!parsed.success) return { ok: false, problem: `its change ${i + 1} is not a change of a test's commands` };
      splice = parsed.data;
    } catch {
      return { ok: false, problem: `its change ${i + 1} is cut off or not JSON` };
    }
    const commands = Array.isArray(data.tests) ? data.tests[splice.t]?.commands : undefined;
    if (!Array.isArray(commands) || splice.at + splice.del > commands.length) {
      return { ok: false, problem: `its change ${i + 1} does not fit the project` };
    }
    commands.splice(splice.at, splice.del, ...splice.ins);
    writtenAt = splice.w;
  }
  return { ok: true, project, writtenAt };
}
