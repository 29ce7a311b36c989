// The background worker's relay machine (apps/extension/relay.machine.ts), model-based
// and by hand. The graph drives it with the events its adapter (relay.ts) and its own actors
// would send: a plugin's request, the toolbar, a window's port, the closed core's verdicts,
// findWindow's and openWindow's done and error events and the connect timeout's after event;
// each path is then replayed on a real actor whose actors never settle by themselves, and
// the snapshots must agree at every step. The relay with its real adapter and a real closed
// core is tested in tests/unit/extension-relay.test.ts.
import { describe, expect, it } from "vitest";
import { createActor, fromCallback, fromPromise } from "xstate";
import type { EventObject, SnapshotFrom } from "xstate";
import { getShortestPaths } from "xstate/graph";
import { requestKey } from "../../drivers/webextension/messages.ts";
import { relayMachine } from "../../apps/extension/relay.machine.ts";
import type { ClosedIdeEvent, RelayEmitted, RelayEvent, RelayRequest } from "../../apps/extension/relay.types.ts";
import { expectEachRequestAnsweredOnce, replayPath, statesAlong, transitionPaths, unreachedStateNodes } from "./support.ts";
import type { ModelPath } from "./support.ts";

type RelaySnapshot = SnapshotFrom<typeof relayMachine>;
type GraphEvent = RelayEvent | (EventObject & { output?: unknown; error?: unknown });

const health = { uri: "/health", verb: "get" };
const openRequest = { openIDEIfClosed: true };
const requestA: RelayRequest = { id: 1, senderId: "plugin-a", message: health };
const requestB: RelayRequest = { id: 2, senderId: "plugin-b", message: openRequest };

type Received = Extract<RelayEvent, { type: "request.received" }>;
const received = (request: RelayRequest): Received => ({ type: "request.received", request });
const done = (id: string, output?: unknown): GraphEvent => ({ type: `xstate.done.actor.${id}`, output });
const failed = (id: string, error: unknown): GraphEvent => ({ type: `xstate.error.actor.${id}`, error });

const ev = {
  receiveA: received(requestA),
  receiveB: received(requestB),
  toolbar: { type: "user.showWindow" },
  connect1: { type: "window.connected", port: 1 },
  connect2: { type: "window.connected", port: 2 },
  reply1To1: { type: "window.replied", port: 1, requestId: 1, reply: true },
  reply1To2: { type: "window.replied", port: 1, requestId: 2, reply: true },
  reply2To1: { type: "window.replied", port: 2, requestId: 1, reply: "from the duplicate" },
  disconnect1: { type: "window.disconnected", port: 1 },
  disconnect2: { type: "window.disconnected", port: 2 },
  found: done("findWindow", true),
  notFound: done("findWindow", false),
  lookFailed: failed("findWindow", new Error("no runtime.getContexts")),
  opened: done("openWindow"),
  openFailed: failed("openWindow", new Error("no display to open on")),
  late: { type: "xstate.after.connectTimeout.backgroundRelay.awaiting" },
} satisfies Record<string, GraphEvent>;

/** What the closed core says about the request it was given (the first queued). */
const took = (s: RelaySnapshot): GraphEvent => ({ type: "core.took", requestId: s.context.queue[0].id });
const opensWindow = (s: RelaySnapshot): GraphEvent => ({ type: "core.windowOpened", requestId: s.context.queue[0].id });

/**
 * The events that can come in each state: a request only while its id is not waiting already
 * (the adapter numbers each request anew), the closed core's verdicts only while it is asked,
 * and each actor's done and error events and the timeout only while that actor or delay runs.
 * The closed core's late replies (`core.answered`) are tested by hand below.
 */
