import { describe, expect, it } from "vitest";
import { createActor } from "xstate";
import type { SnapshotFrom } from "xstate";
import { createTestModel, getSimplePaths } from "xstate/graph";
import { playbackMachine } from "../../machines/playback.machine.ts";
import type { PlaybackEmitted, PlaybackEvent, PlaybackFact } from "../../machines/playback.types.ts";
import type { RequestAnsweredEvent } from "../../machines/shared.types.ts";
import { commandRows } from "../../services/playback/commandTable.ts";
import type { CommandState } from "../../services/playback/commandTable.ts";
import {
  expectEachRequestAnsweredOnce,
  replayPath,
  shop,
  statesAlong,
  transitionPaths,
  unreachedStateNodes,
} from "./support.ts";
import type { ModelPath } from "./support.ts";

type PlaybackSnapshot = SnapshotFrom<typeof playbackMachine>;

const project = shop();
const [login, cart] = project.tests;

const start = (test: typeof login): PlaybackEvent => ({ type: "playback.start", test, projectName: project.name });
const commandState = (requestId: number, commandId: string, state: CommandState, message: string | null): PlaybackEvent => ({
  type: "request.commandState",
  requestId,
  sender: "plugin-runner",
  commandId,
  state,
  message,
});

const startLogin = start(login);
const startCart = start(cart);
const stop: PlaybackEvent = { type: "user.stopPlayback" };
const windowClosed: PlaybackEvent = { type: "window.closed" };
const openPassed = commandState(10, "c-open", "passed", null);
const userFailed = commandState(11, "c-user", "failed", "no element matches id=user");
const userPassed = commandState(12, "c-user", "passed", null);
const passFatal = commandState(13, "c-pass", "fatal", "the browser went away");
const addPassed = commandState(14, "c2-add", "passed", null); // in t-cart only
const unknown = commandState(15, "c-nowhere", "passed", null);

const EVENTS: PlaybackEvent[] = [
  startLogin,
  startCart,
  stop,
  windowClosed,
  openPassed,
  userFailed,
  userPassed,
  passFatal,
  addPassed,
  unknown,
];

/** The run without its id→position map (a Map serialises as `{}`): the rows say it all. */
const runOf = (snapshot: PlaybackSnapshot) => {
  const run = snapshot.context.run;
  return run && { testId: run.testId, testName: run.testName, projectName: run.projectName, rows: commandRows(run.commands) };
};

const serializeState = (snapshot: PlaybackSnapshot) => JSON.stringify({ value: snapshot.value, run: runOf(snapshot) });

const model = createTestModel(playbackMachine, { events: EVENTS, serializeState });

function startPlayback() {
  const actor = createActor(playbackMachine);
  const emitted: PlaybackEmitted[] = [];
  actor.on("*", (event) => emitted.push(event));
  actor.start();
  const answers = () => emitted.filter((e): e is RequestAnsweredEvent => e.type === "request.answered");
  const facts = () => emitted.filter((e): e is PlaybackFact => e.type === "playback.started" || e.type === "playback.stopped");
  const rows = () => commandRows(actor.getSnapshot().context.run!.commands);
  const row = (id: string) => rows().find((r) => r.id === id)!;
  return { actor, emitted, answers, facts, rows, row };
}

async function replayOnActor(path: ModelPath<PlaybackSnapshot, PlaybackEvent>) {
  const { actor, answers, facts } = startPlayback();
  const asked: number[] = [];
  await replayPath(path, {
    send(event) {
      if (event.type === "request.commandState") asked.push(event.requestId);
      actor.send(event);
    },
    check(expected, where) {
      const actual = actor.getSnapshot();
      expect(actual.status, `status ${where}`).toBe(expected.status);
      expect(actual.value, `state value ${where}`).toEqual(expected.value);
      expect(runOf(actual), `run ${where}`).toEqual(runOf(expected));
      // Command states are answered at once: nothing ever waits.
      expectEachRequestAnsweredOnce(asked, answers().map((a) => a.requestId), [], where);
      // Every start announced and every end announced, once: one more start than stops while running.
      const started = facts().filter((f) => f.type === "playback.started").length;
      const stopped = facts().filter((f) => f.type === "playback.stopped").length;
      expect(started - stopped, `starts minus stops ${where}`).toBe(actual.matches("running") ? 1 : 0);
    },
  });
  actor.stop();
}

