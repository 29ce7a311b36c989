// The suite runner, model-based and by hand. Its test runners are stand-ins that only record
// what they are sent and what they were started with: the graph drives the suite runner with
// the events the root would forward and the facts its test runners would send (`test.ended`,
// each way a test can end), and its own tellPlugins' done and error events. Each path is then
// replayed on a real actor, and the snapshots must agree at every step.
import { describe, expect, it } from "vitest";
import { createActor, fromPromise, setup } from "xstate";
import type { AnyMachineSnapshot, EventObject, SnapshotFrom } from "xstate";
import { getShortestPaths } from "xstate/graph";
import { suiteRunnerMachine } from "../../machines/suiteRunner.machine.ts";
import type { RunStartEvent, SuiteRunnerEmitted, SuiteRunnerEvent } from "../../machines/suiteRunner.types.ts";
import type { TellPluginsInput, TellPluginsOutput, TestEnd, TestEndedFact, TestRunnerInput } from "../../machines/testRunner.types.ts";
import type { RequestAnsweredEvent } from "../../machines/shared.types.ts";
import { command, expectEachRequestAnsweredOnce, modelProject, registration, runStartOf, replayOnRealActor, requestIdsOf, stateNodeIds, transitionPaths } from "./support.ts";
import type { ModelPath } from "./support.ts";

type SuiteSnapshot = SnapshotFrom<typeof suiteRunnerMachine>;
type GraphEvent = SuiteRunnerEvent | (EventObject & { output?: unknown; error?: unknown });

const project = modelProject(
  "p-model",
  "Model",
  [
    { id: "t-a", name: "a", commands: [command("c1", "store", "v", "x")] },
    { id: "t-b", name: "b", commands: [command("d1", "open", "/")] },
    { id: "t-c", name: "c", commands: [command("e1", "open", "/c")] },
    // Its control flow does not hold (an end with no block): it fails without starting.
    { id: "t-x", name: "x", commands: [command("x1", "end")] },
  ],
  [{ id: "s", name: "S", tests: ["t-a", "t-b"] }],
);

const start = (testIds: string[], suite: RunStartEvent["suite"] = null, requestId?: number) => runStartOf(project, testIds, suite, requestId);

const plugin = registration("P", "pOk");
const ev = {
  startA: start(["t-a"], null, 7),
  startSuite: start(["t-a", "t-b"], { id: "s", name: "S" }),
  startParallel: start(["t-a", "t-b"], { id: "s", name: "S", parallel: true }),
  startPersist: start(["t-a", "t-b"], { id: "s", name: "S", persistSession: true }),
  pluginsOn: { type: "plugins.changed", plugins: [{ id: "p", registration: plugin }] },
  breakpoint: { type: "user.toggleBreakpoint", commandId: "c1" },
  slow: { type: "user.setPlaybackDelay", ms: 20_000 },
  stop: { type: "user.stopPlayback" },
  windowClosed: { type: "window.closed" },
  stopRequest: { type: "request.stopRun", requestId: 14, sender: "p" },
  setVariable: { type: "request.setVariable", requestId: 13, sender: "p", name: "y", value: 1 },
  report: { type: "request.commandState", requestId: 12, sender: "p", commandId: "c1", state: "passed", message: null },
  pause: { type: "user.pausePlayback" },
  resume: { type: "user.resumePlayback" },
  step: { type: "user.stepPlayback" },
  secondStart: start(["t-b"], null, 8),
  told: { type: "xstate.done.actor.tellPlugins", output: [] },
  tellingFailed: { type: "xstate.error.actor.tellPlugins", error: new Error("gone") },
} satisfies Record<string, GraphEvent>;

/**
 * Settings are offered before the first run only (they stay for every run after); so is a
 * persistSession suite's start, which keeps the graph small enough to replay every transition.
 */
