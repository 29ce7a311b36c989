// `npm run play`: a .side project played without a UI, as CI does (CONTRACT section 16). The
// same core and players as `npm start`: createIde in the host with its plugin bridge, and
// the page under test in browser sessions (a local chromedriver, or a Grid with
// --webdriver-url), one per test playing. It plays each suite (or test) named (the core plays a
// failed test again at once, up to --retries times: CONTRACT section 17), prints a line per test as it ends, a summary,
// writes the JUnit report and the HTML report, and says how it went in its exit code.
import { isUnknownCommand } from "../../services/playback/unknownCommand.ts";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { Ide, IdeView, TestEnded } from "../../index.ts";
import { messageOf } from "../../services/errors.ts";
import type { SideProject } from "../../services/side/index.ts";
import { ProjectError, readProjectFile } from "../cli/project.ts";
import { chooseTargets } from "../cli/targets.ts";
import type { Target } from "../cli/targets.ts";
import { composeHost } from "../host/compose.ts";
import type { ComposedHost } from "../host/compose.ts";
import type { PlayOptions } from "./args.ts";
import { junitXml, summaryLine, testLines } from "./report.ts";
import type { PlayedTest, ReportGroup } from "./report.ts";
import { screenshotOf, writeHtmlReport } from "./htmlReport.ts";
import type { TracedTest } from "./htmlReport.ts";
import type { FinishedTrace } from "../../drivers/host/traceStore.ts";
import { withTimeout } from "../../services/timeout.ts";
import { bothSettingsNote, suitesOf } from "../../services/playback/targets.ts";

/** How long a test's trace may take to be written once it ended. */
const TRACE_WAIT_MS = 30_000;

/** How long --wait-for-plugins waits at most (CONTRACT section 16). */
const PLUGIN_WAIT_MS = Number(process.env.PLAY_PLUGIN_WAIT_MS ?? 30_000);

/** What to play: the suite or test named, else every suite, else every test; a project without tests is a ProjectError. */
export function targetsOf(project: SideProject, options: Pick<PlayOptions, "target">): Target[] {
  const targets = chooseTargets(project, options.target);
  if (targets.length === 0) throw new ProjectError("the project has no tests to play");
  return targets;
}

/** Resolves with the view once `done` holds for it, checking every view the IDE publishes. */
function viewWhere(ide: Ide, done: (view: IdeView) => boolean, limitMs: number | null): Promise<IdeView | null> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const finish = (view: IdeView | null) => {
      clearTimeout(timer);
      subscription.unsubscribe();
      resolve(view);
    };
    const subscription = ide.subscribe((view) => {
      if (done(view)) finish(view);
    });
    const now = ide.getSnapshot();
    if (done(now)) return finish(now);
    if (limitMs !== null) timer = setTimeout(() => finish(null), limitMs);
  });
}

/** Plays one suite or test and resolves once its run is over. */
async function playTarget(ide: Ide, target: Target): Promise<void> {
  const before = ide.getSnapshot().playback;
  if (target.kind === "suite") ide.send({ type: "user.startSuite", suiteId: target.id });
  else ide.send({ type: "user.startPlayback", testId: target.id });
  // Each test's commands have their limits (the page, the plugins): the run always ends.
  await viewWhere(ide, (view) => view.playback !== before && view.playback?.status === "ended", null);
}

export interface PlayOutcome {
  exitCode: 0 | 1;
  /** Every try of every test, in the order they ended. */
  ends: TestEnded[];
}

export interface PlayIo {
  out(line: string): void;
}

