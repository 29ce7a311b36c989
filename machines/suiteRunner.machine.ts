/**
 * The suite runner: a run of one test, of a suite's tests in order, or of a parallel suite's
 * tests several at once (`parallel: true` in the .side file, with workers > 1). It decides which test
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
 * - At most `run.limit` test runners play at once: 1, or the workers for a parallel suite. A new
 *   one starts only when fewer play; each has its own runId in a parallel suite (the run's
 *   otherwise) and its own variables. An ended test runner is stopped once it is not the one
 *   shown (see shownRunner); the last shown stays until the next run, so its commands stay visible.
 * - A suite goes on after a failed test, never once stopped (the user's Stop, a plugin's, the window
 *   closing). It goes on after a fatal test too (its browser died: the next test plays in a new
 *   session, CONTRACT section 22), except a persistSession suite, whose one session is gone.
 * - A suite's settings (suiteRunner.plays.ts): persistSession plays its tests in order in one
 *   browser session (`session` in each test's input), each starting with the variables the test
 *   before ended with; without it each test (each try) has a session of its own, fresh. Its
 *   `timeout` goes to each test runner, which ends its test failed when it runs out.
 *   persistSession wins over `parallel` (side-runner 4's shared session), and the user is told so.
 * - Retries (createIde's `retries`, default 0): a test that started and ended failed or fatal plays
 *   again at once, before any further test, up to `retries` more tries, each in a test runner of
 *   its own within the same run (its runId, suite and plugins' audience); only its last try counts
 *   for what comes next. A stop ends the tries at once; a test that did not start is not tried again.
 * - Plugins that heard suitePlaybackStarted (told with the suite's first test that starts)
 *   hear suitePlaybackStopped once, after the last test's playbackStopped was answered.
 * - Every request is answered exactly once: here, or by the test runner it is routed to;
 *   POST /playback/stop when the run is over.
 * - A command's state reaches only the test runner whose test holds the command: one for a test
 *   that ended and whose runner was let go is refused here (UnknownCommand), never given to another.
 * - "Execute this command" is a run of one test that plays one command, with the variables the last
 *   test to end ended with (none before the first); it is refused while a run is under way.
 * - From its start until it has ended, the run tells which tests it plays (run.playing, then
 *   run.over): the project refuses edits of those, so a run never plays half-edited commands.
 */
import { assertEvent, assign, emit, enqueueActions, sendTo, setup } from "xstate";
import { MAX_DELAY_MS } from "../services/playback/delay.ts";
import type { PluginRegistry } from "../services/plugins/index.ts";
import type { SideTest } from "../services/side/index.ts";
import { secondRunRefused, suiteStopped } from "./run.messages.ts";
import { bothSettingsNote } from "../services/playback/targets.ts";
import { livePlays, nextPlay, sessionOf, shownRunner, suiteSettings } from "./suiteRunner.plays.ts";
import { answered, fail, ok } from "./replies.ts";
import { tellPlugins, theEvent } from "./testRunner.actors.ts";
import { testRunnerMachine } from "./testRunner.machine.ts";
import { flowHolds } from "./testRunner.run.ts";
import type { CommandStateRequest, TestEndedFact, TestRunnerInput } from "./testRunner.types.ts";
import type { RequestRef } from "./shared.types.ts";
import type {
  RunStartEvent,
  StopRunRequest,
  SuiteRun,
  SuiteRunnerContext,
  SuiteRunnerEmitted,
  SuiteRunnerEvent,
  SuiteRunnerInput,
  TestRun,
} from "./suiteRunner.types.ts";

/** For each project's tests (one array per run), which tests hold each command id: made once, read per command state. */
const testsByCommand = new WeakMap<readonly SideTest[], Map<string, Set<string>>>();

function testsHolding(tests: readonly SideTest[], commandId: string): ReadonlySet<string> | undefined {
  let index = testsByCommand.get(tests);
  if (!index) {
    index = new Map();
    for (const test of tests) for (const command of test.commands) (index.get(command.id) ?? index.set(command.id, new Set()).get(command.id)!).add(test.id);
    testsByCommand.set(tests, index);
  }
  return index.get(commandId);
}

