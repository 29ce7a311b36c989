/**
 * The run: a test case (or a suite's tests in order) played command by command, and the
 * state of each command. This machine decides everything about it: which command is next,
 * its state, pause, step, breakpoints, the delay, stop and the end. What does work — a
 * plugin's command, the page under test, telling plugins — is a named actor it invokes;
 * adapters provide them.
 *
 * States: idle → starting → running (choosing → executing → settled → waiting) ⇄ paused
 *         → finishing → ended (→ starting again for a suite's next test, or a new run).
 * Invariants:
 * - One command executes at a time, in an invoked actor; leaving its state stops the actor,
 *   so a stopped run never writes a state afterwards.
 * - The first command runs only once every plugin answered `playbackStarted` (or its time
 *   was up); a plugin that answers it with an error or `fatal` stops the run there.
 * - `playbackStopped` goes to every plugin once per `playbackStarted`, and the run is
 *   `finishing` until they answered: command states they send meanwhile are accepted.
 * - Once ended, no command is `pending`, and commands after the end keep no state.
 * - Every request event is answered exactly once; POST /playback/stop when the run is over.
 * - From its start until it has ended, the run tells which tests it plays (run.playing, then
 *   run.over): the project refuses edits of those, so a run never plays half-edited commands.
 */
import { assertEvent, assign, emit, enqueueActions, fromPromise, setup } from "xstate";
import { isPageGone, messageOf } from "../services/errors.ts";
import { hasCommand } from "../services/playback/commandTable.ts";
import { IDE_COMMANDS, MAX_DELAY_MS, runIdeStep } from "../services/playback/ideCommands.ts";
import type { IdeOutcome, IdeStepInput } from "../services/playback/ideCommands.ts";
import { readPluginAnswer, refusesToStart } from "../services/playback/pluginAnswer.ts";
import type { Delivery } from "../services/playback/pluginAnswer.ts";
import { interpolateCondition } from "../services/playback/variables.ts";
import { executeMessage, startMessages, stopMessages, suiteStopped } from "./playback.messages.ts";
import { answered, fail, ok } from "./replies.ts";
import {
  callTest,
  currentCommandId,
  currentStep,
  endTest,
  firstRun,
  markPending,
  nextTestOfSuite,
  pausesBeforeNext,
  settlePending,
  settleStep,
  stopSuite,
  stopTest,
  withAudience,
  topFrame,
  visitsHere,
  withReportedState,
  withVariables,
} from "./playback.run.ts";
import type {
  ConditionInput,
  PageCommandInput,
  PageOutcome,
  PlaybackContext,
  PlaybackEmitted,
  PlaybackEvent,
  PluginCommandInput,
  Run,
  TellPluginsInput,
  TellPluginsOutput,
} from "./playback.types.ts";

const NO_PAGE = "There is no page under test here (createIde was given no executor), so page commands cannot run.";

/** The plugin that declared a command with this name, if any (CONTRACT section 9). */
function ownerOf(context: PlaybackContext, command: string) {
  return context.plugins.find((p) => (p.registration.commands ?? []).some((c) => c.id === command));
}

const runOf = (context: PlaybackContext): Run => context.run!;

/**
 * Commands that answer at once (the IDE's own, an in-process plugin) would otherwise chain
 * without end in promise callbacks, and the host could not take the user's Stop, a request or
 * a timer until the run is over: every so many commands the run waits for a timer of 0 ms.
 */
export const YIELD_EVERY = 64;

const pluginsOf = (context: PlaybackContext) => context.plugins.map((p) => ({ id: p.id, name: p.registration.name }));

