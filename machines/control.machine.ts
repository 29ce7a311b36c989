/**
 * Control mode of the IDE: the consent dialog, and who gets control on the user's answer.
 *
 * States: notControlled → awaitingConsent → controlled.
 * Who controls the IDE is one fact with one copy, the root's context (`controller`): the root
 * answers from it (a controller asking again, POST /close, the save), admission reads it at
 * the door, and the view shows it, all without reading this machine's snapshot. This machine
 * decides every change of it and tells the root (control.changed); it reads the current
 * controller from the events the root forwards, which carry it (`controller`).
 * Invariants:
 * - The controller changes only on `user.accept` (to the candidate), or to nobody on
 *   `window.closed` or when the controller's transport drops it (`plugin.disconnected`):
 *   while a handover waits for consent, the old controller keeps control and its rights,
 *   and a decline leaves it in place.
 * - A candidate whose transport drops it is answered as declined; nobody is left to accept.
 * - `candidate` is set exactly while in awaitingConsent, and its request is answered exactly
 *   once: true on accept, false on decline, IdeNotActive when the window closes first.
 * - Facts for the root: control.changed whenever the controller changes, dialog.opened and
 *   dialog.closed around awaitingConsent. The root keeps one dialog at a time with them and
 *   answers the controller asking again itself, so neither a second candidate nor the
 *   controller's own request reaches here.
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
    hasController: ({ event }) => "controller" in event && event.controller !== null,
    disconnectedIsCandidate: ({ context, event }) =>
      event.type === "plugin.disconnected" && context.candidate?.sender === event.sender,
    disconnectedIsController: ({ event }) => event.type === "plugin.disconnected" && event.controller === event.sender,
    candidateLeftAndControllerStays: and(["disconnectedIsCandidate", "hasController"]),
  },
  actions: {
    rememberCandidate: assign({
      candidate: ({ event }) => {
        assertEvent(event, "request.control");
        return { requestId: event.requestId, sender: event.sender, registration: event.registration };
      },
    }),
    /** The candidate is in control now; said while it is still known. */
    announceCandidateInControl: emit(({ context }) => ({ type: "control.changed" as const, controller: context.candidate!.sender })),
    announceNobodyInControl: emit({ type: "control.changed" as const, controller: null }),
    announceDialogOpened: emit({ type: "dialog.opened" as const, owner: "control" as const }),
    announceDialogClosed: emit({ type: "dialog.closed" as const, owner: "control" as const }),
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
  },
}).createMachine({
  id: "control",
  initial: "notControlled",
  context: { candidate: null },
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
          actions: ["announceGranted", "answerCandidateAccepted", "announceCandidateInControl", "forgetCandidate"],
        },
        "user.decline": [
          { guard: "hasController", target: "controlled", actions: ["answerCandidateDeclined", "forgetCandidate"] },
          { target: "notControlled", actions: ["answerCandidateDeclined", "forgetCandidate"] },
        ],
        "window.closed": { target: "notControlled", actions: ["answerCandidateWindowClosed", "forgetCandidate", "announceNobodyInControl"] },
        "plugin.disconnected": [
          { guard: "disconnectedIsController", actions: "announceNobodyInControl" },
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
        "request.control": { target: "awaitingConsent", actions: "rememberCandidate" },
        "window.closed": { target: "notControlled", actions: "announceNobodyInControl" },
        "plugin.disconnected": { guard: "disconnectedIsController", target: "notControlled", actions: "announceNobodyInControl" },
      },
    },
  },
});
