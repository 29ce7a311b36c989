// A real run in a real page, through npm start's path, against Selenium IDE's own runtime on
// the same browser (issue 11; issue 26: the IDE's one player against WebDriver). One test: `open /shop`, then 50 rounds of
// `type id=user`, `click linkText=Add to cart`, `assertText css=.cart-count N` on the example
// site (151 page commands).
//   IDE:      startHost() as bin/start.ts runs it: createIde and its machines, the WebDriver
//             page (drivers/host/browserPage.ts), one UI page's socket subscribed to the relay
//             (so the page under test streams live, DevTools' screencast, as with the IDE page
//             open) and one plugin connected over the bridge, which hears the run's events.
//             Timed from user.startPlayback to the run's end.
//   baseline: side-runtime's `Playback` playing the same test on the same WebDriverExecutor
//             instance, in the same Chromium session, in the same process.
//   and the IDE again with no UI socket (so no pictures), which shows what the pictures cost;
//   and once more unwatched with the player's actionability waits off (a browser of its own),
//   which shows what the waits cost a command on a page that is already settled (issue 27).
// After a warm-up of each, rounds of the five, the order rotating every round, with a pause
// between runs longer than the capture interval, so a picture taken after an IDE run ends is
// not counted against the next run. Medians are printed, with the ratio of medians and the
// median of the rounds' ratios.
// Self-checking: every command of every run passed, every way; the UI socket got pictures of
// the page, and none came without it; the plugin heard each IDE run start and stop.
import { readFileSync } from "node:fs";
import WebSocket from "ws";
import PlaybackModule, { PlaybackEvents } from "@seleniumhq/side-runtime/dist/playback.js";
import VariablesModule from "@seleniumhq/side-runtime/dist/variables.js";
import { connectPlugin } from "../client/index.ts";
import { startHost } from "../apps/host/host.ts";
import { startExampleSite } from "../drivers/host/site.ts";
import { browserPage } from "../drivers/host/browserPage.ts";
import { PAGE_INTERVAL_MS } from "../drivers/view/pageFeed.ts";
import type { LiveSink } from "../drivers/view/pageFeed.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { check, fmtMs, fmtNum, fmtRatio, heading, median, now, printTable, playTimed, shopRunProject } from "./support.ts";

const unwrap = <T,>(module: T): T => (module as { default?: T }).default ?? module;
const Playback = unwrap(PlaybackModule);
const Variables = unwrap(VariablesModule);

const ROUNDS = 50;
const REPS = 7; // rounds of the five contenders
const TARGET = 1 / 3; // issue 26: the IDE with the one player ≥ 3× faster than the runtime alone
const WEBDRIVER_TARGET = 1.05; // the IDE through --executor webdriver ≤ 1.05× the runtime alone
const SETTLE_MS = 2 * PAGE_INTERVAL_MS + 200; // a trailing capture after a run is over before the next starts
const RUN_LIMIT_MS = 120_000;
const TEST_ID = "t-host-run";
const PLUGIN_ID = "bench-host-plugin";

const { test, project, commands: COMMANDS } = shopRunProject(TEST_ID, "bench-host-run", "Host run benchmark", ROUNDS);

const silent = { info() {}, log() {}, warn() {}, error() {}, debug() {} } as unknown as Console;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Contender = "ide" | "unwatched" | "runtime" | "webdriver" | "nowaits";
const ORDER: Contender[] = ["ide", "runtime", "unwatched", "webdriver", "nowaits"];
const WAITS_TARGET_MS = 10; // issue 27: the actionability waits cost ≤ 10 ms a command on a settled page

