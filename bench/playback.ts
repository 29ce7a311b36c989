// Starting a 10,000-command test case and applying 100,000 command-state updates through
// handle(), with the heap growth they leave, beside the same commands in a plain array
// updated in place.
//
// Since runs really run (round 2), user.startPlayback tells the plugins (none here), then
// executes the commands; these are page commands, which fail at once with no executor, and
// the run would end after the first. So a breakpoint is put on the first command before each
// start and the run is held paused before it: "start" is now the time from user.startPlayback
// until the run is paused there (the starting phase, the test's control flow built, the first
// step chosen), awaited; the updates are applied to the paused run, where POST
// /playback/command is accepted as before. The baseline and the other figures are unchanged.
import { createIde } from "../index.ts";
import type { Ide } from "../index.ts";
import { testRunnerSnapshot } from "../machines/ide.selectors.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import {
  check,
  fmtInt,
  fmtMB,
  fmtMs,
  fmtNum,
  fmtRatio,
  heading,
  heapAfterGc,
  MB,
  median,
  nextTurn,
  now,
  printTable,
  verdict,
} from "./support.ts";

const COMMANDS = 10_000;
const UPDATES = 100_000;
const START_REPS = 7;
const LISTENER_UPDATES = 1_000;
const START_TARGET_MS = 50;
const HEAP_TARGET_MB = 30;
const STATES = ["pending", "passed", "failed", "undetermined"] as const; // never fatal: it ends the run
const LIMITS = { requestsPerSecond: 1e9, requestBurst: 1e9 };
const SENDER = { id: "bench-runner" };

interface RawCommand {
  id: string;
  comment: string;
  command: string;
  target: string;
  targets: unknown[];
  value: string;
}

function bigProject() {
  const commands: RawCommand[] = [];
  for (let i = 0; i < COMMANDS; i++) {
    const kind = i % 3;
    commands.push({
      id: `cmd-${String(i).padStart(5, "0")}`,
      comment: "",
      command: kind === 0 ? "click" : kind === 1 ? "type" : "assertText",
      target: `id=field-${i}`,
      targets: [],
      value: kind === 0 ? "" : `value ${i}`,
    });
  }
  return {
    id: "bench-playback",
    version: "2.0",
    name: "Playback benchmark",
    url: "http://127.0.0.1:8080",
    tests: [{ id: "t-long", name: "ten thousand steps", commands }],
    suites: [],
    urls: [],
    plugins: [],
  };
}

/** The i-th update: commands in playback order, each visited ten times; both request forms. */
function update(ids: string[], i: number): Record<string, unknown> {
  const state = STATES[i % STATES.length];
  const fields: Record<string, unknown> = { commandId: ids[i % ids.length], state };
  if (state === "failed") fields.message = `failed at update ${i}`;
  return i % 2 === 0
    ? { uri: "/playback/command", verb: "post", ...fields }
    : { uri: "/playback/command", verb: "POST", payload: fields };
}

function lastStates(ids: string[]): Map<string, { state: string; message: string | null }> {
  const last = new Map<string, { state: string; message: string | null }>();
  for (let i = UPDATES - ids.length; i < UPDATES; i++) {
    const state = STATES[i % STATES.length];
    last.set(ids[i % ids.length], { state, message: state === "failed" ? `failed at update ${i}` : null });
  }
  return last;
}

const FIRST_ID = "cmd-00000";

/** The run is held at the breakpoint before its first command, with all its commands. */
function pausedAtFirst(ide: Ide): boolean {
  const test = testRunnerSnapshot(ide.actor.getSnapshot());
  return test !== null && test.matches({ live: "paused" }) && test.context.run.commands.length === COMMANDS;
}

/**
 * user.startPlayback with a breakpoint on the first command; resolves once the run is paused
 * there. Polls the machine (not the IdeView, which would be rebuilt on every poll): microtasks
 * first, as the starting phase with no plugins settles in a few, then turns of the event loop.
 */
