// The editor (machines/editor.machine.ts): the project as edited, the displayed test, the
// selection and the run's lock (editable ⇄ runPlaying). The graph is walked over edits, selections, the run's facts and the project file's new projects,
// and each path is replayed on a real actor.
import { describe, expect, it } from "vitest";
import { createActor } from "xstate";
import type { SnapshotFrom } from "xstate";
import { getShortestPaths } from "xstate/graph";
import { editorMachine } from "../../machines/editor.machine.ts";
import { recordingFor, runStartFor } from "../../machines/editor.targets.ts";
import type { EditorEmitted, EditorEvent } from "../../machines/editor.types.ts";
import type { LogWrittenEvent, RequestAnsweredEvent } from "../../machines/shared.types.ts";
import { expectEachRequestAnsweredOnce, other, replayPath, shop, statesAlong } from "./support.ts";
import type { ModelPath } from "./support.ts";

type EditorSnapshot = SnapshotFrom<typeof editorMachine>;

const shopFixture = shop();
const otherFixture = other();
const A = "plugin-a";

// Edits of the shop's first test ("logs in"): the user's and a plugin's, both setting the same
// value of one command, so the graph stays finite; the run's facts about that test; a selection;
// and the project file's facts (another project loaded, the saved copy back).
const userEdits: EditorEvent = { type: "user.changeCommand", commandId: "c-open", value: "edited" };
const pluginEdits: EditorEvent = { type: "request.changeCommand", requestId: 7, sender: A, id: "c-open", value: "edited" };
const runPlaysIt: EditorEvent = { type: "run.playing", testIds: ["t-login"] };
const runOver: EditorEvent = { type: "run.over" };
const showCart: EditorEvent = { type: "user.selectTest", testId: "t-cart" };
const loaded: EditorEvent = { type: "project.loaded", project: otherFixture };
const reverted: EditorEvent = { type: "project.reverted", project: shopFixture };
const isEdit = (event: { type: string }) => event.type === "user.changeCommand" || event.type === "request.changeCommand";

const EVENTS: EditorEvent[] = [userEdits, pluginEdits, runPlaysIt, runOver, showCart, loaded, reverted];

const edited = (project: { tests: Array<{ commands: Array<{ value: string }> }> }) => project.tests[0]?.commands[0]?.value ?? null;

function serializeState(snapshot: EditorSnapshot): string {
  const { context } = snapshot;
  return JSON.stringify({
    value: snapshot.value,
    project: context.project.id,
    edited: edited(context.project),
    displayed: [context.displayedTestId, context.selectedCommandId],
    playing: context.playing,
  });
}

/** A run starts only when none is under way, and only a run under way ends. */
function canArrive(snapshot: EditorSnapshot, event: EditorEvent): boolean {
  if (event.type === "run.playing") return snapshot.context.playing.length === 0;
  if (event.type === "run.over") return snapshot.context.playing.length > 0;
  return true;
}

const traversal = { input: { project: shopFixture }, events: EVENTS, serializeState, filterEvents: canArrive };

function startEditor(project = shopFixture) {
  const actor = createActor(editorMachine, { input: { project } });
  const emitted: EditorEmitted[] = [];
  actor.on("*", (event) => emitted.push(event));
  actor.start();
  const answerTo = (requestId: number) =>
    emitted.filter((e): e is RequestAnsweredEvent => e.type === "request.answered" && e.requestId === requestId).map((e) => e.reply);
  const logs = () => emitted.filter((e): e is LogWrittenEvent => e.type === "log.written");
  const edits = () => emitted.filter((e) => e.type === "project.edited");
  return { actor, emitted, answerTo, logs, edits };
}