async function run(): Promise<SummaryLine[]> {
  heading(
    "host-run: a run in a real page, the IDE against side-runtime's Playback",
    [
      `The example site in headless Chromium through chromedriver; one test of open and ${ROUNDS} rounds of type, click and`,
      `assertText (${COMMANDS} page commands). IDE: startHost() as npm start runs it, with a UI socket subscribed to the relay`,
      `(the page live, DevTools' screencast) and a plugin connected over the bridge. Baseline: side-runtime's Playback`,
      `on the same WebDriverExecutor and browser session. The IDE plays with the one player (in the page, trusted input over DevTools).`,
      `Also the IDE with no UI socket (no updates, no pictures): what watching costs; the IDE with --executor webdriver;`,
      `and the IDE unwatched with the player's actionability waits off: what the waits cost on a settled page.`,
      `A warm-up each, then ${REPS} rounds of the five, the order rotating every round.`,
      `Untraced: startHost is given no trace store, so the IDE's trace "on" keeps nothing here (npm start's composeHost gives one;`,
      `npm run bench -- --only trace measures what a traced run costs).`,
    ].join("\n"),
  );

  const site = await startExampleSite();
  const page = browserPage({ baseUrl: site.url });
  // The IDE once more with --executor webdriver, in a browser of its own: every command through WebDriver.
  const webdriverOnly = browserPage({ baseUrl: site.url, player: "webdriver" });
  // And with the actionability waits off, in a browser of its own: only to see what they cost.
  const noWaits = browserPage({ baseUrl: site.url, actionWaits: false });
  const seen = { frames: 0, pictures: 0, started: 0, stopped: 0, captures: 0 };
  // The browser page as npm start gives it to the host, counting the times it is asked for the page (live or still).
  const executor = {
    execute: page.execute.bind(page),
    evaluate: page.evaluate.bind(page),
    hasPage: page.hasPage.bind(page),
    resolveLocator: page.resolveLocator.bind(page),
    capturePage: () => {
      seen.captures += 1;
      return page.capturePage();
    },
    // The page live (DevTools' screencast) while the UI socket watches, as npm start shows it.
    livePage: (sink: LiveSink) => {
      seen.captures += 1;
      return page.livePage(sink);
    },
    stopLivePage: () => page.stopLivePage(),
  };
  const host = await startHost({ port: 0, tokenFile: null, project, executor });
  const webdriverHost = await startHost({ port: 0, tokenFile: null, project, executor: webdriverOnly });
  const noWaitsHost = await startHost({ port: 0, tokenFile: null, project, executor: noWaits });
  let ui: WebSocket | null = null;

  /** An IDE page's socket: it reads every frame; the pictures are counted by their type. */
  async function connectUi(): Promise<void> {
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/ui?token=${host.token}`, { origin: `http://127.0.0.1:${host.port}`, handshakeTimeout: 10_000 });
    socket.on("message", (data) => {
      seen.frames += 1;
      if (String(data).startsWith('{"type":"page"')) seen.pictures += 1;
    });
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    ui = socket;
  }
  async function disconnectUi(): Promise<void> {
    const socket = ui;
    ui = null;
    if (!socket) return;
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.close();
    await closed;
  }

  const plugin = await connectPlugin({ url: host.urls.plugins, id: PLUGIN_ID, token: host.token });
  try {
    const registered = await plugin.register({ name: "Host run benchmark plugin", version: "1.0.0" });
    check(registered === true, `the plugin registers (answered ${JSON.stringify(registered)})`);
    plugin.onMessage((message) => {
      if (message.event === "playbackStarted") seen.started += 1;
      if (message.event === "playbackStopped") seen.stopped += 1;
    });

    /** One run through the IDE, from the user's Play to its end. */
    async function ideRun(ide = host.ide): Promise<number> {
      const inPage = page.playedInPage();
      const inPageNoWaits = noWaits.playedInPage();
      const { elapsed, playback } = await playTimed(ide, TEST_ID, RUN_LIMIT_MS);
      const passed = playback.commands.filter((c) => c.state === "passed").length;
      check(playback.result === "passed" && passed === COMMANDS, `the IDE's run passed every command (${passed} of ${COMMANDS} passed, result ${playback.result})`);
      const played = page.playedInPage() - inPage;
      if (ide === host.ide) check(played === COMMANDS - 1, `the one player played every command but open in the page (${played} of ${COMMANDS - 1})`);
      else if (ide === noWaitsHost.ide) check(noWaits.playedInPage() - inPageNoWaits === COMMANDS - 1, "with the waits off, the one player played every command but open in the page");
      else check(played === 0 && webdriverOnly.playedInPage() === 0, "--executor webdriver played nothing in the page");
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

    let watchedPictures = 0;
    let ideRuns = 0;
    /** One run of a contender; the IDE page's socket is connected for "ide" only, outside the timing. */
    async function runOf(contender: Contender): Promise<number> {
      if (contender === "ide") {
        await connectUi();
        await sleep(SETTLE_MS); // the picture a new watcher gets is taken before the run
      }
      const pictures = seen.pictures;
      const captures = seen.captures;
      let elapsed: number;
      if (contender === "runtime") elapsed = await runtimeRun();
      else if (contender === "webdriver") elapsed = await ideRun(webdriverHost.ide);
      else if (contender === "nowaits") elapsed = await ideRun(noWaitsHost.ide);
      else {
        elapsed = await ideRun();
        ideRuns += 1;
      }
      await sleep(SETTLE_MS); // a picture taken after the run ends is not counted against the next
      if (contender === "ide") {
        watchedPictures += seen.pictures - pictures;
        await disconnectUi();
      } else check(seen.captures === captures, `no picture is taken without an IDE page (${contender}: ${seen.captures - captures})`);
      return elapsed;
    }

    // Warm up: the browser starts at the IDE's first run; each way once more after that.
    for (const contender of ORDER) await runOf(contender);
    watchedPictures = 0;

    const times: Record<Contender, number[]> = { ide: [], unwatched: [], runtime: [], webdriver: [], nowaits: [] };
    for (let round = 0; round < REPS; round++) {
      for (let i = 0; i < ORDER.length; i++) {
        const contender = ORDER[(round + i) % ORDER.length];
        times[contender].push(await runOf(contender));
      }
    }
    check(watchedPictures > 0, "the UI socket got pictures of the page under test during the IDE's runs");
    check(seen.started === ideRuns && seen.stopped === ideRuns, `the plugin heard every IDE run start and stop (${seen.started} / ${seen.stopped} of ${ideRuns})`);

    const ide = median(times.ide);
    const unwatched = median(times.unwatched);
    const runtime = median(times.runtime);
    const ratio = ide / runtime;
    const roundRatios = times.ide.map((t, i) => t / times.runtime[i]);
    const roundRatio = median(roundRatios);
    const met = ratio <= TARGET;
    const line = (name: string, values: number[]) => {
      const m = median(values);
      return [name, fmtMs(m), fmtMs(Math.min(...values)), fmtMs(Math.max(...values)), fmtNum((COMMANDS * 1000) / m, 1), fmtRatio(m / runtime)];
    };
    printTable(
      ["per run", "median", "min", "max", "page commands/s", "to Playback"],
      [
        line("IDE, an IDE page watching (npm start)", times.ide),
        line("IDE, no IDE page (no updates, no pictures)", times.unwatched),
        line("IDE, --executor webdriver, no IDE page", times.webdriver),
        line("IDE, no IDE page, actionability waits off", times.nowaits),
        line("side-runtime's Playback alone", times.runtime),
      ],
    );
    console.log("");
    console.log(`  The IDE watched against Playback, round by round: ${roundRatios.map((r) => fmtRatio(r)).join(", ")} (median ${fmtRatio(roundRatio)}).`);
    console.log(`  An IDE page watching (the relay's updates and the pictures): the IDE watched is ${fmtRatio(ide / unwatched)} the IDE with no IDE page (medians).`);
    console.log(
      `  Pictures of the page sent to the UI socket: ${watchedPictures} over ${REPS} watched runs (${fmtNum(watchedPictures / REPS, 1)} a run, ` +
        `${fmtNum((watchedPictures * 1000) / times.ide.reduce((a, b) => a + b, 0), 1)} a second); ${seen.frames} frames in all.`,
    );
    const waitsMs = (unwatched - median(times.nowaits)) / (COMMANDS - 1);
    console.log(`  The player's actionability waits cost ${fmtNum(waitsMs, 1)} ms a page command on this settled page (IDE unwatched, waits on against off, medians).`);
    console.log(`  Self-checks passed: every command of ${ORDER.length * (REPS + 1)} runs passed; the plugin heard each IDE run; no picture taken without an IDE page.`);

    return [
      {
        benchmark: "host-run",
        figure: `IDE run of ${COMMANDS} page commands`,
        value: `${fmtMs(ide)}, ${fmtNum((COMMANDS * 1000) / ide, 1)} commands/s`,
        ratio: `${fmtRatio(ratio)} side-runtime's Playback (${fmtMs(runtime)}); by round ${fmtRatio(roundRatio)}`,
        target: `≤ ${fmtNum(TARGET, 2)}× (3× faster)`,
        met,
      },
      {
        benchmark: "host-run",
        figure: "IDE with --executor webdriver (every command through WebDriver)",
        value: `${fmtMs(median(times.webdriver))}, ${fmtNum((COMMANDS * 1000) / median(times.webdriver), 1)} commands/s`,
        ratio: `${fmtRatio(median(times.webdriver) / runtime)} Playback`,
        target: `≤ ${fmtNum(WEBDRIVER_TARGET, 2)}×`,
        met: median(times.webdriver) / runtime <= WEBDRIVER_TARGET,
      },
      {
        benchmark: "host-run",
        figure: "IDE with no IDE page (no updates, no pictures)",
        value: `${fmtMs(unwatched)}, ${fmtNum((COMMANDS * 1000) / unwatched, 1)} commands/s`,
        ratio: `${fmtRatio(unwatched / runtime)} Playback; watched is ${fmtRatio(ide / unwatched)} this`,
        target: "",
        met: null,
      },
      {
        benchmark: "host-run",
        figure: "the actionability waits on a settled page",
        value: `${fmtNum(waitsMs, 1)} ms a page command`,
        ratio: `${fmtRatio(unwatched / median(times.nowaits))} the IDE with them off`,
        target: `≤ ${WAITS_TARGET_MS} ms a command`,
        met: waitsMs <= WAITS_TARGET_MS,
      },
    ];
  } finally {
    await disconnectUi();
    await plugin.disconnect().catch(() => {});
    await host.close();
    await webdriverHost.close();
    await noWaitsHost.close();
    await noWaits.close();
    await page.close();
    await webdriverOnly.close();
    await site.close();
  }
}

export const hostRunBenchmark: Benchmark = {
  name: "host-run",
  description: "a real run in Chromium through npm start's path against side-runtime's Playback on the same executor",
  run,
};
