// "Alternative locators" on the editor machine alone (CONTRACT section 21): user.chooseLocator
// makes one of the command's recorded `targets` its target, as one edit Undo takes back; the
// old target stays among the alternatives.
import { describe, expect, it } from "vitest";
import { expectRefused, startEditor } from "../support/editor.ts";
import { targetPairs } from "../../machines/editor.edits.ts";

const user = (editor: ReturnType<typeof startEditor>) => editor.test("t-login")!.commands[1];
const RECORDED = [
  ["id=user", "id"],
  ["css=#user", "css:finder"],
  ["xpath=//input[@id='user']", "xpath:attributes"],
];

describe("choosing an alternative locator", () => {
  it("makes the chosen locator the target and keeps the list, as one edit", () => {
    const editor = startEditor();
    editor.send({ type: "user.chooseLocator", commandId: "c-user", locator: "css=#user" });
    expect(user(editor).target).toBe("css=#user");
    expect(user(editor).targets).toEqual(RECORDED);
    expect(editor.history().undo).toBe('Use "css=#user" as the target of "type"');
    expect(editor.edits()).toBe(1);
  });

  it("gives back the old target when the choice is undone, and the choice again on redo", () => {
    const editor = startEditor();
    editor.send({ type: "user.chooseLocator", commandId: "c-user", locator: "xpath=//input[@id='user']" });
    editor.send({ type: "user.undo" });
    expect(user(editor).target).toBe("id=user");
    expect(user(editor).targets).toEqual(RECORDED);
    editor.send({ type: "user.redo" });
    expect(user(editor).target).toBe("xpath=//input[@id='user']");
  });

  it("puts a typed target that was not recorded among the alternatives, named by its strategy", () => {
    const editor = startEditor();
    editor.send({ type: "user.changeCommand", commandId: "c-user", target: "css=form input" });
    editor.send({ type: "user.chooseLocator", commandId: "c-user", locator: "id=user" });
    expect(user(editor).target).toBe("id=user");
    expect(user(editor).targets).toEqual([...RECORDED, ["css=form input", "css"]]);
    editor.send({ type: "user.undo" });
    expect(user(editor).target).toBe("css=form input");
    expect(user(editor).targets).toEqual(RECORDED);
  });

  it("refuses a locator that is not among the command's alternatives, or is its target already, changing nothing", () => {
    const editor = startEditor();
    expectRefused(editor, { type: "user.chooseLocator", commandId: "c-user", locator: "css=.other" }, /"css=\.other" is not one of the alternative locators of command #2 "type"\./, expect);
    expectRefused(editor, { type: "user.chooseLocator", commandId: "c-user", locator: "id=user" }, /"id=user" is the target of command #2 "type" already\./, expect);
    expectRefused(editor, { type: "user.chooseLocator", commandId: "c-nope", locator: "id=user" }, /has no command with the id "c-nope"/, expect);
  });

  it("reads a .side file's targets leniently: pairs kept, a lone locator named by its strategy, anything else left out", () => {
    expect(targetPairs([["id=a", "id"], ["css=.b"], "xpath=//c", [""], [3, "x"], ["//d", 7]])).toEqual([
      ["id=a", "id"],
      ["css=.b", "css"],
      ["//d", "xpath"],
    ]);
    expect(targetPairs(undefined)).toEqual([]);
    expect(targetPairs({ 0: ["id=a", "id"] })).toEqual([]);
  });
});
