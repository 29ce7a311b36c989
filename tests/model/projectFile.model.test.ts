import { describe, expect, it } from "vitest";
import { createActor, fromPromise } from "xstate";
import type { SnapshotFrom } from "xstate";
import { createTestModel, getShortestPaths, getSimplePaths } from "xstate/graph";
import { isUnsaved, projectFileMachine } from "../../machines/projectFile.machine.ts";
import type { ProjectFileEmitted as ProjectEmitted, ProjectFileEvent as ProjectEvent, SaveInput, SaveOutcome } from "../../machines/projectFile.types.ts";
import type { SideProject } from "../../services/side/index.ts";
import type { LogWrittenEvent, RequestAnsweredEvent } from "../../machines/shared.types.ts";
import {
  controlledSavePort,
  expectEachRequestAnsweredOnce,
  other,
  replayPath,
  settle,
  shop,
  statesAlong,
  transitionPaths,
  unreachedStateNodes,
} from "./support.ts";
import type { ModelPath } from "./support.ts";

type ProjectSnapshot = SnapshotFrom<typeof projectFileMachine>;
type ProjectLogic = typeof projectFileMachine;

const shopFixture = shop();
const otherFixture = other();
const A = "plugin-a";

// The root adds to each load and close whether another machine's dialog is open; here none is.
const loadOther = { type: "request.loadProject", requestId: 1, sender: A, project: otherFixture, otherDialogOpen: false } satisfies ProjectEvent;
const loadShop = { type: "request.loadProject", requestId: 2, sender: A, project: shopFixture, otherDialogOpen: false } satisfies ProjectEvent;
const close = { type: "request.close", requestId: 3, sender: A, otherDialogOpen: false } satisfies ProjectEvent;
const accept: ProjectEvent = { type: "user.accept" };
const decline: ProjectEvent = { type: "user.decline" };
const edit: ProjectEvent = { type: "user.editProject" };
const saveToComputer: ProjectEvent = { type: "project.saveRequested", controller: null };
const saveToController: ProjectEvent = { type: "project.saveRequested", controller: A };
const windowClosed: ProjectEvent = { type: "window.closed" };
const dropA: ProjectEvent = { type: "plugin.disconnected", sender: A };
const userLoadsOther = { type: "user.loadProject", project: otherFixture, otherDialogOpen: false } satisfies ProjectEvent;
// The editor's changes, as it tells them (project.edited): the shop and the other project with
// the first command's value set, so the graph stays finite (and small).
const withEdit = (project: SideProject): SideProject => ({
  ...project,
  tests: project.tests.map((t, i) => (i === 0 ? { ...t, commands: t.commands.map((c, j) => (j === 0 ? { ...c, value: "edited" } : c)) } : t)),
});
const shopEdited: ProjectEvent = { type: "project.edited", project: withEdit(shopFixture) };
const otherEdited: ProjectEvent = { type: "project.edited", project: withEdit(otherFixture) };
// A journal kept from before a crash: the shop with the first command edited.
const restoreOffered: ProjectEvent = { type: "journal.restoreOffered", project: withEdit(shopFixture) };
const isEdit = (event: { type: string }) => event.type === "project.edited";

// The graph does not run the invoked `saveProject` promise, so it takes the events that the
// promise actor sends its parent as events of its own. Replaying them, the test settles the
// real promise the same way (see `send` below) rather than sending the event itself.
const SAVE_ID = projectFileMachine.getStateNodeById("projectFile.saving.saving").invoke[0].id;
const saveSucceeded = { type: `xstate.done.actor.${SAVE_ID}`, output: { ok: true } } as unknown as ProjectEvent;
const saveRefused = {
  type: `xstate.done.actor.${SAVE_ID}`,
  output: { ok: false, reason: "the controller answered an error" },
} as unknown as ProjectEvent;
const saveThrew = { type: `xstate.error.actor.${SAVE_ID}`, error: new Error("deliver timed out") } as unknown as ProjectEvent;

const isSaveOutcome = (event: { type: string }) => event.type.startsWith("xstate.done.actor.") || event.type.startsWith("xstate.error.actor.");