async function replayOnActor(path: ModelPath<EditorSnapshot, EditorEvent>) {
  const { actor, emitted } = startEditor();
  const asked: number[] = [];
  let previous = actor.getSnapshot();
  let last: EditorEvent | { type: "xstate.init" } = { type: "xstate.init" };
  let before = 0;
  await replayPath(path, {
    send(event) {
      previous = actor.getSnapshot();
      last = event;
      if (event.type === "request.changeCommand") asked.push(event.requestId);
      before = emitted.length;
      actor.send(event);
    },
    check(expected, where) {
      const actual = actor.getSnapshot();
      expect(serializeState(actual), `context ${where}`).toBe(serializeState(expected));
      expect(actual.matches("runPlaying"), `locked while a run plays, ${where}`).toBe(actual.context.playing.length > 0);
      expect(actual.context.project, `project ${where}`).toEqual(expected.context.project);
      const answered = emitted.flatMap((e) => (e.type === "request.answered" ? [e.requestId] : []));
      expectEachRequestAnsweredOnce(asked, answered, [], where);
      // The displayed test is a test of the project, and the selection a command of it.
      const shown = actual.context.project.tests.find((t) => t.id === actual.context.displayedTestId);
      expect(shown, `displayed test ${where}`).toBeDefined();
      if (actual.context.selectedCommandId !== null) expect(shown!.commands.map((c) => c.id)).toContain(actual.context.selectedCommandId);
      // An edit during a run of its test changes nothing; any change is told to the project file, once.
      if (isEdit(last)) {
        const playing = previous.context.playing.includes(previous.context.displayedTestId ?? "");
        if (playing) expect(actual.context.project, `an edit during a run, ${where}`).toBe(previous.context.project);
      }
      const told = emitted.slice(before).filter((e) => e.type === "project.edited");
      const changed = isEdit(last) && actual.context.project !== previous.context.project;
      expect(told, `changes told ${where}`).toEqual(changed ? [{ type: "project.edited", project: actual.context.project }] : []);
    },
  });
  actor.stop();
}

describe("editor machine, model-based", () => {
  const shortest = getShortestPaths(editorMachine, traversal);

  it("has a graph that reaches both projects, edited and not, with and without a run playing", () => {
    const states = statesAlong(shortest).map((s) => JSON.parse(serializeState(s)) as { project: string; edited: string; playing: string[] });
    expect(new Set(states.map((s) => s.project))).toEqual(new Set([shopFixture.id, otherFixture.id]));
    expect(states.some((s) => s.edited === "edited")).toBe(true);
    expect(states.some((s) => s.playing.length > 0)).toBe(true);
    expect(shortest.length).toBeGreaterThan(8);
  });

  it("follows every shortest path on a real actor, with the same project and display at each step", async () => {
    for (const path of shortest) await replayOnActor(path);
  });
});

