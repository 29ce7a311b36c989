// The test runner, model-based and by hand. The graph drives it with the events its suite
// runner would route to it and those its own actors would send (their done and error events,
// the delays' after events), so the traversal stays pure; each path is then replayed on a real
// actor whose actors never settle by themselves, and the snapshots must agree at every step.
// Its report to the suite runner (sendParent) is a named action, which the test provides as a
// recorder: the graph has no parent to send to.
import { describe, expect, it } from "vitest";
import { createActor, fromPromise } from "xstate";
import type { AnyMachineSnapshot, EventObject, SnapshotFrom } from "xstate";
import { getShortestPaths } from "xstate/graph";
import { testRunnerMachine } from "../../machines/testRunner.machine.ts";
import { currentCommandId } from "../../machines/testRunner.run.ts";
import type {
  PageOutcome,
  RunEventMessage,
  TellPluginsInput,
  TellPluginsOutput,
  TestRunnerEmitted,
  TestRunnerEvent,
  TestRunnerInput,
} from "../../machines/testRunner.types.ts";
import type { RequestAnsweredEvent } from "../../machines/shared.types.ts";
import { commandRows } from "../../services/playback/commandTable.ts";
import { command, expectEachRequestAnsweredOnce, modelProject, registration, replayOnRealActor, requestIdsOf, stateNodeIds, transitionPaths } from "./support.ts";
import type { ModelPath } from "./support.ts";

type TestSnapshot = SnapshotFrom<typeof testRunnerMachine>;
type GraphEvent = TestRunnerEvent | (EventObject & { output?: unknown; error?: unknown });

const project = modelProject(
  "p-model",
  "Model",
  [
    { id: "t-a", name: "a", commands: [command("c1", "store", "v", "x"), command("c2", "pOk")] },
    { id: "t-three", name: "three", commands: [command("d1", "store", "v", "x"), command("d2", "pOk"), command("d3", "open", "/")] },
    { id: "t-flow", name: "flow", commands: [command("f1", "if", "${x}"), command("f2", "pause", "60000"), command("f3", "end")] },
    { id: "t-broken", name: "broken", commands: [command("b1", "if", "true")] },
    { id: "t-off", name: "off", commands: [command("o1", "//pOk"), command("o2", "store", "v", "x")] },
    { id: "t-data", name: "data", commands: [command("l1", "loadVars", "rows.csv"), command("l2", "open", "/${a}"), command("l3", "endLoadVars")] },
  ],
  [{ id: "s", name: "S", tests: ["t-a", "t-flow"] }],
);

const plugin = registration("P", "pOk");
const plugins = [{ id: "p", registration: { ...plugin, commands: [{ id: "pOk", name: "pOk" }] } }];

const inputFor = (testId: string, more: Partial<TestRunnerInput> = {}): TestRunnerInput => ({
  runId: "run-1",
  projectName: project.name,
  baseUrl: project.url,
  heal: true,
  tests: project.tests,
  testId,
  suite: null,
  plugins,
  breakpoints: [],
  delayMs: 0,
  ...more,
});

const done = (id: string, output: unknown): GraphEvent => ({ type: `xstate.done.actor.${id}`, output });
const failed = (id: string, error: unknown): GraphEvent => ({ type: `xstate.error.actor.${id}`, error });
const after = (delay: string, state: string): GraphEvent => ({ type: `xstate.after.${delay}.testRunner.live.running.${state}` });
const reported = (requestId: number, commandId: string, state: "passed" | "fatal" | "pending"): TestRunnerEvent => ({
  type: "request.commandState",
  requestId,
  sender: "p",
  commandId,
  state,
  message: state === "fatal" ? "the session is gone" : null,
});

