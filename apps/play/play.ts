// `npm run play`: .side projects played without a UI, as CI does (CONTRACT sections 16 and 22).
// The same core and players as `npm start`: createIde in the host with its plugin bridge, and
// the page under test in browser sessions (a local chromedriver, or a Grid with --server), one per
// test playing, against each project's own base URL. It cuts the run into jobs (each suite, or a
// project's tests one by one) and plays up to -w of them at once, each in an IDE of its own
// (apps/play/workers.ts, hosts.ts); the core plays a failed test again at once, up to --retries
// times (CONTRACT section 17). It prints a line per test as it ends (with the live progress line
// below on a terminal), one summary, and writes one JUnit report, one HTML report, side-runner's
// outputs, and says how it went in its exit code.
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { basename, dirname } from "node:path";
import type { TestEnded } from "../../index.ts";
import { messageOf } from "../../services/errors.ts";
import type { SideProject } from "../../services/side/index.ts";
import { ProjectError, readProjectFile } from "../cli/project.ts";
import { chooseTargets } from "../cli/targets.ts";
import type { Target } from "../cli/targets.ts";
import type { PlayOptions } from "./args.ts";
import { junitXml, summaryLine } from "./report.ts";
import type { ReportGroup } from "./report.ts";
import { writeHtmlReport } from "./htmlReport.ts";
import type { TracedTest } from "./htmlReport.ts";
import type { FinishedTrace } from "../../drivers/host/traceStore.ts";
import { pruneTraces } from "../../drivers/host/traceStore.ts";
import { KEPT_TRACES } from "../../services/traces/index.ts";
import { tracesFolder } from "../host/compose.ts";
import { withTimeout } from "../../services/timeout.ts";
import { suitesOf } from "../../services/playback/targets.ts";
import { liveLine } from "./progress.ts";
import { writeFailureScreenshots, writeOutputs } from "./outputs.ts";
import type { PlayedProject } from "./outputs.ts";
import { mergeGroups, missingPluginsHint, withScreenshots } from "./tries.ts";
import { openHost, playJob } from "./hosts.ts";
import type { OpenHost } from "./hosts.ts";
import { inTurn, jobsOf, slots } from "./workers.ts";
import type { Chosen, Job } from "./workers.ts";

export { missingPluginsHint, triedTests } from "./tries.ts";

/** How long a test's trace may take to be written once it ended. */
const TRACE_WAIT_MS = 30_000;

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

/** What a job played: its groups as reported, and when. */
interface Played {
  groups: ReportGroup[];
  startedAt: number;
  endedAt: number;
}