const BEFORE_RUNS_ONLY = new Set<GraphEvent>([ev.pluginsOn, ev.breakpoint, ev.slow, ev.startPersist]);
const WHILE_BUSY = new Set<GraphEvent>([ev.pause, ev.resume, ev.step, ev.secondStart]);
const EXTERNAL = (Object.values(ev) as GraphEvent[]).filter((e) => e !== ev.told && e !== ev.tellingFailed);

/** The ways a test can end, as its test runner tells them (a test that does not start has told nobody). */
const ENDS: Array<[TestEnd, boolean, boolean]> = [
  ["completed", false, true],
  ["failed", true, true],
  ["failed", true, false],
  ["stopped", false, true],
  ["fatal", true, true],
];
/** Each way each test playing now can end (several play at once in a parallel suite). */
const ended = (snapshot: SuiteSnapshot): TestEndedFact[] =>
  (snapshot.context.run?.runs ?? [])
    .filter((r) => r.ended === null)
    .flatMap((current) =>
      ENDS.map(([end, failed, started]): TestEndedFact => ({
        type: "test.ended",
        runner: current.runner,
        testId: current.testId,
        end,
        failed,
        started,
        audience: started ? [{ id: "p", name: "P" }] : [],
        variables: {},
      })),
    );

function eventsIn(snapshot: SuiteSnapshot): GraphEvent[] {
  const first = snapshot.matches("idle");
  const busy = snapshot.matches("busy");
  const external = EXTERNAL.filter((e) => (first || !BEFORE_RUNS_ONLY.has(e)) && (busy || !WHILE_BUSY.has(e)));
  if (snapshot.matches({ busy: "playing" })) return [...external, ...ended(snapshot)];
  if (snapshot.matches({ busy: "closing" })) return [...external, ev.told, ev.tellingFailed];
  return external;
}

/** What a run is, for the graph: everything that decides what comes next, without ids that only count runs. */
function serializeState(snapshot: SuiteSnapshot): string {
  const { run, plugins, breakpoints, delayMs } = snapshot.context;
  return JSON.stringify({
    value: snapshot.value,
    plugins: plugins.length,
    breakpoints,
    delayMs,
    run: run && {
      testIds: run.testIds,
      suite: run.suite && [run.suite.id, run.suite.persistSession],
      runs: run.runs.map((r) => [r.testId, r.ended, r.released]),
      limit: run.limit,
      announced: run.announced,
      audience: run.audience.length,
      stopped: run.stopped,
      waiters: run.stopWaiters.length > 0,
    },
    children: Object.keys(snapshot.children).filter((id) => id !== "tellPlugins").length,
  });
}

const traversal = { events: eventsIn as never, serializeState, limit: 1_000_000 };

/** What the stand-in test runners were started with and sent. */
interface Routed {
  runner: string;
  event: EventObject;
}

/** A suite runner whose test runners only record; its own tellPlugins never settles (the test sends its events). */
function recordingMachine(routed: Routed[] = [], started: TestRunnerInput[] = [], told?: TellPluginsInput[]) {
  const standIn = setup({
    types: { input: {} as TestRunnerInput, context: {} as { input: TestRunnerInput } },
    actions: {
      record: ({ event, self }) => void routed.push({ runner: self.id, event }),
      rememberInput: ({ context }) => void started.push(context.input),
    },
  }).createMachine({
    id: "testRunnerStandIn",
    context: ({ input }) => ({ input }),
    entry: "rememberInput",
    on: { "*": { actions: "record" } },
  });
  const tellPlugins = told
    ? fromPromise<TellPluginsOutput, TellPluginsInput>(async ({ input }) => {
        told.push(input);
        return [];
      })
    : fromPromise<TellPluginsOutput, TellPluginsInput>(() => new Promise(() => {}));
  return suiteRunnerMachine.provide({ actors: { testRunner: standIn, tellPlugins } as never });
}

