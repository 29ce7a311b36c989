// What the root's own helpers and the views read of the run: the suite runner and the test
// runners it starts. Kept apart from ide.selectors.ts, which reads the root actor, so that the
// root machine's helpers (its relay, accepting healed commands) can use them without an
// import that circles back to the root machine.
import type { ActorRefFrom, SnapshotFrom } from "xstate";
import type { suiteRunnerMachine } from "./suiteRunner.machine.ts";
import { shownRunner } from "./suiteRunner.plays.ts";
import type { testRunnerMachine } from "./testRunner.machine.ts";
import type { TestRun } from "./suiteRunner.types.ts";

export type SuiteRunnerRef = ActorRefFrom<typeof suiteRunnerMachine>;
export type SuiteRunnerSnapshot = SnapshotFrom<typeof suiteRunnerMachine>;
export type TestRunnerRef = ActorRefFrom<typeof testRunnerMachine>;
export type TestRunnerSnapshot = SnapshotFrom<typeof testRunnerMachine>;

/** A test runner of the run, by its id among the suite runner's children, while it is kept. */
function runnerRef(suite: SuiteRunnerSnapshot, id: string | null): TestRunnerRef | null {
  return id ? ((suite.children as Record<string, TestRunnerRef | undefined>)[id] ?? null) : null;
}

/** The test runner shown (the one playing, or the last that played, or the one the user chose); null before the first run. */
function testRunnerIn(suite: SuiteRunnerSnapshot): TestRunnerRef | null {
  // A test may give the root a stand-in for the run machine, with no context.
  const run = suite.context?.run;
  return run ? runnerRef(suite, shownRunner(run)) : null;
}

/** The shown test runner's snapshot (the one playing, or the last that played, or the one the user chose). */
export const shownTestRunnerSnapshot = (suite: SuiteRunnerSnapshot): TestRunnerSnapshot | null => testRunnerIn(suite)?.getSnapshot() ?? null;

/** The snapshot of the test runner with this id among the suite runner's children, while it is kept. */
export const testRunnerSnapshotIn = (suite: SuiteRunnerSnapshot, runner: string): TestRunnerSnapshot | null =>
  runnerRef(suite, runner)?.getSnapshot() ?? null;

/**
 * Calls `each` with every test runner the run machine starts, as it starts (and with those
 * there are now), with the run's record of it (its test's place, its try), and the function `each` returns when that test runner is stopped. Several
 * play at once in a parallel suite. Test runners are the run machine's children, not the
 * root's: whoever listens to the root's children (their answers, their facts, their changes)
 * listens to these through this.
 */
export function eachTestRunner(suiteRunner: SuiteRunnerRef, each: (runner: TestRunnerRef, played: TestRun) => () => void): { unsubscribe(): void } {
  const watched = new Map<TestRunnerRef, () => void>();
  const look = () => {
    const suite = suiteRunner.getSnapshot();
    const now = new Map<TestRunnerRef, TestRun>();
    for (const r of suite.context?.run?.runs ?? []) {
      const ref = runnerRef(suite, r.runner);
      if (ref) now.set(ref, r);
    }
    for (const [ref, stop] of watched) {
      if (now.has(ref)) continue;
      watched.delete(ref);
      stop();
    }
    for (const [ref, played] of now) if (!watched.has(ref)) watched.set(ref, each(ref, played));
  };
  look();
  const subscription = suiteRunner.subscribe({ next: look, error: () => {} });
  return {
    unsubscribe() {
      subscription.unsubscribe();
      for (const stop of watched.values()) stop();
      watched.clear();
    },
  };
}
