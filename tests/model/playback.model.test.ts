// The run machine, model-based and by hand. The graph drives it with the events adapters and
// its own actors would send (their done and error events, the delays' after events), so the
// traversal stays pure; each path is then replayed on a real actor whose actors never settle
// by themselves, and the snapshots must agree at every step.
import { describe, expect, it } from "vitest";
import { createActor, fromPromise } from "xstate";
import type { AnyMachineSnapshot, EventObject, SnapshotFrom } from "xstate";
import { getShortestPaths } from "xstate/graph";
import { playbackMachine } from "../../machines/playback.machine.ts";
import { currentCommandId } from "../../machines/playback.run.ts";
import type {
  PlaybackEmitted,
  PlaybackEvent,
  RunEventMessage,
  TellPluginsInput,
  TellPluginsOutput,
} from "../../machines/playback.types.ts";
import type { RequestAnsweredEvent } from "../../machines/shared.types.ts";
import { commandRows } from "../../services/playback/commandTable.ts";
import { expectEachRequestAnsweredOnce, parsedProject, registration, replayPath, stateNodeIds, transitionPaths } from "./support.ts";
import type { ModelPath } from "./support.ts";

type RunSnapshot = SnapshotFrom<typeof playbackMachine>;
type GraphEvent = PlaybackEvent | (EventObject & { output?: unknown; error?: unknown });

const command = (id: string, name: string, target = "", value = "") => ({ id, command: name, target, value });
const project = parsedProject({
  id: "p-model",
  name: "Model",
  url: "http://127.0.0.1:8080",
  tests: [
    { id: "t-a", name: "a", commands: [command("c1", "store", "v", "x"), command("c2", "pOk")] },
    { id: "t-three", name: "three", commands: [command("d1", "store", "v", "x"), command("d2", "pOk"), command("d3", "open", "/")] },
    { id: "t-flow", name: "flow", commands: [command("f1", "if", "${x}"), command("f2", "pause", "60000"), command("f3", "end")] },
    { id: "t-broken", name: "broken", commands: [command("b1", "if", "true")] },
  ],
  suites: [{ id: "s", name: "S", tests: ["t-a", "t-flow"] }],
});

const start = (testIds: string[], suite: { id: string; name: string } | null = null, requestId?: number): PlaybackEvent => ({
  type: "run.start",
  projectName: project.name,
  baseUrl: project.url,
  tests: project.tests,
  testIds,
  suite,
  requestId,
});
const done = (id: string, output: unknown): GraphEvent => ({ type: `xstate.done.actor.${id}`, output });
const failed = (id: string, error: unknown): GraphEvent => ({ type: `xstate.error.actor.${id}`, error });
const after = (delay: string, state: string): GraphEvent => ({ type: `xstate.after.${delay}.playback.running.${state}` });
const reported = (requestId: number, commandId: string, state: "passed" | "fatal"): PlaybackEvent => ({
  type: "request.commandState",
  requestId,
  sender: "p",
  commandId,
  state,
  message: state === "fatal" ? "the session is gone" : null,
});

