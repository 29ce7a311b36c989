import { describe, expect, it } from "vitest";
import { createActor } from "xstate";
import type { SnapshotFrom } from "xstate";
import { createTestModel, getShortestPaths } from "xstate/graph";
import { controlMachine } from "../../machines/control.machine.ts";
import type { ControlEmitted, ControlEvent } from "../../machines/control.types.ts";
import type { RequestAnsweredEvent } from "../../machines/shared.types.ts";
import {
  expectEachRequestAnsweredOnce,
  registration,
  replayPath,
  statesAlong,
  transitionPaths,
  unreachedStateNodes,
} from "./support.ts";
import type { ModelPath } from "./support.ts";

type ControlSnapshot = SnapshotFrom<typeof controlMachine>;

const A = "plugin-a";
const B = "plugin-b";
const registrationA = registration("Plugin A", "a-check");
const registrationB = registration("Plugin B", "b-check");

const askA: ControlEvent = { type: "request.control", requestId: 1, sender: A, registration: registrationA };
const askB: ControlEvent = { type: "request.control", requestId: 2, sender: B, registration: registrationB };
const accept: ControlEvent = { type: "user.accept" };
const decline: ControlEvent = { type: "user.decline" };
const windowClosed: ControlEvent = { type: "window.closed" };
const dropA: ControlEvent = { type: "plugin.disconnected", sender: A };
const dropB: ControlEvent = { type: "plugin.disconnected", sender: B };

/** What the adapters and the root send this machine: two different plugins, their transports, and the user. */
const EVENTS: ControlEvent[] = [askA, askB, accept, decline, windowClosed, dropA, dropB];

/**
 * The root keeps one dialog at a time: while the consent dialog is open it answers a request
 * for control itself (Busy, or true for the controller), so none reaches this machine, which
 * would ignore it. createTestModel tries only the events a state has transitions for, so
 * this matters to the traversals that try every event everywhere.
 */
const canArrive = (snapshot: ControlSnapshot, event: ControlEvent) =>
  !(event.type === "request.control" && snapshot.matches("awaitingConsent"));

const model = createTestModel(controlMachine, { events: EVENTS });

function startControl() {
  const actor = createActor(controlMachine);
  const emitted: ControlEmitted[] = [];
  actor.on("*", (event) => emitted.push(event));
  actor.start();
  const answers = () => emitted.filter((e): e is RequestAnsweredEvent => e.type === "request.answered");
  const answerTo = (requestId: number) => answers().filter((e) => e.requestId === requestId).map((e) => e.reply);
  return { actor, emitted, answers, answerTo };
}

function expectSameState(actual: ControlSnapshot, expected: ControlSnapshot, where: string) {
  expect(actual.status, `status ${where}`).toBe(expected.status);
  expect(actual.value, `state value ${where}`).toEqual(expected.value);
  expect(actual.context, `context ${where}`).toEqual(expected.context);
}

/** Replays a path on a fresh actor, checking state and exactly-once answers at every step. */
async function replayOnActor(path: ModelPath<ControlSnapshot, ControlEvent>) {
  const { actor, answers } = startControl();
  const asked: number[] = [];
  await replayPath(path, {
    send(event: ControlEvent) {
      if (event.type === "request.control") asked.push(event.requestId);
      actor.send(event);
    },
    check(expected, where) {
      const actual = actor.getSnapshot();
      expectSameState(actual, expected, where);
      const waiting = actual.context.candidate ? [actual.context.candidate.requestId] : [];
      expectEachRequestAnsweredOnce(asked, answers().map((a) => a.requestId), waiting, where);
    },
  });
  actor.stop();
}

