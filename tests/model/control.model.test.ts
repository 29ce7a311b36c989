import { describe, expect, it } from "vitest";
import { createActor } from "xstate";
import type { SnapshotFrom } from "xstate";
import { createTestModel, getShortestPaths } from "xstate/graph";
import { controlMachine } from "../../machines/control.machine.ts";
import type { ControlEmitted, ControlEvent } from "../../machines/control.types.ts";
import type { Registration } from "../../services/plugins/index.ts";
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

const PLUGINS = [null, A, B] as const;

/** An event as the root forwards it: with who controls the IDE as it arrives (the root's copy). */
const told = <E extends { type: string }>(event: E, controller: string | null) => ({ ...event, controller }) as ControlEvent;
const ask = (sender: string, requestId: number, registration: Registration) => ({
  type: "request.control" as const,
  requestId,
  sender,
  registration,
});
const windowClosed: ControlEvent = { type: "window.closed" };

/**
 * What the root sends this machine: two different plugins asking, their transports, and the
 * user, each told with every controller the root may hold (nobody, A or B).
 */
const EVENTS: ControlEvent[] = [
  windowClosed,
  ...PLUGINS.flatMap((controller) => [
    told(ask(A, 1, registrationA), controller),
    told(ask(B, 2, registrationB), controller),
    told({ type: "user.accept" }, controller),
    told({ type: "user.decline" }, controller),
    told({ type: "plugin.disconnected", sender: A }, controller),
    told({ type: "plugin.disconnected", sender: B }, controller),
  ]),
];

/**
 * What the root can send in each state. It keeps the controller from this machine's
 * control.changed, so nobody controls the IDE while notControlled and somebody does while
 * controlled; a candidate is never the controller. It keeps one dialog at a time and answers
 * the controller asking again itself, so no request for control reaches awaitingConsent, nor
 * the controller's own. createTestModel tries only the events a state has transitions for,
 * so this matters to the traversals that try every event everywhere.
 */
const canArrive = (snapshot: ControlSnapshot, event: ControlEvent) => {
  if (!("controller" in event)) return true;
  const { controller } = event;
  if (snapshot.matches("notControlled") && controller !== null) return false;
  if (snapshot.matches("controlled") && controller === null) return false;
  if (snapshot.context.candidate?.sender === controller) return false;
  if (event.type === "request.control") return !snapshot.matches("awaitingConsent") && event.sender !== controller;
  return true;
};

const model = createTestModel(controlMachine, { events: EVENTS, filterEvents: canArrive } as never);

/**
 * The control machine under a stand-in for the root: it keeps who controls the IDE from
 * control.changed and tells it with each event it forwards, and it answers the controller
 * asking again itself (true, with no dialog), as the root does.
 */
function startControl() {
  const actor = createActor(controlMachine);
  const emitted: ControlEmitted[] = [];
  let current: string | null = null;
  actor.on("*", (event) => {
    emitted.push(event);
    if (event.type === "control.changed") current = event.controller;
  });
  actor.start();
  const send = (event: { type: string } & Record<string, unknown>) => {
    if (event.type === "request.control" && event.sender === current) {
      emitted.push({ type: "request.answered", requestId: event.requestId as number, reply: { ok: true, value: true } });
      return;
    }
    actor.send(event.type === "window.closed" ? windowClosed : told(event, current));
  };
  const controller = () => current;
  const answers = () => emitted.filter((e): e is RequestAnsweredEvent => e.type === "request.answered");
  const answerTo = (requestId: number) => answers().filter((e) => e.requestId === requestId).map((e) => e.reply);
  return { actor, send, controller, emitted, answers, answerTo };
}

const askA = ask(A, 1, registrationA);
const askB = ask(B, 2, registrationB);
const accept = { type: "user.accept" } as const;
const decline = { type: "user.decline" } as const;
const dropA = { type: "plugin.disconnected", sender: A } as const;

function expectSameState(actual: ControlSnapshot, expected: ControlSnapshot, where: string) {
  expect(actual.status, `status ${where}`).toBe(expected.status);
  expect(actual.value, `state value ${where}`).toEqual(expected.value);
  expect(actual.context, `context ${where}`).toEqual(expected.context);
}

