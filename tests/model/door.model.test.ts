// The IDE window's door machine (apps/extension/door.machine.ts), model-based and by
// hand. The graph drives it with what the window tells it: plugins' requests (two of them
// equal, from one sender), the background's hand-over with and without forwarded copies, the
// port closing and the window going; each path is replayed on a real actor, and the snapshots
// must agree at every step. The door with its adapter is tested in tests/unit/extension-door.test.ts.
import { describe, expect, it } from "vitest";
import { createActor } from "xstate";
import type { SnapshotFrom } from "xstate";
import { getShortestPaths, getSimplePaths } from "xstate/graph";
import { doorMachine } from "../../apps/extension/door.machine.ts";
import type { DoorEmitted, DoorEvent, DoorRequest } from "../../apps/extension/door.types.ts";
import { requestKey } from "../../drivers/webextension/messages.ts";
import { expectEachRequestAnsweredOnce, replayPath, statesAlong, transitionPaths, unreachedStateNodes } from "./support.ts";
import type { ModelPath } from "./support.ts";

type DoorSnapshot = SnapshotFrom<typeof doorMachine>;

const health = { uri: "/health", verb: "get" };
const log = { uri: "/log", verb: "post", message: "hello" };
const healthA: DoorRequest = { id: 1, senderId: "plugin-a", message: health };
const healthAgainA: DoorRequest = { id: 2, senderId: "plugin-a", message: { ...health } };
const logB: DoorRequest = { id: 3, senderId: "plugin-b", message: log };
const closed = { error: "The IDE window was closed.", errorCode: "IdeNotActive" };

const received = (request: DoorRequest): DoorEvent => ({ type: "request.received", request });
const handedOver = (...requests: DoorRequest[]): DoorEvent => ({
  type: "background.handedOver",
  forwarded: requests.map((r) => requestKey(r.senderId, r.message)),
});

const released = (request: DoorRequest): DoorEmitted => ({ type: "request.released", request });
const dropped = (requestId: number): DoorEmitted => ({ type: "request.dropped", requestId });

const ev = {
  receiveHealthA: received(healthA),
  receiveHealthAgainA: received(healthAgainA),
  receiveLogB: received(logB),
  handedOverNothing: handedOver(),
  handedOverHealthA: handedOver(healthA),
  handedOverLogB: handedOver(logB),
  disconnected: { type: "background.disconnected" },
  closing: { type: "window.closing", reply: closed },
} satisfies Record<string, DoorEvent>;

/** A request only while its id is not held already (the adapter numbers each request anew). */
function eventsIn(s: DoorSnapshot): DoorEvent[] {
  const held = new Set(s.context.held.map((r) => r.id));
  return Object.values(ev).filter((e) => e.type !== "request.received" || !held.has(e.request.id));
}

const serializeState = (s: DoorSnapshot) => JSON.stringify({ value: s.value, held: s.context.held.map((r) => r.id) });
const traversal = { events: eventsIn as never, serializeState };

function startDoor() {
  const actor = createActor(doorMachine);
  const emitted: DoorEmitted[] = [];
  actor.on("*", (event) => emitted.push(event));
  actor.start();
  /** Every request the door is done with, however: released, dropped or answered. */
  const settled = () => emitted.map((e) => (e.type === "request.released" ? e.request.id : e.requestId));
  /** Sends each event in turn. */
  const send = (...events: DoorEvent[]) => events.forEach((event) => actor.send(event));
  return { actor, emitted, settled, send };
}

/** Replays a path on a real actor: each request received is settled exactly once, or still held. */
async function replayOnActor(path: ModelPath<DoorSnapshot, DoorEvent>) {
  const door = startDoor();
  const asked: number[] = [];
  await replayPath(path, {
    send(event) {
      if (event.type === "request.received") asked.push(event.request.id);
      door.send(event);
    },
    check(expected, where) {
      const actual = door.actor.getSnapshot();
      expect(serializeState(actual), where).toBe(serializeState(expected));
      if (actual.matches("answering")) expect(actual.context.held, `nothing held while answering, ${where}`).toEqual([]);
      expectEachRequestAnsweredOnce(asked, door.settled(), actual.context.held.map((r) => r.id), where);
    },
  });
  door.actor.stop();
}

