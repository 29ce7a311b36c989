// A real run in a real page, through npm start's path, against Selenium IDE's own runtime on
// the same executor and browser (issue 11). One test: `open /shop`, then 50 rounds of
// `type id=user`, `click linkText=Add to cart`, `assertText css=.cart-count N` on the example
// site (151 page commands).
//   IDE:      startHost() as bin/start.ts runs it: createIde and its machines, the WebDriver
//             page (adapters/host/webdriver.ts), one UI page's socket subscribed to the relay
//             (so the page under test is captured after page commands, as with the IDE page
//             open) and one plugin connected over the bridge, which hears the run's events.
//             Timed from user.startPlayback to the run's end.
//   baseline: side-runtime's `Playback` playing the same test on the same WebDriverExecutor
//             instance, in the same Chromium session, in the same process.
// After a warm-up of each, the two alternate (which goes first swaps every pair) with a pause
// between runs longer than the capture interval, so a picture taken after an IDE run ends is
// not counted against the next run. Medians are printed, with the ratio of medians and the
// median of the pairs' ratios.
// Self-checking: every command of every run passed, both ways; the UI socket got pictures of
// the page; the plugin heard each IDE run start and stop.
import { readFileSync } from "node:fs";
import WebSocket from "ws";
import PlaybackModule, { PlaybackEvents } from "@seleniumhq/side-runtime/dist/playback.js";
import VariablesModule from "@seleniumhq/side-runtime/dist/variables.js";
import { connectPlugin } from "../adapters/bridge/client.ts";
import { startHost } from "../adapters/host/host.ts";
import { startExampleSite } from "../adapters/host/site.ts";
import { webdriverPage } from "../adapters/host/webdriver.ts";
import { PAGE_INTERVAL_MS } from "../adapters/view/pageFeed.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { check, fmtMs, fmtNum, fmtRatio, heading, median, now, printTable } from "./support.ts";

const unwrap = <T,>(module: T): T => (module as { default?: T }).default ?? module;
const Playback = unwrap(PlaybackModule);
const Variables = unwrap(VariablesModule);

const ROUNDS = 50;
const PAIRS = 7;
const TARGET = 1.05; // the IDE's time ≤ 1.05× the runtime alone
const SETTLE_MS = 2 * PAGE_INTERVAL_MS + 200; // a trailing capture after a run is over before the next starts
const RUN_LIMIT_MS = 120_000;
const TEST_ID = "t-host-run";
const PLUGIN_ID = "bench-host-plugin";

type Row = [command: string, target: string, value?: string];
const rows: Row[] = [["open", "/shop"]];
for (let i = 1; i <= ROUNDS; i++) rows.push(["type", "id=user", `user ${i}`], ["click", "linkText=Add to cart"], ["assertText", "css=.cart-count", String(i)]);
const COMMANDS = rows.length;
const test = {
  id: TEST_ID,
  name: "open and 50 rounds of type, click, assertText",
  commands: rows.map(([command, target, value = ""], i) => ({ id: `c-${i}`, comment: "", command, target, targets: [], value })),
};
const project = { id: "bench-host-run", version: "2.0", name: "Host run benchmark", url: "http://127.0.0.1:1", tests: [test], suites: [], urls: [], plugins: [] };

