// How a run's test ends become what is reported: each test with its tries (--retries), groups
// merged by name, each test's failing command's picture from its trace, and the hint for a
// plugin's command played with no plugin.
import type { TestEnded } from "../../core/testEnds.ts";
import type { FinishedTrace } from "../../drivers/host/traceStore.ts";
import { isUnknownCommand } from "../../services/playback/unknownCommand.ts";
import { screenshotOf } from "./htmlReport.ts";
import type { TracedTest } from "./htmlReport.ts";
import type { PlayedTest, ReportGroup } from "./report.ts";

/**
 * Each test played with its tries (--retries: the core plays a failed test again at once, a
 * suite's before its next test): its last try, and the failed ones before it. A try after the
 * first belongs to the test it tries again.
 */
export function triedTests(ends: readonly TestEnded[]): PlayedTest[] {
  const tests: Array<{ tries: TestEnded[] }> = [];
  for (const ended of ends) {
    const again = ended.tryNo > 1 ? [...tests].reverse().find((t) => t.tries[0].testId === ended.testId) : undefined;
    if (again) again.tries.push(ended);
    else tests.push({ tries: [ended] });
  }
  return tests.map(({ tries }) => {
    const last = tries[tries.length - 1];
    const failedTries = tries.slice(0, -1);
    return { ended: last, failedTries, verdict: failedTries.length > 0 && last.result === "passed" ? "flaky" : last.result, screenshot: null };
  });
}

/** Tests played one by one go into one testsuite named after the project. */
export function mergeGroups(groups: readonly ReportGroup[]): ReportGroup[] {
  const merged: ReportGroup[] = [];
  for (const group of groups) {
    const same = merged.find((g) => g.name === group.name);
    if (same) merged[merged.indexOf(same)] = { name: same.name, tests: [...same.tests, ...group.tests] };
    else merged.push(group);
  }
  return merged;
}

/** Each test with its tries' traces (once written) and its failing command's picture in the trace. */
export async function withScreenshots(groups: readonly ReportGroup[], traceOf: ReadonlyMap<TestEnded, Promise<FinishedTrace | null>>): Promise<Array<{ name: string; tests: TracedTest[] }>> {
  const traced = async (ended: TestEnded) => (await traceOf.get(ended)) ?? null;
  return Promise.all(
    groups.map(async (group) => ({
      name: group.name,
      tests: await Promise.all(
        group.tests.map(async (test) => {
          const trace = await traced(test.ended);
          const tries = await Promise.all(test.failedTries.map(async (ended) => ({ ended, trace: await traced(ended) })));
          return { ...test, screenshot: screenshotOf(trace), trace, tries };
        }),
      ),
    })),
  );
}

/**
 * A newcomer's most likely failure: a test that uses a plugin's command, played with no plugin
 * connected. Said once after the summary, naming the commands, with what to do; null otherwise.
 */
export function missingPluginsHint(ends: readonly TestEnded[], waitedFor: number): string | null {
  const missing = new Set<string>();
  for (const ended of ends) {
    const failure = ended.failure;
    if (failure && isUnknownCommand(failure.command, failure.message)) missing.add(failure.command);
  }
  if (missing.size === 0) return null;
  const commands = [...missing].join(", ");
  return waitedFor > 0
    ? `hint           no plugin that registered has ${commands}: check that the plugin providing it is the one connected (docs/play.md#plugins-in-ci)`
    : `hint           ${commands} ${missing.size === 1 ? "is a plugin's command" : "are plugins' commands"}: start the plugin against the plugin bridge above and pass --wait-for-plugins N, or play a suite without it (docs/play.md#plugins-in-ci)`;
}
