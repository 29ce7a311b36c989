// Undo over random edits (fast-check), on the editor machine alone: whatever edits come (the
// user's, a plugin's, the recorder's, good or bad), undoing them all gives back the first
// project and redoing them all the last, ids included; a refused edit changes nothing; the
// project stays a .side project whose suites name its tests; the display stays valid.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isSuite, parseSideProject } from "../../services/side/index.ts";
import { runs, timeoutFor } from "./arbitraries.ts";
import { editStepArb, eventOf, projectArb } from "./editorSteps.ts";
import type { EditStep } from "./editorSteps.ts";
import { startEditor } from "../support/editor.ts";
import type { EditorHarness } from "../support/editor.ts";

const stepsArb = fc.array(editStepArb, { maxLength: 40 });

function play(editor: EditorHarness, steps: EditStep[]) {
  steps.forEach((step, i) => editor.send(eventOf(step, editor.context(), i + 1)));
}

function expectValid(editor: EditorHarness) {
  const { project, displayedTestId, selectedCommandId } = editor.context();
  const parsed = parseSideProject(project);
  expect(parsed.ok && parsed.project).toEqual(project);
  const ids = new Set(project.tests.map((t) => t.id));
  for (const suite of project.suites.filter(isSuite)) {
    expect(suite.tests.every((id) => ids.has(id))).toBe(true);
    expect(new Set(suite.tests).size).toBe(suite.tests.length);
  }
  const shown = project.tests.find((t) => t.id === displayedTestId);
  expect(displayedTestId === null ? project.tests.length === 0 : shown !== undefined).toBe(true);
  if (selectedCommandId !== null) expect(shown?.commands.some((c) => c.id === selectedCommandId)).toBe(true);
}

describe("undo over random edits", () => {
  it(
    "gives back the first project when every edit is undone, and the last when every one is redone",
    () => {
      fc.assert(
        fc.property(projectArb, stepsArb, (project, steps) => {
          const editor = startEditor(project);
          const first = structuredClone(editor.project());
          play(editor, steps);
          const last = structuredClone(editor.project());
          const made = editor.context().history.done.length;
          for (let i = 0; i < made; i += 1) editor.send({ type: "user.undo" });
          expect(editor.project()).toEqual(first);
          expect(editor.history().canUndo).toBe(false);
          for (let i = 0; i < made; i += 1) editor.send({ type: "user.redo" });
          expect(editor.project()).toEqual(last);
          expect(editor.history().canRedo).toBe(false);
        }),
        { numRuns: runs },
      );
    },
    timeoutFor(30),
  );

  it(
    "changes nothing on a refused edit, and keeps the project a .side project whose suites name its tests",
    () => {
      fc.assert(
        fc.property(projectArb, stepsArb, (project, steps) => {
          const editor = startEditor(project);
          steps.forEach((step, i) => {
            const before = editor.context();
            const warned = editor.warnings().length;
            editor.send(eventOf(step, before, i + 1));
            const after = editor.context();
            if (editor.warnings().length > warned) {
              expect(after.project).toBe(before.project);
              expect(after.history).toBe(before.history);
              expect([after.displayedTestId, after.selectedCommandId]).toEqual([before.displayedTestId, before.selectedCommandId]);
            }
            expectValid(editor);
          });
        }),
        { numRuns: Math.max(1, Math.floor(runs / 4)) },
      );
    },
    timeoutFor(60),
  );
});