const EVENTS: ProjectEvent[] = [
  loadOther,
  loadShop,
  close,
  accept,
  decline,
  edit,
  saveToComputer,
  saveToController,
  windowClosed,
  dropA,
  userLoadsOther,
  saveSucceeded,
  saveRefused,
  saveThrew,
  shopEdited,
  otherEdited,
  restoreOffered,
];

/** What an edit can change of a project here: the value of the displayed test's first command. */
const edited = (project: { tests: Array<{ commands: Array<{ value: string }> }> }) => project.tests[0]?.commands[0]?.value ?? null;

/**
 * A finite view of the context: the revision counters grow with every edit, so they are
 * replaced by the comparisons the machine makes with them (unsaved; whether the save under
 * way is of the current revision; whether a load already moved past it).
 */
function serializeState(snapshot: ProjectSnapshot): string {
  const { context } = snapshot;
  return JSON.stringify({
    value: snapshot.value,
    project: context.project.id,
    edited: edited(context.project),
    savedCopy: context.savedCopy.id,
    savedEdited: edited(context.savedCopy),
    unsaved: isUnsaved(context),
    pendingLoad: context.pendingLoad && { requestId: context.pendingLoad.requestId, project: context.pendingLoad.project.id },
    pendingClose: context.pendingClose?.requestId ?? null,
    pendingRestore: context.pendingRestore && edited(context.pendingRestore),
    saving: context.saving && {
      project: context.saving.project.id,
      edited: edited(context.saving.project),
      controller: context.saving.controller,
      ofCurrentRevision: context.saving.revision === context.revision,
      overtaken: context.saving.revision <= context.savedRevision,
    },
  });
}

/**
 * Which events can reach the machine in a state. The root keeps one dialog at a time: it
 * answers Busy rather than forward a request that would need a second dialog, so a load or a
 * close reaches this machine while its own dialog is open only when a save cleared the unsaved
 * changes under that dialog ("answers a load that arrives while a load dialog is open" in
 * ide.model.test.ts); this machine then answers it Busy itself, which the hand-written tests
 * below cover, so the graph leaves those out. A save's outcome comes only from the save under way;
 * the editor tells a change of the project loaded, never of another.
 */
function canArrive(snapshot: ProjectSnapshot, event: ProjectEvent): boolean {
  if (event.type === "request.loadProject" || event.type === "request.close") return snapshot.matches({ dialog: "idle" });
  if (isSaveOutcome(event)) return snapshot.matches({ saving: "saving" });
  if (event.type === "project.edited") return event.project.id === snapshot.context.project.id;
  // A start offers a journal, before anything else happened: in a state like the first (what the serialisation keeps of it).
  if (event.type === "journal.restoreOffered") {
    const { context } = snapshot;
    return (
      snapshot.matches({ dialog: "idle", saving: "idle" }) &&
      !isUnsaved(context) &&
      context.project.id === shopFixture.id &&
      edited(context.project) === edited(shopFixture)
    );
  }
  return true;
}

const traversal = { input: { project: shopFixture }, events: EVENTS, serializeState, filterEvents: canArrive };

function startProject(logic: ProjectLogic = projectFileMachine) {
  const actor = createActor(logic, { input: { project: shopFixture } });
  const emitted: ProjectEmitted[] = [];
  actor.on("*", (event) => emitted.push(event));
  actor.start();
  const answers = () => emitted.filter((e): e is RequestAnsweredEvent => e.type === "request.answered");
  const answerTo = (requestId: number) => answers().filter((e) => e.requestId === requestId).map((e) => e.reply);
  const logs = () => emitted.filter((e): e is LogWrittenEvent => e.type === "log.written");
  const unsaved = () => isUnsaved(actor.getSnapshot().context);
  return { actor, emitted, answers, answerTo, logs, unsaved };
}

/** A project actor whose save port the test settles. */
function startProjectWithPort() {
  const port = controlledSavePort();
  const started = startProject(projectFileMachine.provide({ actors: { saveProject: port.logic } }));
  return { ...started, port };
}

