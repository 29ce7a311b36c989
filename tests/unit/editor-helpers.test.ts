// The test editor's pure parts (ui/): the command names it offers, what its grid's keys do,
// the rules it checks a test's name by, and how it reads the IDE's answer to "Find".
import { describe, expect, it } from "vitest";
import { SELENIUM_COMMANDS, choiceLabel, commandChoices, findChoice } from "../../ui/commandNames.ts";
import { tableKeyAction } from "../../ui/editorKeys.ts";
import { failedAsking, readLocatorReply } from "../../ui/locatorAnswer.ts";
import { testNameProblem } from "../../services/side/testName.ts";

const plugin = (name: string, commands: Array<{ id: string; name: string; docs: { description?: string; target?: string; value?: string } | null }>) => ({
  id: `plugin-${name}`,
  name,
  version: "1.0.0",
  commands,
});

describe("the command names the editor offers", () => {
  it("lists Selenium IDE's commands by their ids, with a one-line description and what their target and value mean", () => {
    const ids = SELENIUM_COMMANDS.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(["open", "click", "type", "assertText", "storeText", "if", "end", "echo"]));
    expect(ids).toEqual([...ids].sort((a, b) => a.localeCompare(b)));
    const type = findChoice(SELENIUM_COMMANDS, "type")!;
    expect(type).toMatchObject({ id: "type", name: "type", source: "Selenium IDE" });
    expect(type.target).toMatch(/^locator: /);
    expect(type.value).toMatch(/^value: /);
    expect(type.description).not.toMatch(/\n|\s{2}/);
    expect(findChoice(SELENIUM_COMMANDS, "acceptAlert")!.target).toBeNull();
  });

  it("offers Katalon Recorder's loadVars and endLoadVars, which the IDE plays, with what loadVars' target is", () => {
    expect(findChoice(SELENIUM_COMMANDS, "loadVars")!.target).toMatch(/^data file: A \.csv file with a header row, or a \.json array of objects/);
    expect(findChoice(SELENIUM_COMMANDS, "endLoadVars")).toMatchObject({ id: "endLoadVars", target: null });
  });

  it("adds each registered plugin's declared commands after Selenium IDE's, with their docs and the plugin's name", () => {
    const choices = commandChoices([
      plugin("Visual checks", [
        { id: "eyesCheckWindow", name: "check the window", docs: { description: "Compares the page with its baseline", target: "a tag" } },
        { id: "eyesClose", name: "close the eyes", docs: null },
      ]),
      plugin("No commands", []),
    ]);
    expect(choices.length).toBe(SELENIUM_COMMANDS.length + 2);
    expect(choices.slice(-2)).toEqual([
      { id: "eyesCheckWindow", name: "check the window", description: "Compares the page with its baseline", target: "a tag", value: null, source: "Visual checks" },
      { id: "eyesClose", name: "close the eyes", description: null, target: null, value: null, source: "Visual checks" },
    ]);
    expect(choiceLabel(choices.at(-2)!)).toBe("check the window (Visual checks) — Compares the page with its baseline");
    expect(choiceLabel(choices.at(-1)!)).toBe("close the eyes (Visual checks)");
    expect(choiceLabel(findChoice(choices, "open")!)).toMatch(/^open — /);
  });

  it("finds a command by its id as typed, spaces around it ignored, and nothing for a name nobody offers", () => {
    expect(findChoice(SELENIUM_COMMANDS, "  click ")?.id).toBe("click");
    expect(findChoice(SELENIUM_COMMANDS, "clickTwice")).toBeNull();
    expect(findChoice(SELENIUM_COMMANDS, "")).toBeNull();
  });
});