const ev = {
  told: done("tellPlugins", [{ pluginId: "p", name: "P", delivery: { answered: true, answer: true } }]),
  refused: done("tellPlugins", [{ pluginId: "p", name: "P", delivery: { answered: true, answer: { error: "no licence" } } }]),
  stored: done("runIdeCommand", { ok: true, set: { x: "v" } }),
  sleeps: done("runIdeCommand", { ok: true, sleepMs: 60_000 }),
  jumped: done("runIdeCommand", { ok: true }),
  slept: after("pauseSleep", "sleeping"),
  holds: done("evaluateCondition", true),
  conditionBroke: failed("evaluateCondition", new Error("x is not defined")),
  pluginPassed: done("runPluginCommand", { answered: true, answer: true }),
  pluginSilent: done("runPluginCommand", { answered: false, reason: "gone" }),
  pagePassed: done("runPageCommand", { state: "passed" }),
  pageFailed: done("runPageCommand", { state: "failed", message: "no element" }),
  pageGone: failed("runPageCommand", new Error("chromedriver exited")),
  dataRead: done("readData", [{ a: "1" }, { a: "2" }]),
  dataMissing: failed("readData", new Error('The data file "rows.csv" was not found')),
  pause: { type: "user.pausePlayback" },
  resume: { type: "user.resumePlayback" },
  step: { type: "user.stepPlayback" },
  stop: { type: "run.stop" },
  breakpoint: { type: "breakpoints.changed", breakpoints: ["c2", "d2"] },
  slow: { type: "delay.changed", delayMs: 10_000 },
  pluginsGone: { type: "plugins.changed", plugins: [] },
  waited: after("commandDelay", "waiting"),
  timedOut: { type: "xstate.after.suiteTimeout.testRunner.live" },
  reportFatal: reported(11, "c2", "fatal"),
  reportPassed: reported(12, "c1", "passed"),
  reportPending: reported(15, "c1", "pending"),
  reportUnknown: reported(16, "nope", "passed"),
  setVariable: { type: "request.setVariable", requestId: 13, sender: "p", name: "y", value: 1 },
} satisfies Record<string, GraphEvent>;

/** Actors' done and error events and the delays' after events, offered only where they can come. */
const ACTOR_EVENTS: Array<[string | object, GraphEvent[]]> = [
  [{ live: "starting" }, [ev.told, ev.refused]],
  ["finishing", [ev.told]],
  [{ live: { running: "ideCommand" } }, [ev.stored, ev.sleeps, ev.jumped]],
  [{ live: { running: "sleeping" } }, [ev.slept]],
  [{ live: { running: "condition" } }, [ev.holds, ev.conditionBroke]],
  [{ live: { running: "pluginCommand" } }, [ev.pluginPassed, ev.pluginSilent]],
  [{ live: { running: "pageCommand" } }, [ev.pagePassed, ev.pageFailed, ev.pageGone]],
  [{ live: { running: "waiting" } }, [ev.waited]],
  [{ live: { running: "loadingData" } }, [ev.dataRead, ev.dataMissing]],
];
const FROM_ACTORS = new Set([...ACTOR_EVENTS.flatMap(([, events]) => events), ev.timedOut]);

/**
 * The graph stays small enough to replay every transition: the settings the suite runner
 * passes on (breakpoints, the delay, the plugins) are offered while the test starts only (they
 * stay for the rest of it), and so are a variable a plugin sets and states a plugin reports
 * that do not end the test; the transition tests below cover them later in a test.
 */
const WHILE_STARTING_ONLY = new Set<GraphEvent>([ev.breakpoint, ev.slow, ev.pluginsGone, ev.setVariable, ev.reportPassed, ev.reportPending, ev.reportUnknown]);
const EXTERNAL = (Object.values(ev) as GraphEvent[]).filter((e) => !FROM_ACTORS.has(e));

function eventsIn(snapshot: TestSnapshot): GraphEvent[] {
  const starting = snapshot.matches({ live: "starting" }) && snapshot.context.run.audience.length === plugins.length && snapshot.context.breakpoints.length === 0;
  const external = starting ? EXTERNAL : EXTERNAL.filter((e) => !WHILE_STARTING_ONLY.has(e));
  const here = ACTOR_EVENTS.flatMap(([state, events]) => (snapshot.matches(state as never) ? events : []));
  // The suite's timeout runs out anywhere in live, for a test whose suite has one (CONTRACT section 22).
  const timesOut = snapshot.matches("live") && snapshot.context.run.suite?.timeoutS ? [ev.timedOut] : [];
  return [...external, ...here, ...timesOut];
}

