/**
 * Control mode of the IDE.
 *
 * States: notControlled → awaitingConsent → controlled.
 * Invariants:
 * - `controller` changes only on `user.accept` (to the candidate), or to null on
 *   `window.closed` or when the controller's transport drops it (`plugin.disconnected`):
 *   while a handover waits for consent, the old controller keeps control and its rights,
 *   and a decline leaves it in place.
 * - A candidate whose transport drops it is answered as declined; nobody is left to accept.
 * - `candidate` is set exactly while in awaitingConsent, and its request is answered exactly
 *   once: true on accept, false on decline, IdeNotActive when the window closes first.
 * - The plugin already in control asking again is answered true with no dialog.
 * - Facts for the root: control.changed whenever `controller` changes, dialog.opened and
 *   dialog.closed around awaitingConsent. The root keeps one dialog at a time with them, so a
 *   second candidate never reaches here.
 */
import { and, assertEvent, assign, emit, setup } from "xstate";
import { answered, ok, windowClosedReply } from "./replies.ts";
import type { ControlContext, ControlEmitted, ControlEvent } from "./control.types.ts";

export const controlMachine = setup({
  types: {
    context: {} as ControlContext,
    events: {} as ControlEvent,
    emitted: {} as ControlEmitted,
  },
  guards: {
    senderIsController: ({ context, event }) =>
      event.type === "request.control" && event.sender === context.controller,
    hasController: ({ context }) => context.controller !== null,
    disconnectedIsCandidate: ({ context, event }) =>
      event.type === "plugin.disconnected" && context.candidate?.sender === event.sender,
    disconnectedIsController: ({ context, event }) =>
      event.type === "plugin.disconnected" && context.controller === event.sender,
    candidateLeftAndControllerStays: and(["disconnectedIsCandidate", "hasController"]),
  },
  actions: {
    rememberCandidate: assign({
      candidate: ({ event }) => {
        assertEvent(event, "request.control");
        return { requestId: event.requestId, sender: event.sender, registration: event.registration };
      },
    }),
    answerAlreadyInControl: emit(({ event }) => {
      assertEvent(event, "request.control");
      return answered(event.requestId, ok(true));
    }),
    announceController: emit(({ context }) => ({ type: "control.changed" as const, controller: context.controller })),
    announceDialogOpened: emit({ type: "dialog.opened" as const, owner: "control" as const }),
    announceDialogClosed: emit({ type: "dialog.closed" as const, owner: "control" as const }),
    grantToCandidate: assign({
      controller: ({ context }) => context.candidate!.sender,
      candidate: null,
    }),
    announceGranted: emit(({ context }) => ({
      type: "control.granted" as const,
      controller: context.candidate!.sender,
      registration: context.candidate!.registration,
    })),
    answerCandidateAccepted: emit(({ context }) => answered(context.candidate!.requestId, ok(true))),
    answerCandidateDeclined: emit(({ context }) => answered(context.candidate!.requestId, ok(false))),
    answerCandidateWindowClosed: emit(({ context }) =>
      answered(context.candidate!.requestId, windowClosedReply()),
    ),
    forgetCandidate: assign({ candidate: null }),
    endControl: assign({ controller: null, candidate: null }),
    forgetController: assign({ controller: null }),
  },
}).createMachine({
  id: "control",
  initial: "notControlled",
  context: { controller: null, candidate: null },
  states: {
    notControlled: {
      on: {
        "request.control": { target: "awaitingConsent", actions: "rememberCandidate" },
      },
    },
    awaitingConsent: {
      entry: "announceDialogOpened",
      exit: "announceDialogClosed",
      description:
        "The consent dialog is open for the candidate; a current controller keeps control until the user accepts.",
      on: {
        // Order matters: announce and answer while the candidate is still known.
        "user.accept": {
          target: "controlled",
          actions: ["announceGranted", "answerCandidateAccepted", "grantToCandidate", "announceController"],
        },
        "user.decline": [
          { guard: "hasController", target: "controlled", actions: ["answerCandidateDeclined", "forgetCandidate"] },
          { target: "notControlled", actions: ["answerCandidateDeclined", "forgetCandidate"] },
        ],
        "window.closed": { target: "notControlled", actions: ["answerCandidateWindowClosed", "endControl", "announceController"] },
        "plugin.disconnected": [
          { guard: "disconnectedIsController", actions: ["forgetController", "announceController"] },
          {
            guard: "candidateLeftAndControllerStays",
            target: "controlled",
            actions: ["answerCandidateDeclined", "forgetCandidate"],
          },
          { guard: "disconnectedIsCandidate", target: "notControlled", actions: ["answerCandidateDeclined", "forgetCandidate"] },
        ],
      },
    },
    controlled: {
      on: {
        "request.control": [
          { guard: "senderIsController", actions: "answerAlreadyInControl" },
          { target: "awaitingConsent", actions: "rememberCandidate" },
        ],
        "window.closed": { target: "notControlled", actions: ["endControl", "announceController"] },
        "plugin.disconnected": {
          guard: "disconnectedIsController",
          target: "notControlled",
          actions: ["endControl", "announceController"],
        },
      },
    },
  },
});
