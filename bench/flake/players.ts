// The three players of the flake bench, each as "lanes": a lane is one browser with its own
// slow app (bench/flake/app.ts, its own port and seed), playing one test at a time.
//   host:      createIde over the host's browser page (drivers/host/browserPage.ts) with its
//              default player, the one player in the page with trusted input over DevTools:
//              what `npm start` and `npm run play` play with. A play is user.startPlayback
//              until the view says the run ended.
//   extension: the built extension in headless Chromium; the .side project loaded in the IDE
//              window, the test picked and Play pressed there, as a user does; the window's rows
//              read once the run ended.
//   runtime:   side-runtime's own `Playback` on its `WebDriverExecutor` (the same session
//              code as the host's, the same Chromium), a new Playback for each play.
// Every play has a limit (PLAY_LIMIT_MS); a play past it counts as failed and is stopped.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import PlaybackModule, { PlaybackEvents } from "@seleniumhq/side-runtime/dist/playback.js";
import VariablesModule from "@seleniumhq/side-runtime/dist/variables.js";
import { createIde } from "../../index.ts";
import { launchWithExtensions } from "../../drivers/host/chromium.ts";
import { browserPage } from "../../drivers/host/browserPage.ts";
import { buildExtension } from "../../apps/extension/build.ts";
import { IDE_EXTENSION_ID } from "../../drivers/webextension/identity.ts";
import { makePluginExtension, openIdeWindow, profileDir, workerOf } from "../../tests/support/extensions.ts";
import { startSlowApp } from "./app.ts";
import type { SlowApp } from "./app.ts";

const unwrap = <T,>(module: T): T => (module as { default?: T }).default ?? module;
const Playback = unwrap(PlaybackModule);
const Variables = unwrap(VariablesModule);

/** How long one play of one test may take, all commands together, in any player. */
export const PLAY_LIMIT_MS = 60_000;

export type PlayerName = "host" | "extension" | "runtime";

export interface SideCommand {
  id: string;
  command: string;
  target: string;
  value: string;
}
export interface SideTest {
  id: string;
  name: string;
  commands: SideCommand[];
}
export interface SideProject {
  id: string;
  name: string;
  url: string;
  tests: SideTest[];
  [key: string]: unknown;
}

/** A command that did not pass: which, and what the player said. */
export interface Failure {
  command: string;
  target: string;
  value: string;
  message: string;
}

export interface PlayResult {
  passed: boolean;
  failures: Failure[];
}

export interface Lane {
  /** Plays the test once, the app drawing its delays from `seed`. */
  play(test: SideTest, seed: string): Promise<PlayResult>;
  close(): Promise<void>;
}

const silent = { info() {}, log() {}, warn() {}, error() {}, debug() {} } as unknown as Console;

const failureOf = (command: SideCommand, message: string | null | undefined): Failure => ({
  command: command.command,
  target: command.target,
  value: command.value,
  message: (message ?? "(no message)").split("\n")[0],
});

function limited<T>(work: Promise<T>, what: string, onTimeout: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onTimeout();
      reject(new Error(`${what} did not end within ${PLAY_LIMIT_MS} ms`));
    }, PLAY_LIMIT_MS);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** A play that did not end in time, or threw: one failure naming why. */
const brokenPlay = (error: unknown): PlayResult => ({
  passed: false,
  failures: [{ command: "(the play)", target: "", value: "", message: error instanceof Error ? error.message : String(error) }],
});

export async function hostLane(project: SideProject): Promise<Lane> {
  const app = await startSlowApp();
  const page = browserPage({ baseUrl: app.origin });
  const ide = createIde({ project: { ...project, url: app.origin } as never, executor: page });
  return {
    async play(test, seed) {
      app.seed = seed;
      const before = ide.getSnapshot().playback?.runId ?? null;
      let unsubscribe = () => {};
      const ended = new Promise<void>((resolve) => {
        const subscription = ide.subscribe((view) => {
          if (view.playback && view.playback.runId !== before && view.playback.status === "ended") resolve();
        });
        unsubscribe = () => subscription.unsubscribe();
      });
      ide.send({ type: "user.startPlayback", testId: test.id });
      try {
        await limited(ended, `the host's run of ${test.id}`, () => ide.send({ type: "user.stopPlayback" }));
      } catch (error) {
        return brokenPlay(error);
      } finally {
        unsubscribe();
      }
      const playback = ide.getSnapshot().playback!;
      const failures = playback.commands
        .map((row, i) => ({ row, command: test.commands[i] }))
        .filter(({ row }) => row.state === "failed" || row.state === "fatal" || row.state === "undetermined")
        .map(({ row, command }) => failureOf(command, row.message));
      const passed = playback.result === "passed" && failures.length === 0;
      if (!passed && failures.length === 0) failures.push({ command: "(the run)", target: "", value: "", message: `the run ended ${playback.result}` });
      return { passed, failures };
    },
    async close() {
      ide.stop();
      await page.close();
      await app.close();
    },
  };
}

