// `npm run play`: .side projects played without a UI, as CI does (CONTRACT sections 16 and 22).
// The same core and players as `npm start`: for each project in turn, createIde in the host with
// its plugin bridge, and the page under test in browser sessions (a local chromedriver, or a
// Grid with --server), one per test playing, against the project's own base URL. It plays each
// suite (or test) chosen (the core plays a failed test again at once, up to --retries times:
// CONTRACT section 17), prints a line per test as it ends (with the live progress line below on
// a terminal), one summary, and writes one JUnit report, one HTML report, side-runner's outputs,
// and says how it went in its exit code.
import { mkdir, writeFile } from "node:fs/promises";
import { basename, dirname } from "node:path";
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
import type { ReportGroup } from "./report.ts";
import { writeHtmlReport } from "./htmlReport.ts";
import type { TracedTest } from "./htmlReport.ts";
import type { FinishedTrace } from "../../drivers/host/traceStore.ts";
import { withTimeout } from "../../services/timeout.ts";
import { bothSettingsNote, suitesOf } from "../../services/playback/targets.ts";
import { isLastTry, liveLine } from "./progress.ts";
import type { LiveLine } from "./progress.ts";
import { writeFailureScreenshots, writeOutputs } from "./outputs.ts";
import type { PlayedProject } from "./outputs.ts";
import { mergeGroups, missingPluginsHint, triedTests, withScreenshots } from "./tries.ts";

export { missingPluginsHint, triedTests } from "./tries.ts";

/** How long a test's trace may take to be written once it ended. */
const TRACE_WAIT_MS = 30_000;

/** How long --wait-for-plugins waits at most (CONTRACT section 16). */
const PLUGIN_WAIT_MS = Number(process.env.PLAY_PLUGIN_WAIT_MS ?? 30_000);

/**
 * What to play: the suite or test named, else every suite, else every test; with -f (side-runner
 * v4's filter) the suites whose name matches, or where none does, the tests whose name matches,
 * each alone. Empty when nothing is left: the caller says what that means.
 */
export function targetsOf(project: SideProject, options: Pick<PlayOptions, "target" | "filter">): Target[] {
  const chosen = chooseTargets(project, options.target);
  const filter = options.filter;
  if (!filter) return chosen;
  if (options.target.kind !== "all") return chosen.filter((t) => filter.test(t.name));
  const suites = suitesOf(project).filter((s) => s.tests.length > 0 && filter.test(s.name));
  if (suites.length > 0) return suites.map((s) => ({ kind: "suite", id: s.id, name: s.name }));
  return project.tests.filter((t) => filter.test(t.name)).map((t) => ({ kind: "test", id: t.id, name: t.name }));
}

/** How many tests the targets play: a suite's every test, once each. */
const testCount = (project: SideProject, targets: readonly Target[]) =>
  targets.reduce((sum, t) => sum + (t.kind === "test" ? 1 : (suitesOf(project).find((s) => s.id === t.id)?.tests.length ?? 0)), 0);

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
  /** The terminal the live progress line is drawn on; none in a pipe or a file. */
  terminal?: NodeJS.WriteStream | null;
}

/** A suite's (or the project's) tests as reported, each with its trace. */
type TracedGroup = { name: string; tests: readonly TracedTest[] };

interface Chosen {
  file: string;
  project: SideProject;
  targets: Target[];
  /** How its suites are named in the reports: by the project too when several play. */
  label: string;
}

/** Every project read and its targets chosen before anything starts: a problem is a ProjectError (exit 2). */
function chooseProjects(options: PlayOptions): Chosen[] {
  const read = options.files.map((file) => ({ file, project: readProjectFile(file) }));
  const names = read.map((r) => r.project.name);
  const chosen = read.map(({ file, project }) => {
    const targets = targetsOf(project, options);
    if (targets.length === 0 && !options.filter) throw new ProjectError(`the project ${file} has no tests to play`);
    // Two projects of one name are told apart by their files.
    const label = names.filter((n) => n === project.name).length > 1 ? `${project.name} (${basename(file)})` : project.name;
    return { file, project, targets, label };
  });
  const some = chosen.filter((c) => c.targets.length > 0);
  if (some.length === 0) throw new ProjectError(`no suite or test matches the filter ${String(options.filter)} in ${options.files.length === 1 ? "the project" : `any of the ${options.files.length} projects`}`);
  return chosen;
}