const plugin = registration("P", "pOk");
const ev = {
  startA: start(["t-a"]),
  startFlow: start(["t-flow"]),
  startBroken: start(["t-broken"]),
  startSuite: start(["t-a", "t-flow"], { id: "s", name: "S" }, 7),
  startSuiteEndingBroken: start(["t-a", "t-broken"], { id: "s2", name: "S2" }),
  pluginsOn: { type: "plugins.changed", plugins: [{ id: "p", registration: { ...plugin, commands: [{ id: "pOk", name: "pOk" }] } }] },
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
  pause: { type: "user.pausePlayback" },
  resume: { type: "user.resumePlayback" },
  step: { type: "user.stepPlayback" },
  stop: { type: "user.stopPlayback" },
  windowClosed: { type: "window.closed" },
  breakpoint: { type: "user.toggleBreakpoint", commandId: "c2" },
  slow: { type: "user.setPlaybackDelay", ms: 10_000 },
  waited: after("commandDelay", "waiting"),
  reportFatal: reported(11, "c2", "fatal"),
  reportPassed: reported(12, "c1", "passed"),
  setVariable: { type: "request.setVariable", requestId: 13, sender: "p", name: "y", value: 1 },
  stopRequest: { type: "request.stopRun", requestId: 14, sender: "p" },
} satisfies Record<string, GraphEvent>;
/** Actors' done and error events and the delays' after events, offered only where they can come. */
const ACTOR_EVENTS: Record<string, GraphEvent[]> = {
  starting: [ev.told, ev.refused],
  finishing: [ev.told, ev.refused],
  closingSuite: [ev.told],
  "running.ideCommand": [ev.stored, ev.sleeps, ev.jumped],
  "running.sleeping": [ev.slept],
  "running.condition": [ev.holds, ev.conditionBroke],
  "running.pluginCommand": [ev.pluginPassed, ev.pluginSilent],
  "running.pageCommand": [ev.pagePassed, ev.pageFailed, ev.pageGone],
  "running.waiting": [ev.waited],
};
const FROM_ACTORS = new Set(Object.values(ACTOR_EVENTS).flat());

/**
 * The graph stays small enough to replay every transition: the user's and the root's settings
 * are offered before the first run only (they stay for every run after), and so are a suite,
 * a variable a plugin sets and a passed state a plugin reports (there they answer NoRunningTest
 * or are ignored); the transition tests below cover them during runs.
 */
const BEFORE_RUNS_ONLY = new Set<GraphEvent>([
  ev.pluginsOn,
  ev.breakpoint,
  ev.slow,
  ev.startSuite,
  ev.startSuiteEndingBroken,
  ev.setVariable,
  ev.reportPassed,
]);
const EXTERNAL = (Object.values(ev) as GraphEvent[]).filter((e) => !FROM_ACTORS.has(e));

function eventsIn(snapshot: RunSnapshot): GraphEvent[] {
  const external = snapshot.matches("idle") ? EXTERNAL : EXTERNAL.filter((e) => !BEFORE_RUNS_ONLY.has(e));
  const here = Object.entries(ACTOR_EVENTS).flatMap(([state, events]) =>
    snapshot.matches((state.includes(".") ? { running: state.split(".")[1] } : state) as never) ? events : [],
  );
  return [...external, ...here];
}

/** What a run is, for the graph: everything that decides what comes next, without its id. */
function serializeState(snapshot: RunSnapshot): string {
  const { run, plugins, breakpoints, delayMs } = snapshot.context;
  return JSON.stringify({
    value: snapshot.value,
    plugins: plugins.length,
    breakpoints,
    delayMs,
    run: run && {
      test: run.test.id,
      rows: commandRows(run.commands).map((r) => [r.id, r.state]),
      at: run.frames.map((f) => [f.at, f.visits, f.turnedBack]),
      current: currentCommandId(run),
      flags: [run.pauseRequested, run.stepping, run.passBreakpointAt, run.end, run.failed, run.sleepMs],
      variables: run.variables,
      waiters: run.stopWaiters.length > 0,
      suite: run.suite && [run.suite.id, run.suite.testIndex, run.suite.failed, run.suite.announced],
    },
  });
}

const traversal = { events: eventsIn as never, serializeState, limit: 2_000_000 };

const hang = <T,>() => fromPromise<T, unknown>(() => new Promise<T>(() => {}));
/** The machine with actors that never settle: the test sends their done and error events itself. */
const heldMachine = playbackMachine.provide({
  actors: {
    runIdeCommand: hang(),
    runPluginCommand: hang(),
    runPageCommand: hang(),
    evaluateCondition: hang(),
    tellPlugins: hang(),
  } as never,
});

