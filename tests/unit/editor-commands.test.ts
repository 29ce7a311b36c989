// The command table's edits of CONTRACT section 20 on the editor machine alone: copy, cut and
// paste (the editor's clipboard, and .side commands from the system clipboard), v3's disabled
// commands (`//`), and a command's description (`comment`).
import { describe, expect, it } from "vitest";
import { expectRefused, startEditor } from "../support/editor.ts";

const LOGIN = ["c-open", "c-user", "c-pass", "c-submit", "c-check"];
const ids = (editor: ReturnType<typeof startEditor>, testId = "t-login") => editor.test(testId)!.commands.map((c) => c.id);
const names = (editor: ReturnType<typeof startEditor>, testId = "t-login") => editor.test(testId)!.commands.map((c) => c.command);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("copy and paste", () => {
  it("copies without changing the project, and pastes copies with new ids after the selected command, the last pasted selected", () => {
    const editor = startEditor();
    editor.send({ type: "user.copyCommands", commandIds: ["c-pass", "c-user"] });
    expect(editor.edits()).toBe(0);
    expect(editor.context().history.done).toHaveLength(0);
    editor.send({ type: "user.selectCommand", commandId: "c-open" });
    editor.send({ type: "user.pasteCommands" });
    const after = ids(editor);
    expect(after.slice(0, 1)).toEqual(["c-open"]);
    expect(after.slice(1, 3).every((id) => UUID.test(id))).toBe(true);
    expect(after.slice(3)).toEqual(LOGIN.slice(1));
    // In the test's order, whatever order the ids came in.
    expect(names(editor).slice(1, 3)).toEqual(["type", "type"]);
    expect(editor.test("t-login")!.commands[1]).toMatchObject({ target: "id=user", value: "alice", targets: editor.test("t-login")!.commands[3].targets });
    expect(editor.context().selectedCommandId).toBe(after[2]);
    expect(editor.history().undo).toBe("Paste 2 commands");
    expect(editor.edits()).toBe(1);
  });

  it("pastes after the command named, else at the end when nothing is selected, and again with other new ids", () => {
    const editor = startEditor();
    editor.send({ type: "user.copyCommands", commandIds: ["c-open"] });
    editor.send({ type: "user.pasteCommands", afterCommandId: "c-submit" });
    expect(names(editor)).toEqual(["open", "type", "type", "click", "open", "eyesCheckWindow"]);
    editor.send({ type: "user.selectCommand", commandId: null });
    editor.send({ type: "user.pasteCommands" });
    expect(names(editor).at(-1)).toBe("open");
    expect(new Set(ids(editor)).size).toBe(7);
    expect(editor.history().undo).toBe('Paste command "open"');
  });

  it("pastes into another test and, after a load, into another project", () => {
    const editor = startEditor();
    editor.send({ type: "user.copyCommands", commandIds: ["c-user"] });
    editor.send({ type: "user.selectTest", testId: "t-cart" });
    editor.send({ type: "user.pasteCommands" });
    expect(names(editor, "t-cart")).toEqual(["open", "click", "assertText", "type"]);
    const other = { ...editor.project(), id: "p-other", tests: [{ id: "t-x", name: "x", commands: [] }] };
    editor.send({ type: "project.loaded", project: other });
    editor.send({ type: "user.pasteCommands" });
    expect(editor.test("t-x")!.commands).toMatchObject([{ command: "type", target: "id=user", value: "alice" }]);
  });

  it("pastes .side commands the system clipboard gave, keeping their fields, with new ids", () => {
    const editor = startEditor();
    const commands = [
      { id: "from-file", command: "click", target: "id=go", value: "", comment: "go on", targets: [["id=go", "id"]] },
      { command: "pause", target: "100" },
    ];
    editor.send({ type: "user.pasteCommands", afterCommandId: "c-open", commands });
    const pasted = editor.test("t-login")!.commands.slice(1, 3);
    expect(pasted).toMatchObject([
      { command: "click", target: "id=go", value: "", comment: "go on", targets: [["id=go", "id"]] },
      { command: "pause", target: "100", value: "" },
    ]);
    expect(pasted.every((c) => UUID.test(c.id))).toBe(true);
  });

  it.each([
    [[], /not \.side commands: commands must hold at least one command/],
    [["click"], /not \.side commands: commands\[0\]/],
    [[{ target: "id=go" }], /commands\[0\]\.command is missing/],
    [[{ command: "click", target: 3 }], /commands\[0\]\.target must be a string/],
  ])("refuses a paste of %j that is not .side commands, naming what is wrong", (commands, why) => {
    expectRefused(startEditor(), { type: "user.pasteCommands", commands }, why, expect);
  });

  it("refuses a paste with nothing copied, after an unknown command, or with no test", () => {
    const editor = startEditor();
    expectRefused(editor, { type: "user.pasteCommands" }, /nothing to paste: copy or cut commands first/, expect);
    editor.send({ type: "user.copyCommands", commandIds: ["c-open"] });
    expectRefused(editor, { type: "user.pasteCommands", afterCommandId: "c-nope" }, /no command with the id "c-nope"/, expect);
    const empty = startEditor({ ...editor.project(), tests: [] });
    expectRefused(empty, { type: "user.pasteCommands", commands: [{ command: "open" }] }, /no test cases/, expect);
  });

  it("refuses to copy an unknown command or one named twice, and keeps the clipboard as it was", () => {
    const editor = startEditor();
    editor.send({ type: "user.copyCommands", commandIds: ["c-open"] });
    const clipboard = editor.context().clipboard;
    expectRefused(editor, { type: "user.copyCommands", commandIds: ["c-open", "c2-open"] }, /no command with the id "c2-open"/, expect);
    expectRefused(editor, { type: "user.copyCommands", commandIds: ["c-user", "c-user"] }, /"c-user" is named twice/, expect);
    expect(editor.context().clipboard).toBe(clipboard);
  });
});

