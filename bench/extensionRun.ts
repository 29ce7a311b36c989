// A run in the browser extension's tab under test against the same run through WebDriver (the
// host's executor, drivers/host/browserPage.ts: side-runtime's WebDriverExecutor over Debian's
// chromedriver), on the same page of the same test site, in the same benchmark run.
// The test: open, then 50 × (type, click, assertText): 151 page commands.
// - extension: the built extension in headless Chromium; the project is loaded from a file in
//   the IDE window, and the time is taken inside the window from the click on Play until the
//   run shows `ended` (a MutationObserver on the run's status), so it includes the UI drawing
//   every state, as a user sees it;
// - WebDriver: a core in this process (createIde with browserPage), the same project,
//   `user.startPlayback` until the view says `ended`. Its browser is started before timing.
// Rounds alternate between the two, so a slow spell of the machine falls on both. Each round
// checks itself: every command passed and the run's result is `passed`.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { createIde } from "../index.ts";
import type { Ide } from "../index.ts";
import { launchWithExtensions } from "../drivers/host/chromium.ts";
import { browserPage } from "../drivers/host/browserPage.ts";
import { buildExtension } from "../apps/extension/build.ts";
import { IDE_EXTENSION_ID } from "../drivers/webextension/identity.ts";
import { makePluginExtension, openIdeWindow, profileDir, serveTestSite, workerOf } from "../tests/support/extensions.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { check, fmtNum, fmtRatio, heading, median, printTable } from "./support.ts";

const TURNS = 50;
const ROUNDS = 4;
const TARGET = 2;

function benchProject(origin: string) {
  const commands = [{ id: "c-open", command: "open", target: "/form", value: "" }];
  for (let i = 0; i < TURNS; i++) {
    commands.push(
      { id: `c-type-${i}`, command: "type", target: "id=name", value: `visitor ${i}` },
      { id: `c-click-${i}`, command: "click", target: "id=go", value: "" },
      { id: `c-assert-${i}`, command: "assertText", target: "id=result", value: `Hello visitor ${i}` },
    );
  }
  return { id: "bench-run", name: "Run benchmark", url: origin, tests: [{ id: "t-bench", name: "types, clicks and checks", commands }] };
}

/** Presses Play in the IDE window and gives the milliseconds until the run ended, taken in the window. */
async function playInWindow(window: Page): Promise<{ ms: number; states: string[]; result: string }> {
  return (await window.evaluate(`new Promise((resolve) => {
    const status = () => document.querySelector('[data-testid="run-status"]')?.getAttribute("data-status");
    const play = [...document.querySelectorAll("button")].find((b) => b.textContent.trim() === "Play");
    let left = false;
    const started = performance.now();
    const check = () => {
      const now = status();
      if (now !== "ended") left = true;
      else if (left) {
        observer.disconnect();
        resolve({
          ms: performance.now() - started,
          states: [...document.querySelectorAll('[data-testid="command-state"]')].map((s) => s.textContent.trim()),
          result: document.querySelector('[data-testid="run-result"]')?.textContent ?? "",
        });
      }
    };
    const observer = new MutationObserver(check);
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    play.click();
    check();
  })`)) as { ms: number; states: string[]; result: string };
}

/** Plays the test in a host core over WebDriver and gives the milliseconds until it ended. */
async function playOverWebDriver(ide: Ide): Promise<{ ms: number; states: Array<string | null>; result: string | null }> {
  const started = performance.now();
  const ended = new Promise<void>((resolve) => {
    const sub = ide.subscribe((view) => {
      if (view.playback?.status === "ended") {
        sub.unsubscribe();
        resolve();
      }
    });
  });
  ide.send({ type: "user.startPlayback", testId: "t-bench" });
  await ended;
  const ms = performance.now() - started;
  const view = ide.getSnapshot();
  return { ms, states: view.playback!.commands.map((c) => c.state), result: view.playback!.result };
}