/** What a test's run is, for the graph: everything that decides what comes next. */
function serializeState(snapshot: TestSnapshot): string {
  const { run, plugins: registered, breakpoints } = snapshot.context;
  return JSON.stringify({
    value: snapshot.value,
    plugins: registered.length,
    breakpoints,
    run: {
      test: run.test.id,
      rows: commandRows(run.commands).map((r) => [r.id, r.state]),
      at: run.frames.map((f) => [f.at, f.visits, f.turnedBack, f.data ?? {}]),
      current: currentCommandId(run),
      flags: [run.pauseRequested, run.stepping, run.passBreakpointAt, run.end, run.failed, run.sleepMs, run.delayMs, run.untilCommandId, run.single],
      variables: run.variables,
      audience: run.audience.length,
    },
  });
}

const hang = <T,>() => fromPromise<T, unknown>(() => new Promise<T>(() => {}));
/** The machine with actors that never settle (the test sends their done and error events) and a recorder for its report. */
function heldMachine(reports: unknown[] = []) {
  return testRunnerMachine.provide({
    actors: {
      runIdeCommand: hang(),
      runPluginCommand: hang(),
      runPageCommand: hang(),
      evaluateCondition: hang(),
      readData: hang(),
      tellPlugins: hang(),
    } as never,
    actions: { reportEnded: (_: unknown, params: unknown) => void reports.push(params) },
  });
}

// One graph per test played: the commands of each kind, a control flow that sleeps and
// branches, a flow that does not hold, and a suite's first test, which announces the suite.
const INPUTS: Array<[string, TestRunnerInput]> = [
  ["t-a", inputFor("t-a")],
  ["t-flow", inputFor("t-flow")],
  ["t-broken", inputFor("t-broken")],
  ["t-data", inputFor("t-data")],
  ["t-a, first of suite S", inputFor("t-a", { suite: { name: "S", runId: "run-1", announce: [project.tests[0], project.tests[2]] } })],
  ["t-flow, in a suite with a timeout", inputFor("t-flow", { suite: { name: "S", runId: "run-1", announce: null, timeoutS: 300 }, session: "run-1/1" })],
  ["t-a, played to c2", inputFor("t-a", { untilCommandId: "c2" })],
  ["t-three, d2 executed alone", inputFor("t-three", { executeCommandId: "d2", variables: { v: "x" } })],
];

const traversalFor = (input: TestRunnerInput) => ({ events: eventsIn as never, serializeState, input, limit: 2_000_000 });

function startTest(input: TestRunnerInput, watchNodes = false, reports: unknown[] = []) {
  const seen = new Set<string>();
  const actor = createActor(heldMachine(reports), {
    input,
    inspect: !watchNodes
      ? undefined
      : (event) => {
          if (event.type === "@xstate.microstep" || event.type === "@xstate.snapshot") {
            for (const node of (event as unknown as { snapshot: AnyMachineSnapshot }).snapshot._nodes ?? []) seen.add(node.id);
          }
        },
  });
  const emitted: TestRunnerEmitted[] = [];
  actor.on("*", (event) => emitted.push(event));
  actor.start();
  const answers = () => emitted.filter((e): e is RequestAnsweredEvent => e.type === "request.answered");
  return { actor, emitted, answers, seen, reports };
}

/**
 * Replays a path on a real actor and checks it after each step, or after the last one only
 * (`lastOnly`: a transition path's steps before its last are a shortest path, checked already).
 */
async function replayOnActor(input: TestRunnerInput, path: ModelPath<TestSnapshot, GraphEvent>, seen?: Set<string>, lastOnly = false) {
  const test = startTest(input, seen !== undefined);
  const actor = { send: (event: GraphEvent) => test.actor.send(event as TestRunnerEvent), getSnapshot: () => test.actor.getSnapshot() };
  await replayOnRealActor(path, actor, serializeState, (actual, sent, where) => {
    expectEachRequestAnsweredOnce(requestIdsOf(sent), test.answers().map((a) => a.requestId), [], where);
    const ended = actual.matches("ended");
    expect(test.reports.length, `the suite runner told of the end once, and only once ended ${where}`).toBe(ended ? 1 : 0);
    if (ended) {
      const rows = commandRows(actual.context.run.commands);
      expect(rows.filter((r) => r.state === "pending"), `nothing pending once ended ${where}`).toEqual([]);
    }
  }, lastOnly);
  for (const id of test.seen) seen?.add(id);
  test.actor.stop();
}