function eventsIn(s: RelaySnapshot): GraphEvent[] {
  const waiting = new Set([...s.context.queue.map((r) => r.id), ...s.context.forwarded]);
  const events: GraphEvent[] = [ev.receiveA, ev.receiveB].filter((e) => !waiting.has(e.request.id));
  events.push(ev.toolbar, ev.connect1, ev.connect2, ev.reply1To1, ev.reply1To2, ev.reply2To1, ev.disconnect1, ev.disconnect2);
  if (s.matches("starting")) events.push(ev.found, ev.notFound, ev.lookFailed);
  if (s.matches({ absent: "asking" })) events.push(took(s), opensWindow(s));
  if (s.matches({ awaiting: "opening" })) events.push(ev.opened, ev.openFailed);
  if (s.matches("awaiting")) events.push(ev.late);
  return events;
}

function serializeState(s: RelaySnapshot): string {
  const { queue, forwarded, window, showWhenStarted } = s.context;
  return JSON.stringify({ value: s.value, queue: queue.map((r) => r.id), forwarded, window, showWhenStarted });
}

const traversal = { events: eventsIn as never, serializeState, input: { connectTimeoutMs: 60_000 } };

/** The relay with actors that never settle and a closed core that only listens: the test sends their events itself. */
function startRelay() {
  const asked: RelayRequest[] = [];
  const machine = relayMachine.provide({
    actors: {
      findWindow: fromPromise<boolean>(() => new Promise<boolean>(() => {})),
      openWindow: fromPromise<void>(() => new Promise<void>(() => {})),
      closedIde: fromCallback<ClosedIdeEvent>(({ receive }) => receive(({ request }) => asked.push(request))),
    },
  });
  const actor = createActor(machine, { input: { connectTimeoutMs: 60_000 } });
  const emitted: RelayEmitted[] = [];
  actor.on("*", (event) => emitted.push(event));
  actor.start();
  const answers = () => emitted.flatMap((e) => (e.type === "request.answered" ? [e.requestId] : []));
  const posted = (port: number) => emitted.flatMap((e) => (e.type === "window.posted" && e.port === port ? [e.message] : []));
  /** Sends each event in turn. */
  const send = (...events: GraphEvent[]) => events.forEach((event) => actor.send(event as RelayEvent));
  return { actor, emitted, asked, answers, posted, send };
}

/**
 * Replays a path on a real actor. Exactly once: every request the relay took is answered
 * (emitted), given to the closed core that took it, or still waiting (queued or forwarded).
 */
async function replayOnActor(path: ModelPath<RelaySnapshot, GraphEvent>, lastOnly = false) {
  const relay = startRelay();
  const taken: number[] = [];
  const tookByCore: number[] = [];
  const last = path.steps[path.steps.length - 1];
  await replayPath(path, {
    send(event) {
      if (event.type === "request.received" && relay.actor.getSnapshot().can(event as RelayEvent)) {
        taken.push((event as Received).request.id);
      }
      if (event.type === "core.took") tookByCore.push((event as { requestId: number }).requestId);
      relay.send(event);
    },
    check(expected, where) {
      if (lastOnly && expected !== last.state) return;
      const actual = relay.actor.getSnapshot();
      expect(serializeState(actual), where).toBe(serializeState(expected));
      const { queue, forwarded, window } = actual.context;
      expect(window !== null, `a window exactly while present, ${where}`).toBe(actual.matches("present"));
      if (actual.matches("present")) expect(queue, `nothing queued while present, ${where}`).toEqual([]);
      else expect(forwarded, `nothing forwarded unless present, ${where}`).toEqual([]);
      const waiting = [...queue.map((r) => r.id), ...forwarded];
      expectEachRequestAnsweredOnce(taken, [...relay.answers(), ...tookByCore], waiting, where);
    },
  });
  relay.actor.stop();
}

let graph: Array<ModelPath<RelaySnapshot, GraphEvent>> | undefined;
const shortestPaths = () =>
  (graph ??= getShortestPaths(relayMachine, traversal as never) as unknown as Array<ModelPath<RelaySnapshot, GraphEvent>>);

