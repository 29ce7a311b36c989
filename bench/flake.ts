// Playback that does not flake (issue 27): the recorded tests of bench/flake/flake.side, played
// on the slow app of bench/flake/app.ts (elements that appear after 0–3 s, controls enabled
// late, a spinner and a banner over the page, a drawer sliding in, a card moved by script, a
// form post and a script's navigation to slower pages), each test 20 times by each player:
//   host       the IDE with its one player (executor devtools), as npm start and npm run play;
//   extension  the built extension, Play pressed in the IDE window;
//   runtime    side-runtime's own Playback on its WebDriverExecutor, same tests, same Chromium.
// The tests are as a person records them: no waitFor… and no pause; the player's waits alone
// must make them pass. Target: 0 failures for the host and the extension; side-runtime's count
// is printed beside them, with no target.
//
// Plays run at once in lanes (a browser each, with its own copy of the app on its own port):
// the delays are wall-clock, not CPU. Each (test, round) has a seed, the same for the three
// players; the run's seed is printed first and every failure prints its play's seed, so a run
// is reproduced with FLAKE_SEED. Knobs for trying it: FLAKE_SEED (the run's seed), FLAKE_PLAYS
// (rounds of every test, default 20), FLAKE_LANES (browsers per player, default 4),
// FLAKE_PLAYERS (a comma list of host, extension, runtime), FLAKE_TESTS (a comma list of test
// ids: with the same FLAKE_SEED, a failed play's pages come again).
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { FLAKE_SIDE } from "./flake/app.ts";
import { buildForLanes, openLane } from "./flake/players.ts";
import type { Failure, Lane, PlayerName, PlayResult, SideProject, SideTest } from "./flake/players.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { check, fmtNum, heading, now, printTable } from "./support.ts";

const PLAYERS: PlayerName[] = ["host", "extension", "runtime"];
const LABEL: Record<PlayerName, string> = { host: "host (one player)", extension: "extension", runtime: "side-runtime Playback" };
const PROGRESS_MS = 15_000;
const SHOWN_FAILURES = 6;

