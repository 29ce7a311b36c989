// The editor's edits of the project itself (CONTRACT section 20): its name and base URL, whole
// tests (duplicate, delete) and suites (add, rename, delete, their tests, their settings), on the
// editor machine alone. Each is one undo step; a refused one changes nothing and says why.
import { describe, expect, it } from "vitest";
import { newProject } from "../../services/side/index.ts";
import type { SideSuite } from "../../services/side/index.ts";
import { copyName } from "../../services/side/testName.ts";
import type { EditorEvent } from "../../machines/editor.types.ts";
import { expectRefused, startEditor } from "../support/editor.ts";

const suites = (editor: ReturnType<typeof startEditor>) => editor.project().suites as SideSuite[];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("the project's name and base URL", () => {
  it("changes the name and the url, each trimmed, as one edit that makes the project unsaved", () => {
    const editor = startEditor();
    editor.send({ type: "user.changeProject", name: "  Shop v2 ", url: "https://shop.example/" });
    expect(editor.project()).toMatchObject({ name: "Shop v2", url: "https://shop.example/" });
    expect(editor.edits()).toBe(1);
    expect(editor.history().undo).toBe('Change project "Shop checkout"');
  });

  it("names the step by what changed", () => {
    const editor = startEditor();
    editor.send({ type: "user.changeProject", name: "Shop v2" });
    expect(editor.history().undo).toBe('Rename project "Shop checkout" to "Shop v2"');
    editor.send({ type: "user.changeProject", url: "http://localhost:3000" });
    expect(editor.history().undo).toBe('Change the base URL to "http://localhost:3000"');
  });

  it.each([
    [{ name: "  " }, /needs a name that is not empty/],
    [{ url: "shop.example" }, /not an absolute URL/],
    [{ url: "/login" }, /not an absolute URL/],
    [{ url: "ftp://shop.example" }, /must start with http:\/\/ or https:\/\//],
    [{ url: "javascript:alert(1)" }, /must start with http:\/\/ or https:\/\//],
    [{}, /already so/],
    [{ name: "Shop checkout", url: "http://127.0.0.1:8080" }, /already so/],
  ])("refuses %j and changes nothing", (change, why) => {
    expectRefused(startEditor(), { type: "user.changeProject", ...change }, why, expect);
  });
});

describe("duplicating a test", () => {
  it("puts a copy named \"NAME (copy)\" right after it, with new ids for it and its commands, and displays it", () => {
    const editor = startEditor();
    editor.send({ type: "user.duplicateTest", testId: "t-login" });
    const [original, copy, cart] = editor.project().tests;
    expect([original.id, cart.id]).toEqual(["t-login", "t-cart"]);
    expect(copy.name).toBe("logs in (copy)");
    expect(copy.id).toMatch(UUID);
    expect(copy.commands.map((c) => c.id).every((id) => UUID.test(id))).toBe(true);
    expect(copy.commands.map(({ id: _, ...c }) => c)).toEqual(original.commands.map(({ id: _, ...c }) => c));
    expect(editor.context()).toMatchObject({ displayedTestId: copy.id, selectedCommandId: null });
    expect(editor.history().undo).toBe('Duplicate test "logs in"');
  });

  it("numbers a second copy, and a copy of a copy, by the names already taken", () => {
    const editor = startEditor();
    editor.send({ type: "user.duplicateTest", testId: "t-login" });
    editor.send({ type: "user.duplicateTest", testId: "t-login" });
    expect(editor.project().tests.map((t) => t.name)).toEqual(["logs in", "logs in (copy 2)", "logs in (copy)", "adds to cart"]);
    expect(copyName("a", [{ id: "1", name: "a (copy)" }, { id: "2", name: "a (copy 2)" }])).toBe("a (copy 3)");
  });

  it("stands right after the original in every suite that holds it", () => {
    const editor = startEditor();
    editor.send({ type: "user.addSuite", name: "Cart first" });
    const added = suites(editor)[1].id;
    editor.send({ type: "user.setSuiteTests", suiteId: added, testIds: ["t-cart", "t-login"] });
    editor.send({ type: "user.duplicateTest", testId: "t-login" });
    const copy = editor.context().displayedTestId!;
    expect(suites(editor).map((s) => s.tests)).toEqual([
      ["t-login", copy, "t-cart"],
      ["t-cart", "t-login", copy],
    ]);
  });

  it("refuses an unknown test", () => {
    expectRefused(startEditor(), { type: "user.duplicateTest", testId: "t-nope" }, /no test case with the id "t-nope"/, expect);
  });
});

describe("deleting a test", () => {
  it("removes it and its place in every suite, and displays the next test", () => {
    const editor = startEditor();
    editor.send({ type: "user.selectCommand", commandId: "c-user" });
    editor.send({ type: "user.deleteTest", testId: "t-login" });
    expect(editor.project().tests.map((t) => t.id)).toEqual(["t-cart"]);
    expect(suites(editor)[0].tests).toEqual(["t-cart"]);
    expect(editor.context()).toMatchObject({ displayedTestId: "t-cart", selectedCommandId: null });
    expect(editor.history().undo).toBe('Delete test "logs in"');
  });

  it("displays the previous test when the last one goes, and none when no test is left", () => {
    const editor = startEditor();
    editor.send({ type: "user.selectTest", testId: "t-cart" });
    editor.send({ type: "user.deleteTest", testId: "t-cart" });
    expect(editor.context().displayedTestId).toBe("t-login");
    editor.send({ type: "user.deleteTest", testId: "t-login" });
    expect(editor.context()).toMatchObject({ displayedTestId: null, selectedCommandId: null });
  });

  it("keeps the display and its selection when another test goes", () => {
    const editor = startEditor();
    editor.send({ type: "user.selectCommand", commandId: "c-pass" });
    editor.send({ type: "user.deleteTest", testId: "t-cart" });
    expect(editor.context()).toMatchObject({ displayedTestId: "t-login", selectedCommandId: "c-pass" });
  });

  it("refuses an unknown test, the test a run plays and the test a recording records into", () => {
    const editor = startEditor();
    expectRefused(editor, { type: "user.deleteTest", testId: "t-nope" }, /no test case with the id "t-nope"/, expect);
    editor.send({ type: "run.playing", testIds: ["t-login"] });
    expectRefused(editor, { type: "user.deleteTest", testId: "t-login" }, /"logs in" is being played/, expect);
    editor.send({ type: "run.over" });
    editor.send({ type: "recording.started", testId: "t-cart", testName: "adds to cart", startedAt: 1 });
    expectRefused(editor, { type: "user.deleteTest", testId: "t-cart" }, /"adds to cart" is being recorded into/, expect);
    editor.send({ type: "recording.stopped", testId: "t-cart", testName: "adds to cart" });
    editor.send({ type: "user.deleteTest", testId: "t-cart" });
    expect(editor.project().tests.map((t) => t.id)).toEqual(["t-login"]);
  });
});

describe("suites", () => {
  it("adds a suite as Selenium IDE makes one: empty, not parallel, no shared session, 300 seconds", () => {
    const editor = startEditor();
    editor.send({ type: "user.addSuite", name: " Nightly " });
    expect(suites(editor)[1]).toEqual({ id: expect.stringMatching(UUID), name: "Nightly", persistSession: false, parallel: false, timeout: 300, tests: [] });
    expect(editor.history().undo).toBe('Add suite "Nightly"');
  });

  it("renames and deletes a suite", () => {
    const editor = startEditor();
    editor.send({ type: "user.renameSuite", suiteId: "s-default", name: "Smoke" });
    expect(suites(editor)[0].name).toBe("Smoke");
    expect(editor.history().undo).toBe('Rename suite "Default Suite" to "Smoke"');
    editor.send({ type: "user.deleteSuite", suiteId: "s-default" });
    expect(suites(editor)).toEqual([]);
    expect(editor.history().undo).toBe('Delete suite "Smoke"');
    expect(editor.project().tests).toHaveLength(2);
  });

  it.each([
    [{ type: "user.addSuite", name: "" }, /suite needs a name that is not empty/],
    [{ type: "user.addSuite", name: "Default Suite" }, /already has a suite named "Default Suite"/],
    [{ type: "user.renameSuite", suiteId: "s-default", name: "  " }, /suite needs a name that is not empty/],
    [{ type: "user.renameSuite", suiteId: "s-nope", name: "x" }, /no suite with the id "s-nope"/],
    [{ type: "user.deleteSuite", suiteId: "s-nope" }, /no suite with the id "s-nope"/],
    [{ type: "user.setSuiteTests", suiteId: "s-nope", testIds: [] }, /no suite with the id "s-nope"/],
    [{ type: "user.changeSuite", suiteId: "s-nope", parallel: true }, /no suite with the id "s-nope"/],
  ] as Array<[EditorEvent, RegExp]>)("refuses %j and changes nothing", (event, why) => {
    expectRefused(startEditor(), event, why, expect);
  });

  it("refuses a name another suite has when renaming, but not the suite's own", () => {
    const editor = startEditor();
    editor.send({ type: "user.addSuite", name: "Nightly" });
    expectRefused(editor, { type: "user.renameSuite", suiteId: "s-default", name: "Nightly" }, /already has a suite named "Nightly"/, expect);
    expectRefused(editor, { type: "user.renameSuite", suiteId: "s-default", name: "Default Suite" }, /already named "Default Suite"/, expect);
  });

  it("holds exactly the tests given, in their order: added, removed and reordered in one edit", () => {
    const editor = startEditor();
    editor.send({ type: "user.setSuiteTests", suiteId: "s-default", testIds: ["t-cart", "t-login"] });
    expect(suites(editor)[0].tests).toEqual(["t-cart", "t-login"]);
    editor.send({ type: "user.setSuiteTests", suiteId: "s-default", testIds: ["t-cart"] });
    expect(suites(editor)[0].tests).toEqual(["t-cart"]);
    editor.send({ type: "user.setSuiteTests", suiteId: "s-default", testIds: [] });
    expect(suites(editor)[0].tests).toEqual([]);
    expect(editor.history().undo).toBe('Change the tests of suite "Default Suite"');
    expect(editor.context().history.done).toHaveLength(3);
  });

  it("refuses an unknown test, a test named twice, and the tests it holds already", () => {
    const editor = startEditor();
    expectRefused(editor, { type: "user.setSuiteTests", suiteId: "s-default", testIds: ["t-login", "t-nope"] }, /no test case with the id "t-nope"/, expect);
    expectRefused(editor, { type: "user.setSuiteTests", suiteId: "s-default", testIds: ["t-cart", "t-cart"] }, /"t-cart" is named twice/, expect);
    expectRefused(editor, { type: "user.setSuiteTests", suiteId: "s-default", testIds: ["t-login", "t-cart"] }, /already holds these tests/, expect);
  });

  it("changes a suite's settings as the .side file holds them, the timeout in seconds", () => {
    const editor = startEditor();
    editor.send({ type: "user.changeSuite", suiteId: "s-default", parallel: true, persistSession: true, timeoutS: 60 });
    expect(suites(editor)[0]).toMatchObject({ parallel: true, persistSession: true, timeout: 60 });
    expect(editor.history().undo).toBe('Change the settings of suite "Default Suite"');
    expectRefused(editor, { type: "user.changeSuite", suiteId: "s-default", parallel: true }, /already so/, expect);
  });

  it("leaves a suite it cannot read as it came, and never names it", () => {
    const project = { ...startEditor().project(), suites: [{ id: "odd", tests: "not a list" }] };
    const editor = startEditor(project);
    expectRefused(editor, { type: "user.deleteSuite", suiteId: "odd" }, /no suite with the id "odd"/, expect);
    editor.send({ type: "user.deleteTest", testId: "t-login" });
    expect(editor.project().suites).toEqual([{ id: "odd", tests: "not a list" }]);
  });
});

describe("a new project", () => {
  it("has one empty test \"Untitled\" in one suite \"Default Suite\", and no url", () => {
    const project = newProject();
    expect(project).toMatchObject({ name: "Untitled project", url: "", tests: [{ name: "Untitled", commands: [] }] });
    expect(project.suites).toEqual([{ id: expect.stringMatching(UUID), name: "Default Suite", persistSession: false, parallel: false, timeout: 300, tests: [project.tests[0].id] }]);
    expect(newProject().tests[0].id).not.toBe(project.tests[0].id);
  });
});