async function startPaused(ide: Ide): Promise<void> {
  ide.send({ type: "user.startPlayback" });
  for (let i = 0; !pausedAtFirst(ide); i++) {
    const test = testRunnerSnapshot(ide.actor.getSnapshot());
    const status = test?.value ?? null;
    const onItsWay = test === null || test.matches({ live: "starting" }) || test.matches({ live: "running" });
    check(onItsWay, `the run is on its way to its breakpoint (it is ${JSON.stringify(status)})`);
    check(i < 100_000, "the run paused at its first command's breakpoint");
    await (i < 1_000 ? Promise.resolve() : new Promise<void>((resolve) => setImmediate(resolve)));
  }
}

function newIde(project: ReturnType<typeof bigProject>): Ide {
  const ide = createIde({ project, limits: LIMITS });
  ide.send({ type: "user.toggleBreakpoint", commandId: FIRST_ID });
  return ide;
}

// ---- the baseline: a plain array of rows updated in place --------------------------------

interface Row {
  id: string;
  command: string;
  target: string;
  value: string;
  state: string | null;
  message: string | null;
}

function baselineTable(commands: RawCommand[]): { rows: Row[]; index: Map<string, number> } {
  const rows: Row[] = new Array(commands.length);
  const index = new Map<string, number>();
  for (let i = 0; i < commands.length; i++) {
    const c = commands[i];
    rows[i] = { id: c.id, command: c.command, target: c.target ?? "", value: c.value ?? "", state: null, message: null };
    if (!index.has(c.id)) index.set(c.id, i);
  }
  return { rows, index };
}

/**
 * Times START_REPS starts, each on a fresh IDE, until paused at the first command, and the
 * first IdeView after each. In a function of its own, so nothing of its last IDE stays
 * referenced from the caller's frame when the heap is measured next.
 */
async function timeStarts(project: ReturnType<typeof bigProject>): Promise<{ startTimes: number[]; viewTimes: number[] }> {
  const startTimes: number[] = [];
  const viewTimes: number[] = [];
  for (let rep = 0; rep < START_REPS; rep++) {
    const ide = newIde(project);
    heapAfterGc(); // so a collection left over from the last rep does not land in this one
    const t0 = now();
    await startPaused(ide);
    const t1 = now();
    const view = ide.getSnapshot();
    const t2 = now();
    check(view.playback?.status === "paused", "the view shows the run paused");
    check(view.playback.currentCommandId === FIRST_ID, "the run is paused before its first command");
    check(view.playback.commands.length === COMMANDS, "the view lists 10,000 commands");
    check(view.playback.commands.every((c) => c.state === null), "no command has run");
    startTimes.push(t1 - t0);
    viewTimes.push(t2 - t1);
    ide.stop();
  }
  return { startTimes, viewTimes };
}

/** A fresh IDE's heap, then the same IDE's once its run is paused at the first command. */
async function startedHeap(project: ReturnType<typeof bigProject>): Promise<{ ide: Ide; bytes: number }> {
  const ide = newIde(project);
  const before = heapAfterGc();
  await startPaused(ide);
  return { ide, bytes: heapAfterGc() - before };
}