async function replayOnActor(path: ModelPath<ProjectSnapshot, ProjectEvent>) {
  const { actor, answers, emitted, port } = startProjectWithPort();
  const asked: number[] = [];
  let previous = actor.getSnapshot();
  let last: { type: string; output?: SaveOutcome } = { type: "xstate.init" };
  await replayPath(path, {
    async send(event) {
      previous = actor.getSnapshot();
      last = event as typeof last;
      if (event.type === "request.loadProject" || event.type === "request.close") {
        asked.push(event.requestId);
      }
      if (isSaveOutcome(event)) {
        const outcome = event as unknown as { type: string; output?: SaveOutcome; error?: unknown };
        if (outcome.type.startsWith("xstate.done.actor.")) await port.resolve(outcome.output!);
        else await port.reject(outcome.error);
      } else {
        actor.send(event);
      }
    },
    check(expected, where) {
      const actual = actor.getSnapshot();
      expect(actual.status, `status ${where}`).toBe(expected.status);
      expect(actual.value, `state value ${where}`).toEqual(expected.value);
      // The graph keeps one snapshot per serialised state, the last one it met, so the path's
      // snapshot may have other revision numbers than the events of the path give: compare
      // what the serialisation keeps, and the projects themselves.
      expect(serializeState(actual), `context ${where}`).toBe(serializeState(expected));
      expect(actual.context.project, `project ${where}`).toEqual(expected.context.project);
      expect(actual.context.savedCopy, `saved copy ${where}`).toEqual(expected.context.savedCopy);
      // A close the user accepted is answered by the root, on close.confirmed.
      const confirmed = emitted.flatMap((e) => (e.type === "close.confirmed" ? [e.requestId] : []));
      const waiting = [actual.context.pendingLoad?.requestId, actual.context.pendingClose?.requestId].filter(
        (id): id is number => typeof id === "number", // the user's own load waits with no request
      );
      expectEachRequestAnsweredOnce(asked, [...answers().map((a) => a.requestId), ...confirmed], waiting, where);
      // Every change the editor tells makes the project unsaved, and is what a save writes.
      if (isEdit(last)) {
        expect(isUnsaved(actual.context), `an edit left the project saved, ${where}`).toBe(true);
        expect(actual.context.project, `the edited project ${where}`).toEqual((last as { project?: SideProject }).project);
      }
      // Nothing but the user's yes or a successful save makes unsaved changes saved.
      if (isUnsaved(previous.context) && !isUnsaved(actual.context)) {
        const allowed = last.type === "user.accept" || (last.type === `xstate.done.actor.${SAVE_ID}` && last.output?.ok === true);
        expect(allowed, `unsaved changes dropped by ${last.type}, ${where}`).toBe(true);
      }
    },
  });
  actor.stop();
}

describe("project file machine, model-based", () => {
  const shortest = getShortestPaths(projectFileMachine, traversal);

  it("cannot be given to createTestModel, which refuses machines that invoke actors", () => {
    expect(() => createTestModel(projectFileMachine)).toThrow("Invocations on test machines are not supported");
  });

  it("has a finite graph that reaches dialogs, saves and their outcomes", () => {
    const values = new Set(statesAlong(shortest).map((s) => JSON.stringify(s.value)));
    expect([...values].sort()).toEqual(
      ["confirmingClose", "confirmingLoad", "confirmingRestore", "idle"]
        .flatMap((dialog) => ["idle", "saving"].map((saving) => JSON.stringify({ dialog, saving })))
        .sort(),
    );
    expect(shortest.length).toBeGreaterThan(50);
    // Saves overtaken by a load, saves of an older revision, and every outcome of a save.
    const saves = statesAlong(shortest).flatMap((s) => (s.context.saving ? [s.context] : []));
    expect(saves.some((c) => c.saving!.revision <= c.savedRevision)).toBe(true);
    expect(saves.some((c) => c.saving!.revision !== c.revision)).toBe(true);
  });

  it("follows every transition of the graph on a real actor, each after the shortest path to its source", { timeout: 300_000 }, async () => {
    const paths = transitionPaths(projectFileMachine, traversal);
    const tried = shortest.reduce((sum, p) => sum + EVENTS.filter((e) => canArrive(p.state, e)).length, 0);
    expect(paths.length).toBe(tried);
    // Each outcome of a save is tried (only from saving states: see canArrive).
    const outcomes = new Set(paths.map((p) => p.steps[p.steps.length - 1].event).filter(isSaveOutcome).map((e) => JSON.stringify(e)));
    expect(outcomes.size).toBe(3);
    for (const path of paths) await replayOnActor(path);
  });

  it("follows every shortest path on a real actor, with the same state, projects and unsaved changes at each step", async () => {
    for (const path of shortest) await replayOnActor(path);
  });

  it("follows every bounded simple path through edits and saves on a real actor", async () => {
    // Edits, both save outcomes and a load: every ordering that never repeats a state.
    const simple = getSimplePaths(projectFileMachine, {
      ...traversal,
      events: [edit, saveToComputer, saveSucceeded, saveRefused, loadOther],
    });
    expect(simple.length).toBeGreaterThan(10);
    for (const path of simple) await replayOnActor(path);
  });

  it("reaches every state node on some shortest path, but opening a recent file, which the paths model reaches", () => {
    // Opening a recent file and Save as are modelled in projectFile.paths.model.test.ts: added here they would triple this graph.
    expect(unreachedStateNodes(projectFileMachine, statesAlong(shortest))).toEqual(["projectFile.dialog.opening"]);
  });
});

