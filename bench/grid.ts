// Playing at scale on a real Selenium Grid (issue 21, CONTRACT section 16), through the host's
// path (startHost, the session pool, createIde with workers), on the local Grid of `npm run grid`.
//   wall time: a parallel suite of 8 tests on slow pages (each waits 600 ms in the page, through
//              executeAsyncScript: on the page, not the CPU), with 1 worker and with 2; the
//              ratio 2 workers / 1 worker (target ≤ 0.6×). Each measured after a warm-up run
//              that opened the sessions.
//   the CLI:   issue 35's check, by `npm run play` as a process: a parallel suite of 4 tests,
//              each opening two pages the server holds back 2 s, with -w 2 against -w 1, through
//              the Grid and through a chromedriver started here; the CLI's own time (its summary
//              line) beside the host's figure above. Since issue 35 each test has a session of
//              its own, so these include a browser's start per test.
//   overhead:  one test of 40 quick page commands through the Grid against the same test
//              through a chromedriver started here: the Grid's cost per command.
//   player:    one test of open and 20 rounds of type, click and assertText (61 page commands)
//              through the Grid with the one player (in the page over the Grid's `se:cdp`) and
//              with `--executor webdriver` (target: the player ≥ 2× faster).
//   memory:    the host's heap (after GC) with 2 workers after 20 tests and after 100 tests of a
//              parallel suite (target ≤ 1.2×): ended test runners are let go.
// Self-checking: every run passes, with every test; two sessions were open at once with 2 workers.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHost } from "../apps/host/host.ts";
import { openSessions, startGrid } from "../drivers/grid/grid.ts";
import type { Grid } from "../drivers/grid/grid.ts";
import { sessionPool } from "../drivers/host/sessions.ts";
import { startExampleSite } from "../drivers/host/site.ts";
import type { Ide } from "../index.ts";
import type { PlayerKind } from "../drivers/host/browserPage.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { check, fmtMs, fmtNum, fmtRatio, heading, heapAfterGc, median, now, printTable } from "./support.ts";
import { playCli, servePages } from "./playCli.ts";

const SLOW_MS = 600;
const RUN_LIMIT_MS = 300_000;
const command = (id: string, name: string, target = "", value = "") => ({ id, command: name, target, value });

function project(testCount: number, commands: (prefix: string) => ReturnType<typeof command>[]) {
  const tests = Array.from({ length: testCount }, (_, i) => ({ id: `t${i}`, name: `test ${i}`, commands: commands(`t${i}`) }));
  return {
    id: "p-bench-grid",
    name: "Grid bench",
    url: "http://127.0.0.1:1",
    tests,
    suites: [{ id: "s", name: "Suite", parallel: true, persistSession: false, timeout: 300, tests: tests.map((t) => t.id) }],
  };
}
const slowTest = (p: string) => [
  command(`${p}-1`, "open", "/shop"),
  command(`${p}-2`, "executeAsyncScript", `return new Promise((resolve) => setTimeout(resolve, ${SLOW_MS}))`),
  command(`${p}-3`, "click", "linkText=Add to cart"),
  command(`${p}-4`, "assertText", "css=.cart-count", "1"),
];
const quickTest = (p: string) => [command(`${p}-1`, "open", "/shop"), command(`${p}-2`, "assertText", "css=.cart-count", "0")];
const roundsTest = (p: string) => [
  command(`${p}-0`, "open", "/shop"),
  ...Array.from({ length: 20 }, (_, i) => [
    command(`${p}-${i}-t`, "type", "id=user", `user ${i}`),
    command(`${p}-${i}-c`, "click", "linkText=Add to cart"),
    command(`${p}-${i}-a`, "assertText", "css=.cart-count", String(i + 1)),
  ]).flat(),
];
/** Issue 35's suite: 4 tests at once, each two pages held back 2 s. */
function cliProject(origin: string) {
  const tests = Array.from({ length: 4 }, (_, i) => ({
    id: `t${i}`,
    name: `slow ${i}`,
    commands: ["a", "b"].flatMap((page) => [command(`t${i}-${page}o`, "open", `/slow/${page}${i}?ms=2000`), command(`t${i}-${page}a`, "assertText", "css=h1", `Slow ${page}${i}`)]),
  }));
  return { id: "p-cli", version: "2.0", name: "Slow suite", url: origin, urls: [], plugins: [], tests, suites: [{ id: "s", name: "par", parallel: true, persistSession: false, timeout: 300, tests: tests.map((t) => t.id) }] };
}

