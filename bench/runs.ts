// Runs that really run (round 2): the run machine's own cost per command, beside the same
// work done by direct calls in the same process.
//   (a) 10,000 plugin commands, delivered to an in-process plugin that answers at once, against
//       10,000 direct, awaited calls of the same `deliver` with the same messages;
//   (b) 10,000 IDE commands (store and echo in a `times` loop) against the same program's steps
//       run through the same function the machine invokes for them (runIdeStep), awaited in a
//       plain loop;
//   (c) (a) with one subscribe() listener reading the view, as the IDE UI has (target: ≥ 0.7× (a));
//   (d) the heap over a run of 60,000 echoes, well past the log store's cap: flat past the cap.
// Self-checking: every command passed, the run ended passed, the plugin saw every command once,
// in order; a broken run stops the benchmark instead of printing a fast figure.
import { createIde } from "../index.ts";
import type { Ide, OutboundMessage } from "../index.ts";
import { testRunnerSnapshot } from "../machines/ide.selectors.ts";
import type { ExecuteMessage } from "../machines/testRunner.types.ts";
import { LogStore } from "../services/logs/index.ts";
import { buildFlow } from "../services/playback/flow.ts";
import type { FlowStep } from "../services/playback/flow.ts";
import { runIdeStep } from "../services/playback/ideCommands.ts";
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
  median,
  now,
  printTable,
  verdict,
} from "./support.ts";

const PLUGIN_COMMANDS = 10_000;
const IDE_TURNS = 5_000; // each turn: one store and one echo, so 10,000 IDE commands
const ECHO_MARKS = [20_000, 60_000] as const; // the log store keeps 10,000 per group
const REPS = 3; // runs of (a), (b) and (c), each beside a baseline; medians are printed
const BASELINE_REPS = 5;
// (c): a watched run keeps ≥ 0.7× the throughput of an unwatched one. (a) is reported against
// direct deliver calls, without a target: a machine step is not a function call, and what a
// user feels is the cost per command and what watching adds to it.
const WATCHED_TARGET = 0.7;
const FLAT_TARGET = 1.2; // (d): heap above the start at 60k echoes ≤ 1.2× that at 20k
const WAIT_LIMIT_MS = 60_000;
const LOOP_LIMIT = "100000"; // a times loop's value is its retry limit (default 1,000)
const CAP = 10_000; // limits.logEntriesPerGroup: the default, set explicitly below
const LIMITS = { requestsPerSecond: 1e9, requestBurst: 1e9, logEntriesPerGroup: CAP };
const PLUGIN_ID = "bench-plugin";
const PLUGIN_COMMAND = "benchStep";

type Row = [id: string, command: string, target?: string, value?: string];
const commandsOf = (rows: Row[]) =>
  rows.map(([id, command, target = "", value = ""]) => ({ id, comment: "", command, target, targets: [], value }));

const pluginIds = Array.from({ length: PLUGIN_COMMANDS }, (_, i) => `p-${String(i).padStart(5, "0")}`);
const pluginTarget = (i: number) => `target ${String(i).padStart(5, "0")}`;
const ECHO_TEXT = "echoed: ${v}"; // the same length every time, so the entries past the cap are as big as before

function project() {
  const tests = [
    { id: "t-plugin", name: "plugin commands", commands: commandsOf(pluginIds.map((id, i): Row => [id, PLUGIN_COMMAND, pluginTarget(i)])) },
    {
      id: "t-ide",
      name: "IDE commands",
      commands: commandsOf([
        ["i-times", "times", String(IDE_TURNS), LOOP_LIMIT],
        ["i-store", "store", "a stored value", "v"],
        ["i-echo", "echo", ECHO_TEXT],
        ["i-end", "end"],
      ]),
    },
    {
      id: "t-echo",
      name: "60,000 echoes",
      commands: commandsOf([
        ["e-store", "store", "a stored value", "v"],
        ["e-times1", "times", String(ECHO_MARKS[0]), LOOP_LIMIT],
        ["e-echo1", "echo", ECHO_TEXT],
        ["e-end1", "end"],
        ["e-mark1", "echo", "mark 1"], // breakpoint: 20,000 echoes done
        ["e-times2", "times", String(ECHO_MARKS[1] - ECHO_MARKS[0]), LOOP_LIMIT],
        ["e-echo2", "echo", ECHO_TEXT],
        ["e-end2", "end"],
        ["e-mark2", "echo", "mark 2"], // breakpoint: 60,000 echoes done
      ]),
    },
  ];
  return { id: "bench-runs", version: "2.0", name: "Runs benchmark", url: "http://127.0.0.1:8080", tests, suites: [], urls: [], plugins: [] };
}