export async function runtimeLane(project: SideProject): Promise<Lane> {
  const app = await startSlowApp();
  const page = browserPage({ baseUrl: app.origin, player: "webdriver" });
  const { executor } = await page.sideRuntime();
  return {
    async play(test, seed) {
      app.seed = seed;
      const playback = new Playback({
        baseUrl: app.origin,
        executor,
        getTestByName: (name: string) => project.tests.find((t) => t.name === name) as never,
        logger: silent,
        variables: new Variables(),
      });
      const emitter = (playback as unknown as Record<string, import("node:events").EventEmitter>)["event-emitter"];
      const failures: Failure[] = [];
      let final = "";
      emitter.on(PlaybackEvents.COMMAND_STATE_CHANGED, (event: { id: string; state: string; message?: string; error?: Error }) => {
        if (event.state !== "failed" && event.state !== "errored") return;
        const command = test.commands.find((c) => c.id === event.id) ?? { id: event.id, command: "?", target: "", value: "" };
        failures.push(failureOf(command, event.message ?? event.error?.message));
      });
      emitter.on(PlaybackEvents.PLAYBACK_STATE_CHANGED, (event: { state: string }) => {
        final = event.state;
      });
      try {
        await limited(
          (async () => {
            const finish = await playback.play(test as never);
            await finish();
          })(),
          `side-runtime's run of ${test.id}`,
          () => void playback.abort().catch(() => {}),
        );
      } catch (error) {
        if (failures.length === 0) return brokenPlay(error);
      }
      const passed = failures.length === 0 && final === "finished";
      if (!passed && failures.length === 0) failures.push({ command: "(the run)", target: "", value: "", message: `the run ended ${final}` });
      return { passed, failures };
    },
    async close() {
      await page.close();
      await app.close();
    },
  };
}

/** What the extension lanes share: the built IDE extension and a plugin extension that opens its window. */
export interface ExtensionBuild {
  ideDir: string;
  opener: { id: string; dir: string };
}

export async function buildForLanes(): Promise<ExtensionBuild> {
  const built = await buildExtension({ outDir: join(mkdtempSync(join(tmpdir(), "ide-core-flake-")), "extension") });
  return { ideDir: built.outDir, opener: makePluginExtension("flake-opener") };
}

interface WindowRun {
  timedOut: boolean;
  rows: Array<{ state: string; message: string }>;
  result: string;
}

/** Presses Play in the IDE window and gives the rows once the run ended (or the limit passed). */
function playInWindow(window: Page): Promise<WindowRun> {
  return window.evaluate(`new Promise((resolve) => {
    const status = () => document.querySelector('[data-testid="run-status"]')?.getAttribute("data-status");
    const play = [...document.querySelectorAll("button")].find((b) => b.textContent.trim() === "Play");
    let left = false;
    const finish = (timedOut) => {
      observer.disconnect();
      clearTimeout(timer);
      resolve({
        timedOut,
        rows: [...document.querySelectorAll('[data-testid="command-row"]')].map((row) => ({
          state: (row.querySelector('[data-testid="command-state"]')?.textContent ?? "").trim(),
          message: (row.querySelector('[data-testid="command-message"]')?.textContent ?? "").trim(),
        })),
        result: document.querySelector('[data-testid="run-result"]')?.textContent ?? "",
      });
    };
    const check = () => {
      if (status() !== "ended") left = true;
      else if (left) finish(false);
    };
    const observer = new MutationObserver(check);
    const timer = setTimeout(() => finish(true), ${PLAY_LIMIT_MS});
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    play.click();
    check();
  })`) as Promise<WindowRun>;
}

export async function extensionLane(project: SideProject, build: ExtensionBuild): Promise<Lane> {
  const app = await startSlowApp();
  let context: BrowserContext | null = null;
  try {
    context = await launchWithExtensions(profileDir(), [build.ideDir, build.opener.dir]);
    const opener = await workerOf(context, build.opener.id);
    await workerOf(context, IDE_EXTENSION_ID);
    const tab = context.pages()[0] ?? (await context.newPage());
    await tab.goto(`${app.origin}/`, { timeout: 30_000 });
    const window = await openIdeWindow(context, opener);
    const body = { ...project, url: app.origin };
    await window.locator('[data-testid="load-file"]').setInputFiles({ name: "flake.side", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(body)) });
    await window.waitForSelector(`[data-testid="project-name"]:has-text("${project.name}")`, { timeout: 30_000 });
    const opened = context;
    return {
      async play(test, seed) {
        app.seed = seed;
        try {
          await window.locator('[data-testid="test-picker"]').selectOption(test.id, { timeout: 10_000 });
          await tab.bringToFront();
          const run = await playInWindow(window);
          if (run.timedOut) {
            await window.getByRole("button", { name: "Stop", exact: true }).click({ timeout: 5_000 }).catch(() => {});
            return brokenPlay(new Error(`the extension's run of ${test.id} did not end within ${PLAY_LIMIT_MS} ms`));
          }
          const failures = run.rows
            .map((row, i) => ({ row, command: test.commands[i] }))
            .filter(({ row }) => /failed|fatal|undetermined/.test(row.state))
            .map(({ row, command }) => failureOf(command ?? { id: "?", command: "?", target: "", value: "" }, row.message));
          const passed = run.rows.length === test.commands.length && run.rows.every((row) => row.state === "passed") && /passed/.test(run.result);
          if (!passed && failures.length === 0) failures.push({ command: "(the run)", target: "", value: "", message: `the run ended ${run.result}: ${run.rows.map((r) => r.state).join(", ")}` });
          return { passed, failures };
        } catch (error) {
          return brokenPlay(error);
        }
      },
      async close() {
        await opened.close().catch(() => {});
        await app.close();
      },
    };
  } catch (error) {
    await context?.close().catch(() => {});
    await app.close();
    throw error;
  }
}

export async function openLane(player: PlayerName, project: SideProject, build: ExtensionBuild | null): Promise<Lane> {
  if (player === "host") return hostLane(project);
  if (player === "runtime") return runtimeLane(project);
  if (!build) throw new Error("the extension's lanes need the built extension");
  return extensionLane(project, build);
}