export const playbackMachine = setup({
  types: {
    context: {} as PlaybackContext,
    events: {} as PlaybackEvent,
    emitted: {} as PlaybackEmitted,
  },
  actors: {
    /** The IDE's own commands and control flow: pure, the same everywhere. */
    runIdeCommand: fromPromise<IdeOutcome, IdeStepInput>(async ({ input }) => runIdeStep(input)),
    /** Delivers `execute` to the plugin that owns the command; adapters provide it. */
    runPluginCommand: fromPromise<Delivery, PluginCommandInput>(async () => ({
      answered: false,
      reason: "no channel to plugins is set up",
    })),
    /** A page command through the executor port; adapters provide it. */
    runPageCommand: fromPromise<PageOutcome, PageCommandInput>(async () => ({ state: "failed", message: NO_PAGE })),
    /** A condition (if, while, ...) in the page under test; adapters provide it. */
    evaluateCondition: fromPromise<boolean, ConditionInput>(async () => {
      throw new Error(NO_PAGE);
    }),
    /** Tells every plugin of the run's start or end and waits for each answer (bounded); adapters provide it. */
    tellPlugins: fromPromise<TellPluginsOutput, TellPluginsInput>(async ({ input }) =>
      input.plugins.map((p) => ({ pluginId: p.id, name: p.name, delivery: { answered: false, reason: "no channel" } as Delivery })),
    ),
  },
  delays: {
    commandDelay: ({ context }) => runOf(context).delayMs,
    pauseSleep: ({ context }) => runOf(context).sleepMs,
  },
  guards: {
    testIsOver: ({ context }) => runOf(context).end !== null,
    /** Only a test whose control flow does not hold is over before it started. */
    flowIsBroken: ({ context }) => runOf(context).end === "failed",
    pausesHere: ({ context }) => pausesBeforeNext(runOf(context), context.breakpoints),
    waitsBeforeNext: ({ context }) => runOf(context).delayMs > 0 || context.stepsSinceYield >= YIELD_EVERY,
    stepIsDisabled: ({ context }) => currentStep(runOf(context))!.kind === "skip",
    stepIsIdes: ({ context }) => {
      const step = currentStep(runOf(context))!;
      return step.kind !== "command" ? step.kind !== "condition" : IDE_COMMANDS.has(step.command.command) && !ownerOf(context, step.command.command);
    },
    stepIsCondition: ({ context }) => currentStep(runOf(context))!.kind === "condition",
    stepIsPlugins: ({ context }) => ownerOf(context, currentStep(runOf(context))!.command.command) !== undefined,
    loopLimitReached: ({ context }) => {
      const step = currentStep(runOf(context))!;
      return step.loopLimit !== null && visitsHere(runOf(context)) >= step.loopLimit;
    },
    outcomeSleeps: ({ event }) => ((event as { output?: IdeOutcome }).output?.sleepMs ?? 0) > 0,
    outcomeCalls: ({ event }) => (event as { output?: IdeOutcome }).output?.call !== undefined,
    startRefused: ({ event }) => (event as { output?: TellPluginsOutput }).output?.some((r) => refusesToStart(r.delivery) !== null) ?? false,
    suiteGoesOn: ({ context }) => nextTestOfSuite(runOf(context)) !== null,
    suiteWasAnnounced: ({ context }) => runOf(context).suite?.announced === true,
    pageIsGone: ({ event }) => isPageGone((event as { error?: unknown }).error),
    reportIsFatal: ({ event }) => event.type === "request.commandState" && event.state === "fatal",
    commandIsUnknown: ({ context, event }) =>
      event.type === "request.commandState" && !hasCommand(runOf(context).commands, event.commandId),
  },
  actions: {
    startRun: assign(({ context, event }) => {
      if (event.type !== "run.start") return {};
      const runs = context.runs + 1;
      return { runs, run: firstRun(event, `run-${runs}`, context.delayMs) };
    }),
    /** A plugin's POST /playback/start is answered with the run's id; the user's start needs no answer. */
    answerRunStarted: enqueueActions(({ context, event, enqueue }) => {
      if (event.type === "run.start" && event.requestId !== undefined) {
        enqueue.emit(answered(event.requestId, ok({ runId: runOf(context).runId })));
      }
    }),
    refuseSecondRun: enqueueActions(({ event, enqueue }) => {
      if (event.type !== "run.start") return;
      if (event.requestId !== undefined) {
        enqueue.emit(answered(event.requestId, fail("Busy", "A run is under way; stop it (POST /playback/stop) before starting another.")));
      } else {
        enqueue.emit({ type: "log.written", level: "warn", message: "A run is under way; stop it before starting another." });
      }
    }),
    nextTestOfSuite: assign({ run: ({ context }) => nextTestOfSuite(runOf(context)) }),
    stopSuite: assign({ run: ({ context }) => stopSuite(runOf(context)) }),
    announcePlaying: emit(({ context }) => {
      const run = runOf(context);
      return { type: "run.playing" as const, testIds: run.suite ? [...run.suite.testIds] : [run.test.id] };
    }),
    announceRunOver: emit({ type: "run.over" as const }),
    rememberAudience: assign({ run: ({ context }) => withAudience(runOf(context), pluginsOf(context)) }),
    markSuiteAnnounced: assign({
      run: ({ context }) => {
        const run = runOf(context);
        return run.suite && !run.suite.announced ? { ...run, suite: { ...run.suite, announced: true } } : run;
      },
    }),
    logStartRefused: enqueueActions(({ event, enqueue }) => {
      const output = (event as { output?: TellPluginsOutput }).output ?? [];
      for (const { name, delivery } of output) {
        const reason = refusesToStart(delivery);
        if (reason !== null) {
          enqueue.emit({
            type: "log.written",
            level: "error",
            group: "playback",
            message: `The run was stopped before its first command: the plugin ${name} answered playbackStarted with "${reason}".`,
          });
        }
      }
    }),
    refuseStart: assign({ run: ({ context }) => endTest(runOf(context), "fatal") }),
    markPending: assign({ run: ({ context }) => markPending(runOf(context)) }),
    clearPauseFlags: assign({
      run: ({ context }) => ({ ...runOf(context), pauseRequested: false, passBreakpointAt: null }),
    }),
    requestPause: assign({ run: ({ context }) => ({ ...runOf(context), pauseRequested: true }) }),
    resume: assign({
      run: ({ context }) => ({ ...runOf(context), pauseRequested: false, passBreakpointAt: currentCommandId(runOf(context)) }),
    }),
    step: assign({
      run: ({ context }) => ({
        ...runOf(context),
        pauseRequested: false,
        stepping: true,
        passBreakpointAt: currentCommandId(runOf(context)),
      }),
    }),
    /** After a stepped command: pause before the next. */
    pauseIfStepping: assign({
      run: ({ context }) => {
        const run = runOf(context);
        return run.stepping ? { ...run, stepping: false, pauseRequested: true } : run;
      },
    }),
    skipStep: assign({ run: ({ context }) => settleStep(runOf(context), { state: "passed", message: null }) }),
    applyIdeOutcome: enqueueActions(({ context, event, enqueue }) => {
      const outcome = (event as unknown as { output: IdeOutcome }).output;
      let run = withVariables(runOf(context), outcome.set);
      if (outcome.delayMs !== undefined) run = { ...run, delayMs: outcome.delayMs };
      if (outcome.log !== undefined) enqueue.emit({ type: "log.written", level: "info", group: "playback", message: outcome.log });
      if (outcome.sleepMs) run = { ...run, sleepMs: outcome.sleepMs };
      else if (outcome.call !== undefined) run = callTest(run, outcome.call);
      else run = settleStep(run, outcome.ok ? { state: "passed", message: null, holds: outcome.holds } : { state: "failed", message: outcome.message ?? null });
      enqueue.assign({ run });
    }),
    finishSleep: assign({ run: ({ context }) => settleStep({ ...runOf(context), sleepMs: 0 }, { state: "passed", message: null }) }),
    failLoopLimit: assign({
      run: ({ context }) =>
        settleStep(runOf(context), {
          state: "failed",
          message: "Max retry limit exceeded. To override it, specify a new limit in the value input field.",
        }),
    }),
    applyCondition: assign({
      run: ({ context, event }) =>
        settleStep(runOf(context), { state: "passed", message: null, holds: Boolean((event as { output?: unknown }).output) }),
    }),
    failCondition: assign({
      run: ({ context, event }) => {
        const error = (event as { error?: unknown }).error;
        return settleStep(runOf(context), { state: "failed", message: messageOf(error) });
      },
    }),
    applyPluginAnswer: assign({
      run: ({ context, event }) => {
        const step = currentStep(runOf(context))!;
        const name = ownerOf(context, step.command.command)?.registration.name ?? step.command.command;
        return settleStep(runOf(context), readPluginAnswer((event as unknown as { output: Delivery }).output, name));
      },
    }),
    applyPageOutcome: assign({
      run: ({ context, event }) => {
        const outcome = (event as unknown as { output: PageOutcome }).output;
        return settleStep(withVariables(runOf(context), outcome.variables), { state: outcome.state, message: outcome.message ?? null });
      },
    }),
    failPageLost: assign({
      run: ({ context, event }) => {
        const error = (event as { error?: unknown }).error;
        const reason = messageOf(error);
        return settleStep(runOf(context), { state: "fatal", message: `The page under test is gone: ${reason}` });
      },
    }),
    stopExecuting: assign({ run: ({ context }) => stopTest(runOf(context), true) }),
    stopWaiting: assign({ run: ({ context }) => stopTest(runOf(context), false) }),
    addStopWaiter: assign({
      run: ({ context, event }) =>
        event.type === "request.stopRun" ? { ...runOf(context), stopWaiters: [...runOf(context).stopWaiters, event.requestId] } : runOf(context),
    }),
    settlePending: assign({ run: ({ context }) => settlePending(runOf(context)) }),
    answerStopWaiters: enqueueActions(({ context, enqueue }) => {
      for (const id of runOf(context).stopWaiters) enqueue.emit(answered(id, ok(true)));
      enqueue.assign({ run: { ...runOf(context), stopWaiters: [] } });
    }),
    reportStateWhileExecuting: enqueueActions(({ context, event, enqueue }) => reportState(context, event, enqueue, true)),
    reportState: enqueueActions(({ context, event, enqueue }) => reportState(context, event, enqueue, false)),
    answerUnknownCommand: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, "request.commandState");
      const reply = fail("UnknownCommand", `The running test case "${runOf(context).test.name}" has no command with the id "${event.commandId}".`);
      enqueue.emit(answered(event.requestId, reply));
    }),
    answerNoRunningTest: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, ["request.commandState", "request.setVariable", "request.stopRun"]);
      const what =
        event.type === "request.setVariable" ? "no variable can be set" : event.type === "request.stopRun" ? "there is nothing to stop" : "no command state can be set";
      enqueue.emit(answered(event.requestId, fail("NoRunningTest", `No test case is running, so ${what}.`)));
    }),
    setVariable: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== "request.setVariable") return;
      enqueue.assign({ run: withVariables(runOf(context), { [event.name]: event.value }) });
      const name = context.plugins.find((p) => p.id === event.sender)?.registration.name ?? event.sender;
      enqueue.emit({
        type: "log.written",
        level: "info",
        group: "playback",
        source: event.sender,
        message: `${name}: added variable ${event.name}`,
      });
      enqueue.emit(answered(event.requestId, ok(true)));
    }),
    toggleBreakpoint: assign({
      breakpoints: ({ context, event }) => {
        if (event.type !== "user.toggleBreakpoint") return context.breakpoints;
        return context.breakpoints.includes(event.commandId)
          ? context.breakpoints.filter((id) => id !== event.commandId)
          : [...context.breakpoints, event.commandId];
      },
    }),
    setDelay: assign(({ context, event }) => {
      if (event.type !== "user.setPlaybackDelay") return {};
      const delayMs = Math.min(Math.max(Math.floor(event.ms), 0), MAX_DELAY_MS);
      return { delayMs, run: context.run && { ...context.run, delayMs } };
    }),
    countStep: assign({ stepsSinceYield: ({ context }) => context.stepsSinceYield + 1 }),
    resetSteps: assign({ stepsSinceYield: 0 }),
    setPlugins: assign({ plugins: ({ context, event }) => (event.type === "plugins.changed" ? event.plugins : context.plugins) }),
  },
}).createMachine({
  id: "playback",
  initial: "idle",
  context: { plugins: [], breakpoints: [], delayMs: 0, run: null, runs: 0, stepsSinceYield: 0 },
  on: {
    "plugins.changed": { actions: "setPlugins" },
    "user.toggleBreakpoint": { actions: "toggleBreakpoint" },
    "user.setPlaybackDelay": { actions: "setDelay" },
  },
  states: {
    idle: {
      on: {
        "run.start": { target: "starting", actions: ["startRun", "answerRunStarted"] },
        "request.commandState": { actions: "answerNoRunningTest" },
        "request.setVariable": { actions: "answerNoRunningTest" },
        "request.stopRun": { actions: "answerNoRunningTest" },
      },
    },
    starting: {
      description: "Plugins hear playbackStarted; the first command waits for their answers (each bounded).",
      always: { guard: "flowIsBroken", target: "notStarted" },
      entry: ["rememberAudience", "announcePlaying"],
      invoke: {
        id: "tellPlugins",
        src: "tellPlugins",
        input: ({ context }) => ({ plugins: pluginsOf(context), messages: startMessages(runOf(context)) }),
        onDone: [
          { guard: "startRefused", target: "finishing", actions: ["markSuiteAnnounced", "logStartRefused", "refuseStart"] },
          { target: "running", actions: "markSuiteAnnounced" },
        ],
        onError: { target: "running", actions: "markSuiteAnnounced" },
      },
      on: {
        "run.start": { actions: "refuseSecondRun" },
        // The start messages went out when this state was entered, so plugins heard of the suite.
        "user.stopPlayback": { target: "finishing", actions: ["markSuiteAnnounced", "stopWaiting"] },
        "window.closed": { target: "finishing", actions: ["markSuiteAnnounced", "stopWaiting"] },
        "request.stopRun": { target: "finishing", actions: ["markSuiteAnnounced", "addStopWaiter", "stopWaiting"] },
        "user.pausePlayback": { actions: "requestPause" },
        "request.setVariable": { actions: "setVariable" },
        "request.commandState": [
          { guard: "commandIsUnknown", actions: "answerUnknownCommand" },
          { actions: "reportState" },
        ],
      },
    },
    running: {
      initial: "choosing",
      on: {
        "run.start": { actions: "refuseSecondRun" },
        "user.pausePlayback": { actions: "requestPause" },
        "user.stopPlayback": { target: "finishing", actions: "stopExecuting" },
        "window.closed": { target: "finishing", actions: "stopExecuting" },
        "request.stopRun": { target: "finishing", actions: ["addStopWaiter", "stopExecuting"] },
        "request.setVariable": { actions: "setVariable" },
        "request.commandState": [
          { guard: "commandIsUnknown", actions: "answerUnknownCommand" },
          { guard: "reportIsFatal", target: "finishing", actions: "reportStateWhileExecuting" },
          { actions: "reportStateWhileExecuting" },
        ],
      },
      states: {
        choosing: {
          always: [
            { guard: "testIsOver", target: "#playback.finishing" },
            { guard: "pausesHere", target: "#playback.paused", actions: "clearPauseFlags" },
            { target: "executing" },
          ],
        },
        executing: {
          always: [
            { guard: "stepIsDisabled", target: "settled", actions: "skipStep" },
            { guard: "loopLimitReached", target: "settled", actions: "failLoopLimit" },
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
            input: ({ context }) => {
              const run = runOf(context);
              return { step: currentStep(run)!, variables: run.variables, visits: visitsHere(run) };
            },
            onDone: [
              { guard: "outcomeSleeps", target: "sleeping", actions: "applyIdeOutcome" },
              { target: "settled", actions: "applyIdeOutcome" },
            ],
          },
        },
        sleeping: {
          description: "`pause`: the run waits, and stop or pause still work.",
          after: { pauseSleep: { target: "settled", actions: "finishSleep" } },
        },
        condition: {
          entry: "markPending",
          invoke: {
            id: "evaluateCondition",
            src: "evaluateCondition",
            input: ({ context }) => {
              const run = runOf(context);
              return { ...interpolateCondition(currentStep(run)!.command.target, run.variables), baseUrl: run.baseUrl, runId: run.runId };
            },
            onDone: { target: "settled", actions: "applyCondition" },
            onError: [
              { guard: "pageIsGone", target: "settled", actions: "failPageLost" },
              { target: "settled", actions: "failCondition" },
            ],
          },
        },
        pluginCommand: {
          entry: "markPending",
          invoke: {
            id: "runPluginCommand",
            src: "runPluginCommand",
            input: ({ context }) => {
              const run = runOf(context);
              const step = currentStep(run)!;
              const message = executeMessage(run, step.command, topFrame(run)!.testId);
              return { pluginId: ownerOf(context, step.command.command)!.id, message };
            },
            onDone: { target: "settled", actions: "applyPluginAnswer" },
            onError: { target: "settled", actions: "failPageLost" },
          },
        },
        pageCommand: {
          entry: "markPending",
          invoke: {
            id: "runPageCommand",
            src: "runPageCommand",
            input: ({ context }) => {
              const run = runOf(context);
              return { command: currentStep(run)!.command, variables: run.variables, baseUrl: run.baseUrl, runId: run.runId };
            },
            onDone: { target: "settled", actions: "applyPageOutcome" },
            onError: { target: "settled", actions: "failPageLost" },
          },
        },
        settled: {
          entry: "pauseIfStepping",
          always: [
            { guard: "testIsOver", target: "#playback.finishing" },
            { guard: "waitsBeforeNext", target: "waiting" },
            { target: "choosing", actions: "countStep" },
          ],
        },
        waiting: {
          description: "The run's delay between commands (setSpeed, or the user's choice), or a turn of the event loop.",
          entry: "resetSteps",
          after: { commandDelay: { target: "choosing" } },
          on: {
            "user.pausePlayback": { target: "#playback.paused", actions: "clearPauseFlags" },
            // Between commands nothing executes: stopping leaves every state as it is.
            "user.stopPlayback": { target: "#playback.finishing", actions: "stopWaiting" },
            "window.closed": { target: "#playback.finishing", actions: "stopWaiting" },
            "request.stopRun": { target: "#playback.finishing", actions: ["addStopWaiter", "stopWaiting"] },
          },
        },
      },
    },
    paused: {
      description: "Before the command in currentCommandId: resume goes on, step runs that one command.",
      on: {
        "run.start": { actions: "refuseSecondRun" },
        "user.resumePlayback": { target: "running", actions: "resume" },
        "user.stepPlayback": { target: "running", actions: "step" },
        "user.stopPlayback": { target: "finishing", actions: "stopWaiting" },
        "window.closed": { target: "finishing", actions: "stopWaiting" },
        "request.stopRun": { target: "finishing", actions: ["addStopWaiter", "stopWaiting"] },
        "request.setVariable": { actions: "setVariable" },
        "request.commandState": [
          { guard: "commandIsUnknown", actions: "answerUnknownCommand" },
          { actions: "reportState" },
        ],
      },
      always: { guard: "testIsOver", target: "finishing" },
    },
    notStarted: {
      description: "The test's control flow does not hold, so it does not start and plugins hear nothing of it.",
      always: [
        { guard: "suiteGoesOn", target: "starting", actions: "nextTestOfSuite" },
        { guard: "suiteWasAnnounced", target: "closingSuite" },
        { target: "ended", actions: "answerStopWaiters" },
      ],
    },
    closingSuite: {
      description: "The suite is over (its last test ended, did not start, or the user stopped it): plugins hear suitePlaybackStopped.",
      invoke: {
        id: "tellPlugins",
        src: "tellPlugins",
        input: ({ context }) => ({ plugins: runOf(context).suite!.audience, messages: [suiteStopped(runOf(context))] }),
        onDone: { target: "ended", actions: "answerStopWaiters" },
        onError: { target: "ended", actions: "answerStopWaiters" },
      },
      on: {
        "run.start": { actions: "refuseSecondRun" },
        "request.stopRun": { actions: "addStopWaiter" },
        "request.setVariable": { actions: "answerNoRunningTest" },
        "request.commandState": [
          { guard: "commandIsUnknown", actions: "answerUnknownCommand" },
          { actions: "reportState" },
        ],
      },
    },
    finishing: {
      description: "Plugins hear playbackStopped; the states they send until they answered still count.",
      invoke: {
        id: "tellPlugins",
        src: "tellPlugins",
        input: ({ context }) => ({ plugins: runOf(context).audience, messages: stopMessages(runOf(context)) }),
        onDone: [
          { guard: "suiteGoesOn", target: "starting", actions: ["settlePending", "nextTestOfSuite"] },
          { guard: "suiteWasAnnounced", target: "closingSuite", actions: "settlePending" },
          { target: "ended", actions: "answerStopWaiters" },
        ],
        onError: [
          { guard: "suiteWasAnnounced", target: "closingSuite", actions: "settlePending" },
          { target: "ended", actions: "answerStopWaiters" },
        ],
      },
      on: {
        "run.start": { actions: "refuseSecondRun" },
        // Between two tests of a suite: the test is over, but the suite must not go on.
        "user.stopPlayback": { actions: "stopSuite" },
        "window.closed": { actions: "stopSuite" },
        "request.stopRun": { actions: ["addStopWaiter", "stopSuite"] },
        "request.setVariable": { actions: "answerNoRunningTest" },
        "request.commandState": [
          { guard: "commandIsUnknown", actions: "answerUnknownCommand" },
          { actions: "reportState" },
        ],
      },
    },
    ended: {
      description: "The last run stays visible with its commands' final states until another starts.",
      // Whatever way the run came here, nothing is left pending (a plugin may have reported
      // `pending` while the suite's end was being told).
      entry: ["settlePending", "announceRunOver"],
      on: {
        "run.start": { target: "starting", actions: ["startRun", "answerRunStarted"] },
        "request.commandState": { actions: "answerNoRunningTest" },
        "request.setVariable": { actions: "answerNoRunningTest" },
        "request.stopRun": { actions: "answerNoRunningTest" },
      },
    },
  },
});

/** POST /playback/command: the state shows; `fatal` ends a test under way. */
function reportState(
  context: PlaybackContext,
  event: PlaybackEvent,
  enqueue: { assign: (v: Partial<PlaybackContext>) => void; emit: (e: PlaybackEmitted) => void },
  executing: boolean,
) {
  if (event.type !== "request.commandState") return;
  enqueue.assign({ run: withReportedState(runOf(context), event.commandId, event.state, event.message, executing) });
  enqueue.emit(answered(event.requestId, ok(true)));
}