const graphs = new Map<string, Array<ModelPath<TestSnapshot, GraphEvent>>>();
const shortestPaths = (name: string, input: TestRunnerInput) => {
  let paths = graphs.get(name);
  if (!paths) {
    paths = getShortestPaths(heldMachine(), traversalFor(input) as never) as unknown as Array<ModelPath<TestSnapshot, GraphEvent>>;
    graphs.set(name, paths);
  }
  return paths;
};

describe("test runner, model-based", () => {
  it.each(INPUTS)("follows every shortest path of %s on a real actor, with the same state and run at each step", { timeout: 300_000 }, async (name, input) => {
    const shortest = shortestPaths(name, input);
    // A test whose flow is broken ends at once; one command executed alone has fewer ways to go.
    expect(shortest.length).toBeGreaterThan(name === "t-broken" ? 0 : name.endsWith("executed alone") ? 10 : 20);
    for (const path of shortest) await replayOnActor(input, path);
  });

  it.each(INPUTS)("follows every transition of the graph of %s on a real actor, each after the shortest path to its source", { timeout: 600_000 }, async (name, input) => {
    const paths = transitionPaths(heldMachine(), traversalFor(input) as never) as unknown as Array<ModelPath<TestSnapshot, GraphEvent>>;
    const offered = shortestPaths(name, input).reduce((n, path) => n + eventsIn(path.steps[path.steps.length - 1].state).length, 0);
    expect(paths.length).toBe(offered);
    for (const path of paths) await replayOnActor(input, path, undefined, true);
  });

  it("passes through every state node, the transient ones included, on the shortest paths of its tests", { timeout: 300_000 }, async () => {
    const seen = new Set<string>();
    for (const [name, input] of INPUTS) for (const path of shortestPaths(name, input)) await replayOnActor(input, path, seen);
    const all = stateNodeIds(testRunnerMachine);
    expect(all.length).toBeGreaterThan(10);
    expect(all.filter((id) => !seen.has(id))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------
// By hand: transitions a generated path cannot tell apart from a wrong target.

function heldTest(input: TestRunnerInput) {
  const test = startTest(input);
  const send = (event: GraphEvent) => test.actor.send(event as TestRunnerEvent);
  const value = () => test.actor.getSnapshot().value;
  const rows = () => commandRows(test.actor.getSnapshot().context.run.commands).map((r) => [r.id, r.state]);
  const current = () => currentCommandId(test.actor.getSnapshot().context.run);
  return { ...test, send, value, rows, current };
}

/** A test runner of t-three paused at the breakpoint before its second command. */
function pausedBeforeSecond() {
  const test = heldTest(inputFor("t-three", { breakpoints: ["d2"] }));
  test.send(done("tellPlugins", []));
  test.send(ev.stored);
  return test;
}

/** A test runner of t-three with a delay, waiting after its first command. */
function waitingAfterFirst() {
  const test = heldTest(inputFor("t-three", { delayMs: 10_000 }));
  test.send(done("tellPlugins", []));
  test.send(ev.stored);
  expect(test.value()).toEqual({ live: { running: "waiting" } });
  return test;
}

/** A test runner whose plugins answer at once, with the messages they were told, and its other actors left as they are. */
function tellingTest(input: TestRunnerInput) {
  const told: RunEventMessage[][] = [];
  const actor = createActor(
    testRunnerMachine.provide({
      actors: {
        tellPlugins: fromPromise<TellPluginsOutput, TellPluginsInput>(async ({ input }) => {
          told.push(input.messages);
          return [];
        }),
      },
      actions: { reportEnded: () => {} },
    }),
    { input },
  ).start();
  return { told, actor };
}

describe("test runner, transitions", () => {
  it("pauses before a command with a breakpoint, and runs it once resumed", () => {
    const test = pausedBeforeSecond();
    expect(test.value()).toEqual({ live: "paused" });
    expect(test.current()).toBe("d2");
    expect(test.rows()).toEqual([["d1", "passed"], ["d2", null], ["d3", null]]);
    test.send(ev.resume);
    expect(test.value()).toEqual({ live: { running: "pluginCommand" } });
    expect(test.rows()).toEqual([["d1", "passed"], ["d2", "pending"], ["d3", null]]);
  });

  it("runs one command when stepped from paused, then pauses before the next", () => {
    const test = pausedBeforeSecond();
    test.send(ev.step);
    expect(test.value()).toEqual({ live: { running: "pluginCommand" } });
    test.send(ev.pluginPassed);
    expect(test.value()).toEqual({ live: "paused" });
    expect(test.current()).toBe("d3");
    expect(test.rows()).toEqual([["d1", "passed"], ["d2", "passed"], ["d3", null]]);
  });

  it("pauses at a breakpoint inside a data block at every row, after being resumed there", () => {
    const test = heldTest(inputFor("t-data", { breakpoints: ["l2"] }));
    test.send(done("tellPlugins", []));
    test.send(ev.dataRead);
    expect(test.value()).toEqual({ live: "paused" });
    expect(test.current()).toBe("l2");
    test.send(ev.resume);
    expect(test.value()).toEqual({ live: { running: "pageCommand" } });
    test.send(ev.pagePassed);
    expect(test.value()).toEqual({ live: "paused" });
    expect(test.current()).toBe("l2");
    test.send(ev.resume);
    test.send(ev.pagePassed);
    expect(test.value()).not.toEqual({ live: "paused" });
    expect(test.rows()).toEqual([["l1", "passed"], ["l2", "passed"], ["l3", "passed"]]);
  });

  it("pauses at a breakpoint the user sets while the test plays", () => {
    const test = heldTest(inputFor("t-three"));
    test.send(done("tellPlugins", []));
    test.send({ type: "breakpoints.changed", breakpoints: ["d3"] });
    test.send(ev.stored);
    test.send(ev.pluginPassed);
    expect(test.value()).toEqual({ live: "paused" });
    expect(test.current()).toBe("d3");
  });

  it("ends a test stopped while starting without running a command, telling plugins it stopped", () => {
    const { told, actor } = tellingTest(inputFor("t-three"));
    actor.send({ type: "run.stop" });
    expect(actor.getSnapshot().value).toBe("finishing");
    expect(commandRows(actor.getSnapshot().context.run.commands).every((r) => r.state === null)).toBe(true);
    expect(told.map((m) => m.map((x) => x.event))).toEqual([["playbackStarted"], ["playbackStopped"]]);
    actor.stop();
  });

  it("keeps accepting command states while finishing, and reports its end once plugins answered playbackStopped", () => {
    const test = heldTest(inputFor("t-three"));
    test.send(done("tellPlugins", []));
    test.send(ev.stop);
    expect(test.value()).toBe("finishing");
    expect(test.rows()).toEqual([["d1", "undetermined"], ["d2", null], ["d3", null]]);
    test.send(reported(12, "d1", "passed"));
    expect(test.rows()[0]).toEqual(["d1", "passed"]);
    test.send(ev.stop);
    expect(test.value()).toBe("finishing");
    expect(test.reports).toEqual([]);
    test.send(done("tellPlugins", []));
    expect(test.value()).toBe("ended");
    expect(test.reports).toEqual([{ started: true }]);
    expect(test.answers().map((a) => a.reply)).toEqual([{ ok: true, value: true }]);
  });

  it("takes a state a plugin sends once ended (its suite is being told the end), leaving nothing pending", () => {
    const test = heldTest(inputFor("t-three"));
    test.send(done("tellPlugins", []));
    test.send(ev.stop);
    test.send(done("tellPlugins", []));
    test.send(reported(12, "d2", "pending"));
    test.send(reported(13, "d3", "passed"));
    expect(test.rows()).toEqual([["d1", "undetermined"], ["d2", "undetermined"], ["d3", "passed"]]);
    test.send({ type: "request.setVariable", requestId: 14, sender: "p", name: "y", value: 1 });
    expect(test.answers().map((a) => (a.reply.ok ? a.reply.value : a.reply.errorCode))).toEqual([true, true, "NoRunningTest"]);
  });

  it("ends a paused test when a plugin reports a command fatal", () => {
    const test = pausedBeforeSecond();
    test.send(reported(11, "d3", "fatal"));
    expect(test.value()).toBe("finishing");
    expect(test.rows()).toEqual([["d1", "passed"], ["d2", null], ["d3", "fatal"]]);
    test.send(done("tellPlugins", []));
    expect(test.value()).toBe("ended");
    expect(test.actor.getSnapshot().context.run.failed).toBe(true);
  });

  it("marks the executing command undetermined when stopped, and never writes its state afterwards", async () => {
    let settle!: (value: unknown) => void;
    const actor = createActor(
      testRunnerMachine.provide({
        actors: {
          tellPlugins: fromPromise(async () => []),
          runPageCommand: fromPromise(() => new Promise((resolve) => (settle = resolve))),
        } as never,
        actions: { reportEnded: () => {} },
      }),
      { input: inputFor("t-three", { plugins: [] }) },
    ).start();
    await new Promise((resolve) => setImmediate(resolve));
    expect(actor.getSnapshot().value).toEqual({ live: { running: "pageCommand" } });
    actor.send({ type: "run.stop" });
    settle({ state: "passed" });
    await new Promise((resolve) => setImmediate(resolve));
    const rows = commandRows(actor.getSnapshot().context.run.commands);
    expect(rows.map((r) => r.state)).toEqual(["passed", "undetermined", null]);
    expect(actor.getSnapshot().value).toBe("ended");
    actor.stop();
  });

  it("does not start a test whose control flow does not hold, failing the command that breaks it, and says plugins heard nothing", () => {
    const test = heldTest(inputFor("t-broken"));
    expect(test.value()).toBe("ended");
    expect(test.rows()).toEqual([["b1", "failed"]]);
    expect(test.reports).toEqual([{ started: false }]);
  });

  it("pauses during the delay between commands, before the next one", () => {
    const test = waitingAfterFirst();
    test.send(ev.pause);
    expect(test.value()).toEqual({ live: "paused" });
    expect(test.current()).toBe("d2");
  });

  it("leaves the next command without state when stopped during the delay between commands", () => {
    const test = waitingAfterFirst();
    test.send(ev.stop);
    expect(test.value()).toBe("finishing");
    expect(test.rows()).toEqual([["d1", "passed"], ["d2", null], ["d3", null]]);
  });

  it("waits the delay the user sets while it plays, from the next command on", () => {
    const test = heldTest(inputFor("t-three"));
    test.send(done("tellPlugins", []));
    test.send({ type: "delay.changed", delayMs: 500 });
    test.send(ev.stored);
    expect(test.value()).toEqual({ live: { running: "waiting" } });
    expect(test.actor.getSnapshot().context.run.delayMs).toBe(500);
  });

  it.each([
    ["the suite's first test", [project.tests[0], project.tests[2]], ["suitePlaybackStarted", "playbackStarted"]],
    ["a later test of the suite", null, ["playbackStarted"]],
  ])("tells the plugins the suite started before its own start only when it is %s", (_, announce, events) => {
    const { told, actor } = tellingTest(inputFor("t-a", { suite: { name: "S", runId: "run-1", announce } }));
    expect(told.map((m) => m.map((x) => x.event))).toEqual([events]);
    expect(told[0].every((m) => m.options.runId === "run-1")).toBe(true);
    actor.stop();
  });
});

describe("test runner, Play to here, Execute this command and disabled commands (CONTRACT section 20)", () => {
  it("pauses before the command it plays to once, and goes on past it when resumed", () => {
    const test = heldTest(inputFor("t-three", { untilCommandId: "d2" }));
    test.send(done("tellPlugins", []));
    test.send(ev.stored);
    expect(test.value()).toEqual({ live: "paused" });
    expect(test.current()).toBe("d2");
    expect(test.actor.getSnapshot().context.run.untilCommandId).toBeNull();
    test.send(ev.resume);
    expect(test.value()).toEqual({ live: { running: "pluginCommand" } });
    test.send(ev.pluginPassed);
    expect(test.value()).toEqual({ live: { running: "pageCommand" } });
  });

  it("pauses there when the user paused just before it, and does not pause there again", () => {
    const test = heldTest(inputFor("t-three", { untilCommandId: "d2", delayMs: 10_000 }));
    test.send(done("tellPlugins", []));
    test.send(ev.stored);
    test.send(ev.pause);
    expect(test.value()).toEqual({ live: "paused" });
    expect(test.current()).toBe("d2");
    test.send(ev.resume);
    expect(test.value()).toEqual({ live: { running: "pluginCommand" } });
  });

  it("executes one command alone: plugins hear nothing, it starts with the variables given, and only its row gets a state", () => {
    const { actor } = tellingTest(inputFor("t-three", { executeCommandId: "d1", variables: { u: 1 } }));
    // The audience is whom playbackStarted and playbackStopped go to.
    expect(actor.getSnapshot().context.run.audience).toEqual([]);
    expect(actor.getSnapshot().context.run.variables).toEqual({ u: 1 });
    actor.stop();
    const test = heldTest(inputFor("t-three", { executeCommandId: "d2" }));
    test.send(done("tellPlugins", []));
    expect(test.value()).toEqual({ live: { running: "pluginCommand" } });
    test.send(ev.pluginPassed);
    expect(test.value()).toBe("finishing");
    expect(test.rows()).toEqual([["d1", null], ["d2", "passed"], ["d3", null]]);
  });

  it("does not start executing a control-flow command alone, failing it with why", () => {
    const test = heldTest(inputFor("t-flow", { executeCommandId: "f1" }));
    expect(test.value()).toBe("ended");
    expect(test.actor.getSnapshot().context.run.commands.chunks.flat().map((r) => [r.id, r.state, r.message])).toEqual([
      ["f1", "failed", "This command cannot be executed by itself: if is control flow, which means nothing by itself: use Play from here, or play the whole test."],
      ["f2", null, null],
      ["f3", null, null],
    ]);
    expect(test.reports).toEqual([{ started: false }]);
  });

  it("passes over a disabled command, which keeps no state", () => {
    const test = heldTest(inputFor("t-off"));
    test.send(done("tellPlugins", []));
    expect(test.value()).toEqual({ live: { running: "ideCommand" } });
    expect(test.current()).toBe("o2");
    test.send(ev.stored);
    expect(test.value()).toBe("finishing");
    expect(test.rows()).toEqual([["o1", null], ["o2", "passed"]]);
  });
});

describe("test runner, healed commands (CONTRACT section 18)", () => {
  /** Plays "t-three" with no plugins, the page answering each command with the next outcome. */
  async function playedWith(outcomes: PageOutcome[], heal: boolean) {
    const logs: Array<{ level: string; message: string }> = [];
    const actor = createActor(
      testRunnerMachine.provide({
        actors: {
          tellPlugins: fromPromise(async () => []),
          runPageCommand: fromPromise(async () => outcomes.shift() ?? { state: "passed" }),
        } as never,
        actions: { reportEnded: () => {} },
      }),
      { input: inputFor("t-three", { plugins: [], heal }) },
    );
    actor.on("log.written", (event) => logs.push({ level: event.level, message: event.message }));
    actor.start();
    for (let i = 0; i < 20 && actor.getSnapshot().value !== "ended"; i++) await new Promise((resolve) => setImmediate(resolve));
    const rows = commandRows(actor.getSnapshot().context.run.commands);
    actor.stop();
    return { rows, logs };
  }

  it("passes a command the page found by another locator, marks it healed with that locator and score, and warns naming both", async () => {
    const { rows, logs } = await playedWith([{ state: "passed", healed: { locator: "css=#buy", score: 0.91 } }], true);
    expect(rows.map((r) => [r.id, r.state, r.healed ?? null])).toEqual([
      ["d1", "passed", null],
      ["d2", "passed", { locator: "css=#buy", score: 0.91 }],
      ["d3", "passed", null],
    ]);
    expect(logs).toEqual([{ level: "warn", message: expect.stringMatching(/^Healed #2 pOk : its target found nothing, css=#buy did \(score 0\.91\)/) }]);
  });

  it("fails a healed command when healing is off, naming the locator that would have worked, and ends the test", async () => {
    const { rows, logs } = await playedWith([{ state: "passed", healed: { locator: "css=#buy", score: 1 } }], false);
    expect(rows.map((r) => r.state)).toEqual(["passed", "failed", null]);
    expect(rows[1].message).toMatch(/css=#buy would have found the element \(score 1\.00\), but healing is off/);
    expect(rows[1].healed).toBeUndefined();
    expect(logs).toEqual([]);
  });
});