function startSuiteRunner(watchNodes = false, told?: TellPluginsInput[], workers = 1) {
  const seen = new Set<string>();
  const routed: Routed[] = [];
  const started: TestRunnerInput[] = [];
  const actor = createActor(recordingMachine(routed, started, told), {
    input: { workers },
    inspect: (event) => {
      if (watchNodes && (event.type === "@xstate.microstep" || event.type === "@xstate.snapshot")) {
        const snapshot = (event as unknown as { snapshot: AnyMachineSnapshot }).snapshot;
        if (snapshot.machine?.id === "suiteRunner") for (const node of snapshot._nodes ?? []) seen.add(node.id);
      }
    },
  });
  const emitted: SuiteRunnerEmitted[] = [];
  actor.on("*", (event) => emitted.push(event));
  actor.start();
  const answers = () => emitted.filter((e): e is RequestAnsweredEvent => e.type === "request.answered");
  const routedRequests = () => requestIdsOf(routed.map((r) => r.event));
  return { actor, emitted, answers, routed, routedRequests, started, seen };
}

async function replayOnActor(path: ModelPath<SuiteSnapshot, GraphEvent>, workers: number, seen?: Set<string>, lastOnly = false) {
  const runner = startSuiteRunner(seen !== undefined, undefined, workers);
  const actor = { send: (event: GraphEvent) => runner.actor.send(event as SuiteRunnerEvent), getSnapshot: () => runner.actor.getSnapshot() };
  await replayOnRealActor(path, actor, serializeState, (actual, sent, where) => {
    // Answered here, waiting for the run's end, or routed to the test runner that answers it: once.
    const waiting = actual.context.run?.stopWaiters ?? [];
    const answered = [...runner.answers().map((a) => a.requestId), ...runner.routedRequests()];
    expectEachRequestAnsweredOnce(requestIdsOf(sent), answered, waiting, where);
    // The test runners kept: those playing (at most the run's limit), and the one shown.
    const children = Object.keys(actual.children).filter((id) => id !== "tellPlugins");
    const run = actual.context.run;
    const kept = (run?.runs ?? []).filter((r) => !r.released).map((r) => r.runner);
    expect(children, `test runners ${where}`).toEqual(kept);
    const playing = (run?.runs ?? []).filter((r) => r.ended === null).length;
    expect(playing, `tests playing at once ${where}`).toBeLessThanOrEqual(run?.limit ?? 0);
    expect(kept.length - playing, `ended test runners kept ${where}`).toBeLessThanOrEqual(1);
    // CONTRACT section 22: a fatal test ends a suite in order only when the suite shares one session.
    const last = run?.runs.at(-1);
    const unstopped = run !== null && run !== undefined && !run.stopped && !run.runs.some((r) => r.ended?.end === "stopped");
    if (run?.suite && unstopped && run.limit === 1 && last?.ended?.end === "fatal" && last.index < run.testIds.length - 1) {
      expect(run.suite.persistSession, `a suite in order that ended at a fatal test shares its session ${where}`).toBe(true);
    }
    if (run?.suite?.persistSession) {
      const fatal = run.runs.findIndex((r) => r.ended?.end === "fatal");
      expect(fatal === -1 || fatal === run.runs.length - 1, `no test of a persistSession suite after a fatal one ${where}`).toBe(true);
    }
  }, lastOnly);
  for (const id of runner.seen) seen?.add(id);
  runner.actor.stop();
}

const graphs = new Map<number, Array<ModelPath<SuiteSnapshot, GraphEvent>>>();
const traversalWith = (workers: number) => ({ ...traversal, input: { workers } });
const shortestPaths = (workers: number) => {
  let paths = graphs.get(workers);
  if (!paths) {
    paths = getShortestPaths(recordingMachine(), traversalWith(workers) as never) as unknown as Array<ModelPath<SuiteSnapshot, GraphEvent>>;
    graphs.set(workers, paths);
  }
  return paths;
};

