// Undo and redo on the editor machine alone (CONTRACT section 20): every edit is a step,
// whoever made it; a step has a name; redo gives back the very project; loads and restores
// start an empty history; the run lock and the recording hold undo as they hold edits.
import { describe, expect, it } from "vitest";
import { MAX_STEPS } from "../../machines/editor.history.ts";
import { expectRefused, shop, startEditor } from "../support/editor.ts";

const recorded = (id: string) => ({ id, command: "click", target: `id=${id}`, value: "", targets: [] });

describe("the undo history", () => {
  it("is empty at start, and Undo with nothing done says so and changes nothing", () => {
    const editor = startEditor();
    expect(editor.history()).toEqual({ canUndo: false, canRedo: false, undo: null, redo: null });
    expectRefused(editor, { type: "user.undo" }, /nothing to undo/, expect);
    expectRefused(editor, { type: "user.redo" }, /nothing to redo/, expect);
  });

  it("takes back the last edit and does it again, with the same ids, and each is an edit of the project", () => {
    const editor = startEditor();
    const first = editor.project();
    editor.send({ type: "user.addCommand", command: "click", target: "id=go" });
    const made = editor.project();
    expect(editor.history()).toEqual({ canUndo: true, canRedo: false, undo: 'Add command "click"', redo: null });
    editor.send({ type: "user.undo" });
    expect(editor.project()).toEqual(first);
    expect(editor.history()).toEqual({ canUndo: false, canRedo: true, undo: null, redo: 'Add command "click"' });
    editor.send({ type: "user.redo" });
    expect(editor.project()).toEqual(made);
    expect(editor.edits()).toBe(3);
  });

  it("shows again what the user looked at before the edit, and after it on redo", () => {
    const editor = startEditor();
    editor.send({ type: "user.selectCommand", commandId: "c-user" });
    editor.send({ type: "user.deleteTest", testId: "t-login" });
    expect(editor.context()).toMatchObject({ displayedTestId: "t-cart", selectedCommandId: null });
    editor.send({ type: "user.undo" });
    expect(editor.context()).toMatchObject({ displayedTestId: "t-login", selectedCommandId: "c-user" });
    expect(editor.project().suites).toEqual(shop().suites);
    editor.send({ type: "user.redo" });
    expect(editor.context()).toMatchObject({ displayedTestId: "t-cart", selectedCommandId: null });
  });

  it("drops what was undone when a new edit is made", () => {
    const editor = startEditor();
    editor.send({ type: "user.addTest", name: "one" });
    editor.send({ type: "user.undo" });
    editor.send({ type: "user.addTest", name: "two" });
    expect(editor.history()).toEqual({ canUndo: true, canRedo: false, undo: 'Add test "two"', redo: null });
  });

  it("counts every edit, whoever made it: a plugin's, the recorder's, the settings, the recorded page's url", () => {
    const editor = startEditor({ ...shop(), url: "" });
    editor.send({ type: "request.addCommand", requestId: 1, sender: "p", command: "echo", target: "hi" });
    editor.send({ type: "request.changeCommand", requestId: 2, sender: "p", id: "c-open", target: "/home" });
    editor.send({ type: "request.deleteCommand", requestId: 3, sender: "p", id: "c-check" });
    editor.send({ type: "recording.started", testId: "t-login", testName: "logs in", startedAt: 1 });
    editor.send({ type: "recording.urlFound", url: "http://shop.test" });
    editor.send({ type: "recording.commandsRecorded", testId: "t-login", commands: [recorded("r1"), recorded("r2"), recorded("r3")] });
    editor.send({ type: "recording.commandChanged", testId: "t-login", commandId: "r1", command: "type", target: "id=r1", value: "x" });
    editor.send({ type: "recording.commandRemoved", testId: "t-login", commandId: "r2" });
    editor.send({ type: "user.changeSettings", heal: false });
    editor.send({ type: "user.changeCommand", commandId: "c-user", target: "css=#user", fingerprint: { tag: "input" } as never });
    const labels: string[] = [];
    while (editor.history().canUndo) {
      labels.push(editor.history().undo!);
      editor.send({ type: "user.undo" });
    }
    expect(labels).toEqual([
      'Change command "type"',
      "Change the recording settings",
      'Remove recorded command "click"',
      'Change recorded command "click"',
      "Record 3 commands",
      'Set the base URL to "http://shop.test"',
      'Delete command "eyesCheckWindow"',
      'Change command "open"',
      'Add command "echo"',
    ]);
    expect(editor.project()).toEqual({ ...shop(), url: "" });
  });

  it("starts empty again on a load and on a restore, and keeps the clipboard", () => {
    const editor = startEditor();
    editor.send({ type: "user.copyCommands", commandIds: ["c-open"] });
    editor.send({ type: "user.addTest", name: "one" });
    editor.send({ type: "project.loaded", project: shop() });
    expect(editor.history()).toEqual({ canUndo: false, canRedo: false, undo: null, redo: null });
    editor.send({ type: "user.addTest", name: "two" });
    editor.send({ type: "user.undo" });
    editor.send({ type: "project.reverted", project: shop() });
    expect(editor.history()).toEqual({ canUndo: false, canRedo: false, undo: null, redo: null });
    expect(editor.context().clipboard).toHaveLength(1);
  });

  it(`keeps the last ${MAX_STEPS} steps, at least the 200 the contract asks for`, () => {
    expect(MAX_STEPS).toBeGreaterThanOrEqual(200);
    const editor = startEditor();
    for (let i = 0; i < MAX_STEPS + 5; i += 1) editor.send({ type: "user.changeCommand", commandId: "c-open", target: `/page/${i}` });
    expect(editor.context().history.done).toHaveLength(MAX_STEPS);
    for (let i = 0; i < MAX_STEPS; i += 1) editor.send({ type: "user.undo" });
    expect(editor.test("t-login")!.commands[0].target).toBe("/page/4");
    expectRefused(editor, { type: "user.undo" }, /nothing to undo/, expect);
  });

  it("keeps no step for an edit that changed nothing", () => {
    const editor = startEditor();
    editor.send({ type: "user.changeCommand", commandId: "c-open", target: "/login" });
    expect(editor.history().canUndo).toBe(false);
  });
});