/** Plays the projects as the options say; rejects with a ProjectError for a problem found before the first test. */
export async function play(options: PlayOptions, io: PlayIo, stopSignal: AbortSignal): Promise<PlayOutcome> {
  const chosen = chooseProjects(options);
  const several = options.files.length > 1;
  if (options.debug) io.out(`configuration  ${JSON.stringify(debugView(options))}`);
  const started = Date.now();
  const ends: TestEnded[] = [];
  const live = liveLine(chosen.reduce((sum, c) => sum + testCount(c.project, c.targets), 0), io.out, io.terminal ?? null);
  for (const c of chosen) if (c.targets.length === 0) live.lines([`skipped        ${c.file}: no suite or test matches the filter ${String(options.filter)}`]);
  const jobs = jobsOf(chosen, options.workers);
  const played = new Map<Job, Played>();
  const traceOf = new Map<TestEnded, Promise<FinishedTrace | null>>();
  // Ctrl-C, or a host that could not start: every IDE playing stops, and no job starts.
  const ending = new AbortController();
  const stopAll = () => ending.abort();
  stopSignal.addEventListener("abort", stopAll);
  const portsTaken = new Set<number>();
  // One token for every host of the run, so the token file is right for each bridge.
  const token = randomBytes(24).toString("base64url");
  const hosts = slots<OpenHost>(
    (c) => openHost(c, options, live, ending.signal, portsTaken, token),
    (host) => host.close(),
  );
  const begun = new Set<Job>();
  try {
    await inTurn(
      jobs,
      options.workers,
      async (job) => {
        begun.add(job);
        const { host, release } = await hosts.take(job.chosen);
        const startedAt = Date.now();
        const traces: Array<Promise<unknown>> = [];
        try {
          const groups = await playJob(host, job, options, live, ending.signal, (ended) => {
            ends.push(ended);
            if (!host.composed.traces) return;
            const trace = withTimeout(host.composed.traces.finished(ended.runId, ended.testId), TRACE_WAIT_MS, "the trace").catch(() => null);
            traceOf.set(ended, trace);
            traces.push(trace);
          });
          played.set(job, { groups, startedAt, endedAt: Date.now() });
          // The job's traces are written while their host is open.
          await Promise.all(traces);
        } finally {
          // A host is kept for its project's next job; closed once the project has none left to start.
          await release(!ending.signal.aborted && jobs.some((j) => j.chosen === job.chosen && !begun.has(j)));
        }
      },
      () => ending.signal.aborted,
      stopAll,
    );
  } finally {
    stopSignal.removeEventListener("abort", stopAll);
    await hosts.close();
    live.close();
  }
  const projects: Array<PlayedProject & { groups: readonly TracedGroup[] }> = [];
  for (const c of chosen) {
    const mine = jobs.filter((j) => j.chosen === c && played.has(j)).map((j) => played.get(j)!);
    if (mine.length === 0) continue;
    const groups = await withScreenshots(mergeGroups(mine.flatMap((p) => p.groups)), traceOf);
    const named = several ? groups.map((g) => ({ ...g, name: `${c.label} / ${g.name === c.project.name ? "tests" : g.name}` })) : groups;
    projects.push({ file: c.file, name: c.label, groups: named, startedAt: Math.min(...mine.map((p) => p.startedAt)), endedAt: Math.max(...mine.map((p) => p.endedAt)) });
  }
  const kept = (await Promise.all(traceOf.values())).filter((trace) => trace?.dir).length;
  // A JUnit written without --report names pictures in the traces folder: the run's traces stay until the next run.
  const namedByJunit = !options.report && (options.junit !== null || options.output?.format === "junit") ? kept : 0;
  try {
    const outcome = await report(options, io, projects, chosen, ends, started);
    if (kept > KEPT_TRACES && namedByJunit > 0) io.out(`traces         ${kept} kept by this run until the next one, as its JUnit names their pictures; --report DIR keeps copies`);
    else if (kept > KEPT_TRACES && !options.report) io.out(`traces         ${kept} kept by this run; the folder keeps the last ${KEPT_TRACES}, so --report DIR keeps every one's pictures`);
    return outcome;
  } finally {
    // The run held its traces until its report, pictures and outputs had copied them; the folder keeps its last KEPT_TRACES again.
    if (options.trace !== "off") await pruneTraces(tracesFolder(options.tokenFile), Math.max(KEPT_TRACES, namedByJunit)).catch(() => {});
  }
}

/** The summary, the hint, and the files asked for, from what the projects played. */
async function report(options: PlayOptions, io: PlayIo, played: Array<PlayedProject & { groups: readonly TracedGroup[] }>, chosen: readonly Chosen[], ends: readonly TestEnded[], started: number): Promise<PlayOutcome> {
  let merged = played.flatMap((p) => p.groups);
  const tests = merged.flatMap((g) => g.tests);
  io.out(summaryLine(tests, Date.now() - started, options.retries));
  const hint = missingPluginsHint(ends, options.waitForPlugins);
  if (hint) io.out(hint);
  const title = played.map((p) => p.name).join(", ") || chosen[0].project.name;
  if (options.screenshotDir) {
    // The run's verdict stands without its pictures: a problem writing them is said, not thrown.
    const pictures = await writeFailureScreenshots(options.screenshotDir, tests).catch((error: unknown) => `not written: ${messageOf(error)}`);
    if (typeof pictures === "string") io.out(`screenshots    ${pictures}`);
    else if (pictures.length > 0) io.out(`screenshots    ${pictures.length} in ${options.screenshotDir}`);
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
  return { exitCode: allPassed && ends.length > 0 ? 0 : 1, ends: [...ends] };
}

/** What --debug prints: the options the run uses, after the config file and the command line. */
function debugView(options: PlayOptions): object {
  const { filter, ...rest } = options;
  return { ...rest, filter: filter ? filter.source : null };
}