describe.each([1, 2])("suite runner with %i worker(s), model-based", (workers) => {
  it("follows every shortest path on a real actor, with the same state and run at each step", { timeout: 300_000 }, async () => {
    const shortest = shortestPaths(workers);
    expect(shortest.length).toBeGreaterThan(50);
    for (const path of shortest) await replayOnActor(path, workers);
  });

  it("follows every transition of the graph on a real actor, each after the shortest path to its source", { timeout: 600_000 }, async () => {
    const paths = transitionPaths(recordingMachine(), traversalWith(workers) as never) as unknown as Array<ModelPath<SuiteSnapshot, GraphEvent>>;
    const offered = shortestPaths(workers).reduce((n, path) => n + eventsIn(path.steps[path.steps.length - 1].state).length, 0);
    expect(paths.length).toBe(offered);
    for (const path of paths) await replayOnActor(path, workers, undefined, true);
  });

  it("passes through every state node, the transient one included, on the shortest paths", { timeout: 300_000 }, async () => {
    const seen = new Set<string>();
    for (const path of shortestPaths(workers)) await replayOnActor(path, workers, seen);
    const all = stateNodeIds(suiteRunnerMachine);
    expect(all.length).toBeGreaterThan(5);
    expect(all.filter((id) => !seen.has(id))).toEqual([]);
  });

  it("answers every POST /playback/stop once the run has ended, on every shortest path", () => {
    for (const path of shortestPaths(workers)) {
      const last = path.steps[path.steps.length - 1].state;
      if (last.matches("ended")) expect(last.context.run!.stopWaiters).toEqual([]);
    }
  });
});

// ---------------------------------------------------------------------------------------
// By hand: transitions a generated path cannot tell apart from a wrong target.

function heldRunner(told?: TellPluginsInput[], workers = 1) {
  const runner = startSuiteRunner(false, told, workers);
  const send = (event: GraphEvent) => runner.actor.send(event as SuiteRunnerEvent);
  const value = () => runner.actor.getSnapshot().value;
  const current = () => runner.actor.getSnapshot().context.run!.runs.at(-1)!;
  /** The current test runner tells that its test ended. */
  const testEnds = (end: TestEnd, failed = end === "failed" || end === "fatal", started = true) =>
    send({ type: "test.ended", runner: current().runner, testId: current().testId, end, failed, started, audience: started ? [{ id: "p", name: "P" }] : [] });
  const routedTo = (runnerId: string) => runner.routed.filter((r) => r.runner === runnerId).map((r) => r.event.type);
  /** The test runner `runnerId` tells that its test ended. */
  const endsIn = (runnerId: string, end: TestEnd, failed = end === "failed" || end === "fatal", started = true) => {
    const testId = runner.actor.getSnapshot().context.run!.runs.find((r) => r.runner === runnerId)!.testId;
    send({ type: "test.ended", runner: runnerId, testId, end, failed, started, audience: started ? [{ id: "p", name: "P" }] : [] });
  };
  const children = () => Object.keys(runner.actor.getSnapshot().children).filter((id) => id !== "tellPlugins");
  return { ...runner, send, value, current, testEnds, routedTo, endsIn, children };
}

