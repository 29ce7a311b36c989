// The recording machine (machines/recording.machine.ts), model-based: xstate/graph's paths over
// what the root and the recorder send it, replayed on a real actor, every state visited; then
// hand-written transitions, which generated paths cannot check for the wrong target.
import { describe, expect, it } from "vitest";
import { createActor, fromPromise } from "xstate";
import type { SnapshotFrom } from "xstate";
import { getShortestPaths } from "xstate/graph";
import { recordingMachine } from "../../machines/recording.machine.ts";
import type { AskPluginsInput, PluginAnswers, RecorderCommandEvent, RecordingEmitted, RecordingEvent } from "../../machines/recording.types.ts";
import { replayPath, settle, statesAlong, transitionPaths, unreachedStateNodes } from "./support.ts";
import type { ModelPath } from "./support.ts";

type RecordingSnapshot = SnapshotFrom<typeof recordingMachine>;

const requestedEmpty: RecordingEvent = { type: "recording.requested", testId: "t1", testName: "Login", empty: true, projectUrl: "" };
const requestedFull: RecordingEvent = { type: "recording.requested", testId: "t1", testName: "Login", empty: false, projectUrl: "http://shop.test" };
const stopByUser: RecordingEvent = { type: "user.stopRecording" };
const stopByRoot: RecordingEvent = { type: "recording.stop", reason: "a run started" };
const tabClosed: RecordingEvent = { type: "recorder.tabClosed" };
const page: RecordingEvent = { type: "recorder.pageSeen", url: "http://shop.test/login?next=cart", width: 1200, height: 800, tabId: 7, plugins: [] };
const click = (frame: number[]): RecorderCommandEvent => ({
  type: "recorder.commandRecorded",
  command: "click",
  target: "id=go",
  targets: [["id=go", "id"]],
  value: "",
  frame,
  tabId: 7,
  plugins: [],
});
const runPlaying: RecordingEvent = { type: "run.playing" };
const runOver: RecordingEvent = { type: "run.over" };

const EVENTS: RecordingEvent[] = [requestedEmpty, requestedFull, stopByUser, stopByRoot, tabClosed, page, click([]), click([0]), runPlaying, runOver];

/** What tells states apart: counters, times and ids are not state. */
const serializeState = (s: RecordingSnapshot) =>
  JSON.stringify([s.value, s.context.needsOpen, s.context.runPlaying, s.context.frame, s.context.testId, s.context.projectUrl]);

const traversal = { events: EVENTS, serializeState };

function start(answers: (input: AskPluginsInput) => Promise<PluginAnswers["answers"]> = async () => []) {
  const actor = createActor(
    recordingMachine.provide({
      actors: {
        askPlugins: fromPromise<PluginAnswers, AskPluginsInput>(async ({ input }) => ({
          testId: input.testId,
          commandId: input.commandId,
          answers: await answers(input),
        })),
      },
    }),
  );
  const emitted: RecordingEmitted[] = [];
  actor.on("*", (event) => emitted.push(event as RecordingEmitted));
  actor.start();
  const facts = <T extends RecordingEmitted["type"]>(type: T) => emitted.filter((e): e is Extract<RecordingEmitted, { type: T }> => e.type === type);
  return { actor, emitted, facts };
}

function expectSameState(actual: RecordingSnapshot, expected: RecordingSnapshot, where: string) {
  expect(actual.value, `state ${where}`).toEqual(expected.value);
  // The windows and the last command (its id made afresh by each actor) are checked in recording.windows.test.ts.
  const { startedAt: _a, recorded: _r, asked: _k, last: _m, windows: _w, ...rest } = actual.context;
  const { startedAt: _b, recorded: _s, asked: _l, last: _n, windows: _v, ...expectedRest } = expected.context;
  expect(rest, `context ${where}`).toEqual(expectedRest);
}

async function replayOnActor(path: ModelPath<RecordingSnapshot, RecordingEvent>) {
  const { actor, facts } = start();
  await replayPath(path, {
    send(event) {
      // Invariant: a recording never starts while a run plays (the root stops one before a run starts).
      const before = actor.getSnapshot();
      actor.send(event);
      if (before.context.runPlaying && before.matches("idle")) expect(actor.getSnapshot().value).toBe("idle");
    },
    check(expected, where) {
      expectSameState(actor.getSnapshot(), expected, where);
      // Invariant: started and stopped alternate, and a recording is under way exactly between them.
      const edges = facts("recording.started").length - facts("recording.stopped").length;
      expect(edges, `started - stopped ${where}`).toBe(actor.getSnapshot().matches("recording") ? 1 : 0);
    },
  });
  actor.stop();
}

describe("the recording machine, model-based", () => {
  const shortest = getShortestPaths(recordingMachine, traversal as never) as unknown as Array<ModelPath<RecordingSnapshot, RecordingEvent>>;
  const everyTransition = transitionPaths<RecordingSnapshot, RecordingEvent, undefined>(recordingMachine, traversal as never);

  it("reaches every state", () => {
    expect(unreachedStateNodes(recordingMachine, statesAlong(shortest))).toEqual([]);
  });

  it("replays every shortest path on a real actor, state by state", async () => {
    for (const path of shortest) await replayOnActor(path);
  });

  it("replays every transition on a real actor, state by state", async () => {
    expect(everyTransition.length).toBeGreaterThan(EVENTS.length);
    for (const path of everyTransition) await replayOnActor(path);
  });
});

