// The project file machine's paths (CONTRACT section 20): Save as, the file a plain Save writes,
// opening a recent file and the recent list. A model of its own, with the events that touch
// paths, replayed on a real actor whose save and read ports the test settles.
import { describe, expect, it } from "vitest";
import { createActor, fromPromise } from "xstate";
import type { SnapshotFrom } from "xstate";
import { getShortestPaths } from "xstate/graph";
import { isUnsaved, projectFileMachine, withRecent } from "../../machines/projectFile.machine.ts";
import type { ProjectFileEmitted, ProjectFileEvent, ReadProjectInput, SaveOutcome } from "../../machines/projectFile.types.ts";
import type { SideProject } from "../../services/side/index.ts";
import type { LogWrittenEvent } from "../../machines/shared.types.ts";
import { controlledSavePort, other, replayPath, settle, shop, statesAlong, unreachedStateNodes } from "./support.ts";
import type { ModelPath } from "./support.ts";

type Snapshot = SnapshotFrom<typeof projectFileMachine>;

const shopFixture = shop();
const otherFixture = other();
const SAVED_AS = "/work/projects/shop.side";
const RECENT = "/work/projects/other.side";

const edit: ProjectFileEvent = { type: "user.editProject" };
const saveAs: ProjectFileEvent = { type: "project.saveRequested", controller: null, path: SAVED_AS };
const save: ProjectFileEvent = { type: "project.saveRequested", controller: null };
const saveAsControlled: ProjectFileEvent = { type: "project.saveRequested", controller: "plugin-a", path: SAVED_AS };
const openRecent: ProjectFileEvent = { type: "user.openRecent", path: RECENT, otherDialogOpen: false };
const loadOther: ProjectFileEvent = { type: "user.loadProject", project: otherFixture, otherDialogOpen: false };
const accept: ProjectFileEvent = { type: "user.accept" };
const decline: ProjectFileEvent = { type: "user.decline" };

const SAVE_ID = projectFileMachine.getStateNodeById("projectFile.saving.saving").invoke[0].id;
const READ_ID = projectFileMachine.getStateNodeById("projectFile.dialog.opening").invoke[0].id;
const saved = { type: `xstate.done.actor.${SAVE_ID}`, output: { ok: true } } as unknown as ProjectFileEvent;
const notSaved = { type: `xstate.done.actor.${SAVE_ID}`, output: { ok: false, reason: "the folder /nope does not exist" } } as unknown as ProjectFileEvent;
const read = { type: `xstate.done.actor.${READ_ID}`, output: otherFixture } as unknown as ProjectFileEvent;
const unreadable = { type: `xstate.error.actor.${READ_ID}`, error: new Error("there is no such file") } as unknown as ProjectFileEvent;

const EVENTS = [edit, saveAs, save, saveAsControlled, openRecent, loadOther, accept, decline, saved, notSaved, read, unreadable];
const isSaveOutcome = (e: { type: string }) => e.type.endsWith(SAVE_ID);
const isReadOutcome = (e: { type: string }) => e.type.endsWith(READ_ID);

function serializeState(snapshot: Snapshot): string {
  const { context } = snapshot;
  return JSON.stringify({
    value: snapshot.value,
    project: context.project.id,
    unsaved: isUnsaved(context),
    path: context.path,
    recent: context.recentProjects,
    saving: context.saving && { path: context.saving.path, controller: context.saving.controller, overtaken: context.saving.loads !== context.loads },
    queued: context.queuedSave,
    opening: context.opening?.path ?? null,
    pendingLoad: context.pendingLoad?.path ?? null,
  });
}

// An outcome comes only from the port at work; the graph stays small by saving at most twice at once.
function canArrive(snapshot: Snapshot, event: ProjectFileEvent): boolean {
  if (isSaveOutcome(event)) return snapshot.matches({ saving: "saving" });
  if (isReadOutcome(event)) return snapshot.matches({ dialog: "opening" });
  return true;
}

const traversal = { input: { project: shopFixture }, events: EVENTS, serializeState, filterEvents: canArrive };

/** A read port the test settles, like the save port. */
function controlledReadPort() {
  let waiting: { resolve(project: SideProject): void; reject(error: unknown): void } | null = null;
  const inputs: ReadProjectInput[] = [];
  const take = () => {
    const current = waiting!;
    waiting = null;
    return current;
  };
  return {
    inputs,
    logic: fromPromise<SideProject, ReadProjectInput>(({ input }) => {
      inputs.push(input);
      return new Promise((resolve, reject) => (waiting = { resolve, reject }));
    }),
    async resolve(project: SideProject) {
      take().resolve(project);
      await settle();
    },
    async reject(error: unknown) {
      take().reject(error);
      await settle();
    },
  };
}