describe("control machine, model-based", () => {
  const shortest = model.getShortestPaths();
  const simple = model.getSimplePaths();

  it("generates a path to each combination of mode, controller and candidate", () => {
    // notControlled; awaiting A or B with no controller; controlled by A or B; a handover A→B or B→A.
    const distinct = new Set(statesAlong(shortest).map((s) => JSON.stringify([s.value, s.context])));
    expect(distinct.size).toBe(7);
  });

  it("follows every shortest path on a real actor, with the same state and context at each step", async () => {
    for (const path of shortest) await replayOnActor(path);
  });

  it("follows every simple path on a real actor, with the same state and context at each step", async () => {
    expect(simple.length).toBeGreaterThan(shortest.length);
    for (const path of simple) await replayOnActor(path);
  });

  it("follows every transition of the graph on a real actor, each after the shortest path to its source", async () => {
    const serializeState = (s: ControlSnapshot) => JSON.stringify({ value: s.value, context: s.context });
    const paths = transitionPaths(controlMachine, { events: EVENTS, serializeState, filterEvents: canArrive });
    // 7 states × 7 events, less the 2 requests in each of the 4 awaitingConsent states.
    expect(paths.length).toBe(7 * EVENTS.length - 4 * 2);
    for (const path of paths) await replayOnActor(path);
  });

  it("keeps the candidate set exactly while awaiting consent on every simple path", () => {
    for (const path of simple) {
      for (const step of path.steps) {
        expect(step.state.context.candidate !== null, path.description).toBe(step.state.matches("awaitingConsent"));
        expect(step.state.context.controller !== null || !step.state.matches("controlled"), path.description).toBe(true);
      }
    }
  });

  it("reaches every state node on some shortest path", () => {
    expect(unreachedStateNodes(controlMachine, statesAlong(shortest))).toEqual([]);
  });

  it("reports a state as unreached when no event can get there", () => {
    const withoutAccept = getShortestPaths(controlMachine, { events: [askA, askB, decline, windowClosed] });
    expect(unreachedStateNodes(controlMachine, statesAlong(withoutAccept))).toEqual(["control.controlled"]);
  });
});

