/**
 * The test case being played back, and the state of each of its commands.
 *
 * States: idle (nothing run yet) → running → ended (→ running again on the next start).
 * Invariants:
 * - Command states change only while running, and only for commands of the running test
 *   case; a new state replaces the old state and its message.
 * - `fatal` ends the test case; `user.stopPlayback` and a closed window end it too.
 * - An ended test case stays in `run` with its commands' last states until another starts.
 * - Every start is announced (playback.started) and every end (playback.stopped), once.
 */
import { assign, emit, setup } from "xstate";
import { commandRows, createCommandTable, hasCommand, withCommandState } from "../services/playback/commandTable.ts";
import { answered, fail, ok } from "./shared.types.ts";
import type { PlaybackContext, PlaybackEmitted, PlaybackEvent, PlaybackFact } from "./playback.types.ts";

const fact = (type: PlaybackFact["type"], run: PlaybackContext["run"]): PlaybackFact => ({
  type,
  testId: run!.testId,
  testName: run!.testName,
  projectName: run!.projectName,
});

const requestIdOf = (event: PlaybackEvent) => (event.type === "request.commandState" ? event.requestId : -1);

export const playbackMachine = setup({
  types: {
    context: {} as PlaybackContext,
    events: {} as PlaybackEvent,
    emitted: {} as PlaybackEmitted,
  },
  guards: {
    commandIsUnknown: ({ context, event }) =>
      event.type === "request.commandState" && !hasCommand(context.run!.commands, event.commandId),
    stateIsFatal: ({ event }) => event.type === "request.commandState" && event.state === "fatal",
  },
  actions: {
    startRun: assign({
      run: ({ event }) =>
        event.type === "playback.start"
          ? {
              testId: event.test.id,
              testName: event.test.name,
              projectName: event.projectName,
              commands: createCommandTable(event.test.commands),
            }
          : null,
    }),
    announceStarted: emit(({ context }) => fact("playback.started", context.run)),
    announceStopped: emit(({ context }) => fact("playback.stopped", context.run)),
    setCommandState: assign({
      run: ({ context, event }) =>
        event.type === "request.commandState"
          ? {
              ...context.run!,
              commands: withCommandState(context.run!.commands, event.commandId, event.state, event.message),
            }
          : context.run,
    }),
    answerAccepted: emit(({ event }) => answered(requestIdOf(event), ok(true))),
    answerUnknownCommand: emit(({ context, event }) =>
      answered(
        requestIdOf(event),
        fail(
          "UnknownCommand",
          `The running test case "${context.run!.testName}" has no command with the id "${
            event.type === "request.commandState" ? event.commandId : ""
          }".`,
        ),
      ),
    ),
    answerNoRunningTest: emit(({ event }) =>
      answered(requestIdOf(event), fail("NoRunningTest", "No test case is running, so no command state can be set.")),
    ),
  },
}).createMachine({
  id: "playback",
  initial: "idle",
  context: { run: null },
  states: {
    idle: {
      on: {
        "playback.start": { target: "running", actions: ["startRun", "announceStarted"] },
        "request.commandState": { actions: "answerNoRunningTest" },
      },
    },
    running: {
      on: {
        "playback.start": { target: "running", reenter: true, actions: ["announceStopped", "startRun", "announceStarted"] },
        "user.stopPlayback": { target: "ended", actions: "announceStopped" },
        "window.closed": { target: "ended", actions: "announceStopped" },
        "request.commandState": [
          { guard: "commandIsUnknown", actions: "answerUnknownCommand" },
          { guard: "stateIsFatal", target: "ended", actions: ["setCommandState", "answerAccepted", "announceStopped"] },
          { actions: ["setCommandState", "answerAccepted"] },
        ],
      },
    },
    ended: {
      description: "The last test case stays visible with its commands' final states until another starts.",
      on: {
        "playback.start": { target: "running", actions: ["startRun", "announceStarted"] },
        "request.commandState": { actions: "answerNoRunningTest" },
      },
    },
  },
});