function start(input: { project: SideProject; path?: string | null; recentProjects?: string[] } = { project: shopFixture }) {
  const savePort = controlledSavePort();
  const readPort = controlledReadPort();
  const actor = createActor(projectFileMachine.provide({ actors: { saveProject: savePort.logic, readProject: readPort.logic } }), { input });
  const emitted: ProjectFileEmitted[] = [];
  actor.on("*", (event) => emitted.push(event));
  actor.start();
  const logs = () => emitted.filter((e): e is LogWrittenEvent => e.type === "log.written");
  return { actor, savePort, readPort, emitted, logs, context: () => actor.getSnapshot().context };
}

async function replayOnActor(path: ModelPath<Snapshot, ProjectFileEvent>) {
  const { actor, savePort, readPort } = start();
  let previous = actor.getSnapshot();
  let last: ProjectFileEvent = { type: "user.editProject" };
  await replayPath(path, {
    async send(event) {
      previous = actor.getSnapshot();
      last = event;
      const outcome = event as unknown as { type: string; output?: unknown; error?: unknown };
      if (isSaveOutcome(event)) {
        if (outcome.type.startsWith("xstate.done")) await savePort.resolve(outcome.output as SaveOutcome);
        else await savePort.reject(outcome.error);
      } else if (isReadOutcome(event)) {
        if (outcome.type.startsWith("xstate.done")) await readPort.resolve(outcome.output as SideProject);
        else await readPort.reject(outcome.error);
      } else actor.send(event);
    },
    check(expected, where) {
      const actual = actor.getSnapshot();
      expect(serializeState(actual), where).toBe(serializeState(expected));
      const before = previous.context;
      const now = actual.context;
      // The path changes only by a Save as that wrote its file, or by a load (to the opened file, or to none).
      if (now.path !== before.path) {
        const savedAs = isSaveOutcome(last) && before.saving?.path === now.path && (last as { output?: SaveOutcome }).output?.ok === true;
        const loaded = now.loads !== before.loads && (now.path === null || now.path === RECENT);
        expect(savedAs || loaded, `the path changed on ${last.type}, ${where}`).toBe(true);
      }
      // A controller gets the project: no file is written while controlled.
      if (now.saving?.controller) expect(now.saving.path, where).toBeNull();
      // The recent list: newest first, no repeats, at most 10, and only files saved or opened.
      expect(new Set(now.recentProjects).size, where).toBe(now.recentProjects.length);
      expect(now.recentProjects.length, where).toBeLessThanOrEqual(10);
      for (const file of now.recentProjects) expect([SAVED_AS, RECENT], where).toContain(file);
      // Unsaved changes are dropped only by the user's yes or a save that succeeded.
      if (isUnsaved(before) && !isUnsaved(now)) {
        const allowed = last.type === "user.accept" || (isSaveOutcome(last) && (last as { output?: SaveOutcome }).output?.ok === true);
        expect(allowed, `unsaved changes dropped by ${last.type}, ${where}`).toBe(true);
      }
    },
  });
  actor.stop();
}

describe("project file machine, paths: model-based", () => {
  const shortest = getShortestPaths(projectFileMachine, traversal);

  it("has a finite graph that reaches opening a file, Save as and their outcomes", () => {
    const states = statesAlong(shortest);
    expect(states.some((s) => s.matches({ dialog: "opening" }))).toBe(true);
    expect(states.some((s) => s.context.path === SAVED_AS)).toBe(true);
    expect(states.some((s) => s.context.path === RECENT)).toBe(true);
    expect(states.some((s) => s.matches({ dialog: "confirmingLoad" }) && s.context.pendingLoad?.path === RECENT)).toBe(true);
    // Closing and restoring a journal do not touch paths: the main model covers them.
    expect(unreachedStateNodes(projectFileMachine, states)).toEqual([
      "projectFile.dialog.confirmingRestore",
      "projectFile.dialog.confirmingClose",
    ]);
  });

  // Every shortest path (each state once), not every transition: the transitions of this graph take minutes to replay.
  it("follows every shortest path of the paths graph on a real actor, the path and the recent list as the rules say at each step", { timeout: 120_000 }, async () => {
    expect(shortest.length).toBeGreaterThan(100);
    for (const path of shortest) await replayOnActor(path);
  });
});

