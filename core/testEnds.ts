// How each test of a run ended, as it ends (ide.onTestEnded): for programs that report runs,
// like `npm run play`'s lines and JUnit report. Read from each test runner as it reaches its
// end, so it works when several play at once (a parallel suite). Read-only: it changes nothing.
import type { SuiteRunnerRef } from "../machines/ide.selectors.ts";
import { eachTestRunner } from "../machines/ide.selectors.ts";
import { commandRows } from "../services/playback/commandTable.ts";

export interface TestEnded {
  /** The id plugins saw in the test's playbackStarted. */
  runId: string;
  testId: string;
  testName: string;
  /** The suite it was played in, if any. */
  suiteName: string | null;
  /** `fatal`: a command ended the test before its end (a browser gone, a plugin that did not answer). */
  result: "passed" | "failed" | "fatal" | "stopped";
  /** Which try of the test this is: 1, then 2 and on when a failed test plays again (createIde's `retries`). */
  tryNo: number;
  /** From the test runner's start to its end. */
  durationMs: number;
  /** The first command that failed (or ended the test fatal), with its message. */
  failure: { commandId: string; /** Its position in the test, from 1. */ index: number; command: string; target: string; value: string; state: "failed" | "fatal"; message: string } | null;
  /** The commands that passed healed (CONTRACT section 18), in order: `index` counts from 1 in the test. */
  healed: Array<{ commandId: string; index: number; command: string; target: string; locator: string; score: number }>;
}

export function watchTestEnds(playback: SuiteRunnerRef, listener: (ended: TestEnded) => void): { unsubscribe(): void } {
  return eachTestRunner(playback, (runner, played) => {
    const startedAt = Date.now();
    let told = false;
    const tell = (snapshot: ReturnType<typeof runner.getSnapshot>) => {
      if (told || !snapshot.matches("ended")) return;
      told = true;
      const { run } = snapshot.context;
      const rows = commandRows(run.commands);
      const failedAt = rows.findIndex((row) => row.state === "failed" || row.state === "fatal");
      const failed = failedAt >= 0 ? rows[failedAt] : undefined;
      const healed = rows.flatMap((row, i) =>
        row.healed ? [{ commandId: row.id, index: i + 1, command: row.command, target: row.target, locator: row.healed.locator, score: row.healed.score }] : [],
      );
      listener({
        runId: run.runId,
        testId: run.test.id,
        testName: run.test.name,
        suiteName: run.suite?.name ?? null,
        tryNo: played.tryNo,
        result: run.end === "fatal" ? "fatal" : run.failed ? "failed" : run.end === "stopped" ? "stopped" : "passed",
        durationMs: Date.now() - startedAt,
        failure: failed
          ? {
              commandId: failed.id,
              index: failedAt + 1,
              command: failed.command,
              target: failed.target,
              value: failed.value,
              state: failed.state as "failed" | "fatal",
              message: failed.message ?? "",
            }
          : null,
        healed,
      });
    };
    const subscription = runner.subscribe({ next: tell, error: () => {} });
    // A test runner let go in the step that ended it is seen ended only now: its last snapshot says so.
    return () => {
      subscription.unsubscribe();
      tell(runner.getSnapshot());
    };
  });
}
