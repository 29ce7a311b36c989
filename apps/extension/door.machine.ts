/**
 * The IDE window's door: when the window answers a plugin's message itself.
 *
 * States: holding ⇄ answering.
 * - holding: the window is starting, or the background worker restarted and the port is
 *   being made again. The background is queueing the same messages (Chromium gives a
 *   plugin's message to every context of the extension that listens) and forwards them over
 *   the port, so the window holds its own copies until the background says `live`.
 * - answering: the background has handed over; the window answers every request at once.
 * Invariants:
 * - Every request received is released to the window's core, dropped because the background
 *   forwarded its copy, or answered when the window goes: exactly one of these, once.
 * - `live` lists the forwarded requests by requestKey; the door drops one held copy per key
 *   listed and releases the rest in arrival order. Two equal requests from one sender are
 *   interchangeable, so counting keys is enough, and a key with no held copy drops nothing.
 * - `held` is empty while answering, so only holding has anything to answer when the window
 *   goes.
 */
import { assertEvent, assign, emit, enqueueActions, setup } from "xstate";
import { requestKey } from "../../drivers/webextension/messages.ts";
import type { DoorContext, DoorEmitted, DoorEvent } from "./door.types.ts";

export const doorMachine = setup({
  types: {
    context: {} as DoorContext,
    events: {} as DoorEvent,
    emitted: {} as DoorEmitted,
  },
  actions: {
    holdRequest: assign({
      held: ({ context, event }) => {
        assertEvent(event, "request.received");
        return [...context.held, event.request];
      },
    }),
    releaseRequest: emit(({ event }) => {
      assertEvent(event, "request.received");
      return { type: "request.released" as const, request: event.request };
    }),
    releaseHeldNotForwarded: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, "background.handedOver");
      const left = new Map<string, number>();
      for (const key of event.forwarded) left.set(key, (left.get(key) ?? 0) + 1);
      for (const request of context.held) {
        const key = requestKey(request.senderId, request.message);
        const count = left.get(key) ?? 0;
        if (count > 0) {
          left.set(key, count - 1);
          enqueue.emit({ type: "request.dropped", requestId: request.id });
        } else {
          enqueue.emit({ type: "request.released", request });
        }
      }
      enqueue.assign({ held: [] });
    }),
    answerHeld: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, "window.closing");
      for (const request of context.held) enqueue.emit({ type: "request.answered", requestId: request.id, reply: event.reply });
      enqueue.assign({ held: [] });
    }),
  },
}).createMachine({
  id: "windowDoor",
  initial: "holding",
  context: { held: [] },
  states: {
    holding: {
      description: "Waiting for the background's `live`: it may be forwarding copies of these requests.",
      on: {
        "request.received": { actions: "holdRequest" },
        "background.handedOver": { target: "answering", actions: "releaseHeldNotForwarded" },
        "window.closing": { actions: "answerHeld" },
      },
    },
    answering: {
      description: "The window answers every plugin request itself.",
      on: {
        "request.received": { actions: "releaseRequest" },
        "background.disconnected": { target: "holding" },
      },
    },
  },
});