/** Plays the projects as the options say; rejects with a ProjectError for a problem found before the first test. */
export async function play(options: PlayOptions, io: PlayIo, stopSignal: AbortSignal): Promise<PlayOutcome> {
  const chosen = chooseProjects(options);
  const several = options.files.length > 1;
  if (options.debug) io.out(`configuration  ${JSON.stringify(debugView(options))}`);
  const started = Date.now();
  const ends: TestEnded[] = [];
  const played: Array<PlayedProject & { groups: readonly TracedGroup[] }> = [];
  const live = liveLine(chosen.reduce((sum, c) => sum + testCount(c.project, c.targets), 0), io.out, io.terminal ?? null);
  try {
    for (const c of chosen) {
      if (stopSignal.aborted) break;
      if (c.targets.length === 0) {
        live.lines([`skipped        ${c.file}: no suite or test matches the filter ${String(options.filter)}`]);
        continue;
      }
      const projectStart = Date.now();
      const groups = await playProject(c, options, live, ends, stopSignal);
      const named = several ? groups.map((g) => ({ ...g, name: `${c.label} / ${g.name === c.project.name ? "tests" : g.name}` })) : groups;
      played.push({ file: c.file, name: c.label, groups: named, startedAt: projectStart, endedAt: Date.now() });
    }
  } finally {
    live.close();
  }
  let merged = played.flatMap((p) => p.groups);
  const tests = merged.flatMap((g) => g.tests);
  io.out(summaryLine(tests, Date.now() - started, options.retries));
  const hint = missingPluginsHint(ends, options.waitForPlugins);
  if (hint) io.out(hint);
  const title = played.map((p) => p.name).join(", ") || chosen[0].project.name;
  if (options.screenshotDir) {
    const pictures = await writeFailureScreenshots(options.screenshotDir, tests);
    if (pictures.length > 0) io.out(`screenshots    ${pictures.length} in ${options.screenshotDir}`);
  }
  if (options.report) {
    const { index, copies } = await writeHtmlReport(options.report, title, merged, Date.now() - started);
    // JUnit names the report's copy of a picture: it outlives the traces' bound.
    const copied = (g: TracedGroup): TracedGroup => ({ ...g, tests: g.tests.map((t) => ({ ...t, screenshot: t.screenshot ? (copies.get(t.screenshot) ?? t.screenshot) : null })) });
    merged = merged.map(copied);
    played.forEach((p, i) => (played[i] = { ...p, groups: p.groups.map(copied) }));
    io.out(`html report    ${index}`);
  }
  if (options.junit) {
    await mkdir(dirname(options.junit), { recursive: true });
    await writeFile(options.junit, junitXml(title, merged));
    io.out(`junit report   ${options.junit}`);
  }
  if (options.output) {
    for (const file of await writeOutputs(options.output, played, started)) io.out(`${options.output.format.padEnd(15)}${file}`);
  }
  const allPassed = merged.length > 0 && merged.every((g) => g.tests.every((t) => t.verdict === "passed" || t.verdict === "flaky"));
  return { exitCode: allPassed && ends.length > 0 ? 0 : 1, ends };
}

/** One project in a host of its own (its own base URL): its groups as reported, each test with its picture. */
async function playProject(c: Chosen, options: PlayOptions, live: LiveLine, ends: TestEnded[], stopSignal: AbortSignal): Promise<TracedGroup[]> {
  const { project, file: projectFile } = c;
  // The shipped example plays against the example site, by the one rule npm start follows too.
  let composed: ComposedHost;
  try {
    composed = await composeHost({ ...options, projectFile, project, implicitWaitMs: options.timeoutMs, variables: options.params });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ProjectError(code === "EADDRINUSE" ? `port ${options.port} on 127.0.0.1 is in use; pass --port N (0 picks a free one)` : messageOf(error));
  }
  const { host, site, baseUrl } = composed;
  const mine: TestEnded[] = [];
  const groups: ReportGroup[] = [];
  const traceOf = new Map<TestEnded, Promise<FinishedTrace | null>>();
  const subscription = host.ide.onTestEnded((ended) => {
    ends.push(ended);
    mine.push(ended);
    if (composed.traces) traceOf.set(ended, withTimeout(composed.traces.finished(ended.runId, ended.testId), TRACE_WAIT_MS, "the trace").catch(() => null));
    const how = ended.tryNo > 1 ? { verdict: ended.result === "passed" ? ("flaky" as const) : undefined, note: `(try ${ended.tryNo} of ${options.retries + 1})` } : {};
    live.lines(testLines(ended, how));
    if (isLastTry(ended, options.retries)) live.ended(ended.result !== "passed");
  });
  const stop = () => host.ide.send({ type: "user.stopPlayback" });
  stopSignal.addEventListener("abort", stop);
  try {
    const lines = [`plugin bridge  ${host.urls.plugins}?id=YOUR_PLUGIN_ID&token=${host.token}`];
    if (host.tokenFile) lines.push(`token          in ${host.tokenFile}, readable only by you`);
    lines.push(`plays against  ${baseUrl}${site ? " (the example site, served for the shipped example)" : options.baseUrl ? " (--base-url)" : " (the project's url)"}`);
    live.lines(lines);
    if (options.waitForPlugins > 0) {
      live.lines([`waiting for ${options.waitForPlugins} plugin${options.waitForPlugins === 1 ? "" : "s"} to register (at most ${PLUGIN_WAIT_MS / 1000} s)`]);
      const ready = await viewWhere(host.ide, (view) => view.plugins.length >= options.waitForPlugins, PLUGIN_WAIT_MS);
      if (!ready) {
        const have = host.ide.getSnapshot().plugins.length;
        throw new ProjectError(`${have} of ${options.waitForPlugins} plugins registered within ${PLUGIN_WAIT_MS / 1000} s; nothing was played`);
      }
    }
    live.lines([`playing ${project.name}: ${c.targets.map((t) => `${t.kind} ${JSON.stringify(t.name)}`).join(", ")}${options.workers > 1 ? ` with ${options.workers} workers` : ""}`]);
    // A suite marked both parallel and persistSession plays as parallel (CONTRACT section 22): said before it plays.
    const notes = suitesOf(project).filter((s) => c.targets.some((t) => t.kind === "suite" && t.id === s.id)).map((s) => bothSettingsNote({ name: s.name, parallel: s.parallel === true, persistSession: s.persistSession === true }));
    live.lines(notes.filter((note): note is string => Boolean(note)).map((note) => `note           ${note}`));
    for (const target of c.targets) {
      if (stopSignal.aborted) break;
      const first = mine.length;
      await playTarget(host.ide, target);
      groups.push({ name: target.kind === "suite" ? target.name : project.name, tests: triedTests(mine.slice(first)) });
    }
    return await withScreenshots(mergeGroups(groups), traceOf);
  } finally {
    stopSignal.removeEventListener("abort", stop);
    subscription.unsubscribe();
    await composed.close();
  }
}

/** What --debug prints: the options the run uses, after the config file and the command line. */
function debugView(options: PlayOptions): object {
  const { filter, ...rest } = options;
  return { ...rest, filter: filter ? filter.source : null };
}
