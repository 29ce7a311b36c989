// The command table's pure parts (ui/): how a click, Ctrl+click, Shift+click and Shift+arrows
// select commands, how that selection follows the IDE's, which keys do what, and what the
// system clipboard gets and gives as .side commands.
import { describe, expect, it } from "vitest";
import { readSideCommands, sideCommandsText } from "../../ui/clipboard.ts";
import { tableKeyAction } from "../../ui/editorKeys.ts";
import { awaitIde, followIde, NO_SELECTION, pick, selectedInOrder, settle } from "../../ui/selection.ts";
import type { CommandSelection } from "../../ui/selection.ts";
import { suiteNameProblem } from "../../ui/suiteName.ts";
import { movedTest } from "../../ui/components/SuiteEditor.tsx";
import { isAbsolutePath } from "../../ui/components/SaveAsDialog.tsx";

const ORDER = ["a", "b", "c", "d", "e"];
const ids = (selection: CommandSelection) => selectedInOrder(ORDER, selection);

describe("the command table's selection", () => {
  it("selects one command with a click, adds or takes one away with Ctrl+click, and never leaves none by Ctrl+click", () => {
    const one = pick(ORDER, NO_SELECTION, "b", "only");
    expect(ids(one)).toEqual(["b"]);
    const two = pick(ORDER, one, "d", "toggle");
    expect(ids(two)).toEqual(["b", "d"]);
    expect(ids(pick(ORDER, two, "b", "toggle"))).toEqual(["d"]);
    expect(ids(pick(ORDER, pick(ORDER, one, "b", "toggle"), "b", "toggle"))).toEqual(["b"]);
  });

  it("selects the range from the anchor with Shift+click, either way, and a new range from the same anchor replaces it", () => {
    const anchored = pick(ORDER, NO_SELECTION, "c", "only");
    expect(ids(pick(ORDER, anchored, "e", "range"))).toEqual(["c", "d", "e"]);
    const back = pick(ORDER, pick(ORDER, anchored, "e", "range"), "a", "range");
    expect(ids(back)).toEqual(["a", "b", "c"]);
    expect(back.anchor).toBe("c");
  });

  it("ignores a pick of a command the test does not have", () => {
    const one = pick(ORDER, NO_SELECTION, "b", "only");
    expect(pick(ORDER, one, "zz", "only")).toBe(one);
  });

  it("follows the IDE: a command it selected that the page did not is the whole selection, and removed commands leave it", () => {
    const two = pick(ORDER, pick(ORDER, NO_SELECTION, "b", "only"), "d", "toggle");
    expect(followIde(ORDER, two, "d")).toBe(two);
    expect(ids(followIde(ORDER, two, "e"))).toEqual(["e"]);
    expect(ids(followIde(["a", "d", "e"], two, "d"))).toEqual(["d"]);
    expect(ids(followIde(ORDER, two, null))).toEqual([]);
  });

  it("keeps the page's pick while the IDE's selection is still the one it had when the page picked, and follows the IDE once it moves", () => {
    const picked = awaitIde(ORDER, pick(ORDER, NO_SELECTION, "a", "only"), NO_SELECTION, "a", "c");
    expect(ids(followIde(ORDER, picked, "c"))).toEqual(["a"]);
    expect(ids(followIde(["a", "b"], { ...picked, ids: new Set(["a", "zz"]) }, "c"))).toEqual(["a"]);
    expect(ids(followIde(ORDER, picked, "a"))).toEqual(["a"]);
    expect(ids(followIde(ORDER, picked, "e"))).toEqual(["e"]);
    expect(settle(ORDER, picked, "c")).toBe(picked);
    expect(settle(ORDER, picked, "a").awaiting).toBeUndefined();
    const fromNone = awaitIde(ORDER, pick(ORDER, NO_SELECTION, "b", "only"), NO_SELECTION, "b", null);
    expect(ids(followIde(ORDER, fromNone, null))).toEqual(["b"]);
  });

  /** ↑ three times from "e": the page picks d, c, b before the IDE has taken any of them. */
  function threeQuickPicks(): CommandSelection {
    let page: CommandSelection = NO_SELECTION;
    for (const id of ["d", "c", "b"]) {
      const shown = followIde(ORDER, page, "e");
      page = awaitIde(ORDER, pick(ORDER, shown, id, "only"), shown, id, "e");
    }
    return page;
  }

  it("keeps the last of three quick picks while the IDE answers the first two one by one, so a Delete right after removes the command the user sees selected", () => {
    let page = threeQuickPicks();
    expect(selectedInOrder(ORDER, page)).toEqual(["b"]);
    // The IDE's selection passes through d and c on its way to b: the table shows b all along.
    for (const ide of ["d", "c", "b"]) {
      page = settle(ORDER, page, ide);
      expect(ids(followIde(ORDER, page, ide))).toEqual(["b"]);
    }
    expect(page.awaiting).toBeUndefined();
    // Once there, the IDE leads again: its delete's neighbour becomes the selection.
    expect(ids(followIde(["a", "c", "d", "e"], page, "c"))).toEqual(["c"]);
  });

  it("follows the IDE's delete when the pick was deleted before the IDE's answer to it came, even to a command picked before it", () => {
    // Delete right after the picks: the IDE's next view (its answers merged) has b gone and its neighbour c selected.
    const page = threeQuickPicks();
    const after = ["a", "c", "d", "e"];
    expect(ids(followIde(after, page, "c"))).toEqual(["c"]);
    expect(settle(after, page, "c").awaiting).toBeUndefined();
    // While b is there, the same c is one the IDE passes through: the pick stands.
    expect(ids(followIde(ORDER, page, "c"))).toEqual(["b"]);
  });
});

