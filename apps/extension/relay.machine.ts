/**
 * The background worker's relay: who answers a plugin's request while no IDE window does.
 *
 * The IDE lives in its window, and while the window is open it answers plugins itself:
 * Chromium hands a plugin's message to every context of the extension that listens, and the
 * window's answer is one hop where a relay through this worker would be two. So the worker
 * answers only while there is no window to do it.
 *
 *   starting ──window found──▶ awaiting ──window connected──▶ present
 *      │                        ▲   │                           │
 *      └──no window──▶ absent ──┘   └──no window in time──▶ absent ◀──window gone──┘
 *                    (idle ⇄ asking: an open request or POST /control opens the window)
 *
 * States:
 * - starting: the worker has just started and is asking whether a window outlived the last
 *   worker. Requests wait in the queue.
 * - absent: no window. A core whose window is closed (the `closedIde` actor) answers, so a
 *   closed IDE gives the contract's answers in its order (InvalidRequest, NoRoute, … then
 *   IdeNotActive). It takes one request at a time (asking), because a request that would
 *   open that core's window (the open request, a valid POST /control) opens the real one
 *   instead, and the requests after it must wait for that window.
 * - awaiting: a window is opening (opening) or open and starting its core (connecting).
 *   Requests wait in the queue; a window that does not connect in time is given up.
 * - present: the window answers plugins; the relay takes no request and only carries the
 *   replies to the ones it forwarded.
 * Invariants:
 * - Every request the relay takes is answered exactly once: by the closed core, by the window
 *   it was forwarded to, or IdeNotActive when no window comes or the window goes first.
 * - The queue keeps arrival order and is empty in present; `forwarded` is empty and `window`
 *   null everywhere but present.
 * - When a window connects, the queue is forwarded to it, then `live` lists the requests
 *   forwarded: the window may have received some itself and drops its own copies of those.
 * Nothing the user has lives here: a worker the browser stops comes back in `starting`, finds
 * the window, and the window (which kept everything) connects again.
 */
import { assertEvent, assign, emit, enqueueActions, fromCallback, fromPromise, sendTo, setup } from "xstate";
import { fail } from "../../machines/replies.ts";
import { messageOf } from "../../services/errors.ts";
import { toWire } from "../../core/protocol/wire.ts";
import type { WireReply } from "../../core/protocol/wire.ts";
import { requestKey } from "../../drivers/webextension/messages.ts";
import type { ClosedIdeEvent, RelayContext, RelayEmitted, RelayEvent, RelayInput, RelayRequest } from "./relay.types.ts";

const notActive = (text: string): WireReply => toWire(fail("IdeNotActive", text));

const answersTo = (requests: readonly RelayRequest[], reply: WireReply): RelayEmitted[] =>
  requests.map((r) => ({ type: "request.answered", requestId: r.id, reply }));

/** A window connecting while none answers: it answers from now on (brought to the front if the toolbar asked). */
const windowConnects = [
  { guard: "askedToShow", target: "#backgroundRelay.present", actions: ["takeWindow", "bringWindowToFront", "forgetToShow"] },
  { target: "#backgroundRelay.present", actions: "takeWindow" },
] as const;

