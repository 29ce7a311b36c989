// What `npm run play` says of a run: a line per test as it ends, a summary, and the JUnit XML
// report CI servers read (one testsuite per suite, one testcase per test; a failed test's
// <failure> names its command, a fatal one's <error>).
import { create } from "xmlbuilder2";
import type { TestEnded } from "../../core/testEnds.ts";

const seconds = (ms: number) => (ms / 1000).toFixed(2);

/** The test's line, and for a failed or fatal test the line of the command that failed. */
export function testLines(ended: TestEnded): string[] {
  const lines = [`${ended.result.padEnd(7)} ${ended.testName}${ended.suiteName ? `  (suite ${ended.suiteName})` : ""}  ${seconds(ended.durationMs)} s`];
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
  fatal: number;
  stopped: number;
  /** Healed commands, over every test. */
  healed: number;
}

export function tally(ends: readonly TestEnded[]): Tally {
  const count = (result: TestEnded["result"]) => ends.filter((e) => e.result === result).length;
  return { tests: ends.length, passed: count("passed"), failed: count("failed"), fatal: count("fatal"), stopped: count("stopped"), healed: ends.reduce((sum, e) => sum + e.healed.length, 0) };
}

export function summaryLine(ends: readonly TestEnded[], wallMs: number): string {
  const t = tally(ends);
  return `${t.tests} test${t.tests === 1 ? "" : "s"}: ${t.passed} passed, ${t.failed} failed, ${t.fatal} fatal${t.stopped ? `, ${t.stopped} stopped` : ""}${t.healed ? `, ${t.healed} healed` : ""} in ${seconds(wallMs)} s`;
}

/** One group of the report: a suite's tests, or the project's tests played one by one. */
export interface ReportGroup {
  name: string;
  ends: readonly TestEnded[];
}

const failureText = (ended: TestEnded) => {
  const f = ended.failure;
  return f ? `${f.command}${f.target ? ` ${JSON.stringify(f.target)}` : ""}: ${f.message}` : `the test ended ${ended.result}`;
};

/** The JUnit XML report: <testsuites> with totals, a <testsuite> per group, a <testcase> per test. */
export function junitXml(projectName: string, groups: readonly ReportGroup[]): string {
  const all = groups.flatMap((g) => g.ends);
  const totals = tally(all);
  const time = (ends: readonly TestEnded[]) => seconds(ends.reduce((sum, e) => sum + e.durationMs, 0));
  const root = create({ version: "1.0", encoding: "UTF-8" }).ele("testsuites", {
    name: projectName,
    tests: totals.tests,
    failures: totals.failed,
    errors: totals.fatal,
    skipped: totals.stopped,
    time: time(all),
  });
  for (const group of groups) {
    const t = tally(group.ends);
    const suite = root.ele("testsuite", { name: group.name, tests: t.tests, failures: t.failed, errors: t.fatal, skipped: t.stopped, time: time(group.ends) });
    for (const ended of group.ends) {
      const testcase = suite.ele("testcase", { name: ended.testName, classname: group.name, time: seconds(ended.durationMs) });
      if (ended.result === "failed") testcase.ele("failure", { message: failureText(ended), type: ended.failure?.command ?? "failed" }).txt(failureText(ended));
      else if (ended.result === "fatal") testcase.ele("error", { message: failureText(ended), type: ended.failure?.command ?? "fatal" }).txt(failureText(ended));
      else if (ended.result === "stopped") testcase.ele("skipped", { message: "the run was stopped" });
    }
  }
  return root.end({ prettyPrint: true });
}