describe("the command table's keys", () => {
  it("stretches the selection with Shift and the arrows, and selects every command with Ctrl+A", () => {
    expect(tableKeyAction({ key: "ArrowDown", shiftKey: true }, 1, 5, true)).toEqual({ kind: "extend", index: 2 });
    expect(tableKeyAction({ key: "ArrowUp", shiftKey: true }, 0, 5, true)).toBeNull();
    expect(tableKeyAction({ key: "End", shiftKey: true }, 1, 5, true)).toEqual({ kind: "extend", index: 4 });
    expect(tableKeyAction({ key: "a", ctrlKey: true }, 0, 5, false)).toEqual({ kind: "selectAll" });
  });

  it("undoes with Ctrl+Z, redoes with Ctrl+Shift+Z or Ctrl+Y (Cmd on a Mac), and leaves the clipboard's keys to the browser", () => {
    expect(tableKeyAction({ key: "z", ctrlKey: true }, 0, 5, true)).toEqual({ kind: "undo" });
    expect(tableKeyAction({ key: "Z", ctrlKey: true, shiftKey: true }, 0, 5, true)).toEqual({ kind: "redo" });
    expect(tableKeyAction({ key: "y", ctrlKey: true }, 0, 5, true)).toEqual({ kind: "redo" });
    expect(tableKeyAction({ key: "z", metaKey: true }, 0, 5, true)).toEqual({ kind: "undo" });
    for (const key of ["c", "x", "v"]) expect(tableKeyAction({ key, ctrlKey: true }, 0, 5, true)).toBeNull();
    // Undo works on an empty test too (it may bring commands back), but not while the test is played.
    expect(tableKeyAction({ key: "z", ctrlKey: true }, -1, 0, true)).toEqual({ kind: "undo" });
    expect(tableKeyAction({ key: "z", ctrlKey: true }, 0, 5, false)).toBeNull();
  });
});

describe("commands on the system clipboard", () => {
  const commands = [
    { id: "c1", command: "open", target: "/shop", value: "" },
    { id: "c2", command: "type", target: "id=user", value: "alice", comment: "the user's name" },
  ];

  it("are written as a .side file's commands array, each with its comment and targets, and read back the same", () => {
    const text = sideCommandsText(commands);
    expect(JSON.parse(text)).toEqual([
      { id: "c1", comment: "", command: "open", target: "/shop", targets: [], value: "" },
      { id: "c2", comment: "the user's name", command: "type", target: "id=user", targets: [], value: "alice" },
    ]);
    expect(readSideCommands(text)).toEqual(JSON.parse(text));
  });

  it("are read from a whole .side test's text too", () => {
    const test = { id: "t", name: "logs in", commands: [{ id: "x", command: "click", target: "id=go", value: "" }] };
    expect(readSideCommands(JSON.stringify(test))).toEqual(test.commands);
  });

  it("are none in plain text, in JSON that is not commands, in an empty array, or in an array with a command without a name", () => {
    for (const text of ["open /shop", "{}", "[]", '[{"command":"open"},{"target":"x"}]', "42", '"open"', '{"commands":"open"}']) {
      expect(readSideCommands(text), text).toBeNull();
    }
  });
});

describe("the side list's rules", () => {
  it("refuses a suite name that is empty or another suite's, and lets a suite keep its own", () => {
    const suites = [
      { id: "s1", name: "Smoke" },
      { id: "s2", name: "Nightly" },
    ];
    expect(suiteNameProblem("  ", suites)).toBe("A suite needs a name that is not empty.");
    expect(suiteNameProblem(" Smoke ", suites)).toBe('The project already has a suite named "Smoke"; choose another name.');
    expect(suiteNameProblem("Smoke", suites, "s1")).toBeNull();
    expect(suiteNameProblem("Weekly", suites)).toBeNull();
  });

  it("moves a suite's test up or down, and keeps the order past either end", () => {
    expect(movedTest(["a", "b", "c"], 1, -1)).toEqual(["b", "a", "c"]);
    expect(movedTest(["a", "b", "c"], 1, 1)).toEqual(["a", "c", "b"]);
    expect(movedTest(["a", "b", "c"], 0, -1)).toEqual(["a", "b", "c"]);
    expect(movedTest(["a", "b", "c"], 2, 1)).toEqual(["a", "b", "c"]);
  });

  it("takes a Save as path only when it is absolute", () => {
    for (const path of ["/home/me/shop.side", "C:\\tests\\shop.side", "D:/shop.side", "\\\\server\\share\\shop.side"]) expect(isAbsolutePath(path), path).toBe(true);
    for (const path of ["shop.side", "./shop.side", "~/shop.side", ""]) expect(isAbsolutePath(path), path).toBe(false);
  });
});
