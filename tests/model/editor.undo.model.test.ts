// Undo as a model (fast-check's model-based commands): the model is what a user expects of
// Undo and Redo, two stacks of projects (deep copies, so nothing the editor shares with them can
// change them behind its back); the real editor machine takes random edits, good and bad, and
// Undo and Redo in any order, and after each command its project is the model's.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SideProject } from "../../services/side/index.ts";
import { runs, timeoutFor } from "../property/arbitraries.ts";
import { editStepArb, eventOf, projectArb } from "../property/editorSteps.ts";
import type { EditStep } from "../property/editorSteps.ts";
import { startEditor } from "../support/editor.ts";
import type { EditorHarness } from "../support/editor.ts";

interface Model {
  current: SideProject;
  past: SideProject[];
  future: SideProject[];
  counter: number;
}

const copy = (project: SideProject) => structuredClone(project);

function expectMatches(model: Model, real: EditorHarness) {
  expect(real.project()).toEqual(model.current);
  const history = real.history();
  expect(history.canUndo).toBe(model.past.length > 0);
  expect(history.canRedo).toBe(model.future.length > 0);
}

class EditCommand implements fc.Command<Model, EditorHarness> {
  constructor(readonly step: EditStep) {}
  check = () => true;
  run(model: Model, real: EditorHarness) {
    model.counter += 1;
    const before = real.context();
    real.send(eventOf(this.step, before, model.counter));
    const after = real.context();
    if (after.history.done.at(-1) !== before.history.done.at(-1)) {
      model.past.push(model.current);
      model.current = copy(after.project);
      model.future = [];
      expect(real.history().undo).toEqual(expect.any(String));
    } else {
      // Refused, a copy, a selection, or an edit that changed nothing: the very same project.
      expect(after.project).toBe(before.project);
    }
    expectMatches(model, real);
  }
  toString = () => `edit ${JSON.stringify(this.step)}`;
}

class UndoCommand implements fc.Command<Model, EditorHarness> {
  check = () => true;
  run(model: Model, real: EditorHarness) {
    real.send({ type: "user.undo" });
    const previous = model.past.pop();
    if (previous) {
      model.future.push(model.current);
      model.current = previous;
    }
    expectMatches(model, real);
  }
  toString = () => "undo";
}

class RedoCommand implements fc.Command<Model, EditorHarness> {
  check = () => true;
  run(model: Model, real: EditorHarness) {
    real.send({ type: "user.redo" });
    const next = model.future.pop();
    if (next) {
      model.past.push(model.current);
      model.current = next;
    }
    expectMatches(model, real);
  }
  toString = () => "redo";
}

const commandsArb = fc.commands(
  [
    editStepArb.map((step) => new EditCommand(step)),
    fc.constant(new UndoCommand()),
    fc.constant(new RedoCommand()),
  ],
  { maxCommands: 60 },
);

describe("the editor's undo, as a model", () => {
  it(
    "is after every edit, undo and redo the project the two stacks of a user's expectations say",
    () => {
      fc.assert(
        fc.property(projectArb, commandsArb, (project, commands) => {
          fc.modelRun(() => {
            const real = startEditor(project);
            return { model: { current: copy(real.project()), past: [], future: [], counter: 0 }, real };
          }, commands);
        }),
        { numRuns: runs },
      );
    },
    timeoutFor(40),
  );
});
