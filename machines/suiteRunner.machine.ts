/**
 * The suite runner: a run of one test or of a suite's tests in order. It decides which test
 * plays and when, and what a run as a whole is: suitePlaybackStarted/Stopped's audience, Stop
 * for all, the result, one run at a time, and POST /playback/stop's answer once the run is
 * over. Each test plays in a test runner (testRunner.machine.ts), a child actor of its own
 * that knows nothing of the others; a single test is a run of one. Commands flow inside the
 * test runner: this machine hears only a run's start, each test's end (`test.ended`, sent by
 * the test runner) and the requests and user events it routes to the test playing.
 *
 * States: idle → busy (playing → nextTest → playing … → closing) → ended (→ busy again).
 * Invariants:
 * - One run at a time: while busy, a start is refused (Busy to a plugin, a warning to the user).
 * - While busy, exactly one test runner is current (the last of `run.runs`); a new test
 *   runner starts only once the one before it reported its end, and the one before is then
 *   stopped. The last one stays until the next run, so its commands stay visible.
 * - A suite goes on after a failed test, never after a stopped or fatal one, nor once stopped.
 * - Plugins that heard suitePlaybackStarted (told with the suite's first test that starts)
 *   hear suitePlaybackStopped once, after the last test's playbackStopped was answered.
 * - Every request is answered exactly once: here, or by the test runner it is routed to;
 *   POST /playback/stop when the run is over.
 * - From its start until it has ended, the run tells which tests it plays (run.playing, then
 *   run.over): the project refuses edits of those, so a run never plays half-edited commands.
 */
import { assertEvent, assign, emit, enqueueActions, sendTo, setup } from "xstate";
import { MAX_DELAY_MS } from "../services/playback/delay.ts";
import type { PluginRegistry } from "../services/plugins/index.ts";
import { suiteStopped } from "./playback.messages.ts";
import { answered, fail, ok } from "./replies.ts";
import { tellPlugins, theEvent } from "./testRunner.actors.ts";
import { testRunnerMachine } from "./testRunner.machine.ts";
import type { TestEndedFact, TestRunnerInput } from "./testRunner.types.ts";
import type { RequestRef } from "./shared.types.ts";
import type { RunStartEvent, StopRunRequest, SuiteRun, SuiteRunnerContext, SuiteRunnerEmitted, SuiteRunnerEvent } from "./suiteRunner.types.ts";

/** The test runner playing now, or the last one that played. */
export const currentRunner = (run: SuiteRun) => run.runs[run.runs.length - 1]?.runner ?? null;

/** The index of the suite's next test, or null when the run is over after the current one. */
function nextTestIndex(run: SuiteRun): number | null {
  const last = run.runs[run.runs.length - 1];
  if (!run.suite || run.stopped || (last?.ended && (last.ended.end === "stopped" || last.ended.end === "fatal"))) return null;
  return run.runs.length < run.testIds.length ? run.runs.length : null;
}

/** What concerns the test playing: routed as it comes. (With N tests at once, a command's state would go to the test that holds it.) */
const ROUTED = ["request.commandState", "request.setVariable", "user.pausePlayback", "user.resumePlayback", "user.stepPlayback", "plugins.changed"] as const;

