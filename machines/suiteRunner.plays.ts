// What the suite runner decides about its tests, as pure functions of its run: which test plays
// next (a failed one's next try, the suite's next test, or none), which test runner is shown,
// and what a suite's settings (`persistSession`, `timeout`, `parallel`) mean for a test it starts.
import type { SuiteRun, TestRun } from "./suiteRunner.types.ts";

/** The test runners started and not ended yet. */
export const livePlays = (run: SuiteRun) => run.runs.filter((r) => r.ended === null);

/**
 * The test runner the view shows and the user's controls reach: the one the user chose while it
 * is kept, else the last started of those playing, else the last kept (the last to end). In
 * order, that is the test playing now, or the last that played.
 */
export function shownRunner(run: SuiteRun): string | null {
  if (run.shown !== null && run.runs.some((r) => r.runner === run.shown && !r.released)) return run.shown;
  const live = livePlays(run);
  if (live.length > 0) return live[live.length - 1].runner;
  const kept = run.runs.filter((r) => !r.released);
  return kept[kept.length - 1]?.runner ?? null;
}

/** A later try of the same test started: this one is not its test's last. */
export const triedAgain = (run: SuiteRun, r: TestRun) => run.runs.some((o) => o.index === r.index && o.tryNo > r.tryNo);

/** A suite whose tests share one browser session and one set of variables, in order. */
const persists = (run: SuiteRun) => run.suite?.persistSession === true;

/**
 * A try that failed (or ended fatal) after its test started, with tries left and none after it yet.
 * A persistSession suite's fatal test is not tried again: the session it shared is gone.
 */
const triesAgain = (run: SuiteRun, r: TestRun) =>
  r.ended !== null &&
  r.ended.started &&
  (r.ended.failed || r.ended.end === "fatal") &&
  !(r.ended.end === "fatal" && persists(run)) &&
  r.tryNo <= run.retries &&
  !triedAgain(run, r);

/**
 * What plays next: a failed test's next try (at once, before any further test), else the suite's
 * next test; null when none. A fatal test (its browser died) ends only itself: the next test plays
 * in a new browser session (CONTRACT section 22), except in a persistSession suite, whose one
 * session is gone. A stop ends the suite.
 */
export function nextPlay(run: SuiteRun): { index: number; tryNo: number } | null {
  if (run.runs.length === 0) return { index: 0, tryNo: 1 };
  if (run.stopped || run.runs.some((r) => r.ended?.end === "stopped")) return null;
  const again = run.runs.find((r) => triesAgain(run, r));
  if (again) return { index: again.index, tryNo: again.tryNo + 1 };
  if (!run.suite || (persists(run) && run.runs.some((r) => r.ended?.end === "fatal"))) return null;
  const index = Math.max(...run.runs.map((r) => r.index)) + 1;
  return index < run.testIds.length ? { index, tryNo: 1 } : null;
}

/**
 * The browser session a test plays in, as side-runner gives them: one for all the tests of a
 * persistSession suite (the run's id), a fresh one for each test (each try) of any other suite
 * (its runner's id), and for a test played alone none named: the page under test keeps the
 * browser it has, as a run in the IDE always did.
 */
export function sessionOf(run: SuiteRun, runner: string): string | undefined {
  if (run.suite === null) return undefined;
  return persists(run) ? run.runId : runner;
}

/**
 * The suite's settings as a run plays them: `persistSession` wins over `parallel`, as side-runner 4
 * shares one session and one set of variables among such a suite's tests whatever `parallel`
 * says; tests sharing one browser cannot safely play at once, so here they play in order.
 */
export function suiteSettings(suite: { parallel?: boolean; persistSession?: boolean; timeout?: number }) {
  const persistSession = suite.persistSession === true;
  const timeoutS = typeof suite.timeout === "number" && Number.isFinite(suite.timeout) && suite.timeout > 0 ? suite.timeout : null;
  return { parallel: suite.parallel === true && !persistSession, persistSession, timeoutS };
}