describe("project file machine, Save as", () => {
  it("writes the file it names, then names it as the project's path and the newest recent file", async () => {
    const { actor, savePort, logs, context } = start();
    actor.send(edit);
    actor.send(saveAs);
    expect(savePort.inputs).toEqual([{ project: shopFixture, controller: null, path: SAVED_AS }]);
    expect(context().path).toBeNull();
    await savePort.resolve({ ok: true, location: SAVED_AS });
    expect(context()).toMatchObject({ path: SAVED_AS, recentProjects: [SAVED_AS] });
    expect(isUnsaved(context())).toBe(false);
    expect(logs()).toEqual([{ type: "log.written", level: "info", message: `Saved "${shopFixture.name}" to ${SAVED_AS}` }]);
  });

  it("names the file the port says it wrote, which the browser's save dialog may have chosen", async () => {
    const { actor, savePort, context } = start();
    actor.send(saveAs);
    await savePort.resolve({ ok: true, location: "/home/me/Downloads/shop (1).side" });
    expect(context()).toMatchObject({ path: "/home/me/Downloads/shop (1).side", recentProjects: ["/home/me/Downloads/shop (1).side"] });
  });

  it("writes the project's path on every later plain Save", async () => {
    const { actor, savePort } = start();
    actor.send(saveAs);
    await savePort.resolve({ ok: true });
    actor.send(edit);
    actor.send(save);
    expect(savePort.inputs.map((i) => i.path)).toEqual([SAVED_AS, SAVED_AS]);
  });

  it("leaves a plain Save to the port's default place while the project has no path", async () => {
    const { actor, savePort, context } = start();
    actor.send(save);
    await savePort.resolve({ ok: true, location: "/home/me/.ide-core/saved/Shop.side" });
    expect(savePort.inputs[0].path).toBeNull();
    expect(context()).toMatchObject({ path: null, recentProjects: [] });
  });

  it("keeps the changes unsaved and the path as it was when the file cannot be written, saying why", async () => {
    const { actor, savePort, logs, context } = start({ project: shopFixture, path: "/old/shop.side", recentProjects: ["/old/shop.side"] });
    actor.send(edit);
    actor.send(saveAs);
    await savePort.resolve({ ok: false, reason: "the folder /work/projects does not exist; nothing was written" });
    expect(context()).toMatchObject({ path: "/old/shop.side", recentProjects: ["/old/shop.side"] });
    expect(isUnsaved(context())).toBe(true);
    expect(logs()).toEqual([
      expect.objectContaining({ level: "error", message: expect.stringContaining(`to ${SAVED_AS} failed: the folder /work/projects does not exist`) }),
    ]);
  });

  it("gives the project to the controller instead, writes no file and keeps the path, saying so", async () => {
    const { actor, savePort, logs, context } = start({ project: shopFixture, path: "/old/shop.side" });
    actor.send(edit);
    actor.send(saveAsControlled);
    expect(savePort.inputs).toEqual([{ project: shopFixture, controller: "plugin-a", path: null }]);
    expect(logs()[0]).toMatchObject({ level: "warn", message: expect.stringContaining(`nothing was written to ${SAVED_AS}`) });
    await savePort.resolve({ ok: true });
    expect(context().path).toBe("/old/shop.side");
    expect(isUnsaved(context())).toBe(false);
  });

  it("still writes a Save as's file when a plain Save is asked for while another save is under way", async () => {
    const { actor, savePort, context } = start();
    actor.send(save);
    actor.send(saveAs);
    actor.send(save);
    await savePort.resolve({ ok: true });
    expect(savePort.inputs.map((i) => i.path)).toEqual([null, SAVED_AS]);
    await savePort.resolve({ ok: true });
    expect(context().path).toBe(SAVED_AS);
  });

  it("does not name a project loaded during the save after the file the save wrote, but lists the file", async () => {
    const { actor, savePort, context } = start();
    actor.send(saveAs);
    actor.send(loadOther);
    await savePort.resolve({ ok: true });
    expect(context()).toMatchObject({ project: otherFixture, path: null, recentProjects: [SAVED_AS] });
  });

  it("keeps ten recent files, newest first, each once", () => {
    const many = Array.from({ length: 12 }, (_, i) => `/p/${i}.side`);
    const list = many.reduce<string[]>((recent, path) => withRecent(recent, path), []);
    expect(list).toEqual(many.slice(2).reverse());
    expect(withRecent(list, "/p/5.side")).toEqual(["/p/5.side", ...list.filter((p) => p !== "/p/5.side")]);
  });
});

