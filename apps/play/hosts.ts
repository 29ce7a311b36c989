// One IDE of `npm run play` (a worker slot's, apps/play/workers.ts): the host composed for one
// project (createIde with its plugin bridge, the page pool against the project's base URL) and
// the jobs it plays, one at a time: a suite, or the project's tests one by one. Each test's lines
// are written whole as it ends, so IDEs playing at once never cut into each other's lines.
import type { Ide, IdeView, TestEnded } from "../../index.ts";
import { messageOf } from "../../services/errors.ts";
import { bothSettingsNote, suitesOf } from "../../services/playback/targets.ts";
import { ProjectError } from "../cli/project.ts";
import type { Target } from "../cli/targets.ts";
import { composeHost } from "../host/compose.ts";
import type { ComposedHost } from "../host/compose.ts";
import type { PlayOptions } from "./args.ts";
import { isLastTry } from "./progress.ts";
import type { LiveLine } from "./progress.ts";
import { testLines } from "./report.ts";
import type { ReportGroup } from "./report.ts";
import { triedTests } from "./tries.ts";
import type { Chosen, Job } from "./workers.ts";

/** How long --wait-for-plugins waits at most (CONTRACT section 16). */
const PLUGIN_WAIT_MS = Number(process.env.PLAY_PLUGIN_WAIT_MS ?? 30_000);

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

/** A host open for one project. */
export interface OpenHost {
  composed: ComposedHost;
  close(): Promise<void>;
}

/**
 * The host for `c`, its bridge and base URL said, once --wait-for-plugins' plugins registered.
 * `--port` goes to one host at a time (`taken` holds the ports of the hosts open or opening): the
 * others take a free one, each saying its bridge. Stops its run when `stop` aborts. A problem is a
 * ProjectError.
 */
export async function openHost(c: Chosen, options: PlayOptions, live: LiveLine, stop: AbortSignal, taken: Set<number>, token: string): Promise<OpenHost> {
  const { project, file: projectFile } = c;
  // Held before the host listens, so two hosts opening at once never both ask for it.
  const port = options.port !== 0 && !taken.has(options.port) ? options.port : 0;
  if (port !== 0) taken.add(port);
  // The shipped example plays against the example site, by the one rule npm start follows too. The
  // run's traces are all kept until its report has copied them (play.ts prunes the folder after).
  let composed: ComposedHost;
  try {
    composed = await composeHost({ ...options, port, projectFile, project, implicitWaitMs: options.timeoutMs, variables: options.params, host: { token }, keepTraces: Infinity });
  } catch (error) {
    taken.delete(port);
    const code = (error as NodeJS.ErrnoException).code;
    throw new ProjectError(code === "EADDRINUSE" ? `port ${port} on 127.0.0.1 is in use; pass --port N (0 picks a free one)` : messageOf(error));
  }
  const { host, site, baseUrl } = composed;
  const stopRun = () => host.ide.send({ type: "user.stopPlayback" });
  stop.addEventListener("abort", stopRun);
  const open: OpenHost = {
    composed,
    async close() {
      stop.removeEventListener("abort", stopRun);
      await composed.close();
      taken.delete(port);
    },
  };
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
    return open;
  } catch (error) {
    await open.close();
    throw error;
  }
}

/**
 * Plays the job in the host and gives its groups as reported (the tests played one by one as one
 * group named after the project). `ended` hears each try as it ends, after its lines were written.
 */
export async function playJob(open: OpenHost, job: Job, options: PlayOptions, live: LiveLine, stop: AbortSignal, ended: (ended: TestEnded) => void): Promise<ReportGroup[]> {
  const { project } = job.chosen;
  const ide = open.composed.host.ide;
  const mine: TestEnded[] = [];
  const subscription = ide.onTestEnded((end) => {
    mine.push(end);
    const how = end.tryNo > 1 ? { verdict: end.result === "passed" ? ("flaky" as const) : undefined, note: `(try ${end.tryNo} of ${options.retries + 1})` } : {};
    live.lines(testLines(end, how));
    if (isLastTry(end, options.retries)) live.ended(end.result !== "passed");
    ended(end);
  });
  try {
    live.lines([`playing ${project.name}: ${job.targets.map((t) => `${t.kind} ${JSON.stringify(t.name)}`).join(", ")}${job.parallel ? ` with ${options.workers} workers` : ""}`]);
    // A suite marked both parallel and persistSession plays as persistSession (CONTRACT section 22): said before it plays.
    const suites = suitesOf(project).filter((s) => job.targets.some((t) => t.kind === "suite" && t.id === s.id));
    const warnings = suites.map((s) => bothSettingsNote({ name: s.name, parallel: s.parallel === true, persistSession: s.persistSession === true }));
    live.lines(warnings.filter((w): w is string => Boolean(w)).map((w) => `warning        ${w}`));
    const groups: ReportGroup[] = [];
    for (const target of job.targets) {
      if (stop.aborted) break;
      const first = mine.length;
      await playTarget(ide, target);
      groups.push({ name: target.kind === "suite" ? target.name : project.name, tests: triedTests(mine.slice(first)) });
    }
    return groups;
  } finally {
    subscription.unsubscribe();
  }
}