describe("undo and the run lock", () => {
  it("refuses to undo or redo a change of a test the run plays, and undoes other steps", () => {
    const editor = startEditor();
    editor.send({ type: "user.changeCommand", commandId: "c-open", target: "/home" });
    editor.send({ type: "user.addSuite", name: "Nightly" });
    editor.send({ type: "run.playing", testIds: ["t-login"] });
    editor.send({ type: "user.undo" });
    expect(editor.project().suites).toHaveLength(1);
    expectRefused(editor, { type: "user.undo" }, /"Change command "open"" changed the test "logs in", which is being played; it cannot be undone/, expect);
    editor.send({ type: "run.over" });
    editor.send({ type: "user.undo" });
    editor.send({ type: "run.playing", testIds: ["t-login"] });
    expectRefused(editor, { type: "user.redo" }, /cannot be redone until the run is over/, expect);
  });

  it("refuses an undo that would remove the test a recording records into", () => {
    const editor = startEditor();
    editor.send({ type: "user.addTest", name: "new" });
    const added = editor.context().displayedTestId!;
    editor.send({ type: "recording.started", testId: added, testName: "new", startedAt: 1 });
    expectRefused(editor, { type: "user.undo" }, /would remove the test being recorded into/, expect);
    editor.send({ type: "recording.stopped", testId: added, testName: "new" });
    editor.send({ type: "user.undo" });
    expect(editor.project().tests.map((t) => t.name)).toEqual(["logs in", "adds to cart"]);
  });
});