export const suiteRunnerMachine = setup({
  types: {
    context: {} as SuiteRunnerContext,
    events: {} as SuiteRunnerEvent,
    emitted: {} as SuiteRunnerEmitted,
  },
  actors: {
    /** One test's run; index.ts provides it with the ports its commands need. */
    testRunner: testRunnerMachine,
    /** Tells plugins of the suite's end and waits for each answer (bounded); adapters provide it. */
    tellPlugins,
  },
  guards: {
    suiteGoesOn: ({ context }) => nextTestIndex(context.run!) !== null,
    suiteWasAnnounced: ({ context }) => context.run!.announced,
  },
  actions: {
    startRun: assign(({ context }, event: RunStartEvent) => {
      const runs = context.runs + 1;
      const { projectName, baseUrl, tests, testIds, suite, fromCommandId } = event;
      const run: SuiteRun = {
        runId: `run-${runs}`,
        projectName,
        baseUrl,
        tests,
        testIds,
        suite,
        fromCommandId,
        runs: [],
        announced: false,
        audience: [],
        stopped: false,
        stopWaiters: [],
      };
      return { runs, run };
    }),
    /** A plugin's POST /playback/start is answered with the run's id; the user's start needs no answer. */
    answerRunStarted: enqueueActions(({ context, enqueue }, event: RunStartEvent) => {
      if (event.requestId !== undefined) enqueue.emit(answered(event.requestId, ok({ runId: context.run!.runId })));
    }),
    refuseSecondRun: emit((_, event: RunStartEvent): SuiteRunnerEmitted =>
      event.requestId !== undefined
        ? answered(event.requestId, fail("Busy", "A run is under way; stop it (POST /playback/stop) before starting another."))
        : { type: "log.written", level: "warn", message: "A run is under way; stop it before starting another." },
    ),
    /** The next test gets a test runner of its own; the one before (ended) is stopped. */
    startTest: enqueueActions(({ context, enqueue }) => {
      const run = context.run!;
      const before = currentRunner(run);
      if (before !== null) enqueue.stopChild(before);
      const index = run.runs.length;
      const testId = run.testIds[index];
      const runner = `${run.runId}/${index}`;
      const input: TestRunnerInput = {
        runId: run.runId,
        projectName: run.projectName,
        baseUrl: run.baseUrl,
        tests: run.tests,
        testId,
        fromCommandId: index === 0 ? run.fromCommandId : undefined,
        suite: run.suite && {
          name: run.suite.name,
          announce: run.announced ? null : run.testIds.map((id) => run.tests.find((t) => t.id === id)!),
        },
        plugins: context.plugins,
        breakpoints: context.breakpoints,
        delayMs: context.delayMs,
      };
      enqueue.assign({ run: { ...run, runs: [...run.runs, { runner, testId, runId: run.runId, ended: null }] } });
      enqueue.spawnChild("testRunner", { id: runner, input });
    }),
    /** The last run's test runner goes when the next run starts. */
    stopLastRunner: enqueueActions(({ context, enqueue }) => {
      const runner = context.run && currentRunner(context.run);
      if (runner) enqueue.stopChild(runner);
    }),
    recordTestEnd: assign({
      run: ({ context }, fact: TestEndedFact) => {
        const run = context.run!;
        const runs = run.runs.map((r) => (r.runner === fact.runner ? { ...r, ended: { end: fact.end, failed: fact.failed } } : r));
        const announces = run.suite !== null && !run.announced && fact.started;
        return { ...run, runs, ...(announces ? { announced: true, audience: fact.audience } : {}) };
      },
    }),
    /** Stop for all: the test playing ends, and a suite plays no further test. */
    stopAll: enqueueActions(({ context, enqueue }) => {
      const run = context.run!;
      // A single test stopped while finishing has already completed: only a suite has more to stop.
      if (run.suite) enqueue.assign({ run: { ...run, stopped: true } });
      enqueue.sendTo(currentRunner(run)!, { type: "run.stop" });
    }),
    addStopWaiter: assign({
      run: ({ context }, request: StopRunRequest) => ({ ...context.run!, stopWaiters: [...context.run!.stopWaiters, request.requestId] }),
    }),
    answerStopWaiters: enqueueActions(({ context, enqueue }) => {
      const run = context.run!;
      for (const id of run.stopWaiters) enqueue.emit(answered(id, ok(true)));
      enqueue.assign({ run: { ...run, stopWaiters: [] } });
    }),
    /** Requests and the user's controls for the test playing go to its test runner, which answers them. */
    routeToTest: sendTo(
      ({ context }) => currentRunner(context.run!)!,
      ({ event }) => {
        assertEvent(event, [...ROUTED]);
        return event;
      },
    ),
    answerNoRunningTest: emit((_, request: RequestRef & { type: string }) => {
      const what =
        request.type === "request.setVariable" ? "no variable can be set" : request.type === "request.stopRun" ? "there is nothing to stop" : "no command state can be set";
      return answered(request.requestId, fail("NoRunningTest", `No test case is running, so ${what}.`));
    }),
    setPlugins: assign({ plugins: (_, plugins: PluginRegistry) => plugins }),
    toggleBreakpoint: assign({
      breakpoints: ({ context }, commandId: string) =>
        context.breakpoints.includes(commandId) ? context.breakpoints.filter((id) => id !== commandId) : [...context.breakpoints, commandId],
    }),
    setDelay: assign({ delayMs: (_, ms: number) => Math.min(Math.max(Math.floor(ms), 0), MAX_DELAY_MS) }),
    tellTestBreakpoints: sendTo(
      ({ context }) => currentRunner(context.run!)!,
      ({ context }) => ({ type: "breakpoints.changed" as const, breakpoints: context.breakpoints }),
    ),
    tellTestDelay: sendTo(
      ({ context }) => currentRunner(context.run!)!,
      ({ context }) => ({ type: "delay.changed" as const, delayMs: context.delayMs }),
    ),
    announcePlaying: emit(({ context }) => ({ type: "run.playing" as const, testIds: [...context.run!.testIds] })),
    announceRunOver: emit({ type: "run.over" as const }),
  },
}).createMachine({
  id: "suiteRunner",
  initial: "idle",
  context: { plugins: [], breakpoints: [], delayMs: 0, run: null, runs: 0 },
  on: {
    "plugins.changed": { actions: { type: "setPlugins", params: ({ event }) => event.plugins } },
    "user.toggleBreakpoint": { actions: { type: "toggleBreakpoint", params: ({ event }) => event.commandId } },
    "user.setPlaybackDelay": { actions: { type: "setDelay", params: ({ event }) => event.ms } },
    "run.start": {
      target: ".busy",
      actions: ["stopLastRunner", { type: "startRun", params: theEvent }, { type: "answerRunStarted", params: theEvent }],
    },
    "request.commandState": { actions: { type: "answerNoRunningTest", params: theEvent } },
    "request.setVariable": { actions: { type: "answerNoRunningTest", params: theEvent } },
    "request.stopRun": { actions: { type: "answerNoRunningTest", params: theEvent } },
  },
  states: {
    idle: {},
    busy: {
      description: "A run is under way: a second is refused, Stop is for all, and requests go to the test playing.",
      entry: "announcePlaying",
      initial: "playing",
      on: {
        "run.start": { actions: { type: "refuseSecondRun", params: theEvent } },
        "user.stopPlayback": { actions: "stopAll" },
        "window.closed": { actions: "stopAll" },
        "request.stopRun": { actions: [{ type: "addStopWaiter", params: theEvent }, "stopAll"] },
        "request.commandState": { actions: "routeToTest" },
        "request.setVariable": { actions: "routeToTest" },
        "user.pausePlayback": { actions: "routeToTest" },
        "user.resumePlayback": { actions: "routeToTest" },
        "user.stepPlayback": { actions: "routeToTest" },
        "plugins.changed": { actions: [{ type: "setPlugins", params: ({ event }) => event.plugins }, "routeToTest"] },
        "user.toggleBreakpoint": { actions: [{ type: "toggleBreakpoint", params: ({ event }) => event.commandId }, "tellTestBreakpoints"] },
        "user.setPlaybackDelay": { actions: [{ type: "setDelay", params: ({ event }) => event.ms }, "tellTestDelay"] },
      },
      states: {
        playing: {
          description: "A test runner plays the current test; its end (test.ended) decides what comes next.",
          entry: "startTest",
          on: {
            "test.ended": { target: "nextTest", actions: { type: "recordTestEnd", params: theEvent } },
          },
        },
        nextTest: {
          always: [
            { guard: "suiteGoesOn", target: "playing" },
            { guard: "suiteWasAnnounced", target: "closing" },
            { target: "#suiteRunner.ended" },
          ],
        },
        closing: {
          description: "The suite is over (its last test ended, did not start, or it was stopped): plugins hear suitePlaybackStopped.",
          invoke: {
            id: "tellPlugins",
            src: "tellPlugins",
            input: ({ context }) => {
              const run = context.run!;
              return { plugins: run.audience, messages: [suiteStopped({ ...run, suite: run.suite! })] };
            },
            onDone: { target: "#suiteRunner.ended" },
            onError: { target: "#suiteRunner.ended" },
          },
          on: {
            // The last test is over, and nothing is left to stop: a stop only waits for the end.
            "user.stopPlayback": {},
            "window.closed": {},
            "request.stopRun": { actions: { type: "addStopWaiter", params: theEvent } },
          },
        },
      },
    },
    ended: {
      description: "The last run stays visible, with its last test's commands, until another starts.",
      entry: ["answerStopWaiters", "announceRunOver"],
    },
  },
});
