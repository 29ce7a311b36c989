// What a run leaves for side-runner's users (CONTRACT section 22): `--output-directory DIR` with
// `--output-format jest` (the JSON Jest's --json writes, which side-runner's -o gives: a
// project's tests under "Running project NAME" › "Running suite NAME" › "Running test NAME")
// or `junit` (DIR/PROJECT.xml), and `-z DIR`'s picture of each failed test.
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { failureText, junitXml, tally } from "./report.ts";
import type { PlayedTest, ReportGroup } from "./report.ts";

/** One project's part of a run: its file, its name, and its groups as reported. */
export interface PlayedProject {
  file: string;
  name: string;
  groups: readonly ReportGroup[];
  startedAt: number;
  endedAt: number;
}

const passedOrFlaky = (t: PlayedTest) => t.verdict === "passed" || t.verdict === "flaky";
const jestStatus = (t: PlayedTest) => (passedOrFlaky(t) ? "passed" : t.verdict === "stopped" ? "pending" : "failed");

/** Jest's --json result, as side-runner writes it: one test file's results per project. */
export function jestJson(projects: readonly PlayedProject[], startTime: number): object {
  const testResults = projects.map((p) => {
    const assertionResults = p.groups.flatMap((group) =>
      group.tests.map((t) => {
        const ancestorTitles = [`Running project ${p.name}`, ...(t.ended.suiteName !== null ? [`Running suite ${t.ended.suiteName}`] : [])];
        const title = `Running test ${t.ended.testName}`;
        return {
          ancestorTitles,
          duration: t.ended.durationMs,
          failureMessages: passedOrFlaky(t) ? [] : [failureText(t.ended)],
          fullName: [...ancestorTitles, title].join(" "),
          invocations: t.failedTries.length + 1,
          location: null,
          numPassingAsserts: 0,
          retryReasons: t.failedTries.map((tried) => failureText(tried)),
          status: jestStatus(t),
          title,
        };
      }),
    );
    const failed = assertionResults.some((a) => a.status === "failed");
    return { assertionResults, endTime: p.endedAt, message: failed ? assertionResults.flatMap((a) => a.failureMessages).join("\n") : "", name: p.file, startTime: p.startedAt, status: failed ? "failed" : "passed", summary: "" };
  });
  const all = projects.flatMap((p) => p.groups.flatMap((g) => g.tests));
  const t = tally(all);
  const failedFiles = testResults.filter((r) => r.status === "failed").length;
  return {
    numFailedTestSuites: failedFiles,
    numFailedTests: t.failed + t.fatal,
    numPassedTestSuites: testResults.length - failedFiles,
    numPassedTests: t.passed + t.flaky,
    numPendingTestSuites: 0,
    numPendingTests: t.stopped,
    numRuntimeErrorTestSuites: 0,
    numTodoTests: 0,
    numTotalTestSuites: testResults.length,
    numTotalTests: t.tests,
    startTime,
    success: failedFiles === 0 && t.tests > 0,
    testResults,
    wasInterrupted: t.stopped > 0,
  };
}

/** A name safe as one file name: what a file system or a shell would trip on becomes `_`. */
export const fileNameOf = (name: string) => name.replace(/[^\w.-]+/g, "_").slice(0, 120) || "project";

/** Writes the output directory's files; gives their paths. */
export async function writeOutputs(output: { dir: string; format: "jest" | "junit" }, projects: readonly PlayedProject[], startTime: number): Promise<string[]> {
  await mkdir(output.dir, { recursive: true });
  if (output.format === "jest") {
    // side-runner's name: results-<ISO time with - for :>.json.
    const file = join(output.dir, `results-${new Date(startTime).toISOString().replace(/:/g, "-")}.json`);
    await writeFile(file, JSON.stringify(jestJson(projects, startTime), null, 2));
    return [file];
  }
  const written: string[] = [];
  for (const project of projects) {
    let file = join(output.dir, `${fileNameOf(project.name)}.xml`);
    // Two projects of one name keep two files.
    for (let n = 2; written.includes(file); n++) file = join(output.dir, `${fileNameOf(project.name)}-${n}.xml`);
    await writeFile(file, junitXml(project.name, project.groups));
    written.push(file);
  }
  return written;
}

/** `-z DIR`: each failed or fatal test's picture as DIR/TEST_TIME and the picture's own extension; gives the paths. */
export async function writeFailureScreenshots(dir: string, tests: readonly PlayedTest[]): Promise<string[]> {
  const failed = tests.filter((t) => (t.verdict === "failed" || t.verdict === "fatal") && t.screenshot);
  if (failed.length === 0) return [];
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const test of failed) {
    const picture = test.screenshot!;
    let file = join(dir, `${fileNameOf(test.ended.testName)}_${Date.now()}${extname(picture)}`);
    for (let n = 2; written.includes(file); n++) file = join(dir, `${fileNameOf(test.ended.testName)}_${Date.now()}-${n}${extname(picture)}`);
    await copyFile(picture, file);
    written.push(file);
  }
  return written;
}