describe("door machine, model-based", () => {
  const shortest = getShortestPaths(doorMachine, traversal) as unknown as Array<ModelPath<DoorSnapshot, DoorEvent>>;

  it("generates a path to answering and to each order of held requests", () => {
    // answering, and holding none of three requests, one, any two in either order, or all three in any order.
    expect(new Set(statesAlong(shortest).map(serializeState)).size).toBe(1 + 1 + 3 + 6 + 6);
  });

  it("follows every shortest path on a real actor, with the same state and held requests at each step", async () => {
    for (const path of shortest) await replayOnActor(path);
  });

  it("follows every simple path on a real actor, each request settled once", async () => {
    const simple = getSimplePaths(doorMachine, traversal) as unknown as Array<ModelPath<DoorSnapshot, DoorEvent>>;
    expect(simple.length).toBeGreaterThan(shortest.length);
    for (const path of simple) await replayOnActor(path);
  });

  it("follows every transition of the graph on a real actor, each after the shortest path to its source", async () => {
    const paths = transitionPaths(doorMachine, traversal) as unknown as Array<ModelPath<DoorSnapshot, DoorEvent>>;
    const offered = shortest.reduce((n, path) => n + eventsIn(path.steps[path.steps.length - 1].state).length, 0);
    expect(paths.length).toBe(offered);
    for (const path of paths) await replayOnActor(path);
  });

  it("reaches every state node on some shortest path", () => {
    expect(unreachedStateNodes(doorMachine, statesAlong(shortest))).toEqual([]);
  });

  it("reports answering as unreached when the background never hands over", () => {
    const withoutHandOver = getShortestPaths(doorMachine, {
      ...traversal,
      events: ((s: DoorSnapshot) => eventsIn(s).filter((e) => e.type !== "background.handedOver")) as never,
    });
    expect(unreachedStateNodes(doorMachine, statesAlong(withoutHandOver))).toEqual(["windowDoor.answering"]);
  });
});

describe("door machine, transitions", () => {
  it.each([
    ["another request", [healthA, logB], ev.handedOverHealthA, [dropped(1), released(logB)]],
    ["an equal request from the same sender", [healthA, healthAgainA], ev.handedOverHealthA, [dropped(1), released(healthAgainA)]],
    ["no held copy of what was forwarded", [healthA], ev.handedOverLogB, [released(healthA)]],
  ])("holds until the hand-over, then drops one held copy per forwarded key and releases the rest: %s", (_, held, handOver, settled) => {
    const door = startDoor();
    for (const request of held) door.send(received(request));
    expect(door.emitted).toEqual([]);
    door.send(handOver);
    expect(door.actor.getSnapshot().value).toBe("answering");
    expect(door.emitted).toEqual(settled);
  });

  it("releases every request at once while answering, and ignores a second hand-over", () => {
    const door = startDoor();
    door.send(ev.handedOverNothing, ev.receiveHealthA, ev.handedOverHealthA, ev.receiveHealthAgainA);
    expect(door.actor.getSnapshot().value).toBe("answering");
    expect(door.emitted).toEqual([
      { type: "request.released", request: healthA },
      { type: "request.released", request: healthAgainA },
    ]);
  });

  it("holds again when the port to the background closes, until the next hand-over", () => {
    const door = startDoor();
    door.send(ev.handedOverNothing, ev.disconnected);
    expect(door.actor.getSnapshot().value).toBe("holding");
    door.send(ev.receiveLogB);
    expect(door.emitted).toEqual([]);
    door.send(ev.handedOverLogB);
    expect(door.emitted).toEqual([{ type: "request.dropped", requestId: 3 }]);
  });

  it("answers everything held with the closing reply, and has nothing to answer while answering", () => {
    const door = startDoor();
    door.send(ev.receiveHealthA, ev.receiveLogB, ev.closing);
    expect(door.emitted).toEqual([
      { type: "request.answered", requestId: 1, reply: closed },
      { type: "request.answered", requestId: 3, reply: closed },
    ]);
    expect(door.actor.getSnapshot().context.held).toEqual([]);
    door.send(ev.handedOverNothing, ev.closing);
    expect(door.emitted).toHaveLength(2);
  });
});