function startRun(watchNodes = false) {
  const seen = new Set<string>();
  const actor = createActor(heldMachine, {
    inspect: !watchNodes ? undefined : (event) => {
      if (event.type === "@xstate.microstep" || event.type === "@xstate.snapshot") {
        for (const node of (event as unknown as { snapshot: AnyMachineSnapshot }).snapshot._nodes ?? []) seen.add(node.id);
      }
    },
  });
  const emitted: PlaybackEmitted[] = [];
  actor.on("*", (event) => emitted.push(event));
  actor.start();
  const answers = () => emitted.filter((e): e is RequestAnsweredEvent => e.type === "request.answered");
  return { actor, emitted, answers, seen };
}

const asked = (events: readonly GraphEvent[]) =>
  events.flatMap((e) => ("requestId" in e && typeof e.requestId === "number" ? [e.requestId] : []));

/**
 * Replays a path on a real actor and checks it after each step, or after the last one only
 * (`lastOnly`: a transition path's steps before its last are a shortest path, checked already).
 */
async function replayOnActor(path: ModelPath<RunSnapshot, GraphEvent>, seen?: Set<string>, lastOnly = false) {
  const run = startRun(seen !== undefined);
  const sent: GraphEvent[] = [];
  const last = path.steps[path.steps.length - 1];
  await replayPath(path, {
    send(event) {
      sent.push(event);
      run.actor.send(event as PlaybackEvent);
    },
    check(expected, where) {
      if (lastOnly && expected !== last.state) return;
      const actual = run.actor.getSnapshot();
      expect(actual.value, `state value ${where}`).toEqual(expected.value);
      expect(serializeState(actual), `run ${where}`).toBe(serializeState(expected));
      const waiting = actual.context.run?.stopWaiters ?? [];
      expectEachRequestAnsweredOnce(asked(sent), run.answers().map((a) => a.requestId), waiting, where);
      if (actual.matches("ended")) {
        const rows = commandRows(actual.context.run!.commands);
        expect(rows.filter((r) => r.state === "pending"), `nothing pending once ended ${where}`).toEqual([]);
      }
    },
  });
  for (const id of run.seen) seen?.add(id);
  run.actor.stop();
}

let graph: Array<ModelPath<RunSnapshot, GraphEvent>> | undefined;
const shortestPaths = () =>
  (graph ??= getShortestPaths(playbackMachine, traversal as never) as unknown as Array<ModelPath<RunSnapshot, GraphEvent>>);

describe("run machine, model-based", () => {

  it("follows every shortest path on a real actor, with the same state and run at each step", { timeout: 300_000 }, async () => {
    const shortest = shortestPaths();
    expect(shortest.length).toBeGreaterThan(100);
    for (const path of shortest) await replayOnActor(path);
  });

  it("follows every transition of the graph on a real actor, each after the shortest path to its source", { timeout: 600_000 }, async () => {
    const paths = transitionPaths(playbackMachine, traversal as never) as unknown as Array<ModelPath<RunSnapshot, GraphEvent>>;
    const offered = shortestPaths().reduce((n, path) => n + eventsIn(path.steps[path.steps.length - 1].state).length, 0);
    expect(paths.length).toBe(offered);
    for (const path of paths) await replayOnActor(path, undefined, true);
  });

  it("passes through every state node, the transient ones included, on the shortest paths", { timeout: 300_000 }, async () => {
    const seen = new Set<string>();
    for (const path of shortestPaths()) await replayOnActor(path, seen);
    const all = stateNodeIds(playbackMachine);
    expect(all.length).toBeGreaterThan(10);
    expect(all.filter((id) => !seen.has(id))).toEqual([]);
  });

  it("keeps every command that ran out of pending and leaves those after the end without state, on every shortest path", () => {
    for (const path of shortestPaths()) {
      const last = path.steps[path.steps.length - 1].state;
      const run = last.context.run;
      if (!run || !last.matches("ended")) continue;
      const rows = commandRows(run.commands);
      expect(rows.some((r) => r.state === "pending")).toBe(false);
    }
  });
});

// ---------------------------------------------------------------------------------------
// By hand: transitions a generated path cannot tell apart from a wrong target.

