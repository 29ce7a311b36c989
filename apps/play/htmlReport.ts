// `npm run play -- --report DIR` (CONTRACT section 17): DIR/index.html, one page that opens
// offline from the file system, and beside it the pictures and HTML snapshots of the tests that
// did not pass (DIR/traces/TRACE/..., copied from their traces). The page is reportPage.tsx,
// rendered to a string by preact-render-to-string when it is installed, else by Preact itself
// into jsdom's document (both dependencies of this package).
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { h, render } from "preact";
import type { VNode } from "preact";
import type { TestEnded } from "../../core/testEnds.ts";
import type { FinishedTrace } from "../../drivers/host/traceStore.ts";
import { failingStep } from "../../services/traces/index.ts";
import type { PlayedTest } from "./report.ts";
import { tally } from "./report.ts";
import { ReportPage } from "./reportPage.tsx";
import type { ReportModel, ReportStep, ReportTry } from "./reportPage.tsx";

/** A test as played, with the traces of its last try and its failed tries. */
export interface TracedTest extends PlayedTest {
  trace: FinishedTrace | null;
  tries: Array<{ ended: TestEnded; trace: FinishedTrace | null }>;
}

/** The absolute path of the failing command's picture in a kept trace, or null. */
export function screenshotOf(trace: FinishedTrace | null): string | null {
  const step = trace?.dir ? failingStep(trace.manifest) : null;
  return step?.screenshot && trace?.dir ? join(trace.dir, step.screenshot) : null;
}

/** The page as HTML text: preact-render-to-string if it is there, else Preact rendering into jsdom. */
function renderPage(page: VNode): string {
  try {
    const { renderToString } = createRequire(import.meta.url)("preact-render-to-string") as { renderToString(vnode: VNode): string };
    return `<!doctype html>\n${renderToString(page)}`;
  } catch {
    const { JSDOM } = createRequire(import.meta.url)("jsdom") as typeof import("jsdom");
    const dom = new JSDOM("<!doctype html><html><body></body></html>");
    const { document } = dom.window;
    const root = document.createElement("div");
    // Preact renders into whatever document the container belongs to.
    render(page, root);
    const html = root.firstElementChild;
    return `<!doctype html>\n${html ? html.outerHTML : ""}`;
  }
}

/** Copies `from` to `to`; false when `from` is gone. */
const copied = (from: string, to: string) =>
  copyFile(from, to).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return false;
      throw error;
    },
  );

/** A try's commands, its files copied under `dir` when `copy` (a test that did not pass). */
async function tryOf(dir: string, ended: TestEnded, trace: FinishedTrace | null, copy: boolean, copies: Map<string, string>): Promise<ReportTry> {
  if (!trace) return { ended, steps: null };
  const steps: ReportStep[] = [];
  for (const step of trace.manifest.steps) {
    let picture: string | null = null;
    let domLink: string | null = null;
    if (copy && trace.dir) {
      const into = join("traces", trace.manifest.traceId);
      await mkdir(join(dir, into), { recursive: true });
      // A file gone from the traces folder (another IDE on this data folder pruned it) leaves its step without a link, not the report unwritten.
      if (step.screenshot && (await copied(join(trace.dir, step.screenshot), join(dir, into, step.screenshot)))) {
        picture = `${into}/${step.screenshot}`;
        copies.set(join(trace.dir, step.screenshot), join(dir, picture));
      }
      if (step.failure?.dom && (await copied(join(trace.dir, step.failure.dom), join(dir, into, step.failure.dom)))) domLink = `${into}/${step.failure.dom}`;
    }
    steps.push({ ...step, picture, domLink });
  }
  return { ended, steps };
}

/**
 * Writes DIR/index.html and its files; resolves with its path and where each picture of a trace
 * was copied (the JUnit report names the copy, which outlives the traces' bound).
 */
export async function writeHtmlReport(
  dir: string,
  projectName: string,
  groups: ReadonlyArray<{ name: string; tests: readonly TracedTest[] }>,
  wallMs: number,
): Promise<{ index: string; copies: Map<string, string> }> {
  await mkdir(dir, { recursive: true });
  const copies = new Map<string, string>();
  const model: ReportModel = {
    projectName,
    wallMs,
    generatedAt: new Date().toISOString(),
    counts: tally(groups.flatMap((g) => g.tests)),
    groups: [],
  };
  for (const group of groups) {
    const tests = [];
    for (const test of group.tests) {
      const copy = test.verdict !== "passed";
      const failedTries = [];
      for (const tried of test.tries) failedTries.push(await tryOf(dir, tried.ended, tried.trace, true, copies));
      tests.push({ verdict: test.verdict, last: await tryOf(dir, test.ended, test.trace, copy, copies), failedTries });
    }
    model.groups.push({ name: group.name, tests });
  }
  const index = join(dir, "index.html");
  await writeFile(index, renderPage(h(ReportPage, { model }) as VNode));
  return { index, copies };
}
