// The editor machine alone (machines/editor.machine.ts), as the unit, model and property tests of
// its edits and its undo history drive it: an actor over a project, what it emitted, and the
// project, display and history as a UI would read them.
import { createActor } from "xstate";
import { editorMachine } from "../../machines/editor.machine.ts";
import { historyView } from "../../machines/editor.history.ts";
import type { EditorEmitted, EditorEvent } from "../../machines/editor.types.ts";
import type { LogWrittenEvent } from "../../machines/shared.types.ts";
import { parseSideProject } from "../../services/side/index.ts";
import type { SideProject } from "../../services/side/index.ts";
import { shopProject } from "./shared.ts";

/** The shared shop fixture as the editor gets it: parsed at the door. */
export function shop(): SideProject {
  const parsed = parseSideProject(shopProject());
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.project;
}

export function startEditor(project: SideProject = shop()) {
  const actor = createActor(editorMachine, { input: { project } });
  const emitted: EditorEmitted[] = [];
  actor.on("*", (event) => emitted.push(event));
  actor.start();
  const context = () => actor.getSnapshot().context;
  return {
    actor,
    emitted,
    send: (event: EditorEvent) => actor.send(event),
    context,
    project: () => context().project,
    test: (id: string) => context().project.tests.find((t) => t.id === id),
    history: () => historyView(context().history),
    warnings: () => emitted.filter((e): e is LogWrittenEvent => e.type === "log.written" && e.level === "warn").map((e) => e.message),
    edits: () => emitted.filter((e) => e.type === "project.edited").length,
  };
}

export type EditorHarness = ReturnType<typeof startEditor>;

/** A refused edit: nothing changed (the project, the display, the history), and a warning says why. */
export function expectRefused(editor: EditorHarness, event: EditorEvent, why: RegExp, expect: typeof import("vitest").expect) {
  const before = editor.context();
  const edits = editor.edits();
  editor.send(event);
  const after = editor.context();
  expect(after.project).toBe(before.project);
  expect([after.displayedTestId, after.selectedCommandId]).toEqual([before.displayedTestId, before.selectedCommandId]);
  expect(after.history).toBe(before.history);
  expect(editor.edits()).toBe(edits);
  const warned = editor.warnings().at(-1);
  expect(warned).toMatch(why);
  expect(warned).toMatch(/Nothing was changed\.$/);
}