describe("cut", () => {
  it("fills the clipboard and removes the commands in one edit; the command after them is selected", () => {
    const editor = startEditor();
    editor.send({ type: "user.cutCommands", commandIds: ["c-user", "c-submit"] });
    expect(ids(editor)).toEqual(["c-open", "c-pass", "c-check"]);
    expect(editor.context().selectedCommandId).toBe("c-pass");
    expect(editor.context().clipboard.map((c) => c.id)).toEqual(["c-user", "c-submit"]);
    expect(editor.history().undo).toBe("Cut 2 commands");
    expect(editor.context().history.done).toHaveLength(1);
    editor.send({ type: "user.pasteCommands" });
    expect(names(editor)).toEqual(["open", "type", "type", "click", "eyesCheckWindow"]);
  });

  it("selects the command before them when they were the last, and none when the test is empty", () => {
    const editor = startEditor();
    editor.send({ type: "user.cutCommands", commandIds: ["c-submit", "c-check"] });
    expect(editor.context().selectedCommandId).toBe("c-pass");
    editor.send({ type: "user.cutCommands", commandIds: ["c-open", "c-user", "c-pass"] });
    expect(editor.context().selectedCommandId).toBe(null);
    expect(ids(editor)).toEqual([]);
  });

  it("is refused in a test a run plays", () => {
    const editor = startEditor();
    editor.send({ type: "run.playing", testIds: ["t-login"] });
    expectRefused(editor, { type: "user.cutCommands", commandIds: ["c-open"] }, /"logs in" is being played/, expect);
    expect(editor.context().clipboard).toEqual([]);
  });
});

describe("disabled commands", () => {
  it("puts v3's // before each command's name and takes it away again, one edit each time", () => {
    const editor = startEditor();
    editor.send({ type: "user.toggleCommandsDisabled", commandIds: ["c-open", "c-submit"] });
    expect(names(editor)).toEqual(["//open", "type", "type", "//click", "eyesCheckWindow"]);
    expect(editor.history().undo).toBe("Disable 2 commands");
    editor.send({ type: "user.toggleCommandsDisabled", commandIds: ["c-open"] });
    expect(editor.history().undo).toBe('Enable command "//open"');
    editor.send({ type: "user.toggleCommandsDisabled", commandIds: ["c-open", "c-submit"] });
    expect(names(editor)).toEqual(["//open", "type", "type", "click", "eyesCheckWindow"]);
    expect(editor.history().undo).toBe("Disable or enable 2 commands");
    expect(editor.context().history.done).toHaveLength(3);
  });

  it("refuses an unknown command, and a test a run plays", () => {
    const editor = startEditor();
    expectRefused(editor, { type: "user.toggleCommandsDisabled", commandIds: ["c-nope"] }, /no command with the id "c-nope"/, expect);
    editor.send({ type: "run.playing", testIds: ["t-login"] });
    expectRefused(editor, { type: "user.toggleCommandsDisabled", commandIds: ["c-open"] }, /being played/, expect);
  });
});

describe("a command's description", () => {
  it("is the command's comment, as v3 keeps it", () => {
    const editor = startEditor();
    editor.send({ type: "user.changeCommand", commandId: "c-open", comment: "the login page" });
    expect(editor.test("t-login")!.commands[0]).toMatchObject({ command: "open", target: "/login", comment: "the login page" });
    expect(editor.history().undo).toBe('Change command "open"');
  });
});