async function run(): Promise<SummaryLine[]> {
  const commandCount = 1 + TURNS * 3;
  heading(
    "extension-run: page commands in the tab under test against WebDriver",
    `open, then ${TURNS} × (type, click, assertText): ${commandCount} page commands, ${ROUNDS} rounds each,\n` +
      "played in the extension's tab under test and through side-runtime's WebDriverExecutor in the host, on the same page.",
  );
  console.log("  building the extension…");
  const built = await buildExtension({ outDir: join(mkdtempSync(join(tmpdir(), "ide-core-bench-")), "extension") });
  const site = await serveTestSite();
  const project = benchProject(site.origin);
  const plugin = makePluginExtension("bench-run-plugin");
  const context = await launchWithExtensions(profileDir(), [built.outDir, plugin.dir]);
  // WebDriver itself (side-runtime's WebDriverExecutor): since issue 26 the host's default is the
  // one player in the page, which this benchmark does not compare against.
  const driven = browserPage({ player: "webdriver" });
  const host = createIde({ project, executor: driven });
  try {
    const pluginWorker = await workerOf(context, plugin.id);
    await workerOf(context, IDE_EXTENSION_ID);
    const tab = context.pages()[0] ?? (await context.newPage());
    await tab.goto(`${site.origin}/second`);
    const window = await openIdeWindow(context, pluginWorker);
    await window.locator('[data-testid="load-file"]').setInputFiles({
      name: "bench.side",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(project)),
    });
    await window.waitForSelector(`[data-testid="project-name"]:has-text("${project.name}")`);

    // Warm-up: one run each (WebDriver's starts its browser here, outside the timing).
    console.log("  warming up (WebDriver starts its browser)…");
    const samples = { extension: [] as number[], webdriver: [] as number[] };
    const checkRun = (name: string, states: ReadonlyArray<string | null>, result: string | null) => {
      check(states.length === commandCount, `${name}: ${states.length} command states, not ${commandCount}`);
      const bad = states.findIndex((s) => s === null || !s.includes("passed"));
      check(bad < 0, `${name}: command ${bad + 1} ended ${states[bad]}`);
      check(result !== null && result.includes("passed"), `${name}: the run's result is ${result}`);
    };
    for (let round = -1; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (["extension", "webdriver"] as const) : (["webdriver", "extension"] as const);
      for (const which of order) {
        if (which === "extension") {
          const played = await playInWindow(window);
          checkRun("extension", played.states, played.result);
          check((await tab.evaluate(`document.getElementById("result").textContent`)) === `Hello visitor ${TURNS - 1}`, "the tab's page shows the last greeting");
          if (round >= 0) samples.extension.push(played.ms);
        } else {
          const played = await playOverWebDriver(host);
          checkRun("webdriver", played.states, played.result);
          if (round >= 0) samples.webdriver.push(played.ms);
        }
      }
      if (round >= 0) process.stdout.write(`  round ${round + 1}/${ROUNDS} done\r`);
    }
    console.log("");

    const rate = (ms: number) => (commandCount / ms) * 1000;
    const ext = median(samples.extension);
    const wd = median(samples.webdriver);
    printTable(
      ["run of 151 page commands", "median", "runs (ms)", "commands/s"],
      [
        ["extension: tab under test", `${fmtNum(ext, 0)} ms`, samples.extension.map((m) => fmtNum(m, 0)).join(", "), fmtNum(rate(ext), 0)],
        ["WebDriver: host WebDriverExecutor", `${fmtNum(wd, 0)} ms`, samples.webdriver.map((m) => fmtNum(m, 0)).join(", "), fmtNum(rate(wd), 0)],
      ],
    );
    console.log("");
    const ratio = rate(ext) / rate(wd);
    return [
      {
        benchmark: "extension-run",
        figure: "page commands per second in the tab under test",
        value: `${fmtNum(rate(ext), 0)} /s (${fmtNum(ext / commandCount, 2)} ms each)`,
        ratio: `${fmtRatio(ratio)} WebDriver (${fmtNum(rate(wd), 0)} /s)`,
        target: `≥ ${TARGET}× WebDriver`,
        met: ratio >= TARGET,
      },
    ];
  } finally {
    host.stop();
    await driven.close();
    await context.close();
    await site.close();
  }
}

export const extensionRunBenchmark: Benchmark = {
  name: "extension-run",
  description: "a run of open + 50 × type/click/assertText in the extension's tab under test against WebDriver",
  run,
};