const three = {
  start: start(["t-three"]),
  breakpoint: { type: "user.toggleBreakpoint", commandId: "d2" } as GraphEvent,
  reportFatal: reported(11, "d3", "fatal"),
  reportPassed: reported(12, "d1", "passed"),
};

/** A run of t-three paused at the breakpoint before its second command. */
function pausedBeforeSecond() {
  const run = heldRun();
  run.send(three.breakpoint);
  run.send(three.start);
  run.send(done("tellPlugins", []));
  run.send(ev.stored);
  return run;
}

function heldRun() {
  const run = startRun();
  const send = (event: GraphEvent) => run.actor.send(event as PlaybackEvent);
  const value = () => run.actor.getSnapshot().value;
  const rows = () => commandRows(run.actor.getSnapshot().context.run!.commands).map((r) => [r.id, r.state]);
  const current = () => currentCommandId(run.actor.getSnapshot().context.run!);
  return { ...run, send, value, rows, current };
}

describe("run machine, transitions", () => {
  it("pauses before a command with a breakpoint, and runs it once resumed", () => {
    const run = pausedBeforeSecond();
    expect(run.value()).toBe("paused");
    expect(run.current()).toBe("d2");
    expect(run.rows()).toEqual([["d1", "passed"], ["d2", null], ["d3", null]]);
    run.send(ev.resume);
    expect(run.value()).toEqual({ running: "pageCommand" });
    expect(run.rows()).toEqual([["d1", "passed"], ["d2", "pending"], ["d3", null]]);
  });

  it("runs one command when stepped from paused, then pauses before the next", () => {
    const run = pausedBeforeSecond();
    run.send(ev.step);
    expect(run.value()).toEqual({ running: "pageCommand" });
    run.send(ev.pagePassed);
    expect(run.value()).toBe("paused");
    expect(run.current()).toBe("d3");
    expect(run.rows()).toEqual([["d1", "passed"], ["d2", "passed"], ["d3", null]]);
  });

  it("ends a run stopped while starting without running a command, telling plugins it stopped", () => {
    const run = heldRun();
    const told: RunEventMessage[][] = [];
    const actor = createActor(
      playbackMachine.provide({
        actors: {
          tellPlugins: fromPromise<TellPluginsOutput, TellPluginsInput>(async ({ input }) => {
            told.push(input.messages);
            return [];
          }),
        },
      }),
    ).start();
    actor.send(ev.pluginsOn as PlaybackEvent);
    actor.send(three.start);
    actor.send(ev.stop as PlaybackEvent);
    expect(actor.getSnapshot().value).toBe("finishing");
    expect(commandRows(actor.getSnapshot().context.run!.commands).every((r) => r.state === null)).toBe(true);
    expect(told.map((m) => m.map((x) => x.event))).toEqual([["playbackStarted"], ["playbackStopped"]]);
    run.actor.stop();
    actor.stop();
  });

  it("keeps accepting command states while finishing, and is over once plugins answered playbackStopped", () => {
    const run = heldRun();
    run.send(three.start);
    run.send(done("tellPlugins", []));
    run.send(ev.stop);
    expect(run.value()).toBe("finishing");
    expect(run.rows()).toEqual([["d1", "undetermined"], ["d2", null], ["d3", null]]);
    run.send(three.reportPassed);
    expect(run.rows()[0]).toEqual(["d1", "passed"]);
    run.send(ev.stop);
    expect(run.value()).toBe("finishing");
    run.send(done("tellPlugins", []));
    expect(run.value()).toBe("ended");
    expect(run.answers().map((a) => a.reply)).toEqual([{ ok: true, value: true }]);
  });

  it("ends a paused run when a plugin reports a command fatal", () => {
    const run = pausedBeforeSecond();
    expect(run.value()).toBe("paused");
    run.send(three.reportFatal);
    expect(run.value()).toBe("finishing");
    expect(run.rows()).toEqual([["d1", "passed"], ["d2", null], ["d3", "fatal"]]);
    run.send(done("tellPlugins", []));
    expect(run.value()).toBe("ended");
    expect(run.actor.getSnapshot().context.run!.failed).toBe(true);
  });

  it("marks the executing command undetermined when stopped, and never writes its state afterwards", async () => {
    let settle!: (value: unknown) => void;
    const actor = createActor(
      playbackMachine.provide({
        actors: {
          tellPlugins: fromPromise(async () => []),
          runPageCommand: fromPromise(() => new Promise((resolve) => (settle = resolve))),
        } as never,
      }),
    ).start();
    actor.send(start(["t-three"]));
    await new Promise((resolve) => setImmediate(resolve));
    expect(actor.getSnapshot().value).toEqual({ running: "pageCommand" });
    actor.send({ type: "user.stopPlayback" });
    settle({ state: "passed" });
    await new Promise((resolve) => setImmediate(resolve));
    const rows = commandRows(actor.getSnapshot().context.run!.commands);
    expect(rows.map((r) => r.state)).toEqual(["passed", "undetermined", null]);
    expect(actor.getSnapshot().value).toBe("ended");
    actor.stop();
  });

  it("does not start a test whose control flow does not hold, failing the command that breaks it", () => {
    const run = heldRun();
    run.send(ev.startBroken);
    expect(run.value()).toBe("ended");
    expect(run.rows()).toEqual([["b1", "failed"]]);
  });

  it("answers Busy to a plugin's start while a run is under way, and the first start with its run id", () => {
    const run = heldRun();
    run.send(ev.startSuite);
    run.send(start(["t-a"], null, 8));
    expect(run.answers().map((a) => [a.requestId, a.reply.ok ? a.reply.value : a.reply.errorCode])).toEqual([
      [7, { runId: "run-1" }],
      [8, "Busy"],
    ]);
  });

  it("goes on to the suite's next test after a failed one, announcing the suite once", () => {
    const run = heldRun();
    run.send(ev.startSuite);
    run.send(done("tellPlugins", []));
    run.send(ev.stored);
    run.send(ev.pageFailed);
    expect(run.value()).toBe("finishing");
    run.send(done("tellPlugins", []));
    expect(run.value()).toBe("starting");
    expect(run.actor.getSnapshot().context.run!.test.id).toBe("t-flow");
    expect(run.actor.getSnapshot().context.run!.suite).toMatchObject({ testIndex: 1, failed: true, announced: true });
  });

  it("ends the whole suite when the user stops it, telling plugins the suite stopped", () => {
    const run = heldRun();
    run.send(ev.startSuite);
    run.send(done("tellPlugins", []));
    run.send(ev.stop);
    run.send(done("tellPlugins", []));
    expect(run.value()).toBe("closingSuite");
    run.send(done("tellPlugins", []));
    expect(run.value()).toBe("ended");
  });

  it("plays no further test of a suite stopped between two of its tests", () => {
    const run = heldRun();
    run.send(ev.startSuite);
    run.send(done("tellPlugins", []));
    run.send(ev.stored);
    run.send(ev.pagePassed);
    expect(run.value()).toBe("finishing");
    run.send(ev.stop);
    run.send(done("tellPlugins", []));
    expect(run.value()).toBe("closingSuite");
    expect(run.actor.getSnapshot().context.run!.test.id).toBe("t-a");
  });

  /** A run of t-three with a delay, waiting after its first command. */
  function waitingAfterFirst() {
    const run = heldRun();
    run.send(ev.slow);
    run.send(three.start);
    run.send(done("tellPlugins", []));
    run.send(ev.stored);
    expect(run.value()).toEqual({ running: "waiting" });
    return run;
  }

  it("pauses during the delay between commands, before the next one", () => {
    const run = waitingAfterFirst();
    run.send(ev.pause);
    expect(run.value()).toBe("paused");
    expect(run.current()).toBe("d2");
  });

  it("leaves the next command without state when stopped during the delay between commands", () => {
    const run = waitingAfterFirst();
    run.send(ev.stop);
    expect(run.value()).toBe("finishing");
    expect(run.rows()).toEqual([["d1", "passed"], ["d2", null], ["d3", null]]);
  });
});
