// `npm run play`: a .side project played without a UI, as CI does (CONTRACT section 16). The
// same core and executors as `npm start`: createIde in the host with its plugin bridge, and
// the page under test in browser sessions (a local chromedriver, or a Grid with
// --webdriver-url), one per test playing. It plays each suite (or test) named, prints a line per
// test as it ends, a summary, writes the JUnit report, and says how it went in its exit code.
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
import type { ReportGroup } from "./report.ts";

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
  const subscription = host.ide.onTestEnded((ended) => {
    ends.push(ended);
    for (const line of testLines(ended)) io.out(line);
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
    for (const target of targets) {
      if (stopSignal.aborted) break;
      const first = ends.length;
      await playTarget(host.ide, target);
      groups.push({ name: target.kind === "suite" ? target.name : project.name, ends: ends.slice(first) });
    }
    io.out(summaryLine(ends, Date.now() - started));
    if (options.junit) {
      const file = resolve(options.junit);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, junitXml(project.name, mergeGroups(groups)));
      io.out(`junit report   ${file}`);
    }
    const allPassed = ends.length > 0 && ends.every((e) => e.result === "passed");
    return { exitCode: allPassed ? 0 : 1, ends };
  } finally {
    stopSignal.removeEventListener("abort", stop);
    subscription.unsubscribe();
    await composed.close();
  }
}

/** Tests played one by one go into one testsuite named after the project. */
function mergeGroups(groups: readonly ReportGroup[]): ReportGroup[] {
  const merged: ReportGroup[] = [];
  for (const group of groups) {
    const same = merged.find((g) => g.name === group.name);
    if (same) merged[merged.indexOf(same)] = { name: same.name, ends: [...same.ends, ...group.ends] };
    else merged.push(group);
  }
  return merged;
}