async function run(): Promise<SummaryLine[]> {
  heading(
    "playback: a 10,000-command test case",
    [
      `Start a test case of ${fmtInt(COMMANDS)} commands (user.startPlayback, awaited until the run is paused at a`,
      `breakpoint on its first command: runs really run, and these page commands would fail with no executor),`,
      `then ${fmtInt(UPDATES)} POST /playback/command to the paused run through handle(), each awaited. Baseline: the`,
      `same commands as rows of a plain array (with an id → index Map), updated in place by an awaited function`,
      `reading the same request objects.`,
      `Heap figures are heapUsed after gc().`,
    ].join("\n"),
  );

  const project = bigProject();
  const commands = project.tests[0].commands;
  const ids = commands.map((c) => c.id);

  // ---- start ----
  const { startTimes, viewTimes } = await timeStarts(project);
  const baseStartTimes: number[] = [];
  for (let rep = 0; rep < START_REPS; rep++) {
    heapAfterGc();
    const t0 = now();
    const table = baselineTable(commands);
    baseStartTimes.push(now() - t0);
    check(table.rows.length === COMMANDS, "the baseline table has 10,000 rows");
  }

  // The test case's own heap: a fresh IDE's, then the same IDE's once paused at its first command.
  const { ide, bytes: ideTableHeap } = await startedHeap(project);
  const beforeTable = heapAfterGc();
  const baseline = baselineTable(commands);
  const baseTableHeap = heapAfterGc() - beforeTable;

  // ---- updates through handle() ----
  const ideBefore = heapAfterGc();
  const u0 = now();
  for (let i = 0; i < UPDATES; i++) {
    const reply = await ide.handle(update(ids, i), SENDER);
    if (reply !== true) {
      throw new Error(`Benchmark self-check failed: update ${i} answered ${JSON.stringify(reply)}, not true`);
    }
  }
  const ideUpdateMs = now() - u0;
  const ideGrowth = heapAfterGc() - ideBefore;

  // ---- the same updates on the plain array ----
  const applyInPlace = async (message: Record<string, unknown>): Promise<boolean> => {
    const f = (message.payload ?? message) as { commandId: string; state: string; message?: string };
    const at = baseline.index.get(f.commandId);
    if (at === undefined) return false;
    const row = baseline.rows[at];
    row.state = f.state;
    row.message = f.message ?? null;
    return true;
  };
  for (let i = 0; i < 20_000; i++) await applyInPlace(update(ids, i)); // warm-up; overwritten below
  const baseBefore = heapAfterGc();
  const b0 = now();
  for (let i = 0; i < UPDATES; i++) {
    if ((await applyInPlace(update(ids, i))) !== true) throw new Error(`Benchmark self-check failed: baseline update ${i}`);
  }
  const baseUpdateMs = now() - b0;
  const baseGrowth = heapAfterGc() - baseBefore;

  // ---- self-checks ----
  const view = ide.getSnapshot();
  check(view.playback?.running === true && view.playback.status === "paused", "the test case is still paused after the updates");
  check(view.playback.commands.length === COMMANDS, "the view still lists 10,000 commands");
  const want = lastStates(ids);
  view.playback.commands.forEach((row, i) => {
    const w = want.get(row.id)!;
    check(row.state === w.state && row.message === w.message, `command ${row.id} holds its last state`);
    check(baseline.rows[i].state === w.state && baseline.rows[i].message === w.message, `baseline row ${row.id}`);
  });

  // With one subscribe() listener, as the IDE UI has: informative.
  const updateMore = async (from: number): Promise<number> => {
    const t0 = now();
    for (let i = from; i < from + LISTENER_UPDATES; i++) {
      const reply = await ide.handle(update(ids, i), SENDER);
      if (reply !== true) throw new Error(`Benchmark self-check failed: update ${i} answered ${JSON.stringify(reply)}`);
    }
    return now() - t0;
  };
  const bareMs = await updateMore(UPDATES);
  let views = 0;
  let lastRows = 0;
  const subscription = ide.subscribe((v) => {
    views += 1;
    lastRows = v.playback?.commands.length ?? 0;
  });
  const listenedMs = await updateMore(UPDATES + LISTENER_UPDATES);
  await nextTurn(); // the listener's view of them all
  subscription.unsubscribe();
  check(views >= 1, `the listener got a view of the updates once the event loop turned (${views} views for ${LISTENER_UPDATES} updates)`);
  check(lastRows === COMMANDS, "the listener's last view lists 10,000 commands");
  check(pausedAtFirst(ide), "the run is still paused at its first command");
  ide.stop();

  const start = median(startTimes);
  const baseStart = median(baseStartTimes);
  const view1 = median(viewTimes);
  const startMet = start < START_TARGET_MS;
  const heapMet = ideGrowth < HEAP_TARGET_MB * MB;

  printTable(
    ["figure", "handle()/machine", "plain array", "handle ÷ array"],
    [
      ["start, until paused at the 1st command (median of 7)", fmtMs(start), fmtMs(baseStart), fmtRatio(start / baseStart)],
      ["first IdeView after the start", fmtMs(view1), "", ""],
      ["heap held by the started test case", fmtMB(ideTableHeap), fmtMB(baseTableHeap), fmtRatio(ideTableHeap / baseTableHeap)],
      [`${fmtInt(UPDATES)} state updates`, fmtMs(ideUpdateMs), fmtMs(baseUpdateMs), fmtRatio(ideUpdateMs / baseUpdateMs)],
      [
        "updates per second",
        fmtInt((UPDATES / ideUpdateMs) * 1000),
        fmtInt((UPDATES / baseUpdateMs) * 1000),
        fmtRatio(baseUpdateMs / ideUpdateMs),
      ],
      ["heap growth after the updates", fmtMB(ideGrowth), fmtMB(baseGrowth), "(see below)"],
    ],
  );
  console.log("");
  console.log(
    `  Heap growth ÷ the plain array's whole table: ${fmtRatio(ideGrowth / baseTableHeap)} ` +
      `(the array itself grew ${fmtNum(baseGrowth / 1024, 0)} KiB).`,
  );
  console.log(
    `  With one subscribe() listener (as the IDE UI has): ${fmtInt((LISTENER_UPDATES / listenedMs) * 1000)} updates/s, ` +
      `${fmtRatio(listenedMs / bareMs)} the time of the same ${fmtInt(LISTENER_UPDATES)} updates with no listener ` +
      `(${fmtInt((LISTENER_UPDATES / bareMs) * 1000)} /s); every update rebuilds the whole IdeView.`,
  );
  console.log(`  Target: start < ${START_TARGET_MS} ms: ${verdict(startMet)} (${fmtMs(start)}).`);
  console.log(`  Target: heap growth after ${fmtInt(UPDATES)} updates < ${HEAP_TARGET_MB} MB: ${verdict(heapMet)} (${fmtMB(ideGrowth)}).`);
  console.log(
    `  Self-checks passed: each start paused at the first command's breakpoint with no command run; every update ` +
      `answered true; all ${fmtInt(COMMANDS)} commands hold their last state.`,
  );

  return [
    {
      benchmark: "playback",
      figure: "start 10,000 commands (to paused)",
      value: fmtMs(start),
      ratio: `${fmtRatio(start / baseStart)} array`,
      target: `< ${START_TARGET_MS} ms`,
      met: startMet,
    },
    {
      benchmark: "playback",
      figure: "100,000 updates",
      value: `${fmtInt((UPDATES / ideUpdateMs) * 1000)} /s`,
      ratio: `${fmtRatio(ideUpdateMs / baseUpdateMs)} array (time)`,
      target: "",
      met: null,
    },
    {
      benchmark: "playback",
      figure: "heap growth after updates",
      value: fmtMB(ideGrowth),
      ratio: `${fmtRatio(ideGrowth / baseTableHeap)} array table`,
      target: `< ${HEAP_TARGET_MB} MB`,
      met: heapMet,
    },
    {
      benchmark: "playback",
      figure: "updates, 1 listener",
      value: `${fmtInt((LISTENER_UPDATES / listenedMs) * 1000)} /s`,
      ratio: `${fmtRatio(listenedMs / bareMs)} no listener (time)`,
      target: "",
      met: null,
    },
  ];
}

export const playbackBenchmark: Benchmark = {
  name: "playback",
  description: "start a 10,000-command test case (paused at a breakpoint) and apply 100,000 command states, with heap growth",
  run,
};
