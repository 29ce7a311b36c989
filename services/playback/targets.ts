// What a start names (a test, a suite, or nothing) resolved against the loaded project:
// the tests to play in order, or why there is nothing to play (CONTRACT section 12).
import type { SideProject } from "../side/index.ts";

export interface RunSelector {
  testId?: string;
  testName?: string;
  suiteId?: string;
  suiteName?: string;
  /** With no test or suite named: a suite (the first) rather than a test (the first). */
  wholeSuite?: boolean;
}

export type RunTarget =
  | { ok: true; testIds: string[]; suite: { id: string; name: string; parallel: boolean; persistSession: boolean; timeout?: number } | null }
  | { ok: false; problem: string };

interface SuiteShape {
  id: string;
  name: string;
  tests: string[];
  /** `parallel: true` in the .side file: its tests may play at the same time (CONTRACT section 16). */
  parallel?: unknown;
  /** One browser session and one set of variables for its tests, in order (CONTRACT section 22). */
  persistSession?: unknown;
  /** Seconds each of its tests may play (CONTRACT section 22). */
  timeout?: unknown;
}

/** The project's suites that are usable: an id, a name and test ids (the .side schema keeps them unread). */
export function suitesOf(project: SideProject): SuiteShape[] {
  return project.suites.filter(
    (s): s is SuiteShape =>
      typeof s === "object" &&
      s !== null &&
      typeof (s as SuiteShape).id === "string" &&
      typeof (s as SuiteShape).name === "string" &&
      Array.isArray((s as SuiteShape).tests) &&
      (s as SuiteShape).tests.every((t) => typeof t === "string"),
  );
}

export function resolveRunTarget(project: SideProject, selector: RunSelector): RunTarget {
  const { testId, testName, suiteId, suiteName } = selector;
  if (suiteId !== undefined || suiteName !== undefined || selector.wholeSuite) {
    const suites = suitesOf(project);
    const suite =
      suiteId !== undefined ? suites.find((s) => s.id === suiteId) : suiteName !== undefined ? suites.find((s) => s.name === suiteName) : suites[0];
    if (!suite) {
      const named = suiteId !== undefined ? `the id "${suiteId}"` : suiteName !== undefined ? `the name "${suiteName}"` : null;
      return { ok: false, problem: named ? `The project has no suite with ${named}.` : "The project has no suite to play." };
    }
    const missing = suite.tests.find((id) => !project.tests.some((t) => t.id === id));
    if (missing !== undefined) return { ok: false, problem: `The suite "${suite.name}" names a test the project lacks: "${missing}".` };
    if (suite.tests.length === 0) return { ok: false, problem: `The suite "${suite.name}" has no tests.` };
    const timeout = typeof suite.timeout === "number" ? { timeout: suite.timeout } : {};
    return { ok: true, testIds: suite.tests, suite: { id: suite.id, name: suite.name, parallel: suite.parallel === true, persistSession: suite.persistSession === true, ...timeout } };
  }
  const test =
    testId !== undefined ? project.tests.find((t) => t.id === testId) : testName !== undefined ? project.tests.find((t) => t.name === testName) : project.tests[0];
  if (!test) {
    const named = testId !== undefined ? `the id "${testId}"` : testName !== undefined ? `the name "${testName}"` : null;
    return { ok: false, problem: named ? `The project has no test case with ${named}.` : "The project has no test case to play." };
  }
  return { ok: true, testIds: [test.id], suite: null };
}

/** What the user is told of a suite marked both `parallel` and `persistSession`: which wins, and why; null for any other. */
export function bothSettingsNote(suite: { name: string; parallel?: boolean; persistSession?: boolean }): string | null {
  if (suite.parallel !== true || suite.persistSession !== true) return null;
  return (
    `The suite "${suite.name}" is marked both parallel and persistSession: persistSession wins, as in side-runner 4 ` +
    "(its tests play in order in one browser session and share their variables, never at once); untick one of them to silence this."
  );
}