/** The tests started in this run whose test holds the command, in the order they started. */
function runsHolding(run: SuiteRun, commandId: string): TestRun[] {
  const holding = testsHolding(run.tests, commandId);
  return holding ? run.runs.filter((r) => holding.has(r.testId)) : [];
}

/**
 * The runner a command's state goes to: the playing one whose test holds the command, else a kept
 * one whose test holds it (the last shown, which takes late states as a single test's does), else
 * the one shown, which answers that its test has no such command.
 */
function runnerHolding(run: SuiteRun, commandId: string): string | null {
  const holders = runsHolding(run, commandId);
  const holder = holders.find((r) => r.ended === null) ?? holders.find((r) => !r.released);
  return holder?.runner ?? shownRunner(run);
}

/** The test a command belongs to, when that test has ended in this run and its runner is gone: no state can reach it now. */
function endedTestHolding(run: SuiteRun, commandId: string): SideTest | null {
  const holders = runsHolding(run, commandId);
  if (holders.length === 0 || holders.some((r) => !r.released)) return null;
  return run.tests.find((t) => t.id === holders[0].testId) ?? null;
}

/** What concerns the test shown: routed as it comes. */
const ROUTED = ["request.setVariable", "user.pausePlayback", "user.resumePlayback", "user.stepPlayback"] as const;

