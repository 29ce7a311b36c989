/**
 * Pointing at the page (CONTRACT section 21): the one mechanism behind the checks recorded while
 * recording and "Select target in page". The page's side (drivers/recorder/pick.ts) outlines the
 * element under the pointer, takes the next click before the page sees it and describes the
 * element; this machine decides what the pick is for and what its element becomes.
 *
 * States: idle ⇄ picking.
 * Invariants:
 * - While picking, a pick is armed in the page (the pickInPage actor, provided by the host or
 *   the extension; leaving the state disarms it, however it is left). One pick at a time: a new
 *   one replaces the one armed.
 * - A check is picked only while a recording is under way, and its pick ends with it (a Stop
 *   mid-pick leaves nothing armed and records nothing). Its element becomes a fact for the
 *   recording machine (pointing.checkPicked), which records it as any command of the page,
 *   plugins told. A value that cannot hold (no text, no value, not checked) is recorded as read,
 *   with a warning that says so.
 * - Select target's element becomes a fact for the editor (pointing.targetPicked): an edit of
 *   that command, undoable; nothing is recorded, no plugin told.
 * - Esc in the page, Cancel, a failure of the page (nothing it can locate) or of the port end the
 *   pick and change nothing else; each says why in the log.
 */
import { assertEvent, assign, emit, enqueueActions, fromCallback, not, setup } from "xstate";
import { checkCommand } from "../services/recording/checks.ts";
import type { PickInPageInput, PickUnavailableEvent, PointingContext, PointingEmitted, PointingEvent } from "./pointing.types.ts";

const log = (level: "info" | "warn" | "error", message: string) => ({ type: "log.written" as const, level, message });

export const pointingMachine = setup({
  types: {
    context: {} as PointingContext,
    events: {} as PointingEvent,
    emitted: {} as PointingEmitted,
  },
  actors: {
    // The default port has no page: createIde provides one over the host's or the extension's.
    pickInPage: fromCallback<PickUnavailableEvent, PickInPageInput>(({ sendBack }) => {
      sendBack({ type: "pick.unavailable", problem: "This IDE has no page under test to point at." });
    }),
  },
  guards: {
    recording: ({ context }) => context.recording,
    notRecording: not("recording"),
    pickingCheck: ({ context }) => context.purpose?.kind === "check",
  },
  actions: {
    rememberRecording: assign({ recording: true }),
    forgetRecording: assign({ recording: false }),
    aimCheck: assign(({ event }) => {
      assertEvent(event, "user.pickCheck");
      return { purpose: { kind: "check" as const, command: event.command } };
    }),
    aimTarget: assign(({ event }) => {
      assertEvent(event, "user.selectTargetInPage");
      return { purpose: { kind: "target" as const, commandId: event.commandId } };
    }),
    forget: assign({ purpose: null }),
    refuseCheck: emit(log("warn", "Checks are recorded while recording: press Record, then pick the check and click the element on the page. Nothing was changed.")),
    logCancelled: emit(log("info", "Pointing at the page was cancelled; nothing was changed.")),
    logFailed: emit(({ event }) => {
      assertEvent(event, ["recorder.pickFailed", "pick.unavailable"]);
      return log("error", `${event.problem} Nothing was changed.`);
    }),
    /** The element picked: a check to record, or the command's new target. */
    usePicked: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, "recorder.picked");
      const purpose = context.purpose;
      if (!purpose) return;
      const fingerprint = event.fingerprint ? { fingerprint: event.fingerprint } : {};
      if (purpose.kind === "target") {
        enqueue.emit({ type: "pointing.targetPicked", commandId: purpose.commandId, target: event.target, targets: event.targets, ...fingerprint });
        return;
      }
      const check = checkCommand(purpose.command, event, event.variables);
      enqueue.emit({
        type: "pointing.checkPicked",
        command: check.command,
        target: check.target,
        targets: check.targets,
        value: check.value,
        frame: event.frame,
        ...(event.frameTargets ? { frameTargets: event.frameTargets } : {}),
        ...(check.withElement ? fingerprint : {}),
        anyFrame: !check.withElement,
        tabId: event.tabId,
        plugins: event.plugins,
      });
      if (check.warning) enqueue.emit(log("warn", check.warning));
    }),
  },
}).createMachine({
  id: "pointing",
  context: { purpose: null, recording: false },
  on: {
    "recording.started": { actions: "rememberRecording" },
    "recording.stopped": { actions: "forgetRecording" },
    // A check asked for while no recording is under way: refused, whatever the state (the states take it while recording).
    "user.pickCheck": { actions: "refuseCheck" },
  },
  initial: "idle",
  states: {
    idle: {
      entry: "forget",
      on: {
        "user.pickCheck": { guard: "recording", target: "picking", actions: "aimCheck" },
        "user.selectTargetInPage": { target: "picking", actions: "aimTarget" },
      },
    },
    picking: {
      description: "A pick is armed in the page: the next click there is taken for `purpose`; Esc, Cancel or the recording's end give it up.",
      invoke: { src: "pickInPage", input: ({ context }) => context.purpose! },
      on: {
        // Another pick replaces this one: the page's is disarmed and armed again for it.
        "user.pickCheck": { guard: "recording", target: "picking", reenter: true, actions: "aimCheck" },
        "user.selectTargetInPage": { target: "picking", reenter: true, actions: "aimTarget" },
        "user.cancelPick": { target: "idle", actions: "logCancelled" },
        "recorder.pickCancelled": { target: "idle", actions: "logCancelled" },
        "recorder.pickFailed": { target: "idle", actions: "logFailed" },
        "pick.unavailable": { target: "idle", actions: "logFailed" },
        "recorder.picked": { target: "idle", actions: "usePicked" },
        "recording.stopped": [
          { guard: "pickingCheck", target: "idle", actions: "forgetRecording" },
          { actions: "forgetRecording" },
        ],
      },
    },
  },
});