/** Replays a path on a fresh actor, checking state and exactly-once answers at every step. */
async function replayOnActor(path: ModelPath<ControlSnapshot, ControlEvent>) {
  const actor = createActor(controlMachine);
  const answered: number[] = [];
  actor.on("request.answered", (event) => answered.push(event.requestId));
  actor.start();
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
      expectEachRequestAnsweredOnce(asked, answered, waiting, where);
    },
  });
  actor.stop();
}

describe("control machine, model-based", () => {
  const shortest = model.getShortestPaths();
  const serializeState = (s: ControlSnapshot) => JSON.stringify({ value: s.value, context: s.context });
  // Simple paths are left out: with the controller told in every event, the parallel edges
  // make them too many to enumerate; every transition is taken below instead.
  const transitions = transitionPaths(controlMachine, { events: EVENTS, serializeState, filterEvents: canArrive });

  it("generates a path to each combination of mode and candidate", () => {
    // notControlled; awaiting A; awaiting B; controlled (the controller is the root's to keep).
    const distinct = new Set(statesAlong(shortest).map((s) => JSON.stringify([s.value, s.context])));
    expect(distinct.size).toBe(4);
  });

  it("follows every shortest path on a real actor, with the same state and context at each step", async () => {
    for (const path of shortest) await replayOnActor(path);
  });

  it("follows every transition of the graph on a real actor, each after the shortest path to its source", async () => {
    const paths = transitions;
    // Per state, the events that can arrive: 1 + 6 in notControlled (nobody in control);
    // 1 + 2 × 4 in each awaitingConsent (nobody, or the plugin that is not the candidate, with
    // accept, decline and the two drops); 1 + 2 × 6 - 2 in controlled (A or B in control, less
    // each asking again).
    expect(paths.length).toBe(7 + 2 * 9 + 11);
    for (const path of paths) await replayOnActor(path);
  });

  it("keeps the candidate set exactly while awaiting consent on every transition path", () => {
    for (const path of transitions) {
      for (const step of path.steps) {
        expect(step.state.context.candidate !== null).toBe(step.state.matches("awaitingConsent"));
      }
    }
  });

  it("reaches every state node on some shortest path", () => {
    expect(unreachedStateNodes(controlMachine, statesAlong(shortest))).toEqual([]);
  });

  it("reports a state as unreached when no event can get there", () => {
    const withoutAccept = getShortestPaths(controlMachine, {
      // Nobody in control to begin with, and nobody granted it: nothing can lead to controlled.
      events: EVENTS.filter((event) => event.type !== "user.accept" && (!("controller" in event) || event.controller === null)),
      filterEvents: canArrive,
    } as never);
    expect(unreachedStateNodes(controlMachine, statesAlong(withoutAccept))).toEqual(["control.controlled"]);
  });
});