describe("project file machine, loading", () => {
  it("loads at once, answers true and announces project.loaded when there are no unsaved changes", () => {
    const { actor, emitted } = startProject();
    actor.send(loadOther);
    expect(actor.getSnapshot().value).toEqual({ dialog: "idle", saving: "idle" });
    expect(actor.getSnapshot().context.project).toEqual(otherFixture);
    expect(isUnsaved(actor.getSnapshot().context)).toBe(false);
    expect(emitted).toEqual([
      { type: "project.loaded", projectId: otherFixture.id, projectName: otherFixture.name, project: otherFixture },
      { type: "request.answered", requestId: 1, reply: { ok: true, value: true } },
    ]);
  });

  it("waits for the user before loading over unsaved changes", () => {
    const { actor, emitted } = startProject();
    actor.send(edit);
    actor.send(loadOther);
    expect(actor.getSnapshot().value).toEqual({ dialog: "confirmingLoad", saving: "idle" });
    expect(actor.getSnapshot().context.pendingLoad).toEqual({ requestId: 1, sender: A, project: otherFixture, path: null });
    expect(actor.getSnapshot().context.project).toEqual(shopFixture);
    expect(emitted).toEqual([{ type: "dialog.opened", owner: "projectFile" }]);
  });

  it("keeps unsaved changes and the project when the user declines the load", () => {
    const { actor, emitted, answerTo, unsaved } = startProject();
    actor.send(edit);
    actor.send(loadOther);
    actor.send(decline);
    expect(actor.getSnapshot().value).toEqual({ dialog: "idle", saving: "idle" });
    expect(actor.getSnapshot().context.project).toEqual(shopFixture);
    expect(actor.getSnapshot().context.pendingLoad).toBeNull();
    expect(unsaved()).toBe(true);
    expect(answerTo(1)).toEqual([{ ok: true, value: false }]);
    expect(emitted.some((e) => e.type === "project.loaded")).toBe(false);
  });

  it("loads the requested project, answers true and announces it when the user accepts the load", () => {
    const { actor, emitted, answerTo, unsaved } = startProject();
    actor.send(edit);
    actor.send(loadOther);
    actor.send(accept);
    expect(actor.getSnapshot().value).toEqual({ dialog: "idle", saving: "idle" });
    expect(actor.getSnapshot().context.project).toEqual(otherFixture);
    expect(actor.getSnapshot().context.savedCopy).toEqual(otherFixture);
    expect(unsaved()).toBe(false);
    expect(answerTo(1)).toEqual([{ ok: true, value: true }]);
    expect(emitted.filter((e) => e.type === "project.loaded")).toEqual([
      { type: "project.loaded", projectId: otherFixture.id, projectName: otherFixture.name, project: otherFixture },
    ]);
  });

  it("answers a waiting load IdeNotActive when the window closes, keeping the unsaved changes", () => {
    const { actor, answerTo, unsaved } = startProject();
    actor.send(edit);
    actor.send(loadOther);
    actor.send(windowClosed);
    expect(actor.getSnapshot().value).toEqual({ dialog: "idle", saving: "idle" });
    expect(actor.getSnapshot().context.project).toEqual(shopFixture);
    expect(unsaved()).toBe(true);
    expect(answerTo(1)).toEqual([{ ok: false, errorCode: "IdeNotActive", error: expect.any(String) }]);
  });
});