/** Plays the project as the options say; rejects with a ProjectError for a problem found before the first test. */
export async function play(options: PlayOptions, io: PlayIo, stopSignal: AbortSignal): Promise<PlayOutcome> {
  const projectFile = resolve(options.file);
  const project = readProjectFile(projectFile);
  const targets = targetsOf(project, options);
  // The shipped example plays against the example site, by the one rule npm start follows too.
  let composed: ComposedHost;
  try {
    composed = await composeHost({ ...options, projectFile, project });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ProjectError(code === "EADDRINUSE" ? `port ${options.port} on 127.0.0.1 is in use; pass --port N (0 picks a free one)` : messageOf(error));
  }
  const { host, site, baseUrl } = composed;
  const started = Date.now();
  const ends: TestEnded[] = [];
  const groups: ReportGroup[] = [];
  const traceOf = new Map<TestEnded, Promise<FinishedTrace | null>>();
  const subscription = host.ide.onTestEnded((ended) => {
    ends.push(ended);
    if (composed.traces) traceOf.set(ended, withTimeout(composed.traces.finished(ended.runId, ended.testId), TRACE_WAIT_MS, "the trace").catch(() => null));
    const how = ended.tryNo > 1 ? { verdict: ended.result === "passed" ? ("flaky" as const) : undefined, note: `(try ${ended.tryNo} of ${options.retries + 1})` } : {};
    for (const line of testLines(ended, how)) io.out(line);
  });
  const stop = () => host.ide.send({ type: "user.stopPlayback" });
  stopSignal.addEventListener("abort", stop);
  try {
    io.out(`plugin bridge  ${host.urls.plugins}?id=YOUR_PLUGIN_ID&token=${host.token}`);
    if (host.tokenFile) io.out(`token          in ${host.tokenFile}, readable only by you`);
    io.out(`plays against  ${baseUrl}${site ? " (the example site, served for the shipped example)" : options.baseUrl ? " (--base-url)" : " (the project's url)"}`);
    if (options.waitForPlugins > 0) {
      io.out(`waiting for ${options.waitForPlugins} plugin${options.waitForPlugins === 1 ? "" : "s"} to register (at most ${PLUGIN_WAIT_MS / 1000} s)`);
      const ready = await viewWhere(host.ide, (view) => view.plugins.length >= options.waitForPlugins, PLUGIN_WAIT_MS);
      if (!ready) {
        const have = host.ide.getSnapshot().plugins.length;
        throw new ProjectError(`${have} of ${options.waitForPlugins} plugins registered within ${PLUGIN_WAIT_MS / 1000} s; nothing was played`);
      }
    }
    io.out(`playing ${project.name}: ${targets.map((t) => `${t.kind} ${JSON.stringify(t.name)}`).join(", ")}${options.workers > 1 ? ` with ${options.workers} workers` : ""}`);
    // A suite marked both parallel and persistSession plays as parallel (CONTRACT section 22): said before it plays.
    for (const note of suitesOf(project).filter((s) => targets.some((t) => t.kind === "suite" && t.id === s.id)).map(bothSettingsNote)) if (note) io.out(`note           ${note}`);
    for (const target of targets) {
      if (stopSignal.aborted) break;
      const first = ends.length;
      await playTarget(host.ide, target);
      groups.push({ name: target.kind === "suite" ? target.name : project.name, tests: triedTests(ends.slice(first)) });
    }
    let merged = await withScreenshots(mergeGroups(groups), traceOf);
    io.out(summaryLine(merged.flatMap((g) => g.tests), Date.now() - started, options.retries));
    const hint = missingPluginsHint(ends, options.waitForPlugins);
    if (hint) io.out(hint);
    if (options.report) {
      const { index, copies } = await writeHtmlReport(resolve(options.report), project.name, merged, Date.now() - started);
      // JUnit names the report's copy of a picture: it outlives the traces' bound.
      merged = merged.map((g) => ({ ...g, tests: g.tests.map((t) => ({ ...t, screenshot: t.screenshot ? (copies.get(t.screenshot) ?? t.screenshot) : null })) }));
      io.out(`html report    ${index}`);
    }
    if (options.junit) {
      const file = resolve(options.junit);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, junitXml(project.name, merged));
      io.out(`junit report   ${file}`);
    }
    const allPassed = merged.length > 0 && merged.every((g) => g.tests.every((t) => t.verdict === "passed" || t.verdict === "flaky"));
    return { exitCode: allPassed && ends.length > 0 ? 0 : 1, ends };
  } finally {
    stopSignal.removeEventListener("abort", stop);
    subscription.unsubscribe();
    await composed.close();
  }
}

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
function mergeGroups(groups: readonly ReportGroup[]): ReportGroup[] {
  const merged: ReportGroup[] = [];
  for (const group of groups) {
    const same = merged.find((g) => g.name === group.name);
    if (same) merged[merged.indexOf(same)] = { name: same.name, tests: [...same.tests, ...group.tests] };
    else merged.push(group);
  }
  return merged;
}

/** Each test with its tries' traces (once written) and its failing command's picture in the trace. */
async function withScreenshots(groups: readonly ReportGroup[], traceOf: ReadonlyMap<TestEnded, Promise<FinishedTrace | null>>): Promise<Array<{ name: string; tests: TracedTest[] }>> {
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