describe("relay machine, model-based", () => {
  it("follows every shortest path on a real actor, with the same state and context at each step", async () => {
    const shortest = shortestPaths();
    expect(shortest.length).toBeGreaterThan(40);
    for (const path of shortest) await replayOnActor(path);
  });

  it("follows every transition of the graph on a real actor, each after the shortest path to its source", async () => {
    const paths = transitionPaths(relayMachine, traversal as never) as unknown as Array<ModelPath<RelaySnapshot, GraphEvent>>;
    const offered = shortestPaths().reduce((n, path) => n + eventsIn(path.steps[path.steps.length - 1].state).length, 0);
    expect(paths.length).toBe(offered);
    for (const path of paths) await replayOnActor(path, true);
  });

  it("reaches every state node on some shortest path", () => {
    expect(unreachedStateNodes(relayMachine, statesAlong(shortestPaths()))).toEqual([]);
  });

  it("reports the window's states as unreached when no window ever connects", () => {
    const noWindow = { ...traversal, events: ((s: RelaySnapshot) => eventsIn(s).filter((e) => e.type !== "window.connected")) as never };
    const paths = getShortestPaths(relayMachine, noWindow) as unknown as Array<ModelPath<RelaySnapshot, GraphEvent>>;
    expect(unreachedStateNodes(relayMachine, statesAlong(paths))).toEqual(["backgroundRelay.present"]);
  });
});

// ---------------------------------------------------------------------------------------
// By hand: transitions a generated path cannot tell apart from a wrong target.

/** A relay whose look at start found no window. */
function absentRelay() {
  const relay = startRelay();
  relay.send(ev.notFound);
  expect(relay.actor.getSnapshot().value).toEqual({ absent: "idle" });
  return relay;
}