describe("project file machine, closing", () => {
  it("discards the changes to the saved copy, tells the editor, and confirms the close when the user accepts", () => {
    const { actor, emitted, answers, unsaved } = startProject();
    actor.send(loadOther);
    actor.send(otherEdited);
    emitted.length = 0;
    actor.send(close);
    expect(actor.getSnapshot().value).toEqual({ dialog: "confirmingClose", saving: "idle" });
    actor.send(accept);
    expect(actor.getSnapshot().value).toEqual({ dialog: "idle", saving: "idle" });
    expect(actor.getSnapshot().context.project).toEqual(otherFixture);
    expect(actor.getSnapshot().context.pendingClose).toBeNull();
    expect(unsaved()).toBe(false);
    expect(emitted).toEqual([
      { type: "dialog.opened", owner: "projectFile" },
      { type: "dialog.closed", owner: "projectFile" },
      { type: "project.reverted", project: otherFixture },
      { type: "close.confirmed", requestId: 3 },
    ]);
    expect(answers()).toEqual([]); // the root answers, once the window is closed
  });

  it("answers false and keeps the changes when the user declines the close", () => {
    const { actor, answerTo, unsaved, emitted } = startProject();
    actor.send(edit);
    actor.send(close);
    actor.send(decline);
    expect(actor.getSnapshot().value).toEqual({ dialog: "idle", saving: "idle" });
    expect(unsaved()).toBe(true);
    expect(answerTo(3)).toEqual([{ ok: true, value: false }]);
    expect(emitted.some((e) => e.type === "close.confirmed")).toBe(false);
  });

  it("answers a waiting close IdeNotActive when the window closes, keeping the changes", () => {
    const { actor, answerTo, unsaved, emitted } = startProject();
    actor.send(edit);
    actor.send(close);
    actor.send(windowClosed);
    expect(actor.getSnapshot().value).toEqual({ dialog: "idle", saving: "idle" });
    expect(unsaved()).toBe(true);
    expect(answerTo(3)).toEqual([{ ok: false, errorCode: "IdeNotActive", error: expect.any(String) }]);
    expect(emitted.some((e) => e.type === "close.confirmed")).toBe(false);
  });

  it("changes nothing when the user answers with no dialog open", () => {
    const { actor, emitted, unsaved } = startProject();
    actor.send(edit);
    const before = actor.getSnapshot().context;
    actor.send(accept);
    actor.send(decline);
    expect(actor.getSnapshot().context).toEqual(before);
    expect(unsaved()).toBe(true);
    expect(emitted).toEqual([]);
  });
});