// ---- the in-process plugin ---------------------------------------------------------------

/** A plugin that answers everything with `true` at once, and records what it was sent (cheaply). */
function plugin() {
  const seen = { executes: [] as string[], targets: [] as string[], started: 0, stopped: 0, other: 0, firstExecuteAt: 0 };
  const deliver = async (to: string, message: OutboundMessage): Promise<unknown> => {
    if (to !== PLUGIN_ID) seen.other += 1;
    if (message.action === "execute") {
      if (seen.executes.length === 0) seen.firstExecuteAt = now();
      seen.executes.push(message.options.commandId);
      seen.targets.push(message.command.target);
    } else if (message.action === "event" && message.event === "playbackStarted") seen.started += 1;
    else if (message.action === "event" && message.event === "playbackStopped") seen.stopped += 1;
    else seen.other += 1;
    return true;
  };
  const reset = () => {
    seen.executes = [];
    seen.targets = [];
    seen.started = seen.stopped = seen.other = seen.firstExecuteAt = 0;
  };
  return { deliver, seen, reset };
}

/** The message the run sends for the i-th plugin command, built the same way for the baseline. */
function executeMessage(i: number): ExecuteMessage {
  return {
    action: "execute",
    command: { command: PLUGIN_COMMAND, target: pluginTarget(i), value: "" },
    options: {
      runId: "run-direct",
      testId: "t-plugin",
      originalTestId: "t-plugin",
      commandId: pluginIds[i],
      isNested: false,
      assertionsDisabled: false,
      tabId: null,
      windowId: null,
      frameId: null,
    },
  };
}

function checkPluginSaw(seen: ReturnType<typeof plugin>["seen"], what: string, events: boolean): void {
  check(seen.executes.length === PLUGIN_COMMANDS, `${what}: the plugin got ${PLUGIN_COMMANDS} execute messages (got ${seen.executes.length})`);
  for (let i = 0; i < PLUGIN_COMMANDS; i++) {
    if (seen.executes[i] !== pluginIds[i] || seen.targets[i] !== pluginTarget(i)) {
      check(false, `${what}: execute ${i} was for ${seen.executes[i]} "${seen.targets[i]}", not ${pluginIds[i]} "${pluginTarget(i)}"`);
    }
  }
  check(seen.started === (events ? 1 : 0) && seen.stopped === (events ? 1 : 0), `${what}: playbackStarted and playbackStopped once each`);
  check(seen.other === 0, `${what}: nothing else was delivered`);
}

// ---- driving a run ----------------------------------------------------------------------

/** The run's status as the view would say it, read off the machines without building a view. */
function statusOf(ide: Ide): { status: "paused" | "ended" | "idle" | "other"; value: unknown } {
  const root = ide.actor.getSnapshot();
  const suite = root.context.suiteRunner.getSnapshot();
  const test = testRunnerSnapshot(root);
  if (suite.matches("ended") || suite.matches("idle")) return { status: suite.matches("ended") ? "ended" : "idle", value: suite.value };
  return { status: test?.matches({ live: "paused" }) ? "paused" : "other", value: test?.value };
}

/**
 * Waits until the run is paused or ended, polling the machine once per turn of the event loop
 * (no listener, nothing rebuilt); fails if it rests anywhere else or takes too long.
 */