describe("control machine, transitions", () => {
  it("opens the consent dialog for the first plugin asking, with no controller yet", () => {
    const { actor, emitted } = startControl();
    actor.send(askA);
    expect(actor.getSnapshot().value).toBe("awaitingConsent");
    expect(actor.getSnapshot().context).toEqual({
      controller: null,
      candidate: { requestId: 1, sender: A, registration: registrationA },
    });
    expect(emitted).toEqual([{ type: "dialog.opened", owner: "control" }]);
  });

  it("grants control to the candidate on accept, announcing it and answering true", () => {
    const { actor, emitted } = startControl();
    actor.send(askA);
    actor.send(accept);
    expect(actor.getSnapshot().value).toBe("controlled");
    expect(actor.getSnapshot().context).toEqual({ controller: A, candidate: null });
    expect(emitted).toEqual([
      { type: "dialog.opened", owner: "control" },
      // Leaving the dialog's state comes first, then the transition's own actions.
      { type: "dialog.closed", owner: "control" },
      { type: "control.granted", controller: A, registration: registrationA },
      { type: "request.answered", requestId: 1, reply: { ok: true, value: true } },
      { type: "control.changed", controller: A },
    ]);
  });

  it("goes back to notControlled and answers false when the user declines the first candidate", () => {
    const { actor, emitted } = startControl();
    actor.send(askA);
    actor.send(decline);
    expect(actor.getSnapshot().value).toBe("notControlled");
    expect(actor.getSnapshot().context).toEqual({ controller: null, candidate: null });
    expect(emitted).toEqual([
      { type: "dialog.opened", owner: "control" },
      { type: "dialog.closed", owner: "control" },
      { type: "request.answered", requestId: 1, reply: { ok: true, value: false } },
    ]);
  });

  it("keeps the old controller in place while a second candidate waits for consent", () => {
    const { actor, emitted } = startControl();
    actor.send(askA);
    actor.send(accept);
    emitted.length = 0;
    actor.send(askB);
    expect(actor.getSnapshot().value).toBe("awaitingConsent");
    expect(actor.getSnapshot().context.controller).toBe(A);
    expect(actor.getSnapshot().context.candidate?.sender).toBe(B);
    expect(emitted).toEqual([{ type: "dialog.opened", owner: "control" }]);
  });

  it("keeps the old controller when the user declines the handover", () => {
    const { actor, emitted, answerTo } = startControl();
    actor.send(askA);
    actor.send(accept);
    emitted.length = 0;
    actor.send(askB);
    actor.send(decline);
    expect(actor.getSnapshot().value).toBe("controlled");
    expect(actor.getSnapshot().context).toEqual({ controller: A, candidate: null });
    expect(answerTo(2)).toEqual([{ ok: true, value: false }]);
    expect(emitted.some((e) => e.type === "control.granted")).toBe(false);
  });

  it("hands control over to the new plugin when the user accepts the handover", () => {
    const { actor, emitted, answerTo } = startControl();
    actor.send(askA);
    actor.send(accept);
    emitted.length = 0;
    actor.send(askB);
    actor.send(accept);
    expect(actor.getSnapshot().value).toBe("controlled");
    expect(actor.getSnapshot().context).toEqual({ controller: B, candidate: null });
    expect(answerTo(2)).toEqual([{ ok: true, value: true }]);
    expect(emitted.filter((e) => e.type === "control.granted")).toEqual([
      { type: "control.granted", controller: B, registration: registrationB },
    ]);
  });

  it("answers the waiting candidate IdeNotActive and ends control when the window closes", () => {
    const { actor, answerTo } = startControl();
    actor.send(askA);
    actor.send(accept);
    actor.send(askB);
    actor.send(windowClosed);
    expect(actor.getSnapshot().value).toBe("notControlled");
    expect(actor.getSnapshot().context).toEqual({ controller: null, candidate: null });
    expect(answerTo(2)).toEqual([{ ok: false, errorCode: "IdeNotActive", error: expect.any(String) }]);
  });

  it("answers the first candidate IdeNotActive when the window closes before the user answers", () => {
    const { actor, answerTo } = startControl();
    actor.send(askA);
    actor.send(windowClosed);
    expect(actor.getSnapshot().value).toBe("notControlled");
    expect(answerTo(1)).toEqual([{ ok: false, errorCode: "IdeNotActive", error: expect.any(String) }]);
  });

  it("ends control without answering anything when the window closes with no dialog open, telling the root", () => {
    const { actor, emitted } = startControl();
    actor.send(askA);
    actor.send(accept);
    emitted.length = 0;
    actor.send(windowClosed);
    expect(actor.getSnapshot().value).toBe("notControlled");
    expect(actor.getSnapshot().context.controller).toBeNull();
    expect(emitted).toEqual([{ type: "control.changed", controller: null }]);
  });

  it("answers the controller asking again true with no dialog", () => {
    const { actor, emitted } = startControl();
    actor.send(askA);
    actor.send(accept);
    emitted.length = 0;
    actor.send({ ...askA, requestId: 7 });
    expect(actor.getSnapshot().value).toBe("controlled");
    expect(actor.getSnapshot().context).toEqual({ controller: A, candidate: null });
    expect(emitted).toEqual([{ type: "request.answered", requestId: 7, reply: { ok: true, value: true } }]);
  });

  it("changes nothing when the user answers with no dialog open", () => {
    const { actor, emitted } = startControl();
    actor.send(accept);
    actor.send(decline);
    expect(actor.getSnapshot().value).toBe("notControlled");
    actor.send(askA);
    actor.send(accept);
    emitted.length = 0;
    actor.send(accept);
    actor.send(decline);
    expect(actor.getSnapshot().value).toBe("controlled");
    expect(actor.getSnapshot().context).toEqual({ controller: A, candidate: null });
    expect(emitted).toEqual([]);
  });

  it("answers every request exactly once through grants, a decline, a repeat and a closed window", () => {
    const { actor, answers } = startControl();
    const ask = (requestId: number, sender: string) =>
      actor.send({ type: "request.control", requestId, sender, registration: registration(sender) });
    ask(10, A);
    actor.send(accept);
    ask(11, B);
    actor.send(decline);
    ask(12, A);
    ask(13, B);
    actor.send(accept);
    ask(14, A);
    actor.send(windowClosed);
    ask(15, B);
    actor.send(decline);
    const ids = answers().map((a) => a.requestId);
    expect([...ids].sort((a, b) => a - b)).toEqual([10, 11, 12, 13, 14, 15]);
    expect(answers().map((a) => [a.requestId, a.reply.ok ? a.reply.value : a.reply.errorCode])).toEqual([
      [10, true],
      [11, false],
      [12, true],
      [13, true],
      [14, "IdeNotActive"],
      [15, false],
    ]);
  });
});