describe("project file machine, saving", () => {
  const failingWith = (saveProject: ReturnType<typeof fromPromise<SaveOutcome, SaveInput>>) =>
    startProject(projectFileMachine.provide({ actors: { saveProject } }));

  it("keeps the project unsaved and logs an error when the save port answers that it did not save", async () => {
    const { actor, logs, unsaved } = failingWith(
      fromPromise<SaveOutcome, SaveInput>(async () => ({ ok: false, reason: "disk full" })),
    );
    actor.send(edit);
    actor.send(saveToComputer);
    await settle();
    expect(actor.getSnapshot().value).toEqual({ dialog: "idle", saving: "idle" });
    expect(unsaved()).toBe(true);
    expect(logs()).toEqual([{ type: "log.written", level: "error", message: expect.stringContaining("disk full") }]);
  });

  it("keeps the project unsaved and logs an error when the save port throws", async () => {
    const { actor, logs, unsaved } = failingWith(
      fromPromise<SaveOutcome, SaveInput>(async () => {
        throw new Error("deliver timed out");
      }),
    );
    actor.send(edit);
    actor.send(saveToController);
    await settle();
    expect(actor.getSnapshot().value).toEqual({ dialog: "idle", saving: "idle" });
    expect(unsaved()).toBe(true);
    expect(logs()).toEqual([{ type: "log.written", level: "error", message: expect.stringContaining("deliver timed out") }]);
    expect(logs()[0].message).toContain(A);
  });

  it("clears the unsaved changes when the save succeeds", async () => {
    const { actor, unsaved, logs } = startProject();
    actor.send(edit);
    actor.send(saveToComputer);
    expect(actor.getSnapshot().value).toEqual({ dialog: "idle", saving: "saving" });
    await settle();
    expect(actor.getSnapshot().value).toEqual({ dialog: "idle", saving: "idle" });
    expect(actor.getSnapshot().context.saving).toBeNull();
    expect(unsaved()).toBe(false);
    expect(logs()).toEqual([]);
  });

  it("passes the project and the plugin in control to the save port", async () => {
    const { actor, port } = startProjectWithPort();
    actor.send(loadOther);
    actor.send(edit);
    actor.send(saveToController);
    expect(port.inputs).toEqual([{ project: otherFixture, controller: A, path: null }]);
    await port.resolve({ ok: true });
  });

  it("keeps the project unsaved after the save finishes when it was edited during the save", async () => {
    const { actor, port, unsaved } = startProjectWithPort();
    actor.send(edit);
    actor.send(saveToComputer);
    actor.send(edit);
    await port.resolve({ ok: true });
    expect(actor.getSnapshot().value).toEqual({ dialog: "idle", saving: "idle" });
    expect(unsaved()).toBe(true);
  });

  it("ignores a save that finishes after a load, keeping the loaded project as the saved copy", async () => {
    const { actor, port, unsaved } = startProjectWithPort();
    actor.send(edit);
    actor.send(saveToComputer);
    actor.send(loadOther); // unsaved: asks first
    actor.send(accept);
    actor.send(edit);
    await port.resolve({ ok: true });
    expect(actor.getSnapshot().value).toEqual({ dialog: "idle", saving: "idle" });
    expect(actor.getSnapshot().context.savedCopy).toEqual(otherFixture);
    expect(actor.getSnapshot().context.project).toEqual(otherFixture);
    expect(unsaved()).toBe(true);
  });

  it("ignores a save that finishes after a discard-and-close, keeping the discarded state saved", async () => {
    const { actor, port, unsaved } = startProjectWithPort();
    actor.send(edit);
    actor.send(saveToComputer);
    actor.send(close);
    actor.send(accept);
    const savedRevision = actor.getSnapshot().context.savedRevision;
    await port.resolve({ ok: true });
    expect(actor.getSnapshot().context.savedRevision).toBe(savedRevision);
    expect(unsaved()).toBe(false);
  });

  it("keeps unsaved changes while a load waits for the user and the save fails", async () => {
    const { actor, port, unsaved, logs } = startProjectWithPort();
    actor.send(edit);
    actor.send(saveToComputer);
    actor.send(loadOther);
    await port.resolve({ ok: false, reason: "refused" });
    expect(actor.getSnapshot().value).toEqual({ dialog: "confirmingLoad", saving: "idle" });
    expect(unsaved()).toBe(true);
    expect(logs()).toHaveLength(1);
  });
});