describe("control machine, transitions", () => {
  it("opens the consent dialog for the first plugin asking, with no controller yet", () => {
    const { actor, send, controller, emitted } = startControl();
    send(askA);
    expect(actor.getSnapshot().value).toBe("awaitingConsent");
    expect(actor.getSnapshot().context).toEqual({ candidate: { requestId: 1, sender: A, registration: registrationA } });
    expect(controller()).toBeNull();
    expect(emitted).toEqual([{ type: "dialog.opened", owner: "control" }]);
  });

  it("grants control to the candidate on accept, announcing it and answering true", () => {
    const { actor, send, controller, emitted } = startControl();
    send(askA);
    send(accept);
    expect(actor.getSnapshot().value).toBe("controlled");
    expect(actor.getSnapshot().context).toEqual({ candidate: null });
    expect(controller()).toBe(A);
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
    const { actor, send, controller, emitted } = startControl();
    send(askA);
    send(decline);
    expect(actor.getSnapshot().value).toBe("notControlled");
    expect(actor.getSnapshot().context).toEqual({ candidate: null });
    expect(controller()).toBe(null);
    expect(emitted).toEqual([
      { type: "dialog.opened", owner: "control" },
      { type: "dialog.closed", owner: "control" },
      { type: "request.answered", requestId: 1, reply: { ok: true, value: false } },
    ]);
  });

  it("keeps the old controller in place while a second candidate waits for consent", () => {
    const { actor, send, controller, emitted } = startControl();
    send(askA);
    send(accept);
    emitted.length = 0;
    send(askB);
    expect(actor.getSnapshot().value).toBe("awaitingConsent");
    expect(controller()).toBe(A);
    expect(actor.getSnapshot().context.candidate?.sender).toBe(B);
    expect(emitted).toEqual([{ type: "dialog.opened", owner: "control" }]);
  });

  it("keeps the old controller when the user declines the handover", () => {
    const { actor, send, controller, emitted, answerTo } = startControl();
    send(askA);
    send(accept);
    emitted.length = 0;
    send(askB);
    send(decline);
    expect(actor.getSnapshot().value).toBe("controlled");
    expect(actor.getSnapshot().context).toEqual({ candidate: null });
    expect(controller()).toBe(A);
    expect(answerTo(2)).toEqual([{ ok: true, value: false }]);
    expect(emitted.some((e) => e.type === "control.granted")).toBe(false);
  });

  it("hands control over to the new plugin when the user accepts the handover", () => {
    const { actor, send, controller, emitted, answerTo } = startControl();
    send(askA);
    send(accept);
    emitted.length = 0;
    send(askB);
    send(accept);
    expect(actor.getSnapshot().value).toBe("controlled");
    expect(actor.getSnapshot().context).toEqual({ candidate: null });
    expect(controller()).toBe(B);
    expect(answerTo(2)).toEqual([{ ok: true, value: true }]);
    expect(emitted.filter((e) => e.type === "control.granted")).toEqual([
      { type: "control.granted", controller: B, registration: registrationB },
    ]);
  });

  it("answers the waiting candidate IdeNotActive and ends control when the window closes", () => {
    const { actor, send, controller, answerTo } = startControl();
    send(askA);
    send(accept);
    send(askB);
    send(windowClosed);
    expect(actor.getSnapshot().value).toBe("notControlled");
    expect(actor.getSnapshot().context).toEqual({ candidate: null });
    expect(controller()).toBe(null);
    expect(answerTo(2)).toEqual([{ ok: false, errorCode: "IdeNotActive", error: expect.any(String) }]);
  });

  it("answers the first candidate IdeNotActive when the window closes before the user answers", () => {
    const { actor, send, controller, answerTo } = startControl();
    send(askA);
    send(windowClosed);
    expect(actor.getSnapshot().value).toBe("notControlled");
    expect(answerTo(1)).toEqual([{ ok: false, errorCode: "IdeNotActive", error: expect.any(String) }]);
  });

  it("ends control without answering anything when the window closes with no dialog open, telling the root", () => {
    const { actor, send, controller, emitted } = startControl();
    send(askA);
    send(accept);
    emitted.length = 0;
    send(windowClosed);
    expect(actor.getSnapshot().value).toBe("notControlled");
    expect(controller()).toBeNull();
    expect(emitted).toEqual([{ type: "control.changed", controller: null }]);
  });

  it("leaves the controller asking again to the root, which answers true with no dialog", () => {
    const { actor, send, controller, emitted } = startControl();
    send(askA);
    send(accept);
    emitted.length = 0;
    send({ ...askA, requestId: 7 });
    expect(actor.getSnapshot().value).toBe("controlled");
    expect(actor.getSnapshot().context).toEqual({ candidate: null });
    expect(controller()).toBe(A);
    expect(emitted).toEqual([{ type: "request.answered", requestId: 7, reply: { ok: true, value: true } }]);
  });

  it("changes nothing when the user answers with no dialog open", () => {
    const { actor, send, controller, emitted } = startControl();
    send(accept);
    send(decline);
    expect(actor.getSnapshot().value).toBe("notControlled");
    send(askA);
    send(accept);
    emitted.length = 0;
    send(accept);
    send(decline);
    expect(actor.getSnapshot().value).toBe("controlled");
    expect(actor.getSnapshot().context).toEqual({ candidate: null });
    expect(controller()).toBe(A);
    expect(emitted).toEqual([]);
  });

  it("answers every request exactly once through grants, a decline, a repeat and a closed window", () => {
    const { send, answers } = startControl();
    const ask = (requestId: number, sender: string) =>
      send({ type: "request.control", requestId, sender, registration: registration(sender) });
    ask(10, A);
    send(accept);
    ask(11, B);
    send(decline);
    ask(12, A);
    ask(13, B);
    send(accept);
    ask(14, A);
    send(windowClosed);
    ask(15, B);
    send(decline);
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