describe("editor machine, changes", () => {
  it("tells the project file every change with the project it made, and nothing for a selection or a replaced project", () => {
    const { actor, edits } = startEditor();
    actor.send(showCart);
    actor.send({ type: "user.selectCommand", commandId: "c2-add" });
    actor.send(loaded);
    actor.send(reverted);
    expect(edits()).toEqual([]);
    actor.send(userEdits);
    expect(edits()).toEqual([{ type: "project.edited", project: actor.getSnapshot().context.project }]);
    expect(edited(actor.getSnapshot().context.project)).toBe("edited");
  });

  it("shows the first test with no selection at start and after a load", () => {
    const { actor } = startEditor();
    expect(actor.getSnapshot().context).toMatchObject({ displayedTestId: "t-login", selectedCommandId: null });
    actor.send(showCart);
    actor.send({ type: "user.selectCommand", commandId: "c2-add" });
    expect(actor.getSnapshot().context).toMatchObject({ displayedTestId: "t-cart", selectedCommandId: "c2-add" });
    actor.send(loaded);
    expect(actor.getSnapshot().context).toMatchObject({ displayedTestId: otherFixture.tests[0].id, selectedCommandId: null });
  });

  it("refuses a plugin's edit of the test a run plays with Busy, changing nothing, and takes it once the run is over", () => {
    const { actor, answerTo, edits } = startEditor();
    actor.send(runPlaysIt);
    actor.send(pluginEdits);
    expect(answerTo(7)).toEqual([{ ok: false, errorCode: "Busy", error: expect.stringContaining("logs in") }]);
    expect(actor.getSnapshot().context.project).toBe(shopFixture);
    expect(edits()).toEqual([]);
    actor.send(runOver);
    actor.send({ ...pluginEdits, requestId: 8 });
    expect(answerTo(8)).toEqual([{ ok: true, value: true }]);
    expect(edited(actor.getSnapshot().context.project)).toBe("edited");
    expect(edits()).toHaveLength(1);
  });

  it("turns the user's edit of the test a run plays into a warning, changing nothing; other tests stay editable", () => {
    const { actor, logs, edits } = startEditor();
    actor.send({ type: "run.playing", testIds: ["t-login", "t-cart"] });
    actor.send(userEdits);
    actor.send({ type: "user.renameTest", testId: "t-cart", name: "renamed" });
    expect(logs().map((l) => [l.level, l.message])).toEqual([
      ["warn", expect.stringContaining('"logs in" is being played')],
      ["warn", expect.stringContaining('"adds to cart" is being played')],
    ]);
    expect(actor.getSnapshot().context.project).toBe(shopFixture);
    expect(edits()).toEqual([]);
    // Adding a test is not an edit of a test being played.
    actor.send({ type: "user.addTest", name: "  new one  " });
    const { project, displayedTestId } = actor.getSnapshot().context;
    expect(project.tests.map((t) => t.name)).toEqual(["logs in", "adds to cart", "new one"]);
    expect(displayedTestId).toBe(project.tests[2].id);
    expect(edits()).toHaveLength(1);
  });

  it("goes back to the saved copy, showing its first test when the displayed one is gone", () => {
    const { actor } = startEditor();
    actor.send({ type: "user.addTest", name: "added" });
    actor.send({ type: "user.addCommand", command: "echo", target: "hi" });
    expect(actor.getSnapshot().context.selectedCommandId).not.toBeNull();
    actor.send(reverted);
    expect(actor.getSnapshot().context).toMatchObject({ project: shopFixture, displayedTestId: "t-login", selectedCommandId: null });
  });

  it("keeps the displayed test and its selection when the saved copy comes back and has them", () => {
    const { actor } = startEditor();
    actor.send(showCart);
    actor.send({ type: "user.selectCommand", commandId: "c2-add" });
    actor.send({ type: "user.changeCommand", commandId: "c2-add", target: "css=.buy" });
    actor.send(reverted);
    expect(actor.getSnapshot().context).toMatchObject({ project: shopFixture, displayedTestId: "t-cart", selectedCommandId: "c2-add" });
  });

  it("answers a plugin's edit with no displayed test NoTestSelected, with the anchor's fields", () => {
    const empty = { ...shopFixture, tests: [] };
    const { actor, answerTo, edits } = startEditor(empty);
    actor.send({ type: "request.addCommand", requestId: 1, sender: A, command: "echo" });
    expect(answerTo(1)).toEqual([{ ok: false, errorCode: "NoTestSelected", error: expect.any(String), anchorFields: true }]);
    expect(actor.getSnapshot().context).toMatchObject({ displayedTestId: null, selectedCommandId: null, project: empty });
    expect(edits()).toEqual([]);
  });
});

describe("what Play and Record mean", () => {
  it("plays the displayed test when the user starts without naming one, and the named one otherwise", () => {
    const document = { project: shopFixture, displayedTestId: "t-cart" };
    const played = [runStartFor(document, { type: "user.startPlayback" }), runStartFor(document, { type: "user.startPlayback", testId: "t-login" })];
    expect(played.map((r) => (r.ok ? r.value.testIds : r.problem))).toEqual([["t-cart"], ["t-login"]]);
  });

  it("says why nothing plays for a test the project lacks, and carries a plugin's request id to the run", () => {
    const document = { project: shopFixture, displayedTestId: "t-login" };
    expect(runStartFor(document, { type: "user.startPlayback", testId: "nope" })).toEqual({ ok: false, problem: expect.stringContaining('"nope"') });
    const started = runStartFor(document, { type: "request.startRun", requestId: 5, sender: A, selector: { testName: "adds to cart" } });
    expect(started).toMatchObject({ ok: true, value: { type: "run.start", testIds: ["t-cart"], requestId: 5, suite: null } });
  });

  it("records into the displayed test, and into nothing when the project has no test", () => {
    expect(recordingFor({ project: shopFixture, displayedTestId: "t-cart" })).toMatchObject({ ok: true, value: { testId: "t-cart", testName: "adds to cart" } });
    expect(recordingFor({ project: { ...shopFixture, tests: [] }, displayedTestId: null })).toEqual({ ok: false, problem: expect.stringContaining("add a test first") });
  });
});