describe("project file machine, opening a recent file", () => {
  it("reads the file, loads it, names it as the project's path and puts it first in the recent list", async () => {
    const { actor, readPort, emitted, context } = start({ project: shopFixture, recentProjects: [SAVED_AS, RECENT] });
    actor.send(openRecent);
    expect(actor.getSnapshot().matches({ dialog: "opening" })).toBe(true);
    expect(readPort.inputs).toEqual([{ path: RECENT }]);
    await readPort.resolve(otherFixture);
    expect(context()).toMatchObject({ project: otherFixture, path: RECENT, recentProjects: [RECENT, SAVED_AS] });
    expect(emitted).toContainEqual({ type: "project.loaded", projectId: otherFixture.id, projectName: otherFixture.name, project: otherFixture });
  });

  it("asks over unsaved changes and loads only when the user accepts", async () => {
    const { actor, readPort, context } = start();
    actor.send(edit);
    actor.send(openRecent);
    await readPort.resolve(otherFixture);
    expect(actor.getSnapshot().matches({ dialog: "confirmingLoad" })).toBe(true);
    expect(context().project).toEqual(shopFixture);
    actor.send(decline);
    expect(context()).toMatchObject({ project: shopFixture, path: null, recentProjects: [] });
    expect(isUnsaved(context())).toBe(true);
    actor.send(openRecent);
    await readPort.resolve(otherFixture);
    actor.send(accept);
    expect(context()).toMatchObject({ project: otherFixture, path: RECENT, recentProjects: [RECENT] });
    expect(isUnsaved(context())).toBe(false);
  });

  it("changes nothing and logs an error naming the file when it cannot be read", async () => {
    const { actor, readPort, logs, context } = start({ project: shopFixture, path: SAVED_AS });
    actor.send(edit);
    actor.send(openRecent);
    await readPort.reject(new Error("there is no such file"));
    expect(actor.getSnapshot().matches({ dialog: "idle" })).toBe(true);
    expect(context()).toMatchObject({ project: shopFixture, path: SAVED_AS, opening: null });
    expect(isUnsaved(context())).toBe(true);
    expect(logs()).toEqual([
      { type: "log.written", level: "error", message: `The project ${RECENT} could not be opened: there is no such file. Nothing was changed.` },
    ]);
  });

  it("resets the path when another project is loaded", async () => {
    const { actor, context } = start({ project: shopFixture, path: SAVED_AS, recentProjects: [SAVED_AS] });
    actor.send(loadOther);
    expect(context()).toMatchObject({ project: otherFixture, path: null, recentProjects: [SAVED_AS] });
  });

  it("answers a plugin's load Busy while a file is being read, and lets a close go ahead with nothing unsaved", async () => {
    const { actor, readPort, emitted } = start();
    actor.send(openRecent);
    actor.send({ type: "request.loadProject", requestId: 7, sender: "plugin-a", project: otherFixture, otherDialogOpen: false });
    actor.send({ type: "request.close", requestId: 8, sender: "plugin-a", otherDialogOpen: false });
    expect(emitted).toContainEqual({ type: "request.answered", requestId: 7, reply: expect.objectContaining({ ok: false, errorCode: "Busy" }) });
    expect(emitted).toContainEqual({ type: "close.confirmed", requestId: 8 });
    actor.send({ type: "window.closed" });
    expect(actor.getSnapshot().matches({ dialog: "idle" })).toBe(true);
    expect(actor.getSnapshot().context.opening).toBeNull();
    expect(readPort.inputs).toHaveLength(1);
  });

  it("refuses a second file while one is being read, and a load, saying why", async () => {
    const { actor, readPort, logs } = start();
    actor.send(openRecent);
    actor.send({ ...openRecent, path: SAVED_AS } as ProjectFileEvent);
    actor.send(loadOther);
    expect(readPort.inputs).toHaveLength(1);
    expect(logs().map((l) => l.level)).toEqual(["warn", "warn"]);
    expect(logs()[0].message).toContain(`${RECENT} is still being opened`);
    await readPort.resolve(otherFixture);
    expect(actor.getSnapshot().context.path).toBe(RECENT);
  });
});