describe("project file machine, one thing at a time", () => {
  it("runs a save asked for during another save after it, so edits made meanwhile are saved too", async () => {
    const { actor, port, unsaved } = startProjectWithPort();
    actor.send(edit);
    actor.send(saveToComputer);
    actor.send(edit);
    actor.send(saveToComputer); // while the first save is under way
    expect(port.inputs).toHaveLength(1);
    await port.resolve({ ok: true });
    expect(port.inputs).toHaveLength(2);
    expect(actor.getSnapshot().value).toEqual({ dialog: "idle", saving: "saving" });
    expect(unsaved()).toBe(true);
    await port.resolve({ ok: true });
    expect(actor.getSnapshot().value).toEqual({ dialog: "idle", saving: "idle" });
    expect(unsaved()).toBe(false);
  });

  it("answers a load Busy while its own load dialog is open, and keeps the first load waiting", () => {
    const { actor, answerTo } = startProject();
    actor.send(edit);
    actor.send(loadOther);
    actor.send({ ...loadOther, requestId: 41 });
    expect(answerTo(41)).toEqual([expect.objectContaining({ ok: false, errorCode: "Busy" })]);
    expect(answerTo(1)).toEqual([]);
    expect(actor.getSnapshot().matches({ dialog: "confirmingLoad" })).toBe(true);
  });

  it("answers a load or close over unsaved changes Busy while the root says another dialog is open, and loads at once one that needs no dialog", () => {
    const { actor, answerTo, logs, emitted } = startProject();
    actor.send({ ...loadShop, requestId: 20, otherDialogOpen: true });
    expect(answerTo(20)).toEqual([{ ok: true, value: true }]);
    actor.send(edit);
    actor.send({ ...loadOther, requestId: 21, otherDialogOpen: true });
    actor.send({ ...close, requestId: 22, otherDialogOpen: true });
    actor.send({ ...userLoadsOther, otherDialogOpen: true });
    expect(answerTo(21)).toEqual([expect.objectContaining({ ok: false, errorCode: "Busy" })]);
    expect(answerTo(22)).toEqual([expect.objectContaining({ ok: false, errorCode: "Busy" })]);
    expect(logs().map((l) => l.message)).toEqual([expect.stringContaining("answer the open dialog first")]);
    expect(actor.getSnapshot().value).toEqual({ dialog: "idle", saving: "idle" });
    expect(emitted.some((e) => e.type === "dialog.opened")).toBe(false);
  });

  it("answers a close Busy while its own close dialog is open", () => {
    const { actor, answerTo } = startProject();
    actor.send(edit);
    actor.send(close);
    actor.send({ ...close, requestId: 42 });
    expect(answerTo(42)).toEqual([expect.objectContaining({ ok: false, errorCode: "Busy" })]);
    expect(actor.getSnapshot().matches({ dialog: "confirmingClose" })).toBe(true);
  });
});

describe("project file machine, restoring a journal", () => {
  const journaled = withEdit(shopFixture);

  it("makes the journaled project the project, unsaved against the saved copy, and hands it to the editor when the user restores it", () => {
    const { actor, emitted, unsaved } = startProject();
    actor.send(restoreOffered);
    expect(actor.getSnapshot().matches({ dialog: "confirmingRestore" })).toBe(true);
    expect(emitted).toEqual([{ type: "dialog.opened", owner: "projectFile" }]);
    actor.send(accept);
    expect(actor.getSnapshot().context).toMatchObject({ project: journaled, savedCopy: shopFixture, pendingRestore: null });
    expect(unsaved()).toBe(true);
    expect(emitted).toContainEqual({ type: "dialog.closed", owner: "projectFile" });
    expect(emitted).toContainEqual({ type: "project.reverted", project: journaled });
  });

  it("keeps the saved project, saved, tells the editor nothing, and moves the revision on when the user drops the journal", () => {
    const { actor, emitted, unsaved } = startProject();
    actor.send(restoreOffered);
    actor.send(decline);
    expect(actor.getSnapshot().context).toMatchObject({ project: shopFixture, revision: 1, savedRevision: 1, pendingRestore: null });
    expect(unsaved()).toBe(false);
    expect(emitted.map((e) => e.type)).toEqual(["dialog.opened", "dialog.closed"]);
  });

  it("answers a plugin's load Busy while the restore is asked, and keeps asking over a closed window", () => {
    const { actor, answerTo } = startProject();
    actor.send(restoreOffered);
    actor.send(loadOther);
    expect(answerTo(1)).toEqual([expect.objectContaining({ ok: false, errorCode: "Busy" })]);
    actor.send(windowClosed);
    expect(actor.getSnapshot().matches({ dialog: "confirmingRestore" })).toBe(true);
    expect(actor.getSnapshot().context.project).toBe(shopFixture);
  });
});