/** The CLI's own time for issue 35's suite with 1 and 2 workers, through `server` (else a chromedriver started by the CLI). */
async function cliWalls(server: string | null): Promise<Record<number, number>> {
  const pages = await servePages();
  const dir = mkdtempSync(join(tmpdir(), "ide-core-bench-grid-"));
  try {
    const file = join(dir, "slow.side");
    writeFileSync(file, JSON.stringify(cliProject(pages.origin)));
    const walls: Record<number, number> = {};
    for (const workers of [1, 2]) walls[workers] = (await playCli([file, "-w", String(workers), ...(server ? ["-s", server] : [])], dir, 4)).own;
    return walls;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await pages.close();
  }
}

const longTest = (p: string) => [command(`${p}-0`, "open", "/shop"), ...Array.from({ length: 40 }, (_, i) => command(`${p}-${i + 1}`, "assertText", "css=.cart-count", "0"))];

/** Plays the suite (or the test) and resolves with its wall time once it passed. */
async function timedRun(ide: Ide, start: () => void, tests: number): Promise<number> {
  const before = ide.getSnapshot().playback;
  const t0 = now();
  start();
  const deadline = Date.now() + RUN_LIMIT_MS;
  for (;;) {
    const playback = ide.getSnapshot().playback;
    if (playback && playback !== before && playback.status === "ended") {
      check(playback.result === "passed", `the run passed (it says ${playback.result})`);
      check((playback.suite?.runs.length ?? 1) === tests, `all ${tests} tests played`);
      return now() - t0;
    }
    check(Date.now() < deadline, "the run ended in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function hostOn(grid: Grid | null, siteUrl: string, workers: number, body: ReturnType<typeof project>, player: PlayerKind = "devtools") {
  const pool = sessionPool({ sessions: workers, baseUrl: siteUrl, webdriverUrl: grid?.url, player });
  const host = await startHost({ port: 0, tokenFile: null, project: body, executor: pool, workers });
  return {
    ide: host.ide,
    playedInPage: () => pool.playedInPage(),
    async close() {
      await host.close();
      await pool.close();
    },
  };
}

export const gridBenchmark: Benchmark = {
  name: "grid",
  description: "a parallel suite on a local Selenium Grid: 2 workers against 1, the Grid's cost per command, the heap over 100 tests",
  async run(): Promise<SummaryLine[]> {
    heading("grid", "8 tests on slow pages on a local Selenium Grid (a hub and a node) with 1 and 2 workers;\nnpm run play of 4 tests on slow pages with -w 1 and -w 2, through the Grid and chromedriver;\none test of 40 commands through the Grid and through chromedriver directly;\nthe heap with 2 workers after 20 and after 100 tests.");
    const grid = await startGrid({ maxSessions: 2 });
    const site = await startExampleSite();
    try {
      const walls: Record<number, number> = {};
      let most = 0;
      for (const workers of [1, 2]) {
        const host = await hostOn(grid, site.url, workers, project(8, slowTest));
        const watch = setInterval(() => void grid.status().then((s) => (most = Math.max(most, openSessions(s))), () => {}), 100);
        try {
          await timedRun(host.ide, () => host.ide.send({ type: "user.startSuite", suiteId: "s" }), 8); // warm-up: the sessions open
          walls[workers] = await timedRun(host.ide, () => host.ide.send({ type: "user.startSuite", suiteId: "s" }), 8);
        } finally {
          clearInterval(watch);
          await host.close();
        }
      }
      check(most === 2, `two sessions were open at once with 2 workers (most seen: ${most})`);
      const wallRatio = walls[2] / walls[1];
      const cli = { grid: await cliWalls(grid.url), chromedriver: await cliWalls(null) };
      const cliRatio = { grid: cli.grid[2] / cli.grid[1], chromedriver: cli.chromedriver[2] / cli.chromedriver[1] };

      const perCommand: Record<string, number> = {};
      for (const [where, on] of [["grid", grid], ["chromedriver", null]] as const) {
        // WebDriver's commands both ways, so the figure stays the Grid's own cost.
        const host = await hostOn(on, site.url, 1, project(1, longTest), "webdriver");
        try {
          await timedRun(host.ide, () => host.ide.send({ type: "user.startPlayback", testId: "t0" }), 1);
          const times: number[] = [];
          for (let i = 0; i < 3; i++) times.push(await timedRun(host.ide, () => host.ide.send({ type: "user.startPlayback", testId: "t0" }), 1));
          perCommand[where] = Math.min(...times) / 41;
        } finally {
          await host.close();
        }
      }
      const overhead = perCommand.grid - perCommand.chromedriver;

      // The one player against WebDriver through the same Grid, rounds interleaved.
      const played: Record<PlayerKind, number[]> = { devtools: [], webdriver: [] };
      {
        const hosts = { devtools: await hostOn(grid, site.url, 1, project(1, roundsTest), "devtools"), webdriver: await hostOn(grid, site.url, 1, project(1, roundsTest), "webdriver") };
        try {
          for (const kind of ["devtools", "webdriver"] as const) await timedRun(hosts[kind].ide, () => hosts[kind].ide.send({ type: "user.startPlayback", testId: "t0" }), 1);
          for (let round = 0; round < 3; round++) {
            for (const kind of round % 2 ? (["webdriver", "devtools"] as const) : (["devtools", "webdriver"] as const)) {
              played[kind].push(await timedRun(hosts[kind].ide, () => hosts[kind].ide.send({ type: "user.startPlayback", testId: "t0" }), 1));
            }
          }
          check(hosts.devtools.playedInPage() === 4 * 60, `the player played every command but open through the Grid (${hosts.devtools.playedInPage()} of ${4 * 60})`);
          check(hosts.webdriver.playedInPage() === 0, "--executor webdriver played nothing in the page");
        } finally {
          await hosts.devtools.close();
          await hosts.webdriver.close();
        }
      }
      const playerRatio = median(played.devtools) / median(played.webdriver);

      const heaps: number[] = [];
      {
        const host = await hostOn(grid, site.url, 2, project(20, quickTest));
        try {
          await timedRun(host.ide, () => host.ide.send({ type: "user.startSuite", suiteId: "s" }), 20);
          heaps.push(heapAfterGc());
          for (let i = 0; i < 4; i++) await timedRun(host.ide, () => host.ide.send({ type: "user.startSuite", suiteId: "s" }), 20);
          heaps.push(heapAfterGc());
        } finally {
          await host.close();
        }
      }
      const heapRatio = heaps[1] / heaps[0];

      printTable(
        ["figure", "value", "against", "ratio"],
        [
          ["8 slow tests, 1 worker", fmtMs(walls[1]), "", ""],
          ["8 slow tests, 2 workers", fmtMs(walls[2]), "1 worker", fmtRatio(wallRatio)],
          ["npm run play, 4 tests × two 2 s pages, Grid, -w 1", fmtMs(cli.grid[1]), "", ""],
          ["npm run play, the same, Grid, -w 2", fmtMs(cli.grid[2]), "-w 1", fmtRatio(cliRatio.grid)],
          ["npm run play, the same, chromedriver, -w 1", fmtMs(cli.chromedriver[1]), "", ""],
          ["npm run play, the same, chromedriver, -w 2", fmtMs(cli.chromedriver[2]), "-w 1", fmtRatio(cliRatio.chromedriver)],
          ["a command through the Grid", fmtMs(perCommand.grid), "chromedriver directly", fmtRatio(perCommand.grid / perCommand.chromedriver)],
          ["a command through chromedriver", fmtMs(perCommand.chromedriver), "", ""],
          ["61 commands through the Grid, the one player", fmtMs(median(played.devtools)), "WebDriver through the Grid", fmtRatio(playerRatio)],
          ["61 commands through the Grid, WebDriver", fmtMs(median(played.webdriver)), "", ""],
          ["heap after 20 tests", `${fmtNum(heaps[0] / 1e6)} MB`, "", ""],
          ["heap after 100 tests", `${fmtNum(heaps[1] / 1e6)} MB`, "after 20", fmtRatio(heapRatio)],
        ],
      );
      return [
        { benchmark: "grid", figure: "8 slow tests, 2 workers", value: fmtMs(walls[2]), ratio: `${fmtRatio(wallRatio)} 1 worker`, target: "≤ 0.6×", met: wallRatio <= 0.6 },
        { benchmark: "grid", figure: "npm run play -w 2 through the Grid, 4 slow tests", value: fmtMs(cli.grid[2]), ratio: `${fmtRatio(cliRatio.grid)} -w 1 (${fmtMs(cli.grid[1])})`, target: "≤ 0.6×", met: cliRatio.grid <= 0.6 },
        { benchmark: "grid", figure: "npm run play -w 2 through chromedriver, 4 slow tests", value: fmtMs(cli.chromedriver[2]), ratio: `${fmtRatio(cliRatio.chromedriver)} -w 1 (${fmtMs(cli.chromedriver[1])})`, target: "≤ 0.6×", met: cliRatio.chromedriver <= 0.6 },
        { benchmark: "grid", figure: "the Grid's cost per command", value: fmtMs(overhead), ratio: `${fmtRatio(perCommand.grid / perCommand.chromedriver)} chromedriver`, target: "", met: null },
        { benchmark: "grid", figure: "61 commands, the one player through the Grid", value: fmtMs(median(played.devtools)), ratio: `${fmtRatio(playerRatio)} WebDriver through the Grid (${fmtMs(median(played.webdriver))})`, target: "≤ 0.5× (2× faster)", met: playerRatio <= 0.5 },
        { benchmark: "grid", figure: "heap, 100 tests, 2 workers", value: `${fmtNum(heaps[1] / 1e6)} MB`, ratio: `${fmtRatio(heapRatio)} after 20`, target: "≤ 1.2×", met: heapRatio <= 1.2 },
      ];
    } finally {
      await site.close();
      await grid.stop();
    }
  },
};