describe("suite runner, transitions", () => {
  it("answers Busy to a plugin's start while a run is under way, and the first start with its run id", () => {
    const runner = heldRunner();
    runner.send(start(["t-a", "t-b"], { id: "s", name: "S" }, 7));
    runner.send(start(["t-a"], null, 8));
    expect(runner.answers().map((a) => [a.requestId, a.reply.ok ? a.reply.value : a.reply.errorCode])).toEqual([
      [7, { runId: "run-1" }],
      [8, "Busy"],
    ]);
  });

  it("warns the user who starts a second run, and starts nothing", () => {
    const runner = heldRunner();
    runner.send(ev.startSuite);
    runner.send(start(["t-b"]));
    expect(runner.emitted.filter((e) => e.type === "log.written")).toEqual([
      { type: "log.written", level: "warn", message: "A run is under way; stop it before starting another." },
    ]);
    expect(runner.started).toHaveLength(1);
  });

  it("plays a single test as a run of one: one test runner, then the end without a suite's", () => {
    const runner = heldRunner();
    runner.send(ev.startA);
    expect(runner.value()).toEqual({ busy: "playing" });
    expect(runner.started.map((i) => [i.testId, i.runId, i.suite])).toEqual([["t-a", "run-1", null]]);
    runner.testEnds("completed");
    expect(runner.value()).toBe("ended");
    expect(runner.emitted.map((e) => e.type)).toEqual(["request.answered", "run.playing", "run.over"]);
  });

  it("goes on to the suite's next test after a failed one, announcing the suite with the first test only", () => {
    const runner = heldRunner();
    runner.send(ev.startSuite);
    runner.testEnds("failed");
    expect(runner.value()).toEqual({ busy: "playing" });
    expect(runner.started.map((i) => [i.testId, i.suite?.announce?.map((t) => t.id) ?? null])).toEqual([
      ["t-a", ["t-a", "t-b"]],
      ["t-b", null],
    ]);
    expect(Object.keys(runner.actor.getSnapshot().children)).toEqual(["run-1/1"]);
    expect(runner.actor.getSnapshot().context.run).toMatchObject({ announced: true, runs: [{ ended: { end: "failed" } }, { ended: null }] });
  });

  it("announces the suite with its next test when its first test does not start", () => {
    const runner = heldRunner();
    runner.send(ev.startSuite);
    runner.testEnds("failed", true, false);
    expect(runner.started.map((i) => i.suite?.announce?.map((t) => t.id) ?? null)).toEqual([["t-a", "t-b"], ["t-a", "t-b"]]);
    runner.testEnds("failed", true, false);
    expect(runner.value()).toBe("ended");
  });

  it("ends the whole suite when the user stops it, telling the plugins that heard its start that it stopped", () => {
    const told: TellPluginsInput[] = [];
    const runner = heldRunner(told);
    runner.send(ev.startSuite);
    runner.send(ev.stop);
    expect(runner.routedTo("run-1/0")).toEqual(["run.stop"]);
    runner.testEnds("stopped");
    expect(runner.value()).toEqual({ busy: "closing" });
    expect(told.map((t) => [t.plugins.map((p) => p.id), t.messages.map((m) => m.event)])).toEqual([[["p"], ["suitePlaybackStopped"]]]);
  });

  it("plays no further test of a suite stopped while its test finishes", () => {
    const runner = heldRunner();
    runner.send(ev.startSuite);
    runner.send(ev.windowClosed);
    runner.testEnds("completed");
    expect(runner.value()).toEqual({ busy: "closing" });
    expect(runner.started).toHaveLength(1);
  });

  it("answers POST /playback/stop once the suite's end was told, not before", async () => {
    const runner = heldRunner([]);
    runner.send(ev.startSuite);
    runner.send(ev.stopRequest);
    runner.testEnds("stopped");
    expect(runner.answers().map((a) => a.requestId)).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(runner.value()).toBe("ended");
    expect(runner.answers().map((a) => [a.requestId, a.reply])).toEqual([[14, { ok: true, value: true }]]);
  });

  it("routes requests, the user's controls and new settings to the test playing, and nothing once the run is over", () => {
    const runner = heldRunner();
    runner.send(ev.startA);
    for (const event of [ev.report, ev.setVariable, ev.pause, ev.resume, ev.step, ev.pluginsOn, ev.breakpoint, ev.slow]) runner.send(event);
    expect(runner.routedTo("run-1/0")).toEqual([
      "request.commandState",
      "request.setVariable",
      "user.pausePlayback",
      "user.resumePlayback",
      "user.stepPlayback",
      "plugins.changed",
      "breakpoints.changed",
      "delay.changed",
    ]);
    expect(runner.routed.at(-1)!.event).toEqual({ type: "delay.changed", delayMs: 10_000 });
    runner.testEnds("completed");
    runner.send(ev.report);
    expect(runner.routed).toHaveLength(8);
    expect(runner.answers().at(-1)).toMatchObject({ requestId: 12, reply: { ok: false, errorCode: "NoRunningTest" } });
  });

  it("starts the next run's test with the breakpoints and delay the user set, stopping the last run's test runner", () => {
    const runner = heldRunner();
    runner.send(ev.breakpoint);
    runner.send({ type: "user.setPlaybackDelay", ms: 250 });
    runner.send(ev.startA);
    runner.testEnds("completed");
    runner.send(start(["t-b"]));
    expect(runner.started.map((i) => [i.testId, i.runId, i.breakpoints, i.delayMs])).toEqual([
      ["t-a", "run-1", ["c1"], 250],
      ["t-b", "run-2", ["c1"], 250],
    ]);
    expect(Object.keys(runner.actor.getSnapshot().children)).toEqual(["run-2/0"]);
  });
});