describe("the keys of the command grid", () => {
  it("moves the selection with the arrows, Home, End and the page keys, and not past either end", () => {
    expect(tableKeyAction({ key: "ArrowDown" }, 0, 3, true)).toEqual({ kind: "select", index: 1 });
    expect(tableKeyAction({ key: "ArrowUp" }, 2, 3, true)).toEqual({ kind: "select", index: 1 });
    expect(tableKeyAction({ key: "ArrowUp" }, 0, 3, true)).toBeNull();
    expect(tableKeyAction({ key: "ArrowDown" }, 2, 3, true)).toBeNull();
    expect(tableKeyAction({ key: "End" }, 0, 3, true)).toEqual({ kind: "select", index: 2 });
    expect(tableKeyAction({ key: "Home" }, 2, 3, true)).toEqual({ kind: "select", index: 0 });
    expect(tableKeyAction({ key: "PageDown" }, 0, 30, true)).toEqual({ kind: "select", index: 10 });
    expect(tableKeyAction({ key: "PageUp" }, 3, 30, true)).toEqual({ kind: "select", index: 0 });
  });

  it("moves the command itself with Alt and the arrows, Home or End", () => {
    expect(tableKeyAction({ key: "ArrowDown", altKey: true }, 0, 3, true)).toEqual({ kind: "move", toIndex: 1 });
    expect(tableKeyAction({ key: "ArrowUp", altKey: true }, 1, 3, true)).toEqual({ kind: "move", toIndex: 0 });
    expect(tableKeyAction({ key: "End", altKey: true }, 0, 3, true)).toEqual({ kind: "move", toIndex: 2 });
    expect(tableKeyAction({ key: "ArrowUp", altKey: true }, 0, 3, true)).toBeNull();
  });

  it("removes with Delete or Backspace, starts a new command after the row with Enter, and edits with F2", () => {
    expect(tableKeyAction({ key: "Delete" }, 1, 3, true)).toEqual({ kind: "delete" });
    expect(tableKeyAction({ key: "Backspace" }, 1, 3, true)).toEqual({ kind: "delete" });
    expect(tableKeyAction({ key: "Enter" }, 1, 3, true)).toEqual({ kind: "insertAfter" });
    expect(tableKeyAction({ key: "F2" }, 1, 3, true)).toEqual({ kind: "edit" });
    expect(tableKeyAction({ key: "Tab" }, 1, 3, true)).toBeNull();
    expect(tableKeyAction({ key: "a" }, 1, 3, true)).toBeNull();
  });

  it("only moves the selection while the test may not be edited", () => {
    expect(tableKeyAction({ key: "ArrowDown" }, 0, 3, false)).toEqual({ kind: "select", index: 1 });
    for (const press of [{ key: "Delete" }, { key: "Enter" }, { key: "F2" }, { key: "ArrowDown", altKey: true }]) {
      expect(tableKeyAction(press, 0, 3, false)).toBeNull();
    }
  });

  it("does nothing for a row that is not there", () => {
    expect(tableKeyAction({ key: "ArrowDown" }, 0, 0, true)).toBeNull();
    expect(tableKeyAction({ key: "Delete" }, 5, 3, true)).toBeNull();
  });
});

describe("a test's name", () => {
  const tests = [
    { id: "t-1", name: "logs in", commands: [] },
    { id: "t-2", name: "buys", commands: [] },
  ];
  it("must have something besides spaces, and no other test may have it", () => {
    expect(testNameProblem("  ", tests)).toBe("A test needs a name that is not empty.");
    expect(testNameProblem(" buys ", tests)).toBe('The project already has a test named "buys"; choose another name.');
    expect(testNameProblem("checks out", tests)).toBeNull();
  });
  it("may stay the name of the test being renamed", () => {
    expect(testNameProblem("buys", tests, "t-2")).toBeNull();
    expect(testNameProblem("buys", tests, "t-1")).toBe('The project already has a test named "buys"; choose another name.');
  });
});

describe("the answer to Find", () => {
  it("is the xpath when the IDE gives one", () => {
    expect(readLocatorReply("//input[@id='user']")).toEqual({ ok: true, xpath: "//input[@id='user']" });
  });
  it("is the IDE's error with its code when the locator is bad or matches nothing", () => {
    expect(readLocatorReply({ error: "No element matches css=#nope", errorCode: "ElementNotFound" })).toEqual({
      ok: false,
      code: "ElementNotFound",
      message: "No element matches css=#nope",
    });
  });
  it("says what came back when the answer is neither", () => {
    expect(readLocatorReply(undefined)).toEqual({ ok: false, code: null, message: "The IDE gave no xpath (its answer was nothing)." });
    expect(readLocatorReply({ odd: true })).toMatchObject({ ok: false, message: 'The IDE gave no xpath (its answer was {"odd":true}).' });
    expect(failedAsking(new Error("the IDE host could not be reached"))).toEqual({
      ok: false,
      code: null,
      message: "The locator could not be resolved: the IDE host could not be reached",
    });
  });
});
