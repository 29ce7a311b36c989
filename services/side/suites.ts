// A project's suites as the editor changes them (CONTRACT section 20). The .side schema keeps
// `suites` unread (z.unknown: Selenium IDE's files carry more than this core needs), so a suite
// the editor can work on is one with an id, a name and test ids; one that is not is left as it
// came. A suite's fields are those of Selenium IDE v3's files: `timeout` is in seconds.
import type { SideProject } from "./schema.ts";

/** A suite as a .side file holds it. */
export interface SideSuite {
  id: string;
  name: string;
  persistSession: boolean;
  parallel: boolean;
  /** Seconds. */
  timeout: number;
  tests: string[];
}

/** What Selenium IDE v3 writes for a new suite. */
export const SUITE_TIMEOUT_S = 300;

/** A usable suite: an id, a name and test ids (the other fields may be absent in older files). */
export function isSuite(value: unknown): value is Pick<SideSuite, "id" | "name" | "tests"> & Partial<SideSuite> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const suite = value as Record<string, unknown>;
  return (
    typeof suite.id === "string" &&
    typeof suite.name === "string" &&
    Array.isArray(suite.tests) &&
    suite.tests.every((t) => typeof t === "string")
  );
}

/** Where the usable suite with this id sits in `project.suites`, or -1. */
export const suiteIndex = (project: Pick<SideProject, "suites">, suiteId: string): number =>
  project.suites.findIndex((s) => isSuite(s) && s.id === suiteId);

/** A new, empty suite as v3 makes one. */
export function newSuite(name: string): SideSuite {
  return { id: globalThis.crypto.randomUUID(), name, persistSession: false, parallel: false, timeout: SUITE_TIMEOUT_S, tests: [] };
}

export type CheckedName = { ok: true; name: string } | { ok: false; problem: string };

/** The suite name as it will be kept (trimmed), or why it cannot name a new suite or the one with id `renaming`. */
export function checkSuiteName(name: string, suites: readonly unknown[], renaming: string | null = null): CheckedName {
  const trimmed = name.trim();
  if (trimmed === "") return { ok: false, problem: "A suite needs a name that is not empty." };
  if (suites.some((s) => isSuite(s) && s.id !== renaming && s.name === trimmed)) {
    return { ok: false, problem: `The project already has a suite named "${trimmed}"; choose another name.` };
  }
  return { ok: true, name: trimmed };
}