describe("playback machine, model-based", () => {
  const shortest = model.getShortestPaths();
  // Simple paths over every event are too many to walk; two starts, a stop, two states and
  // an unknown command keep them bounded and still take every kind of transition.
  const simple = getSimplePaths(playbackMachine, {
    events: [startLogin, startCart, stop, openPassed, passFatal, unknown],
    serializeState,
  });

  it("generates a path to each reachable combination of state, test case and command states", () => {
    // idle; t-login with c-open × c-user (2 × 3) running, stopped, or ended by c-pass fatal;
    // t-cart with c2-add (2) running or stopped.
    const distinct = new Set(statesAlong(shortest).map(serializeState));
    expect(distinct.size).toBe(1 + 6 * 3 + 2 * 2);
  });

  it("follows every shortest path on a real actor, with the same state and run at each step", async () => {
    expect(shortest.length).toBeGreaterThan(0);
    for (const path of shortest) await replayOnActor(path);
  });

  it("follows every transition of the graph on a real actor, each after the shortest path to its source", async () => {
    const paths = transitionPaths(playbackMachine, { events: EVENTS, serializeState });
    expect(paths.length).toBe(23 * EVENTS.length);
    for (const path of paths) await replayOnActor(path);
  });

  it("follows every bounded simple path on a real actor, with the same state and run at each step", async () => {
    expect(simple.length).toBeGreaterThan(0);
    for (const path of simple) await replayOnActor(path);
  });

  it("changes command states only while running, on every shortest path", () => {
    for (const path of shortest) {
      path.steps.forEach((step, i) => {
        if (i === 0 || step.state.matches("running")) return;
        const before = path.steps[i - 1].state;
        if (!before.matches("running")) {
          expect(runOf(step.state), path.description).toEqual(runOf(before));
        }
      });
    }
  });

  it("reaches every state node on some shortest path", () => {
    expect(unreachedStateNodes(playbackMachine, statesAlong(shortest))).toEqual([]);
  });
});

