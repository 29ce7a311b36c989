// What `npm run play` says of a run: a line per test as it ends, a summary, and the JUnit XML
// report CI servers read (one testsuite per suite, one testcase per test; a failed test's
// <failure> names its command as `#N COMMAND TARGET: message`, a fatal one's <error>; the
// failing command's picture in <system-out> as `[[ATTACHMENT|path]]`; a test that passed on a
// retry has Surefire's <flakyFailure>, one per failed try: CONTRACT sections 16 and 17).
import { createRequire } from "node:module";
import type { TestEnded } from "../../core/testEnds.ts";

const seconds = (ms: number) => (ms / 1000).toFixed(2);

/** How a test ended over its tries: `flaky` passed on a retry. */
export type Verdict = TestEnded["result"] | "flaky";

/** A test as reported: its last try, the failed tries before it, and its failing command's picture. */
export interface PlayedTest {
  ended: TestEnded;
  /** The tries that failed before the last (--retries). */
  failedTries: readonly TestEnded[];
  verdict: Verdict;
  /** The absolute path of the failing command's picture, if there is one. */
  screenshot: string | null;
}

export const playedOnce = (ended: TestEnded): PlayedTest => ({ ended, failedTries: [], verdict: ended.result, screenshot: null });

/** The test's line, and for a failed or fatal test the line of the command that failed. `flaky` for a test that passed on a retry; `retry` notes a failed try that plays again. */
export function testLines(ended: TestEnded, how: { verdict?: Verdict; note?: string } = {}): string[] {
  const verdict = how.verdict ?? ended.result;
  const lines = [`${verdict.padEnd(7)} ${ended.testName}${ended.suiteName ? `  (suite ${ended.suiteName})` : ""}  ${seconds(ended.durationMs)} s${how.note ? `  ${how.note}` : ""}`];
  if (ended.failure) {
    const { command, target, message, state } = ended.failure;
    lines.push(`        ${state} at ${command}${target ? ` ${JSON.stringify(target)}` : ""}: ${message}`);
  }
  // CONTRACT section 18: each healed command under its test.
  for (const h of ended.healed) lines.push(`        healed  #${h.index} ${h.command}: ${h.target} -> ${h.locator} (score ${h.score.toFixed(2)})`);
  return lines;
}

export interface Tally {
  tests: number;
  passed: number;
  failed: number;
  flaky: number;
  fatal: number;
  stopped: number;
  /** Healed commands, over every test. */
  healed: number;
}

export function tally(tests: readonly PlayedTest[]): Tally {
  const count = (verdict: Verdict) => tests.filter((t) => t.verdict === verdict).length;
  return {
    tests: tests.length,
    passed: count("passed"),
    failed: count("failed"),
    flaky: count("flaky"),
    fatal: count("fatal"),
    stopped: count("stopped"),
    healed: tests.reduce((sum, t) => sum + t.ended.healed.length, 0),
  };
}

/** `N tests: P passed, F failed, X fatal in T s`; with retries asked for, `K flaky` after the failed. */
export function summaryLine(tests: readonly PlayedTest[], wallMs: number, retries = 0): string {
  const t = tally(tests);
  return `${t.tests} test${t.tests === 1 ? "" : "s"}: ${t.passed} passed, ${t.failed} failed, ${retries > 0 ? `${t.flaky} flaky, ` : ""}${t.fatal} fatal${t.stopped ? `, ${t.stopped} stopped` : ""}${t.healed ? `, ${t.healed} healed` : ""} in ${seconds(wallMs)} s`;
}

/** One group of the report: a suite's tests, or the project's tests played one by one. */
export interface ReportGroup {
  name: string;
  tests: readonly PlayedTest[];
}

/** `#N COMMAND TARGET: message` (CONTRACT section 17), or how the test ended when no command failed. */
export const failureText = (ended: TestEnded) => {
  const f = ended.failure;
  return f ? `#${f.index} ${f.command}${f.target ? ` ${f.target}` : ""}: ${f.message}` : `the test ended ${ended.result}`;
};

/** The JUnit XML report: <testsuites> with totals, a <testsuite> per group, a <testcase> per test. */
export function junitXml(projectName: string, groups: readonly ReportGroup[]): string {
  const all = groups.flatMap((g) => g.tests);
  const totals = tally(all);
  const time = (tests: readonly PlayedTest[]) => seconds(tests.reduce((sum, t) => sum + t.ended.durationMs, 0));
  // Loaded when a report is written: a third of a second of every start that writes none.
  const { create } = createRequire(import.meta.url)("xmlbuilder2") as typeof import("xmlbuilder2");
  const root = create({ version: "1.0", encoding: "UTF-8" }).ele("testsuites", {
    name: projectName,
    tests: totals.tests,
    failures: totals.failed,
    errors: totals.fatal,
    skipped: totals.stopped,
    time: time(all),
  });
  for (const group of groups) {
    const t = tally(group.tests);
    const suite = root.ele("testsuite", { name: group.name, tests: t.tests, failures: t.failed, errors: t.fatal, skipped: t.stopped, time: time(group.tests) });
    for (const played of group.tests) {
      const { ended } = played;
      const testcase = suite.ele("testcase", { name: ended.testName, classname: group.name, time: seconds(ended.durationMs) });
      const kind = ended.failure?.command;
      if (played.verdict === "failed") testcase.ele("failure", { message: failureText(ended), type: kind ?? "failed" }).txt(failureText(ended));
      else if (played.verdict === "fatal") testcase.ele("error", { message: failureText(ended), type: kind ?? "fatal" }).txt(failureText(ended));
      else if (played.verdict === "stopped") testcase.ele("skipped", { message: "the run was stopped" });
      else if (played.verdict === "flaky") {
        for (const tried of played.failedTries) testcase.ele("flakyFailure", { message: failureText(tried), type: tried.failure?.command ?? tried.result }).txt(failureText(tried));
      }
      // Jenkins' and GitLab's JUnit readers show the picture named this way.
      if (played.screenshot && (played.verdict === "failed" || played.verdict === "fatal")) testcase.ele("system-out").txt(`[[ATTACHMENT|${played.screenshot}]]`);
    }
  }
  return root.end({ prettyPrint: true });
}