const silent = { info() {}, log() {}, warn() {}, error() {}, debug() {} } as unknown as Console;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(): Promise<SummaryLine[]> {
  heading(
    "host-run: a run in a real page, the IDE against side-runtime's Playback",
    [
      `The example site in headless Chromium through chromedriver; one test of open and ${ROUNDS} rounds of type, click and`,
      `assertText (${COMMANDS} page commands). IDE: startHost() as npm start runs it, with a UI socket subscribed to the relay`,
      `(pictures of the page after page commands) and a plugin connected over the bridge. Baseline: side-runtime's Playback`,
      `on the same WebDriverExecutor and browser session. A warm-up each, then ${PAIRS} pairs, alternating which goes first.`,
    ].join("\n"),
  );

  const site = await startExampleSite();
  const page = webdriverPage({ baseUrl: site.url });
  const host = await startHost({ port: 0, tokenFile: null, project, executor: page });
  const origin = `http://127.0.0.1:${host.port}`;
  const ui = new WebSocket(`ws://127.0.0.1:${host.port}/ui?token=${host.token}`, { origin, handshakeTimeout: 10_000 });
  const uiOpen = new Promise<void>((resolve, reject) => {
    ui.once("open", () => resolve());
    ui.once("error", reject);
  });
  const seen = { frames: 0, pictures: 0, started: 0, stopped: 0 };
  // A page's socket: it reads every frame; the pictures are counted by their type.
  ui.on("message", (data) => {
    seen.frames += 1;
    if (String(data).startsWith('{"type":"page"')) seen.pictures += 1;
  });
  const plugin = await connectPlugin({ url: host.urls.plugins, id: PLUGIN_ID, token: host.token });
  try {
    await uiOpen;
    const registered = await plugin.register({ name: "Host run benchmark plugin", version: "1.0.0" });
    check(registered === true, `the plugin registers (answered ${JSON.stringify(registered)})`);
    plugin.onMessage((message) => {
      if (message.event === "playbackStarted") seen.started += 1;
      if (message.event === "playbackStopped") seen.stopped += 1;
    });

    /** One run through the IDE, from the user's Play to its end. */
    async function ideRun(): Promise<number> {
      const ide = host.ide;
      const before = ide.getSnapshot().playback?.runId ?? null;
      const ended = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the IDE's run did not end within ${RUN_LIMIT_MS} ms`)), RUN_LIMIT_MS);
        const subscription = ide.subscribe((view) => {
          if (view.playback && view.playback.runId !== before && view.playback.status === "ended") {
            clearTimeout(timer);
            subscription.unsubscribe();
            resolve();
          }
        });
      });
      const t0 = now();
      ide.send({ type: "user.startPlayback", testId: TEST_ID });
      await ended;
      const elapsed = now() - t0;
      const playback = ide.getSnapshot().playback!;
      const passed = playback.commands.filter((c) => c.state === "passed").length;
      check(playback.result === "passed" && passed === COMMANDS, `the IDE's run passed every command (${passed} of ${COMMANDS} passed, result ${playback.result})`);
      return elapsed;
    }

    /** One run through side-runtime's Playback on the executor and browser the IDE plays with. */
    async function runtimeRun(): Promise<number> {
      const { executor } = await page.sideRuntime();
      const playback = new Playback({ baseUrl: site.url, executor, getTestByName: () => test as never, logger: silent, variables: new Variables() });
      const emitter = (playback as unknown as Record<string, import("node:events").EventEmitter>)["event-emitter"];
      let passed = 0;
      let final = "";
      emitter.on(PlaybackEvents.COMMAND_STATE_CHANGED, (event: { state: string }) => {
        if (event.state === "passed") passed += 1;
      });
      emitter.on(PlaybackEvents.PLAYBACK_STATE_CHANGED, (event: { state: string }) => {
        final = event.state;
      });
      const t0 = now();
      const finish = await playback.play(test as never);
      await finish();
      const elapsed = now() - t0;
      check(passed === COMMANDS && final === "finished", `side-runtime's run passed every command (${passed} of ${COMMANDS} passed, ended ${final})`);
      return elapsed;
    }

    // Warm up: the browser starts at the IDE's first run; both ways once more after that.
    await ideRun();
    await sleep(SETTLE_MS);
    await runtimeRun();
    await sleep(SETTLE_MS);
    const picturesBefore = seen.pictures;

    const ideMs: number[] = [];
    const runtimeMs: number[] = [];
    const ratios: number[] = [];
    for (let pair = 0; pair < PAIRS; pair++) {
      let ideTime: number;
      let runtimeTime: number;
      if (pair % 2 === 0) {
        ideTime = await ideRun();
        await sleep(SETTLE_MS);
        runtimeTime = await runtimeRun();
      } else {
        runtimeTime = await runtimeRun();
        await sleep(SETTLE_MS);
        ideTime = await ideRun();
      }
      await sleep(SETTLE_MS);
      ideMs.push(ideTime);
      runtimeMs.push(runtimeTime);
      ratios.push(ideTime / runtimeTime);
    }
    const pictures = seen.pictures - picturesBefore;
    check(pictures > 0, "the UI socket got pictures of the page under test during the IDE's runs");
    check(seen.started === PAIRS + 1 && seen.stopped === PAIRS + 1, `the plugin heard every IDE run start and stop (${seen.started} / ${seen.stopped} of ${PAIRS + 1})`);

    const ide = median(ideMs);
    const runtime = median(runtimeMs);
    const ratio = ide / runtime;
    const pairRatio = median(ratios);
    const met = ratio <= TARGET;
    printTable(
      ["per run", "median", "min", "max", "page commands/s"],
      [
        ["IDE through npm start's path", fmtMs(ide), fmtMs(Math.min(...ideMs)), fmtMs(Math.max(...ideMs)), fmtNum((COMMANDS * 1000) / ide, 1)],
        ["side-runtime's Playback alone", fmtMs(runtime), fmtMs(Math.min(...runtimeMs)), fmtMs(Math.max(...runtimeMs)), fmtNum((COMMANDS * 1000) / runtime, 1)],
        ["ratio (medians)", fmtRatio(ratio), "", "", ""],
        ["ratio (median of the pairs)", fmtRatio(pairRatio), fmtRatio(Math.min(...ratios)), fmtRatio(Math.max(...ratios)), ""],
      ],
    );
    console.log("");
    console.log(`  Pairs' ratios: ${ratios.map((r) => fmtRatio(r)).join(", ")}.`);
    console.log(
      `  Pictures of the page sent to the UI socket: ${pictures} over ${PAIRS} IDE runs (${fmtNum(pictures / PAIRS, 1)} a run, ` +
        `${fmtNum((pictures * 1000) / ideMs.reduce((a, b) => a + b, 0), 1)} a second); ${seen.frames} frames in all.`,
    );
    console.log(`  Self-checks passed: every command of ${2 * (PAIRS + 1)} runs passed both ways; the plugin heard each IDE run.`);

    return [
      {
        benchmark: "host-run",
        figure: `IDE run of ${COMMANDS} page commands`,
        value: `${fmtMs(ide)}, ${fmtNum((COMMANDS * 1000) / ide, 1)} commands/s`,
        ratio: `${fmtRatio(ratio)} side-runtime's Playback (${fmtMs(runtime)}); pairs ${fmtRatio(pairRatio)}`,
        target: `≤ ${fmtNum(TARGET, 2)}×`,
        met,
      },
    ];
  } finally {
    ui.terminate();
    await plugin.disconnect().catch(() => {});
    await host.close();
    await page.close();
    await site.close();
  }
}

export const hostRunBenchmark: Benchmark = {
  name: "host-run",
  description: "a real run in Chromium through npm start's path against side-runtime's Playback on the same executor",
  run,
};
