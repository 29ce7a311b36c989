// The host's recent list (CONTRACT section 20): the last 10 project files saved or opened, kept
// in the host's folder (beside the token and the journal) so a restart shows them again. The
// IDE keeps the list (IdeView.recentProjects); this file only reads it at start and writes it
// whenever it changes. A file that cannot be read is reported and ignored: the host starts
// with an empty list and writes a good one at the next save or open.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import type { Ide } from "../../index.ts";
import { messageOf } from "../../services/errors.ts";

export const RECENT_FILE_NAME = "recent.json";

const recentFileSchema = z.object({ recentProjects: z.array(z.string().min(1)) });

/** The list in `path` (none yet: empty), or an empty list and why the file was not used. */
export function readRecentFile(path: string): { paths: string[]; problem: string | null } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { paths: [], problem: null };
    return { paths: [], problem: `The recent projects list ${path} could not be read (${messageOf(error)}); it starts empty.` };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { paths: [], problem: `The recent projects list ${path} is not JSON (${messageOf(error)}); it starts empty and is replaced at the next save or open.` };
  }
  const parsed = recentFileSchema.safeParse(data);
  if (!parsed.success) {
    return { paths: [], problem: `The recent projects list ${path} is not a list of paths; it starts empty and is replaced at the next save or open.` };
  }
  return { paths: parsed.data.recentProjects, problem: null };
}

/** Writes the IDE's recent list to `path` now if it differs from what the file held (`held`), then each time it changes; a failed write is reported, the IDE goes on. */
export function keepRecentFile(ide: Ide, path: string, held: readonly string[], problem: (message: string) => void): { stop(): void } {
  let written: readonly string[] | null = held;
  const write = (list: readonly string[]) => {
    if (list === written || JSON.stringify(list) === JSON.stringify(written)) return;
    written = list;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      const partial = `${path}.partial`;
      writeFileSync(partial, `${JSON.stringify({ recentProjects: written }, null, 2)}\n`, { encoding: "utf8", mode: 0o600 });
      renameSync(partial, path);
    } catch (error) {
      problem(`The recent projects list could not be written to ${path}: ${messageOf(error)}.`);
    }
  };
  write(ide.getSnapshot().recentProjects);
  const subscription = ide.subscribe((view) => write(view.recentProjects));
  return { stop: () => subscription.unsubscribe() };
}