describe("relay machine, transitions", () => {
  it("queues requests while starting and gives them to the closed core one at a time once no window is found", () => {
    const relay = startRelay();
    relay.send(ev.receiveA, ev.receiveB);
    expect(relay.asked).toEqual([]);
    relay.send(ev.notFound);
    expect(relay.actor.getSnapshot().value).toEqual({ absent: "asking" });
    expect(relay.asked).toEqual([requestA]);
    relay.send({ type: "core.took", requestId: 1 });
    expect(relay.asked).toEqual([requestA, requestB]);
    relay.send({ type: "core.took", requestId: 2 });
    expect(relay.actor.getSnapshot().value).toEqual({ absent: "idle" });
    expect(relay.actor.getSnapshot().context.queue).toEqual([]);
  });

  it("treats a look that fails as no window", () => {
    const relay = startRelay();
    relay.send(ev.lookFailed);
    expect(relay.actor.getSnapshot().value).toEqual({ absent: "idle" });
  });

  it("waits for the window found at start without opening one", () => {
    const relay = startRelay();
    relay.send(ev.found);
    expect(relay.actor.getSnapshot().value).toEqual({ awaiting: "connecting" });
  });

  it("opens a window when the toolbar was pressed while starting and none was found, holding the queue for it", () => {
    const relay = startRelay();
    relay.send(ev.toolbar, ev.receiveA, ev.notFound);
    expect(relay.actor.getSnapshot().value).toEqual({ awaiting: "opening" });
    expect(relay.asked).toEqual([]);
    expect(relay.actor.getSnapshot().context).toMatchObject({ queue: [requestA], showWhenStarted: false });
  });

  it("brings the window found at start to the front once it connects if the toolbar was pressed, and only that once", () => {
    const relay = startRelay();
    relay.send(ev.toolbar, ev.found, ev.connect1);
    expect(relay.emitted.filter((e) => e.type === "window.broughtToFront")).toEqual([{ type: "window.broughtToFront", port: 1 }]);
    relay.send(ev.disconnect1, ev.connect2);
    expect(relay.emitted.filter((e) => e.type === "window.broughtToFront")).toHaveLength(1);
  });

  it("keeps the request that opens the closed core's window first in the queue, before those that came after it", () => {
    const relay = absentRelay();
    relay.send(ev.receiveB, ev.receiveA, { type: "core.windowOpened", requestId: 2 });
    expect(relay.actor.getSnapshot().value).toEqual({ awaiting: "opening" });
    expect(relay.actor.getSnapshot().context.queue).toEqual([requestB, requestA]);
    expect(relay.asked).toEqual([requestB]);
  });

  it("forwards the queue in order when a window connects, then lists the forwarded requests in live", () => {
    const relay = absentRelay();
    relay.send(ev.receiveB, { type: "core.windowOpened", requestId: 2 }, ev.receiveA, ev.opened);
    expect(relay.actor.getSnapshot().value).toEqual({ awaiting: "connecting" });
    relay.send(ev.connect1);
    expect(relay.actor.getSnapshot().value).toBe("present");
    expect(relay.posted(1)).toEqual([
      { type: "request", id: 2, senderId: "plugin-b", message: openRequest },
      { type: "request", id: 1, senderId: "plugin-a", message: health },
      { type: "live", forwarded: [requestKey("plugin-b", openRequest), requestKey("plugin-a", health)] },
    ]);
    expect(relay.actor.getSnapshot().context).toMatchObject({ queue: [], forwarded: [2, 1], window: 1 });
  });

  it.each([
    ["does not connect in time", ev.late, "The IDE window did not start within 60 s."],
    ["cannot be opened", ev.openFailed, "The IDE window could not be opened: no display to open on"],
  ])("gives up on a window that %s, answering what waited IdeNotActive with the reason", (_, event, error) => {
    const relay = absentRelay();
    relay.send(ev.toolbar, ev.receiveA, event);
    expect(relay.actor.getSnapshot().value).toEqual({ absent: "idle" });
    expect(relay.emitted).toEqual([{ type: "request.answered", requestId: 1, reply: { errorCode: "IdeNotActive", error } }]);
  });

  it("takes no request while present, tells a second window it is a duplicate and brings the first to the front", () => {
    const relay = absentRelay();
    relay.send(ev.connect1);
    expect(relay.actor.getSnapshot().can(ev.receiveA)).toBe(false);
    relay.send(ev.connect2);
    expect(relay.actor.getSnapshot().context.window).toBe(1);
    expect(relay.posted(2)).toEqual([{ type: "duplicate" }]);
    expect(relay.emitted.at(-1)).toEqual({ type: "window.broughtToFront", port: 1 });
    relay.send(ev.disconnect2);
    expect(relay.actor.getSnapshot().value).toBe("present");
  });

  it("answers a forwarded request with the window's reply once, and the rest IdeNotActive when the window goes", () => {
    const relay = startRelay();
    relay.send(ev.receiveA, ev.receiveB, ev.found, ev.connect1, ev.reply2To1, ev.reply1To1, ev.reply1To1);
    expect(relay.emitted.filter((e) => e.type === "request.answered")).toEqual([{ type: "request.answered", requestId: 1, reply: true }]);
    relay.send(ev.disconnect1);
    expect(relay.actor.getSnapshot().value).toEqual({ absent: "idle" });
    expect(relay.emitted.at(-1)).toEqual({
      type: "request.answered",
      requestId: 2,
      reply: { errorCode: "IdeNotActive", error: "The IDE window was closed before it answered." },
    });
    expect(relay.actor.getSnapshot().context).toMatchObject({ forwarded: [], window: null });
  });

  it("passes the closed core's replies on whatever state the relay is in by then", () => {
    const relay = absentRelay();
    const reply = { errorCode: "IdeNotActive", error: "The IDE window is closed." };
    relay.send(ev.receiveA, { type: "core.took", requestId: 1 }, ev.connect1, { type: "core.answered", requestId: 1, reply });
    expect(relay.actor.getSnapshot().value).toBe("present");
    expect(relay.emitted.at(-1)).toEqual({ type: "request.answered", requestId: 1, reply });
  });

  it("lets neither the toolbar nor a window move it while the closed core decides", () => {
    const relay = absentRelay();
    relay.send(ev.receiveA, ev.toolbar, ev.connect1, ev.receiveB);
    expect(relay.actor.getSnapshot().value).toEqual({ absent: "asking" });
    expect(relay.actor.getSnapshot().context.queue).toEqual([requestA, requestB]);
  });
});