async function waitFor(ide: Ide, status: "paused" | "ended", what: string): Promise<number> {
  const deadline = now() + WAIT_LIMIT_MS;
  let turns = 0;
  for (;;) {
    const playback = statusOf(ide);
    if (playback.status === status) return turns;
    check(playback.status === "other", `${what}: the run reached ${status}, not ${JSON.stringify(playback.value)}`);
    check(now() < deadline, `${what}: the run reached ${status} within ${WAIT_LIMIT_MS / 1000} s (it is ${JSON.stringify(playback.value)})`);
    turns += 1;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Every command of the run passed, and it ended passed. */
function checkRunPassed(ide: Ide, testId: string, commands: number, what: string): void {
  const view = ide.getSnapshot().playback;
  check(view !== null, `${what}: the view shows the run`);
  check(view.testId === testId, `${what}: the run played ${testId}`);
  check(view.status === "ended" && view.result === "passed", `${what}: the run ended passed (status ${view.status}, result ${view.result})`);
  check(view.commands.length === commands, `${what}: the view lists the test's ${commands} commands`);
  const notPassed = view.commands.filter((c) => c.state !== "passed");
  check(notPassed.length === 0, `${what}: every command passed (${notPassed.length} did not, first ${JSON.stringify(notPassed[0])})`);
}

async function newIde(deliver?: (to: string, message: OutboundMessage) => Promise<unknown>): Promise<Ide> {
  const ide = createIde({ project: project(), limits: LIMITS, deliver });
  if (deliver) {
    const reply = await ide.handle(
      {
        uri: "/register",
        verb: "post",
        name: "Bench plugin",
        version: "1.0.0",
        commands: [{ id: PLUGIN_COMMAND, name: "Bench step" }],
      },
      { id: PLUGIN_ID },
    );
    check(reply === true, `registering the plugin answered true (got ${JSON.stringify(reply)})`);
  }
  return ide;
}

// ---- (a) and (c): plugin commands ---------------------------------------------------------

interface PluginRun {
  ms: number;
  /** From the first execute delivered to the end (the start excluded). */
  steadyMs: number;
  turns: number;
  views: number;
}

async function pluginRun(listener: boolean): Promise<PluginRun> {
  const p = plugin();
  const ide = await newIde(p.deliver);
  let views = 0;
  let lastStatus: string | undefined;
  let lastRows = 0;
  const subscription = listener
    ? ide.subscribe((view) => {
        views += 1;
        lastStatus = view.playback?.status;
        lastRows = view.playback?.commands.length ?? 0;
      })
    : null;
  heapAfterGc(); // no collection left over from before lands in the run
  const t0 = now();
  ide.send({ type: "user.startPlayback", testId: "t-plugin" });
  const turns = await waitFor(ide, "ended", "plugin commands");
  const t1 = now();
  if (subscription) {
    await new Promise<void>((resolve) => setImmediate(resolve)); // the last view is delivered
    subscription.unsubscribe();
    check(views > 0 && lastStatus === "ended" && lastRows === PLUGIN_COMMANDS, `the listener's last view shows the ended run (${views} views)`);
  }
  const what = listener ? "plugin commands with a listener" : "plugin commands";
  checkRunPassed(ide, "t-plugin", PLUGIN_COMMANDS, what);
  checkPluginSaw(p.seen, what, true);
  const steadyMs = t1 - p.seen.firstExecuteAt;
  ide.stop();
  return { ms: t1 - t0, steadyMs, turns, views };
}

async function directDelivers(): Promise<number> {
  const p = plugin();
  heapAfterGc();
  const t0 = now();
  for (let i = 0; i < PLUGIN_COMMANDS; i++) {
    const answer = await p.deliver(PLUGIN_ID, executeMessage(i));
    if (answer !== true) check(false, `direct deliver ${i} answered ${JSON.stringify(answer)}`);
  }
  const ms = now() - t0;
  checkPluginSaw(p.seen, "direct deliver calls", false);
  return ms;
}

// ---- (b): IDE commands --------------------------------------------------------------------

async function ideRun(): Promise<{ ms: number; turns: number }> {
  const ide = await newIde();
  heapAfterGc();
  const t0 = now();
  ide.send({ type: "user.startPlayback", testId: "t-ide" });
  const turns = await waitFor(ide, "ended", "IDE commands");
  const ms = now() - t0;
  checkRunPassed(ide, "t-ide", 4, "IDE commands");
  const view = ide.getSnapshot();
  check(JSON.stringify(view.playback!.variables) === JSON.stringify({ v: "a stored value" }), "IDE commands: the run stored v");
  const echoes = view.logs.filter((l) => l.group === "playback" && l.message === "echoed: a stored value");
  check(echoes.length === IDE_TURNS && view.logsDropped.playback === 0, `IDE commands: ${IDE_TURNS} echoes logged (got ${echoes.length})`);
  ide.stop();
  return { ms, turns };
}

/**
 * The baseline of (b): the same program (buildFlow of the same test, outside the timing, as the
 * run builds it once), each step through runIdeStep — the function the machine's runIdeCommand
 * actor calls — awaited one after another in a plain loop that follows the steps' links, with
 * variables in a plain object and the echoes appended to a LogStore of the same cap.
 */
async function directIdeSteps(): Promise<{ ms: number; steps: number }> {
  const test = project().tests.find((t) => t.id === "t-ide")!;
  const flow = buildFlow(test.commands as never);
  check(flow.ok, "the IDE test's control flow holds");
  const program = flow.program;
  const logs = new LogStore(CAP);
  const variables: Record<string, unknown> = {};
  const visits: number[] = program.map(() => 0);
  heapAfterGc();
  const t0 = now();
  let steps = 0;
  let at: number | null = 0;
  while (at !== null) {
    const step: FlowStep = program[at];
    const outcome = await runIdeStep({ step, variables, visits: visits[at] });
    steps += 1;
    if (!outcome.ok) check(false, `direct step ${at} failed: ${outcome.message}`);
    if (outcome.set) Object.assign(variables, outcome.set);
    if (outcome.log !== undefined) logs.append({ group: "playback", level: "info", message: outcome.log, source: "ide", at: Date.now() });
    if (outcome.holds !== undefined) {
      if (step.loopLimit !== null) visits[at] = outcome.holds ? visits[at] + 1 : 0;
      at = outcome.holds ? step.whenTrue : step.whenFalse;
    } else {
      at = step.next;
    }
  }
  const ms = now() - t0;
  const entries = logs.entries();
  check(entries.length === IDE_TURNS && entries.every((e) => e.message === "echoed: a stored value"), "direct IDE steps: every echo logged");
  check(variables.v === "a stored value", "direct IDE steps: v stored");
  return { ms, steps };
}

// ---- (d): the heap over a long run ------------------------------------------------------------

async function echoHeap(): Promise<{ samples: number[]; ms: number; dropped: number; turns: number }> {
  const ide = await newIde();
  ide.send({ type: "user.toggleBreakpoint", commandId: "e-mark1" });
  ide.send({ type: "user.toggleBreakpoint", commandId: "e-mark2" });
  const start = heapAfterGc();
  const samples: number[] = [];
  let ms = 0;
  let turns = 0;
  let t0 = now();
  ide.send({ type: "user.startPlayback", testId: "t-echo" });
  for (const [index, mark] of ["e-mark1", "e-mark2"].entries()) {
    turns += await waitFor(ide, "paused", `${fmtInt(ECHO_MARKS[index])} echoes`);
    ms += now() - t0;
    const view = ide.getSnapshot().playback!;
    check(view.currentCommandId === mark, `the run paused before ${mark} (at ${view.currentCommandId})`);
    samples.push(heapAfterGc() - start);
    t0 = now();
    ide.send({ type: "user.resumePlayback" });
  }
  turns += await waitFor(ide, "ended", "60,000 echoes");
  checkRunPassed(ide, "t-echo", 9, "60,000 echoes");
  const view = ide.getSnapshot();
  const playbackLogs = view.logs.filter((l) => l.group === "playback");
  const total = ECHO_MARKS[1] + 2; // the echoes and the two marks
  check(playbackLogs.length === CAP, `the playback log holds its cap of ${CAP} entries (got ${playbackLogs.length})`);
  check(view.logsDropped.playback === total - CAP, `the playback log dropped ${total - CAP} entries (got ${view.logsDropped.playback})`);
  check(playbackLogs[playbackLogs.length - 1].message === "mark 2", "the last playback log entry is the last mark");
  ide.stop();
  return { samples, ms, dropped: view.logsDropped.playback, turns };
}

// ---- the benchmark ----------------------------------------------------------------------------

const perSecond = (count: number, ms: number) => (count / ms) * 1000;

async function run(): Promise<SummaryLine[]> {
  heading(
    "run: commands through a run of the run machine",
    [
      `(a) a test of ${fmtInt(PLUGIN_COMMANDS)} plugin commands played (user.startPlayback until ended, the start included)`,
      `    with an in-process plugin whose deliver answers true at once. Baseline: ${fmtInt(PLUGIN_COMMANDS)} direct calls`,
      `    of the same deliver with the same execute messages, awaited one after another.`,
      `(b) ${fmtInt(PLUGIN_COMMANDS)} IDE commands: store and echo in a times loop of ${fmtInt(IDE_TURNS)} turns (with the loop's`,
      `    own times and end steps). Baseline: the same steps of the same program through runIdeStep (the function the`,
      `    machine invokes for them), awaited in a plain loop with a plain variables object and a LogStore.`,
      `(c) (a) with one subscribe() listener reading the view, as the IDE UI has.`,
      `(d) heap after gc() over one run of ${fmtInt(ECHO_MARKS[1])} echoes (the playback log keeps ${fmtInt(CAP)}), paused at`,
      `    breakpoints after ${fmtInt(ECHO_MARKS[0])} and ${fmtInt(ECHO_MARKS[1])} echoes; above the heap before the start.`,
      `Medians of ${REPS} runs (baselines: ${BASELINE_REPS}). Every run is checked: all commands passed, the run ended passed,`,
      `the plugin got each command once in order.`,
    ].join("\n"),
  );

  // Warm-up: one of each, not counted.
  await pluginRun(false);
  await directDelivers();
  await ideRun();
  await directIdeSteps();

  const runs: PluginRun[] = [];
  const listened: PluginRun[] = [];
  const ideRuns: number[] = [];
  const ideTurns: number[] = [];
  const directs: number[] = [];
  const directSteps: number[] = [];
  let stepsPerRun = 0;
  for (let rep = 0; rep < REPS; rep++) {
    runs.push(await pluginRun(false));
    listened.push(await pluginRun(true));
    const ide = await ideRun();
    ideRuns.push(ide.ms);
    ideTurns.push(ide.turns);
  }
  for (let rep = 0; rep < BASELINE_REPS; rep++) {
    directs.push(await directDelivers());
    const direct = await directIdeSteps();
    directSteps.push(direct.ms);
    stepsPerRun = direct.steps;
  }
  const heap = await echoHeap();

  const runMs = median(runs.map((r) => r.ms));
  const steadyMs = median(runs.map((r) => r.steadyMs));
  const listenedMs = median(listened.map((r) => r.ms));
  const views = median(listened.map((r) => r.views));
  const turns = median(runs.map((r) => r.turns));
  const directMs = median(directs);
  const ideMs = median(ideRuns);
  const directIdeMs = median(directSteps);
  const ratio = directMs / runMs; // throughput of the run ÷ throughput of the direct calls
  const watched = runMs / listenedMs; // throughput watched ÷ unwatched
  const watchedMet = watched >= WATCHED_TARGET;
  const perCommandUs = (ms: number) => (ms * 1000) / PLUGIN_COMMANDS;
  const [at20, at60] = heap.samples;
  const flat = at60 / at20;
  const flatMet = flat <= FLAT_TARGET;

  printTable(
    ["figure", "run", "baseline", "run ÷ baseline (throughput)"],
    [
      [
        `(a) ${fmtInt(PLUGIN_COMMANDS)} plugin commands`,
        `${fmtMs(runMs)}, ${fmtInt(perSecond(PLUGIN_COMMANDS, runMs))} /s`,
        `${fmtMs(directMs)}, ${fmtInt(perSecond(PLUGIN_COMMANDS, directMs))} /s`,
        fmtRatio(ratio),
      ],
      [
        "    the same from the first execute (no start)",
        `${fmtMs(steadyMs)}, ${fmtInt(perSecond(PLUGIN_COMMANDS, steadyMs))} /s`,
        "",
        fmtRatio(directMs / steadyMs),
      ],
      [
        `(b) ${fmtInt(2 * IDE_TURNS)} IDE commands (${fmtInt(stepsPerRun)} steps)`,
        `${fmtMs(ideMs)}, ${fmtInt(perSecond(2 * IDE_TURNS, ideMs))} /s`,
        `${fmtMs(directIdeMs)}, ${fmtInt(perSecond(2 * IDE_TURNS, directIdeMs))} /s`,
        fmtRatio(directIdeMs / ideMs),
      ],
      [
        `(c) (a) with one subscribe() listener`,
        `${fmtMs(listenedMs)}, ${fmtInt(perSecond(PLUGIN_COMMANDS, listenedMs))} /s`,
        `${fmtMs(directMs)}`,
        `${fmtRatio(directMs / listenedMs)} (${fmtRatio(runMs / listenedMs)} of (a))`,
      ],
    ],
    ["l", "r", "r", "l"],
  );
  console.log("");
  printTable(
    ["(d) heap above the start, after gc()", "heap", "÷ at 20k"],
    [
      [`after ${fmtInt(ECHO_MARKS[0])} echoes (2× the cap)`, fmtMB(at20), fmtRatio(1)],
      [`after ${fmtInt(ECHO_MARKS[1])} echoes (6× the cap)`, fmtMB(at60), fmtRatio(flat)],
      ["growth from 20k to 60k echoes", fmtMB(at60 - at20), ""],
    ],
  );
  console.log("");
  console.log(
    `  (c) the listener got ${fmtInt(views)} views in a run of ${fmtInt(PLUGIN_COMMANDS)} commands: listeners are told once per ` +
      `turn of the event loop, with the view as it is then.`,
  );
  console.log(
    `  The event loop turned ${fmtInt(turns)} time(s) during (a), ${fmtInt(median(ideTurns))} during (b) and ${fmtInt(heap.turns)} during (d)'s ` +
      `${fmtMs(heap.ms)} of playing (2 pauses): a run whose commands answer in microtasks never yields to I/O or timers.`,
  );
  console.log(
    `  (d) ${fmtInt(ECHO_MARKS[1])} echoes (with their loops' times steps) played at ` +
      `${fmtInt(perSecond(ECHO_MARKS[1], heap.ms))} echoes/s; the playback log dropped ${fmtInt(heap.dropped)} entries.`,
  );
  console.log(
    `  (a) costs ${fmtNum(perCommandUs(runMs), 1)} µs a plugin command (a direct deliver call: ${fmtNum(perCommandUs(directMs), 2)} µs); ` +
      `watched, ${fmtNum(perCommandUs(listenedMs), 1)} µs.`,
  );
  console.log(`  Target: (c) a watched run ≥ ${WATCHED_TARGET}× the unwatched throughput: ${verdict(watchedMet)} (${fmtRatio(watched)}).`);
  console.log(`  Target: (d) heap flat past the cap (60k ≤ ${FLAT_TARGET}× 20k): ${verdict(flatMet)} (${fmtRatio(flat)}).`);
  console.log(
    `  Self-checks passed: every run ended passed with every command passed; the plugin got each of ` +
      `${fmtInt(PLUGIN_COMMANDS)} commands once, in order; every echo was logged; the log stayed at its cap.`,
  );
  console.log(`  Other processes share this machine; the ratios are against baselines run in this process, and at ${fmtNum(REPS, 0)} runs each are rough.`);

  return [
    {
      benchmark: "run",
      figure: "10,000 plugin commands",
      value: `${fmtInt(perSecond(PLUGIN_COMMANDS, runMs))} /s`,
      ratio: `${fmtRatio(ratio)} direct deliver; ${fmtNum(perCommandUs(runMs), 1)} µs a command`,
      target: "",
      met: null,
    },
    {
      benchmark: "run",
      figure: "10,000 IDE commands",
      value: `${fmtInt(perSecond(2 * IDE_TURNS, ideMs))} /s`,
      ratio: `${fmtRatio(directIdeMs / ideMs)} direct runIdeStep`,
      target: "",
      met: null,
    },
    {
      benchmark: "run",
      figure: "plugin commands, 1 listener",
      value: `${fmtInt(perSecond(PLUGIN_COMMANDS, listenedMs))} /s`,
      ratio: `${fmtRatio(watched)} no listener`,
      target: `≥ ${WATCHED_TARGET}× no listener`,
      met: watchedMet,
    },
    {
      benchmark: "run",
      figure: "heap 20k → 60k echoes",
      value: `${fmtMB(at20)} → ${fmtMB(at60)}`,
      ratio: `${fmtRatio(flat)} at 20k`,
      target: `flat (≤ ${FLAT_TARGET}×)`,
      met: flatMet,
    },
  ];
}

export const runBenchmark: Benchmark = {
  name: "run",
  description: "plugin and IDE commands through a run against direct calls, with a listener, and the heap past the log cap",
  run,
};
