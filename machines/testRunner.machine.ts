/**
 * A test runner: one test case played command by command, and the state of each command. It
 * decides everything inside its test: which command is next, its state, pause, step,
 * breakpoints, the delay and the end. What does work (a plugin's command, the page under test,
 * telling plugins) is a named actor it invokes; adapters provide them. It knows nothing of other
 * tests: its suite runner starts it, routes requests and the user's controls to it, and hears
 * its end.
 *
 * States: live (starting → running (choosing → executing → … → settled → waiting) ⇄ paused)
 * (a loadVars step reads its file in running.loadingData; testRunner.data.ts plays its rows)
 *         → finishing → ended. A suite's `timeout` counts from live's entry, pauses included.
 * Invariants:
 * - One command executes at a time, in an invoked actor; leaving its state stops the actor, so
 *   a stopped test never writes a state afterwards.
 * - The first command runs only once every plugin answered playbackStarted (or its time was
 *   up); a plugin that answers it with an error or `fatal` stops the test there.
 * - playbackStopped goes once to the plugins that heard playbackStarted, and the test is
 *   `finishing` until they answered: command states they send meanwhile are accepted.
 * - Once ended, no command is pending, commands after the end keep no state, and the suite
 *   runner was told `test.ended` exactly once.
 * - Every request routed here is answered exactly once.
 * - A disabled command (`//` before its name) is passed over and keeps no state. "Play to here"
 *   pauses before its command once, as a breakpoint would. "Execute this command" plays that one
 *   command alone, with the variables it was given, and plugins hear no start or end of it.
 * How it reports: its end goes to the suite runner with sendParent, an event the suite runner
 * takes transitions on (an emitted event reaches only subscribers, and a parent machine is
 * none). Its answers and log entries are emitted: the protocol adapter and the root listen to
 * each test runner themselves, so what a command writes never passes through the suite runner.
 */
import { assign, emit, enqueueActions, sendParent, setup } from "xstate";
import { isPageGone, messageOf } from "../services/errors.ts";
import { hasCommand } from "../services/playback/commandTable.ts";
import type { IdeOutcome } from "../services/playback/ideCommands.ts";
import { readPluginAnswer, refusesToStart } from "../services/playback/pluginAnswer.ts";
import type { Delivery } from "../services/playback/pluginAnswer.ts";
import { interpolate, interpolateCondition } from "../services/playback/variables.ts";
import type { PluginRegistry } from "../services/plugins/index.ts";
import { executeMessage, LOOP_LIMIT_REACHED, startMessages, stopMessages } from "./run.messages.ts";
import { answered, fail, ok } from "./replies.ts";
import { error, output, testRunnerActors, theEvent } from "./testRunner.actors.ts";
import { nextRow, startRows } from "./testRunner.data.ts";
import { callTest, currentCommandId, currentStep, endTest, endedFact, isIdeStep, loopLimitReached, markPending, pausesBeforeNext, settlePending } from "./testRunner.run.ts";
import { pageStepResult, passUntil, settleStep, startTest, stopTest, suiteTimeoutMs, timeOutTest, topFrame } from "./testRunner.run.ts";
import { untilNotReachedNote, visitsHere, ownerOf, pluginsOf, withAudience, withReportedState, withVariables } from "./testRunner.run.ts";
import type {
  CommandStateRequest,
  DataRow,
  PageOutcome,
  SetVariableRequest,
  TellPluginsOutput,
  TestEndedFact,
  TestRunnerContext,
  TestRunnerEmitted,
  TestRunnerEvent,
  TestRunnerInput,
} from "./testRunner.types.ts";

/**
 * Commands that answer at once (the IDE's own, an in-process plugin) would otherwise chain
 * without end in promise callbacks, and the host could not take the user's Stop, a request or
 * a timer until the run is over: every so many commands the run waits for a timer of 0 ms.
 */
export const YIELD_EVERY = 64;