describe("the recording machine, transition by transition", () => {
  it("starts recording into the test the project resolved, and says so", () => {
    const { actor, facts } = start();
    actor.send(requestedFull);
    expect(actor.getSnapshot().value).toBe("recording");
    expect(facts("recording.started")).toEqual([expect.objectContaining({ testId: "t1", testName: "Login" })]);
  });

  it("refuses to start while a run plays, changing nothing, and starts once it is over", () => {
    const { actor, emitted } = start();
    actor.send(runPlaying);
    const before = actor.getSnapshot();
    actor.send(requestedFull);
    expect(actor.getSnapshot()).toBe(before);
    expect(emitted).toEqual([]);
    actor.send(runOver);
    actor.send(requestedFull);
    expect(actor.getSnapshot().value).toBe("recording");
  });

  it("stops on the user's Stop, the root's stop and the tab closing, saying so for the last two", () => {
    for (const stop of [stopByUser, stopByRoot, tabClosed]) {
      const { actor, facts } = start();
      actor.send(requestedFull);
      actor.send(click([]));
      actor.send(stop);
      expect(actor.getSnapshot().value).toBe("idle");
      expect(facts("recording.stopped")).toHaveLength(1);
      const logs = facts("log.written");
      if (stop === stopByUser) expect(logs).toEqual([]);
      else expect(logs[0].message).toMatch(stop === tabClosed ? /tab under test was closed.*"Login" \(1 command\) is kept/ : /a run started/);
    }
  });

  it("records open (path and query) and setWindowSize first on an empty test, and gives the project its url", () => {
    const { actor, facts } = start();
    actor.send(requestedEmpty);
    actor.send(page);
    actor.send(page); // seen again (a reload): nothing more
    expect(facts("recording.urlFound")).toEqual([{ type: "recording.urlFound", url: "http://shop.test" }]);
    const [first] = facts("recording.commandsRecorded");
    expect(first.commands.map(({ command, target, value }) => [command, target, value])).toEqual([
      ["open", "/login?next=cart", ""],
      ["setWindowSize", "1200x800", ""],
    ]);
    expect(facts("recording.commandsRecorded")).toHaveLength(1);
  });

  it("records no open on a test that has commands", () => {
    const { actor, facts } = start();
    actor.send(requestedFull);
    actor.send(page);
    expect(facts("recording.commandsRecorded")).toEqual([]);
  });

  it("puts selectFrame before the first command done in another frame, and none while it stays there", () => {
    const { actor, facts } = start();
    actor.send(requestedFull);
    actor.send(click([1, 0]));
    actor.send(click([1, 0]));
    actor.send(click([1]));
    actor.send(click([]));
    const recorded = facts("recording.commandsRecorded").map((f) => f.commands.map((c) => `${c.command} ${c.target}`));
    expect(recorded).toEqual([
      ["selectFrame index=1", "selectFrame index=0", "click id=go"],
      ["click id=go"],
      ["selectFrame relative=parent", "click id=go"],
      ["selectFrame relative=top", "click id=go"],
    ]);
    expect(facts("recording.commandsRecorded")[0].commands[0].targets).toEqual([["index=1"]]);
  });

  it("ignores what the recorder reports while not recording", () => {
    const { actor, facts } = start();
    actor.send(click([]));
    actor.send(page);
    expect(facts("recording.commandsRecorded")).toEqual([]);
  });

  it("tells the plugins of each command and applies the first valid mutation, warning of the others", async () => {
    const { actor, facts } = start(async () => [
      { plugin: "p1", answer: { mutation: "update", command: 42 } },
      { plugin: "p2", answer: true },
      { plugin: "p3", answer: { mutation: "update", command: "clickAt", target: "id=x", value: "1,1" } },
      { plugin: "p4", answer: { mutation: "delete" } },
    ]);
    actor.send(requestedFull);
    actor.send({ ...click([]), plugins: ["p1", "p2", "p3", "p4"] });
    await settle();
    const [recorded] = facts("recording.commandsRecorded");
    expect(facts("recording.commandChanged")).toEqual([
      { type: "recording.commandChanged", testId: "t1", commandId: recorded.commands[0].id, command: "clickAt", target: "id=x", value: "1,1" },
    ]);
    expect(facts("recording.commandRemoved")).toEqual([]);
    const warnings = facts("log.written").map((l) => l.message);
    expect(warnings).toEqual([expect.stringMatching(/p1 .*wrong types/), expect.stringMatching(/from p3, was used/)]);
  });

  it("applies an answer that comes after the recording stopped: the recording never waits", async () => {
    let answer!: (answers: PluginAnswers["answers"]) => void;
    const { actor, facts } = start(() => new Promise((resolve) => (answer = resolve)));
    actor.send(requestedFull);
    actor.send({ ...click([]), plugins: ["p1"] });
    actor.send(stopByUser);
    answer([{ plugin: "p1", answer: { mutation: "delete" } }]);
    await settle();
    expect(facts("recording.commandRemoved")).toHaveLength(1);
  });
});