describe("playback machine, transitions", () => {
  it("starts a test case with every command's state and message null, and announces it", () => {
    const { actor, rows, facts } = startPlayback();
    actor.send(startLogin);
    expect(actor.getSnapshot().value).toBe("running");
    expect(rows().map((r) => r.id)).toEqual(login.commands.map((c) => c.id));
    expect(rows().every((r) => r.state === null && r.message === null)).toBe(true);
    expect(facts()).toEqual([{ type: "playback.started", testId: "t-login", testName: "logs in", projectName: "Shop checkout" }]);
  });

  it("answers true and sets the state and message of a command of the running test case", () => {
    const { actor, row, answers } = startPlayback();
    actor.send(startLogin);
    actor.send(userFailed);
    expect(row("c-user")).toMatchObject({ state: "failed", message: "no element matches id=user" });
    expect(row("c-open")).toMatchObject({ state: null, message: null });
    expect(answers()).toEqual([{ type: "request.answered", requestId: 11, reply: { ok: true, value: true } }]);
  });

  it("replaces a command's old state and its message with the new state", () => {
    const { actor, row } = startPlayback();
    actor.send(startLogin);
    actor.send(userFailed);
    actor.send(userPassed);
    expect(row("c-user")).toMatchObject({ state: "passed", message: null });
  });

  it("ends the test case on a fatal state, answering true and announcing the stop", () => {
    const { actor, row, answers, facts } = startPlayback();
    actor.send(startLogin);
    actor.send(passFatal);
    expect(actor.getSnapshot().value).toBe("ended");
    expect(row("c-pass")).toMatchObject({ state: "fatal", message: "the browser went away" });
    expect(answers().map((a) => a.reply)).toEqual([{ ok: true, value: true }]);
    expect(facts().map((f) => f.type)).toEqual(["playback.started", "playback.stopped"]);
  });

  it("answers UnknownCommand for a command that is not in the running test case, changing nothing", () => {
    const { actor, rows, answers } = startPlayback();
    actor.send(startLogin);
    const before = rows();
    actor.send(addPassed);
    actor.send(unknown);
    expect(actor.getSnapshot().value).toBe("running");
    expect(rows()).toEqual(before);
    expect(answers().map((a) => [a.requestId, a.reply.ok ? a.reply.value : a.reply.errorCode])).toEqual([
      [14, "UnknownCommand"],
      [15, "UnknownCommand"],
    ]);
  });

  it("answers NoRunningTest before any test case has run", () => {
    const { actor, answers } = startPlayback();
    actor.send(openPassed);
    expect(actor.getSnapshot().value).toBe("idle");
    expect(actor.getSnapshot().context.run).toBeNull();
    expect(answers().map((a) => a.reply)).toEqual([{ ok: false, errorCode: "NoRunningTest", error: expect.any(String) }]);
  });

  it("answers NoRunningTest after the test case ended, keeping its commands' last states", () => {
    const { actor, row, answers } = startPlayback();
    actor.send(startLogin);
    actor.send(openPassed);
    actor.send(stop);
    actor.send(userPassed);
    expect(actor.getSnapshot().value).toBe("ended");
    expect(row("c-open")).toMatchObject({ state: "passed" });
    expect(row("c-user")).toMatchObject({ state: null });
    expect(answers().map((a) => [a.requestId, a.reply.ok ? a.reply.value : a.reply.errorCode])).toEqual([
      [10, true],
      [12, "NoRunningTest"],
    ]);
  });

  it("ends the test case when the user stops it, announcing the stop once", () => {
    const { actor, facts } = startPlayback();
    actor.send(startLogin);
    actor.send(stop);
    actor.send(stop);
    expect(actor.getSnapshot().value).toBe("ended");
    expect(facts().map((f) => f.type)).toEqual(["playback.started", "playback.stopped"]);
  });

  it("announces the old test case stopped and then the new one started when restarted while running", () => {
    const { actor, rows, facts } = startPlayback();
    actor.send(startLogin);
    actor.send(openPassed);
    actor.send(startCart);
    expect(actor.getSnapshot().value).toBe("running");
    expect(actor.getSnapshot().context.run?.testId).toBe("t-cart");
    expect(rows().every((r) => r.state === null)).toBe(true);
    expect(facts().map((f) => [f.type, f.testId])).toEqual([
      ["playback.started", "t-login"],
      ["playback.stopped", "t-login"],
      ["playback.started", "t-cart"],
    ]);
  });

  it("starts the next test case afresh after one ended", () => {
    const { actor, rows } = startPlayback();
    actor.send(startLogin);
    actor.send(openPassed);
    actor.send(stop);
    actor.send(startLogin);
    expect(actor.getSnapshot().value).toBe("running");
    expect(rows().every((r) => r.state === null)).toBe(true);
  });

  it("ends the running test case when the window closes", () => {
    const { actor, facts } = startPlayback();
    actor.send(startLogin);
    actor.send(windowClosed);
    expect(actor.getSnapshot().value).toBe("ended");
    expect(facts().map((f) => f.type)).toEqual(["playback.started", "playback.stopped"]);
  });

  it("announces nothing when stopped or closed with no test case running", () => {
    const { actor, emitted } = startPlayback();
    actor.send(stop);
    actor.send(windowClosed);
    expect(actor.getSnapshot().value).toBe("idle");
    expect(emitted).toEqual([]);
  });
});