describe("suite runner, a parallel suite", () => {
  const parallel = (requestId?: number) => start(["t-a", "t-b", "t-c"], { id: "s", name: "S", parallel: true }, requestId);

  it("starts as many tests as there are workers at once, each with a runId of its own, the first telling the suite's start", () => {
    const runner = heldRunner(undefined, 2);
    runner.send(parallel(7));
    expect(runner.answers()[0]).toMatchObject({ requestId: 7, reply: { ok: true, value: { runId: "run-1" } } });
    expect(runner.started.map((i) => [i.testId, i.runId, i.suite?.runId, i.suite?.announce?.length ?? null])).toEqual([
      ["t-a", "run-1.1", "run-1", 3],
      ["t-b", "run-1.2", "run-1", null],
    ]);
    expect(runner.children()).toEqual(["run-1/0", "run-1/1"]);
    // The first to end makes room for the third; the ended one is let go, its end kept.
    runner.endsIn("run-1/1", "completed");
    expect(runner.started.map((i) => i.runId)).toEqual(["run-1.1", "run-1.2", "run-1.3"]);
    expect(runner.children()).toEqual(["run-1/0", "run-1/2"]);
    runner.endsIn("run-1/0", "completed");
    runner.endsIn("run-1/2", "completed");
    expect(runner.value()).toEqual({ busy: "closing" });
    expect(runner.children()).toEqual(["run-1/2"]);
  });

  it("has the first test that starts at all tell the suite's start, when the first of a parallel suite cannot start", () => {
    const runner = heldRunner(undefined, 2);
    runner.send(start(["t-x", "t-b", "t-c"], { id: "s", name: "S", parallel: true }));
    expect(runner.started.map((i) => [i.testId, i.suite?.announce?.map((t) => t.id) ?? null])).toEqual([
      ["t-x", null],
      ["t-b", ["t-x", "t-b", "t-c"]],
    ]);
    runner.endsIn("run-1/0", "failed", true, false);
    expect(runner.started.map((i) => [i.testId, i.suite?.announce ?? null])).toEqual([
      ["t-x", null],
      ["t-b", expect.any(Array)],
      ["t-c", null],
    ]);
    runner.endsIn("run-1/1", "completed");
    runner.endsIn("run-1/2", "completed");
    // The suite was told started, so it is told stopped.
    expect(runner.value()).toEqual({ busy: "closing" });
  });

  it("plays a suite that is not parallel in order, whatever the workers", () => {
    const runner = heldRunner(undefined, 2);
    runner.send(ev.startSuite);
    expect(runner.started.map((i) => [i.testId, i.runId])).toEqual([["t-a", "run-1"]]);
    runner.testEnds("completed");
    expect(runner.started.map((i) => [i.testId, i.runId])).toEqual([["t-a", "run-1"], ["t-b", "run-1"]]);
  });

  it("plays a parallel suite in order with one worker", () => {
    const runner = heldRunner(undefined, 1);
    runner.send(parallel());
    expect(runner.started.map((i) => [i.testId, i.runId])).toEqual([["t-a", "run-1"]]);
  });

  it("sends a command's state to the test that holds the command, and the user's controls to the test shown", () => {
    const runner = heldRunner(undefined, 2);
    runner.send(parallel());
    runner.send({ type: "request.commandState", requestId: 21, sender: "p", commandId: "c1", state: "passed", message: null });
    runner.send({ type: "request.commandState", requestId: 22, sender: "p", commandId: "d1", state: "passed", message: null });
    runner.send(ev.pause);
    runner.send(ev.breakpoint);
    expect(runner.routedTo("run-1/0")).toEqual(["request.commandState", "breakpoints.changed"]);
    expect(runner.routedTo("run-1/1")).toEqual(["request.commandState", "user.pausePlayback", "breakpoints.changed"]);
  });

  it("refuses a late state for a command of a test that ended and was let go, rather than give it to a test still playing", () => {
    const runner = heldRunner(undefined, 2);
    runner.send(parallel());
    runner.endsIn("run-1/0", "completed");
    expect(runner.children()).toEqual(["run-1/1", "run-1/2"]);
    runner.send({ type: "request.commandState", requestId: 31, sender: "p", commandId: "c1", state: "failed", message: "late" });
    expect(runner.answers().find((a) => a.requestId === 31)).toMatchObject({
      reply: { ok: false, errorCode: "UnknownCommand", error: 'The test case "a" has ended, so its command "c1" takes no more states.' },
    });
    expect(runner.routedTo("run-1/1")).not.toContain("request.commandState");
    expect(runner.routedTo("run-1/2")).not.toContain("request.commandState");
  });

  it("gives a late state to an ended test the user keeps shown, as a single test's last runner takes it", () => {
    const runner = heldRunner(undefined, 2);
    runner.send(parallel());
    runner.send({ type: "user.showTestRun", runId: "run-1.1" });
    runner.endsIn("run-1/0", "completed");
    expect(runner.children()).toContain("run-1/0");
    runner.send({ type: "request.commandState", requestId: 32, sender: "p", commandId: "c1", state: "failed", message: "late" });
    expect(runner.routedTo("run-1/0")).toContain("request.commandState");
    expect(runner.answers().some((a) => a.requestId === 32)).toBe(false);
  });

  it("shows the test the user picks, and says why when it cannot", () => {
    const runner = heldRunner(undefined, 2);
    runner.send(parallel());
    runner.send({ type: "user.showTestRun", runId: "run-1.1" });
    runner.send(ev.pause);
    expect(runner.routedTo("run-1/0")).toEqual(["user.pausePlayback"]);
    runner.send({ type: "user.showTestRun", runId: "run-9.9" });
    expect(runner.emitted.filter((e) => e.type === "log.written").map((e) => (e as { message: string }).message)).toEqual([
      'Cannot show the test run "run-9.9": the run has no test with that id.',
    ]);
    // The picked test stays shown once it ended; the others are let go as they end.
    runner.endsIn("run-1/0", "failed");
    runner.endsIn("run-1/1", "completed");
    expect(runner.children()).toEqual(["run-1/0", "run-1/2"]);
    runner.send({ type: "user.showTestRun", runId: "run-1.2" });
    expect(runner.emitted.filter((e) => e.type === "log.written").at(-1)).toMatchObject({
      message: 'Cannot show the test run "run-1.2": its commands are no longer kept (only those playing and the one shown are).',
    });
  });

  it("goes on with the other tests when one ends fatal, and stops every test playing on Stop", () => {
    const runner = heldRunner(undefined, 2);
    runner.send(parallel());
    runner.endsIn("run-1/0", "fatal");
    expect(runner.started.map((i) => i.testId)).toEqual(["t-a", "t-b", "t-c"]);
    runner.send(ev.stop);
    expect(runner.routedTo("run-1/1")).toEqual(["run.stop"]);
    expect(runner.routedTo("run-1/2")).toEqual(["run.stop"]);
    runner.endsIn("run-1/1", "stopped");
    runner.endsIn("run-1/2", "stopped");
    expect(runner.started).toHaveLength(3);
    expect(runner.value()).toEqual({ busy: "closing" });
  });

  it("starts no further test once one was stopped", () => {
    const runner = heldRunner(undefined, 2);
    runner.send(parallel());
    runner.endsIn("run-1/0", "stopped");
    expect(runner.started).toHaveLength(2);
    runner.endsIn("run-1/1", "completed");
    expect(runner.value()).toEqual({ busy: "closing" });
  });
});