export const suiteRunnerMachine = setup({
  types: {
    context: {} as SuiteRunnerContext,
    input: {} as SuiteRunnerInput | undefined,
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
    suiteGoesOn: ({ context }) => livePlays(context.run!).length > 0 || nextPlay(context.run!) !== null,
    suiteWasAnnounced: ({ context }) => context.run!.announced,
    commandsTestIsOver: ({ context }, request: CommandStateRequest) => endedTestHolding(context.run!, request.commandId) !== null,
  },
  actions: {
    startRun: assign(({ context }, event: RunStartEvent) => {
      const runs = context.runs + 1;
      const { projectName, baseUrl, tests, testIds, fromCommandId, untilCommandId, executeCommandId } = event;
      const suite = event.suite && { id: event.suite.id, name: event.suite.name, ...suiteSettings(event.suite) };
      const run: SuiteRun = {
        runId: `run-${runs}`,
        projectName,
        baseUrl,
        tests,
        testIds,
        suite,
        fromCommandId,
        untilCommandId,
        executeCommandId,
        limit: suite?.parallel ? Math.max(1, context.workers) : 1,
        heal: context.heal && event.heal !== false,
        strategies: event.strategies ?? [],
        // One command executed by itself is not tried again.
        retries: executeCommandId !== undefined ? 0 : context.retries,
        shown: null,
        runs: [],
        announcer: null,
        announced: false,
        audience: [],
        stopped: false,
        stopWaiters: [],
      };
      return { runs, run };
    }),
    /** A plugin's POST /playback/start is answered with the run's id; the user's start needs no answer. A suite's clashing settings are said. */
    answerRunStarted: enqueueActions(({ context, enqueue }, event: RunStartEvent) => {
      if (event.requestId !== undefined) enqueue.emit(answered(event.requestId, ok({ runId: context.run!.runId })));
      const note = event.suite && bothSettingsNote(event.suite);
      if (note) enqueue.emit({ type: "log.written", level: "warn", group: "playback", message: note });
    }),
    refuseSecondRun: emit((_, event: RunStartEvent): SuiteRunnerEmitted =>
      event.requestId !== undefined
        ? answered(event.requestId, fail("Busy", secondRunRefused("plugin")))
        : { type: "log.written", level: "warn", message: secondRunRefused(event.executeCommandId !== undefined ? "execute" : "user") },
    ),
    /** Test runners start for the next tests (a failed one's next try first) while fewer than the run's limit play. */
    startTests: enqueueActions(({ context, enqueue }) => {
      let run = context.run!;
      for (let next = nextPlay(run); next !== null && livePlays(run).length < run.limit; next = nextPlay(run)) {
        const { index, tryNo } = next;
        const testId = run.testIds[index];
        const runner = `${run.runId}/${run.runs.length}`;
        const runId = run.limit > 1 ? `${run.runId}.${index + 1}` : run.runId;
        // Play from here, Play to here and Execute this command concern the run's one test (and its tries).
        const fromCommandId = index === 0 ? run.fromCommandId : undefined;
        // The first test that starts at all tells the suite's start, in order and at once alike.
        const announces = run.suite !== null && run.announcer === null && flowHolds(run.tests.find((t) => t.id === testId)!, fromCommandId);
        const input: TestRunnerInput = {
          runId,
          projectName: run.projectName,
          baseUrl: run.baseUrl,
          heal: run.heal,
          strategies: run.strategies,
          tests: run.tests,
          testId,
          fromCommandId,
          untilCommandId: index === 0 ? run.untilCommandId : undefined,
          executeCommandId: index === 0 ? run.executeCommandId : undefined,
          // Executing one command goes on from where the last run left its variables; a persistSession suite's test from where the test before left them; any other test from the run's starting variables (-p).
          variables: run.executeCommandId !== undefined || (run.suite?.persistSession && run.runs.length > 0) ? context.lastVariables : context.startVariables,
          session: sessionOf(run, runner),
          suite: run.suite && {
            name: run.suite.name,
            runId: run.runId,
            timeoutS: run.suite.timeoutS,
            announce: announces ? run.testIds.map((id) => run.tests.find((t) => t.id === id)!) : null,
          },
          plugins: context.plugins,
          breakpoints: context.breakpoints,
          delayMs: context.delayMs,
        };
        run = { ...run, runs: [...run.runs, { runner, testId, index, tryNo, runId, ended: null, released: false }], announcer: announces ? runner : run.announcer };
        enqueue.spawnChild("testRunner", { id: runner, input });
      }
      enqueue.assign({ run });
    }),
    /** Ended test runners that are no longer shown are stopped; their ends stay in `run.runs`. */
    releaseHidden: enqueueActions(({ context, enqueue }) => {
      const run = context.run!;
      const shown = shownRunner(run);
      const hidden = run.runs.filter((r) => r.ended !== null && !r.released && r.runner !== shown);
      if (hidden.length === 0) return;
      for (const r of hidden) enqueue.stopChild(r.runner);
      enqueue.assign({ run: { ...run, runs: run.runs.map((r) => (hidden.includes(r) ? { ...r, released: true } : r)) } });
    }),
    /** The last run's test runners go when the next run starts. */
    stopLastRunner: enqueueActions(({ context, enqueue }) => {
      for (const r of context.run?.runs ?? []) if (!r.released) enqueue.stopChild(r.runner);
    }),
    /** The user chose which test of the run to see; a test whose commands are no longer kept cannot be. */
    showTestRun: enqueueActions(({ context, enqueue }, runId: string) => {
      const run = context.run;
      const chosen = run?.runs.filter((r) => r.runId === runId && !r.released).pop();
      if (!run || !chosen) {
        const why = run?.runs.some((r) => r.runId === runId) ? "its commands are no longer kept (only those playing and the one shown are)" : "the run has no test with that id";
        enqueue.emit({ type: "log.written", level: "warn", message: `Cannot show the test run ${JSON.stringify(runId)}: ${why}.` });
        return;
      }
      enqueue.assign({ run: { ...run, shown: chosen.runner } });
    }),
    recordTestEnd: assign({
      lastVariables: (_, fact: TestEndedFact) => fact.variables,
      run: ({ context }, fact: TestEndedFact) => {
        const run = context.run!;
        const runs = run.runs.map((r) => (r.runner === fact.runner ? { ...r, ended: { end: fact.end, failed: fact.failed, started: fact.started } } : r));
        if (fact.runner !== run.announcer || run.announced) return { ...run, runs };
        // The announcer told the suite's start if its test started; if not, the next test to start tells it.
        return fact.started ? { ...run, runs, announced: true, audience: fact.audience } : { ...run, runs, announcer: null };
      },
    }),
    /** Stop for all: every test playing ends, and a suite plays no further test. */
    stopAll: enqueueActions(({ context, enqueue }) => {
      const run = context.run!;
      // A single test stopped while finishing has already completed: only a suite has more to stop. No test plays again.
      enqueue.assign({ run: { ...run, stopped: run.stopped || run.suite !== null, retries: 0 } });
      const live = livePlays(run).map((r) => r.runner);
      const shown = shownRunner(run);
      for (const runner of live.length > 0 ? live : shown ? [shown] : []) enqueue.sendTo(runner, { type: "run.stop" });
    }),
    addStopWaiter: assign({
      run: ({ context }, request: StopRunRequest) => ({ ...context.run!, stopWaiters: [...context.run!.stopWaiters, request.requestId] }),
    }),
    answerStopWaiters: enqueueActions(({ context, enqueue }) => {
      const run = context.run!;
      for (const id of run.stopWaiters) enqueue.emit(answered(id, ok(true)));
      enqueue.assign({ run: { ...run, stopWaiters: [] } });
    }),
    /** Requests and the user's controls for the test shown go to its test runner, which answers them. */
    routeToTest: sendTo(
      ({ context }) => shownRunner(context.run!)!,
      ({ event }) => {
        assertEvent(event, [...ROUTED]);
        return event;
      },
    ),
    /** A command's state goes to the test runner that plays the command. */
    routeCommandState: sendTo(
      ({ context, event }) => {
        assertEvent(event, "request.commandState");
        return runnerHolding(context.run!, event.commandId)!;
      },
      ({ event }) => event,
    ),
    /** What every test playing must hear: the plugins registered now. */
    tellTestsPlugins: enqueueActions(({ context, enqueue }) => {
      for (const r of context.run ? livePlays(context.run) : []) enqueue.sendTo(r.runner, { type: "plugins.changed" as const, plugins: context.plugins });
    }),
    answerTestIsOver: emit(({ context }, request: CommandStateRequest) => {
      const test = endedTestHolding(context.run!, request.commandId)!;
      return answered(request.requestId, fail("UnknownCommand", `The test case "${test.name}" has ended, so its command "${request.commandId}" takes no more states.`));
    }),
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
    tellTestBreakpoints: enqueueActions(({ context, enqueue }) => {
      for (const r of context.run ? livePlays(context.run) : []) enqueue.sendTo(r.runner, { type: "breakpoints.changed" as const, breakpoints: context.breakpoints });
    }),
    tellTestDelay: enqueueActions(({ context, enqueue }) => {
      for (const r of context.run ? livePlays(context.run) : []) enqueue.sendTo(r.runner, { type: "delay.changed" as const, delayMs: context.delayMs });
    }),
    announcePlaying: emit(({ context }) => ({ type: "run.playing" as const, testIds: [...context.run!.testIds] })),
    announceRunOver: emit({ type: "run.over" as const }),
  },
}).createMachine({
  id: "suiteRunner",
  initial: "idle",
  context: ({ input }) => ({ plugins: [], breakpoints: [], delayMs: 0, run: null, runs: 0, lastVariables: {}, workers: input?.workers ?? 1, heal: input?.heal !== false, retries: input?.retries ?? 0, startVariables: input?.variables }),
  on: {
    // Kept across runs, and told to every test playing (none outside a run).
    "plugins.changed": { actions: [{ type: "setPlugins", params: ({ event }) => event.plugins }, "tellTestsPlugins"] },
    "user.toggleBreakpoint": { actions: [{ type: "toggleBreakpoint", params: ({ event }) => event.commandId }, "tellTestBreakpoints"] },
    "user.setPlaybackDelay": { actions: [{ type: "setDelay", params: ({ event }) => event.ms }, "tellTestDelay"] },
    "user.showTestRun": { actions: [{ type: "showTestRun", params: ({ event }) => event.runId }, "releaseHidden"] },
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
        "request.commandState": [
          { guard: { type: "commandsTestIsOver", params: theEvent }, actions: { type: "answerTestIsOver", params: theEvent } },
          { actions: "routeCommandState" },
        ],
        "request.setVariable": { actions: "routeToTest" },
        "user.pausePlayback": { actions: "routeToTest" },
        "user.resumePlayback": { actions: "routeToTest" },
        "user.stepPlayback": { actions: "routeToTest" },
      },
      states: {
        playing: {
          description: "Test runners play the run's tests, as many at once as its limit; each end (test.ended) decides what comes next.",
          entry: ["startTests", "releaseHidden"],
          on: {
            "test.ended": { target: "nextTest", actions: [{ type: "recordTestEnd", params: theEvent }, "releaseHidden"] },
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
