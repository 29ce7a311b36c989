// What a run leaves for side-runner's users (CONTRACT section 22): `--output-directory DIR` with
// `--output-format jest` (the JSON Jest's --json writes, which side-runner's -o gives: a
// project's tests under "Running project NAME" › "Running suite NAME" › "Running test NAME")
// or `junit` (DIR/PROJECT.xml), and `-z DIR`'s picture of each failed test, as a PNG.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
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

/** The 8 bytes every PNG file begins with. */
export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Each picture (a trace's JPEG) as a PNG, its pixels as the browser decodes them, at its own
 * size: drawn on a canvas in headless Chromium, the browser the run plays in (no image library
 * in the project). A picture that already is a PNG is given as it is.
 */
export async function asPng(pictures: readonly Buffer[]): Promise<Buffer[]> {
  if (pictures.every((p) => p.subarray(0, 8).equals(PNG_SIGNATURE))) return [...pictures];
  // Loaded only when a failed test's picture is to be written.
  const { launchChromium } = await import("../../drivers/host/chromium.ts");
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const pngs: Buffer[] = [];
    for (const picture of pictures) {
      if (picture.subarray(0, 8).equals(PNG_SIGNATURE)) {
        pngs.push(picture);
        continue;
      }
      const dataUrl = await page.evaluate(async (jpeg) => {
        const image = new Image();
        image.src = `data:image/jpeg;base64,${jpeg}`;
        await image.decode();
        const canvas = document.createElement("canvas");
        canvas.width = image.naturalWidth;
        canvas.height = image.naturalHeight;
        canvas.getContext("2d")!.drawImage(image, 0, 0);
        return canvas.toDataURL("image/png");
      }, picture.toString("base64"));
      pngs.push(Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64"));
    }
    return pngs;
  } finally {
    await browser.close();
  }
}

/**
 * `-z DIR`: each failed or fatal test's picture (its failing command's, from its trace) as
 * DIR/TEST_TIME.png, as side-runner 4 names it; gives the paths.
 */
export async function writeFailureScreenshots(dir: string, tests: readonly PlayedTest[]): Promise<string[]> {
  const failed = tests.filter((t) => (t.verdict === "failed" || t.verdict === "fatal") && t.screenshot);
  if (failed.length === 0) return [];
  const pngs = await asPng(await Promise.all(failed.map((t) => readFile(t.screenshot!))));
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const [i, test] of failed.entries()) {
    const name = `${fileNameOf(test.ended.testName)}_${Date.now()}`;
    let file = join(dir, `${name}.png`);
    for (let n = 2; written.includes(file); n++) file = join(dir, `${name}-${n}.png`);
    await writeFile(file, pngs[i]);
    written.push(file);
  }
  return written;
}