export const relayMachine = setup({
  types: {
    context: {} as RelayContext,
    events: {} as RelayEvent,
    emitted: {} as RelayEmitted,
    input: {} as RelayInput,
  },
  actors: {
    // Defaults that open nothing; background.ts provides the chrome ones (relay.ts).
    /** Whether an IDE window is open now (asked once, when the worker starts). */
    findWindow: fromPromise<boolean>(async () => false),
    /** Opens the IDE window; it connects when its core is ready. */
    openWindow: fromPromise<void>(async () => {
      throw new Error("no way to open a window was provided");
    }),
    /**
     * A core whose window is closed. Given `request.asked`, it answers at once, in the same
     * step: `core.took` (its reply follows as `core.answered`) or `core.windowOpened`.
     */
    closedIde: fromCallback<ClosedIdeEvent>(({ receive, sendBack }) => {
      receive(({ request }) => {
        sendBack({ type: "core.took", requestId: request.id });
        sendBack({ type: "core.answered", requestId: request.id, reply: notActive("The IDE window is closed.") });
      });
    }),
  },
  delays: {
    connectTimeout: ({ context }) => context.connectTimeoutMs,
  },
  guards: {
    windowFound: ({ event }) => (event as { output?: unknown }).output === true,
    askedToShow: ({ context }) => context.showWhenStarted,
    hasQueue: ({ context }) => context.queue.length > 0,
    isTheWindow: ({ context, event }) => event.type === "window.disconnected" && event.port === context.window,
    isAwaitedReply: ({ context, event }) =>
      event.type === "window.replied" && event.port === context.window && context.forwarded.includes(event.requestId),
  },
  actions: {
    queueRequest: assign({
      queue: ({ context, event }) => {
        assertEvent(event, "request.received");
        return [...context.queue, event.request];
      },
    }),
    rememberToShow: assign({ showWhenStarted: true }),
    forgetToShow: assign({ showWhenStarted: false }),
    askClosedIde: sendTo("closedIde", ({ context }): ClosedIdeEvent => ({ type: "request.asked", request: context.queue[0] })),
    dropAsked: assign({ queue: ({ context }) => context.queue.slice(1) }),
    answerFromClosedIde: emit(({ event }) => {
      assertEvent(event, "core.answered");
      return { type: "request.answered" as const, requestId: event.requestId, reply: event.reply };
    }),
    answerQueueWindowLate: enqueueActions(({ context, enqueue }) => {
      const reply = notActive(`The IDE window did not start within ${context.connectTimeoutMs / 1000} s.`);
      for (const answer of answersTo(context.queue, reply)) enqueue.emit(answer);
      enqueue.assign({ queue: [] });
    }),
    answerQueueWindowFailed: enqueueActions(({ context, event, enqueue }) => {
      const reply = notActive(`The IDE window could not be opened: ${messageOf((event as { error?: unknown }).error)}`);
      for (const answer of answersTo(context.queue, reply)) enqueue.emit(answer);
      enqueue.assign({ queue: [] });
    }),
    takeWindow: assign({
      window: ({ event }) => {
        assertEvent(event, "window.connected");
        return event.port;
      },
    }),
    forgetWindow: assign({ window: null }),
    bringWindowToFront: emit(({ context }) => ({ type: "window.broughtToFront" as const, port: context.window! })),
    tellDuplicate: emit(({ event }) => {
      assertEvent(event, "window.connected");
      return { type: "window.posted" as const, port: event.port, message: { type: "duplicate" as const } };
    }),
    forwardQueue: enqueueActions(({ context, enqueue }) => {
      const port = context.window!;
      for (const { id, senderId, message } of context.queue) {
        enqueue.emit({ type: "window.posted", port, message: { type: "request", id, senderId, message } });
      }
      const forwarded = context.queue.map((r) => requestKey(r.senderId, r.message));
      enqueue.emit({ type: "window.posted", port, message: { type: "live", forwarded } });
      enqueue.assign({ forwarded: [...context.forwarded, ...context.queue.map((r) => r.id)], queue: [] });
    }),
    answerForwarded: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, "window.replied");
      enqueue.emit({ type: "request.answered", requestId: event.requestId, reply: event.reply });
      enqueue.assign({ forwarded: context.forwarded.filter((id) => id !== event.requestId) });
    }),
    answerForwardedNotActive: enqueueActions(({ context, enqueue }) => {
      const reply = notActive("The IDE window was closed before it answered.");
      for (const requestId of context.forwarded) enqueue.emit({ type: "request.answered", requestId, reply });
      enqueue.assign({ forwarded: [] });
    }),
  },
}).createMachine({
  id: "backgroundRelay",
  initial: "starting",
  context: ({ input }) => ({
    queue: [],
    forwarded: [],
    window: null,
    showWhenStarted: false,
    connectTimeoutMs: input.connectTimeoutMs,
  }),
  invoke: { id: "closedIde", src: "closedIde" },
  on: {
    // The closed core's replies come when they come, whatever the relay does meanwhile.
    "core.answered": { actions: "answerFromClosedIde" },
  },
  states: {
    starting: {
      description: "The worker has just started and asks whether an IDE window outlived the last worker; requests wait.",
      invoke: {
        id: "findWindow",
        src: "findWindow",
        onDone: [
          { guard: "windowFound", target: "awaiting.connecting" },
          { guard: "askedToShow", target: "awaiting.opening", actions: "forgetToShow" },
          { target: "absent" },
        ],
        // A look that fails finds no window.
        onError: [{ guard: "askedToShow", target: "awaiting.opening", actions: "forgetToShow" }, { target: "absent" }],
      },
      on: {
        "request.received": { actions: "queueRequest" },
        "user.showWindow": { actions: "rememberToShow" },
        "window.connected": windowConnects,
      },
    },
    absent: {
      description: "No IDE window: a core whose window is closed answers, one request at a time.",
      initial: "idle",
      on: {
        "request.received": { actions: "queueRequest" },
      },
      states: {
        idle: {
          always: { guard: "hasQueue", target: "asking" },
          on: {
            "user.showWindow": { target: "#backgroundRelay.awaiting.opening" },
            "window.connected": windowConnects,
          },
        },
        asking: {
          description:
            "The closed core has the first queued request and says at once whether it answers it or opens its window for it; requests arriving meanwhile wait their turn.",
          entry: "askClosedIde",
          on: {
            "core.took": { target: "idle", actions: "dropAsked" },
            // The request stays first in the queue: the window that opens takes it.
            "core.windowOpened": { target: "#backgroundRelay.awaiting.opening" },
          },
        },
      },
    },
    awaiting: {
      description: "A window is opening or starting its core; requests wait for it until it connects or the time is up.",
      initial: "opening",
      after: {
        connectTimeout: { target: "absent", actions: "answerQueueWindowLate" },
      },
      on: {
        "request.received": { actions: "queueRequest" },
        "window.connected": windowConnects,
      },
      states: {
        opening: {
          invoke: {
            id: "openWindow",
            src: "openWindow",
            onDone: { target: "connecting" },
            onError: { target: "#backgroundRelay.absent", actions: "answerQueueWindowFailed" },
          },
        },
        connecting: {
          description: "A window is open (this worker opened it, or found it at start) and its core is starting.",
        },
      },
    },
    present: {
      description: "The IDE window answers plugins itself; the relay carries only the replies to what it forwarded.",
      entry: "forwardQueue",
      on: {
        "user.showWindow": { actions: "bringWindowToFront" },
        // A second window: it closes itself, and the first comes to the front.
        "window.connected": { actions: ["tellDuplicate", "bringWindowToFront"] },
        "window.replied": { guard: "isAwaitedReply", actions: "answerForwarded" },
        "window.disconnected": { guard: "isTheWindow", target: "absent", actions: ["answerForwardedNotActive", "forgetWindow"] },
      },
    },
  },
});