export const testRunnerMachine = setup({
  types: {
    context: {} as TestRunnerContext,
    events: {} as TestRunnerEvent,
    emitted: {} as TestRunnerEmitted,
    input: {} as TestRunnerInput,
  },
  actors: testRunnerActors,
  delays: {
    commandDelay: ({ context }) => context.run.delayMs,
    pauseSleep: ({ context }) => context.run.sleepMs,
    suiteTimeout: ({ context }) => suiteTimeoutMs(context.run) ?? 0,
  },
  guards: {
    testIsOver: ({ context }) => context.run.end !== null,
    hasSuiteTimeout: ({ context }) => suiteTimeoutMs(context.run) !== null,
    /** Only a test whose control flow does not hold is over before it started. */
    flowIsBroken: ({ context }) => context.run.end === "failed",
    pausesHere: ({ context }) => pausesBeforeNext(context.run, context.breakpoints),
    waitsBeforeNext: ({ context }) => context.run.delayMs > 0 || context.stepsSinceYield >= YIELD_EVERY,
    stepIsDisabled: ({ context }) => currentStep(context.run)!.kind === "skip",
    stepIsIdes: ({ context }) => isIdeStep(currentStep(context.run)!, context.plugins),
    stepIsCondition: ({ context }) => currentStep(context.run)!.kind === "condition",
    stepLoadsData: ({ context }) => currentStep(context.run)!.kind === "loadVars",
    stepEndsData: ({ context }) => currentStep(context.run)!.kind === "endLoadVars",
    stepIsPlugins: ({ context }) => ownerOf(context.plugins, currentStep(context.run)!.command.command) !== undefined,
    loopLimitReached: ({ context }) => loopLimitReached(context.run),
    outcomeSleeps: (_, outcome: IdeOutcome) => (outcome.sleepMs ?? 0) > 0,
    startRefused: (_, told: TellPluginsOutput) => told.some((r) => refusesToStart(r.delivery) !== null),
    pageIsGone: (_, error: unknown) => isPageGone(error),
    reportIsFatal: (_, request: CommandStateRequest) => request.state === "fatal",
    commandIsUnknown: ({ context }, request: CommandStateRequest) => !hasCommand(context.run.commands, request.commandId),
  },
  actions: {
    // One command executed by itself is not a test's run: plugins hear neither start nor end (as in Selenium IDE v3).
    rememberAudience: assign({ run: ({ context }) => withAudience(context.run, context.run.single ? [] : pluginsOf(context.plugins)) }),
    logStartRefused: enqueueActions(({ enqueue }, told: TellPluginsOutput) => {
      for (const { name, delivery } of told) {
        const reason = refusesToStart(delivery);
        if (reason === null) continue;
        enqueue.emit({
          type: "log.written",
          level: "error",
          group: "playback",
          message: `The run was stopped before its first command: the plugin ${name} answered playbackStarted with "${reason}".`,
        });
      }
    }),
    refuseStart: assign({ run: ({ context }) => endTest(context.run, "fatal") }),
    markPending: assign({ run: ({ context }) => markPending(context.run) }),
    clearPauseFlags: assign({ run: ({ context }) => ({ ...passUntil(context.run), pauseRequested: false, passBreakpointAt: null }) }),
    /** Play to here whose command the test never reached (a branch not taken): said, as the run otherwise just ends. */
    logUntilNotReached: enqueueActions(({ context, enqueue }) => {
      const message = untilNotReachedNote(context.run);
      if (message !== null) enqueue.emit({ type: "log.written", level: "info", group: "playback", message });
    }),
    requestPause: assign({ run: ({ context }) => ({ ...context.run, pauseRequested: true }) }),
    resume: assign({ run: ({ context }) => ({ ...context.run, pauseRequested: false, passBreakpointAt: currentCommandId(context.run) }) }),
    step: assign({ run: ({ context }) => ({ ...context.run, pauseRequested: false, stepping: true, passBreakpointAt: currentCommandId(context.run) }) }),
    /** After a stepped command: pause before the next. */
    pauseIfStepping: assign({ run: ({ context }) => (context.run.stepping ? { ...context.run, stepping: false, pauseRequested: true } : context.run) }),
    skipStep: assign({ run: ({ context }) => settleStep(context.run, { state: "passed", message: null, skipped: true }) }),
    applyIdeOutcome: enqueueActions(({ context, enqueue }, outcome: IdeOutcome) => {
      let run = withVariables(context.run, outcome.set);
      if (outcome.delayMs !== undefined) run = { ...run, delayMs: outcome.delayMs };
      if (outcome.log !== undefined) enqueue.emit({ type: "log.written", level: "info", group: "playback", message: outcome.log });
      if (outcome.sleepMs) run = { ...run, sleepMs: outcome.sleepMs };
      else if (outcome.call !== undefined) run = callTest(run, outcome.call);
      else run = settleStep(run, outcome.ok ? { state: "passed", message: null, holds: outcome.holds } : { state: "failed", message: outcome.message ?? null });
      enqueue.assign({ run });
    }),
    finishSleep: assign({ run: ({ context }) => settleStep({ ...context.run, sleepMs: 0 }, { state: "passed", message: null }) }),
    failLoopLimit: assign({ run: ({ context }) => settleStep(context.run, { state: "failed", message: LOOP_LIMIT_REACHED }) }),
    applyCondition: assign({ run: ({ context }, holds: boolean) => settleStep(context.run, { state: "passed", message: null, holds: Boolean(holds) }) }),
    failCondition: assign({ run: ({ context }, error: unknown) => settleStep(context.run, { state: "failed", message: messageOf(error) }) }),
    applyPluginAnswer: assign({
      run: ({ context }, delivery: Delivery) => {
        const step = currentStep(context.run)!;
        const name = ownerOf(context.plugins, step.command.command)?.registration.name ?? step.command.command;
        return settleStep(context.run, readPluginAnswer(delivery, name));
      },
    }),
    applyPageOutcome: enqueueActions(({ context, enqueue }, outcome: PageOutcome) => {
      const { result, warning } = pageStepResult(context.run, outcome);
      if (warning !== null) enqueue.emit({ type: "log.written", level: "warn", group: "playback", message: warning });
      enqueue.assign({ run: settleStep(withVariables(context.run, outcome.variables), result) });
    }),
    failPageLost: assign({ run: ({ context }, error: unknown) => settleStep(context.run, { state: "fatal", message: `The page under test is gone: ${messageOf(error)}` }) }),
    stopExecuting: assign({ run: ({ context }) => stopTest(context.run, true) }),
    timeOut: assign({ run: ({ context }) => timeOutTest(context.run) }),
    stopWaiting: assign({ run: ({ context }) => stopTest(context.run, false) }),
    settlePending: assign({ run: ({ context }) => settlePending(context.run) }),
    /** POST /playback/command: the state shows; `fatal` ends a test under way. */
    reportState: enqueueActions(({ context, enqueue }, r: CommandStateRequest) => {
      enqueue.assign({ run: withReportedState(context.run, r.commandId, r.state, r.message, false) });
      enqueue.emit(answered(r.requestId, ok(true)));
    }),
    /** The same while a command executes: `fatal` for another command leaves the executing one undetermined. */
    reportStateWhileExecuting: enqueueActions(({ context, enqueue }, r: CommandStateRequest) => {
      enqueue.assign({ run: withReportedState(context.run, r.commandId, r.state, r.message, true) });
      enqueue.emit(answered(r.requestId, ok(true)));
    }),
    answerUnknownCommand: emit(({ context }, request: CommandStateRequest) =>
      answered(request.requestId, fail("UnknownCommand", `The running test case "${context.run.test.name}" has no command with the id "${request.commandId}".`)),
    ),
    answerNoRunningTest: emit((_, request: SetVariableRequest) => answered(request.requestId, fail("NoRunningTest", "No test case is running, so no variable can be set."))),
    setVariable: enqueueActions(({ context, enqueue }, request: SetVariableRequest) => {
      enqueue.assign({ run: withVariables(context.run, { [request.name]: request.value }) });
      const name = context.plugins.find((p) => p.id === request.sender)?.registration.name ?? request.sender;
      enqueue.emit({ type: "log.written", level: "info", group: "playback", source: request.sender, message: `${name}: added variable ${request.name}` });
      enqueue.emit(answered(request.requestId, ok(true)));
    }),
    setPlugins: assign({ plugins: (_, plugins: PluginRegistry) => plugins }),
    setBreakpoints: assign({ breakpoints: (_, breakpoints: readonly string[]) => breakpoints }),
    setDelay: assign({ run: ({ context }, delayMs: number) => ({ ...context.run, delayMs }) }),
    countStep: assign({ stepsSinceYield: ({ context }) => context.stepsSinceYield + 1 }),
    resetSteps: assign({ stepsSinceYield: 0 }),
    reportEnded: sendParent(({ context, self }, { started }: { started: boolean }): TestEndedFact => endedFact(context.run, self.id, started)),
    startRows: assign({ run: ({ context }, rows: DataRow[]) => startRows(context.run, rows) }),
    nextRow: assign({ run: ({ context }) => nextRow(context.run) }),
    failData: assign({ run: ({ context }, error: unknown) => settleStep(context.run, { state: "failed", message: messageOf(error) }) }),
  },
}).createMachine({
  id: "testRunner",
  context: ({ input }) => ({ plugins: input.plugins, breakpoints: input.breakpoints, run: startTest(input), stepsSinceYield: 0 }),
  initial: "live",
  on: {
    "plugins.changed": { actions: { type: "setPlugins", params: ({ event }) => event.plugins } },
    "breakpoints.changed": { actions: { type: "setBreakpoints", params: ({ event }) => event.breakpoints } },
    "delay.changed": { actions: { type: "setDelay", params: ({ event }) => event.delayMs } },
    "request.commandState": [
      { guard: { type: "commandIsUnknown", params: theEvent }, actions: { type: "answerUnknownCommand", params: theEvent } },
      { actions: { type: "reportState", params: theEvent } },
    ],
    "request.setVariable": { actions: { type: "answerNoRunningTest", params: theEvent } },
  },
  states: {
    live: {
      description: "The test is under way: variables can be set, Stop ends it, and so does its suite's timeout (failed), pauses included.",
      initial: "starting",
      after: { suiteTimeout: { guard: "hasSuiteTimeout", target: "finishing", actions: "timeOut" } },
      on: {
        "run.stop": { target: "finishing", actions: "stopWaiting" },
        "user.pausePlayback": { actions: "requestPause" },
        "request.setVariable": { actions: { type: "setVariable", params: theEvent } },
      },
      states: {
        starting: {
          description: "Plugins hear playbackStarted; the first command waits for their answers (each bounded).",
          entry: "rememberAudience",
          always: { guard: "flowIsBroken", target: "#testRunner.ended", actions: { type: "reportEnded", params: { started: false } } },
          invoke: {
            id: "tellPlugins",
            src: "tellPlugins",
            input: ({ context }) => ({ plugins: context.run.audience, messages: startMessages(context.run) }),
            onDone: [
              {
                guard: { type: "startRefused", params: output },
                target: "#testRunner.finishing",
                actions: [{ type: "logStartRefused", params: output }, "refuseStart"],
              },
              { target: "running" },
            ],
            onError: { target: "running" },
          },
        },
        running: {
          initial: "choosing",
          on: {
            "run.stop": { target: "#testRunner.finishing", actions: "stopExecuting" },
            "request.commandState": [
              { guard: { type: "commandIsUnknown", params: theEvent }, actions: { type: "answerUnknownCommand", params: theEvent } },
              { guard: { type: "reportIsFatal", params: theEvent }, target: "#testRunner.finishing", actions: { type: "reportStateWhileExecuting", params: theEvent } },
              { actions: { type: "reportStateWhileExecuting", params: theEvent } },
            ],
          },
          states: {
            choosing: {
              always: [
                { guard: "testIsOver", target: "#testRunner.finishing" },
                { guard: "pausesHere", target: "#testRunner.live.paused", actions: "clearPauseFlags" },
                { target: "executing" },
              ],
            },
            executing: {
              always: [
                { guard: "stepIsDisabled", target: "settled", actions: "skipStep" },
                { guard: "loopLimitReached", target: "settled", actions: "failLoopLimit" },
                { guard: "stepLoadsData", target: "loadingData" },
                { guard: "stepEndsData", target: "settled", actions: "nextRow" },
                { guard: "stepIsPlugins", target: "pluginCommand" },
                { guard: "stepIsIdes", target: "ideCommand" },
                { guard: "stepIsCondition", target: "condition" },
                { target: "pageCommand" },
              ],
            },
            ideCommand: {
              entry: "markPending",
              invoke: {
                id: "runIdeCommand",
                src: "runIdeCommand",
                input: ({ context: { run } }) => ({ step: currentStep(run)!, variables: run.variables, visits: visitsHere(run) }),
                onDone: [
                  { guard: { type: "outcomeSleeps", params: output }, target: "sleeping", actions: { type: "applyIdeOutcome", params: output } },
                  { target: "settled", actions: { type: "applyIdeOutcome", params: output } },
                ],
              },
            },
            sleeping: {
              description: "`pause`: the test waits, and stop or pause still work.",
              after: { pauseSleep: { target: "settled", actions: "finishSleep" } },
            },
            condition: {
              entry: "markPending",
              invoke: {
                id: "evaluateCondition",
                src: "evaluateCondition",
                input: ({ context: { run } }) => ({
                  ...interpolateCondition(currentStep(run)!.command.target, run.variables),
                  baseUrl: run.baseUrl,
                  runId: run.runId,
                  session: run.session,
                }),
                onDone: { target: "settled", actions: { type: "applyCondition", params: output } },
                onError: [
                  { guard: { type: "pageIsGone", params: error }, target: "settled", actions: { type: "failPageLost", params: error } },
                  { target: "settled", actions: { type: "failCondition", params: error } },
                ],
              },
            },
            loadingData: {
              description: "`loadVars`: the host reads its data file; its block then plays once per row.",
              entry: "markPending",
              invoke: {
                id: "readData",
                src: "readData",
                input: ({ context: { run } }) => ({ file: interpolate(currentStep(run)!.command.target, run.variables), runId: run.runId }),
                onDone: { target: "settled", actions: { type: "startRows", params: output } },
                onError: { target: "settled", actions: { type: "failData", params: error } },
              },
            },
            pluginCommand: {
              entry: "markPending",
              invoke: {
                id: "runPluginCommand",
                src: "runPluginCommand",
                input: ({ context: { run, plugins } }) => {
                  const step = currentStep(run)!;
                  return { pluginId: ownerOf(plugins, step.command.command)!.id, message: executeMessage(run, step.command, topFrame(run)!.testId) };
                },
                onDone: { target: "settled", actions: { type: "applyPluginAnswer", params: output } },
                onError: { target: "settled", actions: { type: "failPageLost", params: error } },
              },
            },
            pageCommand: {
              entry: "markPending",
              invoke: {
                id: "runPageCommand",
                src: "runPageCommand",
                input: ({ context: { run } }) => ({ command: currentStep(run)!.command, variables: run.variables, baseUrl: run.baseUrl, runId: run.runId, session: run.session, strategies: run.strategies }),
                onDone: { target: "settled", actions: { type: "applyPageOutcome", params: output } },
                onError: { target: "settled", actions: { type: "failPageLost", params: error } },
              },
            },
            settled: {
              entry: "pauseIfStepping",
              always: [
                { guard: "testIsOver", target: "#testRunner.finishing" },
                { guard: "waitsBeforeNext", target: "waiting" },
                { target: "choosing", actions: "countStep" },
              ],
            },
            waiting: {
              description: "The delay between commands (setSpeed, or the user's choice), or a turn of the event loop.",
              entry: "resetSteps",
              after: { commandDelay: { target: "choosing" } },
              on: {
                "user.pausePlayback": { target: "#testRunner.live.paused", actions: "clearPauseFlags" },
                // Between commands nothing executes: stopping leaves every state as it is.
                "run.stop": { target: "#testRunner.finishing", actions: "stopWaiting" },
              },
            },
          },
        },
        paused: {
          description: "Before the command in currentCommandId: resume goes on, step runs that one command.",
          on: {
            "user.resumePlayback": { target: "running", actions: "resume" },
            "user.stepPlayback": { target: "running", actions: "step" },
          },
          always: { guard: "testIsOver", target: "#testRunner.finishing" },
        },
      },
    },
    finishing: {
      description: "Plugins hear playbackStopped; the states they send until they answered still count.",
      entry: "logUntilNotReached",
      invoke: {
        id: "tellPlugins",
        src: "tellPlugins",
        input: ({ context }) => ({ plugins: context.run.audience, messages: stopMessages(context.run) }),
        onDone: { target: "ended", actions: { type: "reportEnded", params: { started: true } } },
        onError: { target: "ended", actions: { type: "reportEnded", params: { started: true } } },
      },
    },
    ended: {
      description: "The test is over and stays visible; a state a plugin sends while its suite is told the end still counts.",
      entry: "settlePending",
      on: {
        "request.commandState": [
          { guard: { type: "commandIsUnknown", params: theEvent }, actions: { type: "answerUnknownCommand", params: theEvent } },
          { actions: [{ type: "reportState", params: theEvent }, "settlePending"] },
        ],
      },
    },
  },
});