function positiveInt(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of at least 1, not ${JSON.stringify(text)}`);
  return n;
}

function chosenPlayers(): PlayerName[] {
  const text = process.env.FLAKE_PLAYERS;
  if (!text) return PLAYERS;
  const names = text.split(",").map((s) => s.trim());
  for (const name of names) if (!PLAYERS.includes(name as PlayerName)) throw new Error(`FLAKE_PLAYERS: no player named ${JSON.stringify(name)} (host, extension, runtime)`);
  return names as PlayerName[];
}

interface Job {
  test: SideTest;
  round: number;
  seed: string;
}
interface FailedPlay extends Job {
  failures: Failure[];
}
interface Tally {
  done: number;
  failed: FailedPlay[];
  busyMs: number;
}

const clock = (ms: number) => `${Math.floor(ms / 60_000)}:${String(Math.floor((ms % 60_000) / 1000)).padStart(2, "0")}`;
const describeFailure = (f: Failure) => `${f.command} ${f.target}${f.value ? ` ${JSON.stringify(f.value)}` : ""}: ${f.message.length > 160 ? `${f.message.slice(0, 157)}…` : f.message}`;

async function run(): Promise<SummaryLine[]> {
  const project = JSON.parse(readFileSync(FLAKE_SIDE, "utf8")) as SideProject;
  const players = chosenPlayers();
  const plays = positiveInt("FLAKE_PLAYS", 20);
  const lanes = positiveInt("FLAKE_LANES", 4);
  const runSeed = process.env.FLAKE_SEED || randomBytes(4).toString("hex");
  const only = process.env.FLAKE_TESTS ? process.env.FLAKE_TESTS.split(",").map((s) => s.trim()) : null;
  for (const id of only ?? []) if (!project.tests.some((t) => t.id === id)) throw new Error(`FLAKE_TESTS: no test ${JSON.stringify(id)} in ${FLAKE_SIDE}`);
  const tests = only ? project.tests.filter((t) => only.includes(t.id)) : project.tests;
  const total = tests.length * plays;
  heading(
    `flake: recorded tests on a slow app, each played ${plays} times by each player`,
    [
      `${tests.length} tests (${tests.reduce((n, t) => n + t.commands.length, 0)} commands) recorded as a person would, no waitFor and no pause, on an app whose`,
      "elements appear after 0–3 s, controls are enabled late, a spinner and a banner cover the page, a drawer slides in,",
      "a card is moved by script, a form post and a script's navigation load slower pages.",
      `Each test ${plays} times by: ${players.map((p) => LABEL[p]).join(", ")}; ${lanes} browsers per player at once.`,
      `Run seed ${runSeed} (FLAKE_SEED=${runSeed} plays the same pages again); a play's seed is <run seed>.<round>.<test id>, the same for every player.`,
    ].join("\n"),
  );

  const t0 = now();
  const build = players.includes("extension") ? (console.log("  building the extension…"), await buildForLanes()) : null;
  console.log(`  opening ${players.length * lanes} browsers…`);
  const opened: Array<{ player: PlayerName; lane: Lane }> = [];
  const tallies = {} as Record<PlayerName, Tally>;
  for (const p of players) tallies[p] = { done: 0, failed: [], busyMs: 0 };
  let progress: NodeJS.Timeout | null = null;
  // side-runtime's CommandNode says each retry on the console (a warning, then the error's
  // message) and each failure: counted or reported here instead, so the progress stays readable.
  const { warn, error: consoleError } = console;
  let retries = 0;
  let swallowNext = false;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].startsWith("Unexpected error occured during command")) {
      retries += 1;
      swallowNext = true;
      return;
    }
    warn(...args);
  };
  console.error = (...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].startsWith("Command failure:")) return; // its failure, which the bench reports
    if (swallowNext) {
      swallowNext = false;
      return;
    }
    consoleError(...args);
  };
  try {
    // One at a time per player (three at once): starting many browsers at once on 2 cores only makes each slower.
    await Promise.all(
      players.map(async (player) => {
        for (let i = 0; i < lanes; i++) opened.push({ player, lane: await openLane(player, project, build) });
      }),
    );
    console.log(`  ${opened.length} browsers open after ${fmtNum((now() - t0) / 1000, 1)} s; playing ${total} plays per player…`);

    const queues = Object.fromEntries(
      players.map((p) => {
        const jobs: Job[] = [];
        for (let round = 0; round < plays; round++) for (const test of tests) jobs.push({ test, round, seed: `${runSeed}.${round}.${test.id}` });
        return [p, jobs];
      }),
    ) as Record<PlayerName, Job[]>;

    const started = now();
    const line = () =>
      `  [${clock(now() - started)}] ` + players.map((p) => `${p} ${tallies[p].done}/${total} (${tallies[p].failed.length} failed)`).join(" · ");
    progress = setInterval(() => console.log(line()), PROGRESS_MS);

    await Promise.all(
      opened.map(async ({ player, lane }) => {
        const queue = queues[player];
        const tally = tallies[player];
        for (let job = queue.shift(); job; job = queue.shift()) {
          const t = now();
          let result: PlayResult;
          try {
            result = await lane.play(job.test, job.seed);
          } catch (error) {
            result = { passed: false, failures: [{ command: "(the play)", target: "", value: "", message: error instanceof Error ? error.message : String(error) }] };
          }
          tally.busyMs += now() - t;
          tally.done += 1;
          if (!result.passed) {
            tally.failed.push({ ...job, failures: result.failures });
            const first = result.failures[0];
            console.log(`  ${player}: ${job.test.id} "${job.test.name}" round ${job.round + 1} (seed ${job.seed}) failed: ${first ? describeFailure(first) : "?"}`);
          }
        }
      }),
    );
    clearInterval(progress);
    progress = null;
    const wall = now() - started;
    console.log(line());
    console.log("");

    for (const player of players) check(tallies[player].done === total, `${player} played every play (${tallies[player].done} of ${total})`);

    printTable(
      ["player", "plays", "failed plays", "failed commands", "mean play"],
      players.map((p) => {
        const t = tallies[p];
        return [LABEL[p], String(t.done), String(t.failed.length), String(t.failed.reduce((n, f) => n + f.failures.length, 0)), `${fmtNum(t.busyMs / t.done / 1000, 2)} s`];
      }),
    );
    console.log("");

    // Failed plays per test, the players side by side (tests with no failure left out).
    const perTest = tests
      .map((test) => [test.id, test.name, ...players.map((p) => String(tallies[p].failed.filter((f) => f.test.id === test.id).length))])
      .filter((row) => row.slice(2).some((n) => n !== "0"));
    if (perTest.length > 0) {
      printTable(["test", "name", ...players.map((p) => `${p} failed`)], perTest, ["l", "l", ...players.map(() => "r" as const)]);
      console.log("");
    }
    for (const player of players) {
      const failed = tallies[player].failed;
      console.log(`  ${LABEL[player]}: ${failed.length} of ${total} plays failed${failed.length ? "; the first:" : "."}`);
      for (const f of failed.slice(0, SHOWN_FAILURES)) console.log(`    ${f.test.id} round ${f.round + 1} (seed ${f.seed}): ${describeFailure(f.failures[0])}`);
    }
    console.log("");
    if (players.includes("runtime")) console.log(`  side-runtime's commands retried after an error ${retries} times (its CommandNode's retries within the implicit wait).`);
    console.log(`  ${players.length * total} plays in ${fmtNum(wall / 1000, 1)} s of playing (${fmtNum((now() - t0) / 1000, 1)} s with the browsers' start).`);

    const lineOf = (player: PlayerName): SummaryLine => {
      const failed = tallies[player].failed.length;
      const runtime = players.includes("runtime") ? `side-runtime's Playback: ${tallies.runtime.failed.length} failed` : "";
      return {
        benchmark: "flake",
        figure: `${LABEL[player]}: failed plays of ${total} (${tests.length} tests × ${plays})`,
        value: String(failed),
        ratio: player === "runtime" ? "" : runtime,
        target: player === "runtime" ? "" : "0",
        met: player === "runtime" ? null : failed === 0,
      };
    };
    return players.map(lineOf);
  } finally {
    console.warn = warn;
    console.error = consoleError;
    if (progress) clearInterval(progress);
    await Promise.all(opened.map(({ lane }) => lane.close().catch(() => {})));
  }
}

export const flakeBenchmark: Benchmark = {
  name: "flake",
  description: "33 recorded tests on a slow app, 20 plays each in the host, the extension and side-runtime's Playback: failures side by side",
  run,
};
