// The user's side of CONTRACT section 13 through ide.send(): the displayed test, the selected
// command, and the test editor's edits. Every edit makes the project unsaved; an edit that
// cannot be done changes nothing and says why in a warning of the system group.
import { describe, expect, it } from "vitest";
import { createIde, fakeExecutor, logsOf, otherProject, register, shopProject, waitForDialog, waitForStatus } from "./support.ts";
import type { Ide } from "./support.ts";

const LOGIN = ["c-open", "c-user", "c-pass", "c-submit", "c-check"];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The displayed test's commands, as the plugin routes give them. */
async function shown(ide: Ide): Promise<Array<{ id: string; command: string; target: string; value: string }>> {
  return ((await ide.handle({ uri: "/record/command", verb: "get" }, { id: "reader" })) as { commands: never[] }).commands;
}
const ids = async (ide: Ide) => (await shown(ide)).map((c) => c.id);

/** The warnings the IDE wrote for the user. */
const warnings = (ide: Ide) => logsOf(ide).filter((l) => l.level === "warn");

function expectRefused(ide: Ide, before: ReturnType<Ide["getSnapshot"]>, pattern: RegExp) {
  const after = ide.getSnapshot();
  expect(after.project).toEqual(before.project);
  expect([after.displayedTestId, after.selectedCommandId]).toEqual([before.displayedTestId, before.selectedCommandId]);
  const warned = warnings(ide).at(-1);
  expect(warned).toMatchObject({ group: "system", source: "ide", level: "warn" });
  expect(warned!.message).toMatch(pattern);
}

/** Every save of the project, as `save` is handed them. */
function savingIde(options: Parameters<typeof createIde>[0] = {}) {
  const saves: Array<{ tests: Array<{ id: string; name: string; commands: Array<{ id: string }> }> }> = [];
  const ide = createIde({ project: shopProject(), save: async (project) => void saves.push(project as never), ...options });
  const lastSave = async () => {
    ide.send({ type: "user.saveProject" });
    await new Promise((r) => setTimeout(r, 5));
    return saves.at(-1)!;
  };
  return { ide, lastSave };
}

describe("the displayed test", () => {
  it("is the project's first test at start, with no command selected", () => {
    const ide = createIde({ project: shopProject() });
    expect(ide.getSnapshot()).toMatchObject({ displayedTestId: "t-login", selectedCommandId: null });
  });

  it("is null in a project without tests, and every command edit there says to add a test first", () => {
    const ide = createIde();
    expect(ide.getSnapshot()).toMatchObject({ displayedTestId: null, selectedCommandId: null });
    const before = ide.getSnapshot();
    ide.send({ type: "user.addCommand", command: "open" });
    expectRefused(ide, before, /no test cases/);
    expect(ide.getSnapshot().project.unsaved).toBe(false);
  });

  it("follows the user's choice of test and command; choosing a test clears the selection", () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.selectCommand", commandId: "c-user" });
    expect(ide.getSnapshot().selectedCommandId).toBe("c-user");
    ide.send({ type: "user.selectTest", testId: "t-cart" });
    expect(ide.getSnapshot()).toMatchObject({ displayedTestId: "t-cart", selectedCommandId: null });
    ide.send({ type: "user.selectCommand", commandId: "c2-add" });
    ide.send({ type: "user.selectCommand", commandId: null });
    expect(ide.getSnapshot().selectedCommandId).toBeNull();
    // Looking is not editing.
    expect(ide.getSnapshot().project.unsaved).toBe(false);
  });

  it("refuses an unknown test or a command of another test with a warning, changing nothing", () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.selectCommand", commandId: "c-user" });
    let before = ide.getSnapshot();
    ide.send({ type: "user.selectTest", testId: "t-nowhere" });
    expectRefused(ide, before, /t-nowhere/);
    before = ide.getSnapshot();
    ide.send({ type: "user.selectCommand", commandId: "c2-add" });
    expectRefused(ide, before, /c2-add/);
  });

  it("becomes the first test of a project the user loads", () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.selectTest", testId: "t-cart" });
    ide.send({ type: "user.loadProject", project: otherProject() });
    const first = (otherProject().tests as Array<{ id: string }>)[0].id;
    expect(ide.getSnapshot()).toMatchObject({ displayedTestId: first, selectedCommandId: null });
  });

  it("is what the user's Play plays when no test is named", async () => {
    const ide = createIde({ project: shopProject(), executor: fakeExecutor() });
    ide.send({ type: "user.selectTest", testId: "t-cart" });
    ide.send({ type: "user.startPlayback" });
    expect((await waitForStatus(ide, "ended")).testId).toBe("t-cart");
  });
});

describe("the user's test edits", () => {
  it("adds a test with a trimmed name at the end, shows it, and makes the project unsaved", async () => {
    const { ide, lastSave } = savingIde();
    ide.send({ type: "user.addTest", name: "  checks out  " });
    const { displayedTestId } = ide.getSnapshot();
    expect(displayedTestId).toMatch(UUID);
    expect(ide.getSnapshot().project.unsaved).toBe(true);
    expect(await shown(ide)).toEqual([]);
    const saved = await lastSave();
    expect(saved.tests.map((t) => [t.id, t.name])).toEqual([["t-login", "logs in"], ["t-cart", "adds to cart"], [displayedTestId, "checks out"]]);
  });

  it.each([
    ["an empty name", "   ", /not empty/],
    ["the name of another test", " adds to cart ", /already has a test named "adds to cart"/],
  ])("refuses a new test with %s, changing nothing", (_, name, pattern) => {
    const ide = createIde({ project: shopProject() });
    const before = ide.getSnapshot();
    ide.send({ type: "user.addTest", name });
    expectRefused(ide, before, pattern);
  });

  it("renames a test, trimmed, and keeps its own name allowed", async () => {
    const { ide, lastSave } = savingIde();
    ide.send({ type: "user.renameTest", testId: "t-cart", name: " buys " });
    ide.send({ type: "user.renameTest", testId: "t-login", name: "logs in" });
    expect(warnings(ide)).toEqual([]);
    expect((await lastSave()).tests.map((t) => t.name)).toEqual(["logs in", "buys"]);
  });

  it.each([
    ["an unknown test", { testId: "t-nowhere", name: "x" }, /t-nowhere/],
    ["an empty name", { testId: "t-cart", name: "" }, /not empty/],
    ["another test's name", { testId: "t-cart", name: "logs in" }, /already has/],
  ])("refuses a rename of %s, changing nothing", (_, fields, pattern) => {
    const ide = createIde({ project: shopProject() });
    const before = ide.getSnapshot();
    ide.send({ type: "user.renameTest", ...fields });
    expectRefused(ide, before, pattern);
  });
});

describe("the user's command edits", () => {
  it("adds a command at the end when none is selected, selects it, with a new id, unsaved", async () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.addCommand", command: "echo", target: "hi" });
    const commands = await shown(ide);
    expect(commands.map((c) => c.id).slice(0, 5)).toEqual(LOGIN);
    expect(commands[5]).toEqual({ id: expect.stringMatching(UUID), command: "echo", target: "hi", value: "" });
    expect(ide.getSnapshot()).toMatchObject({ selectedCommandId: commands[5].id, project: { unsaved: true } });
  });

  it("adds after the selected command, or at the index given", async () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.selectCommand", commandId: "c-open" });
    ide.send({ type: "user.addCommand", command: "a" });
    const a = ide.getSnapshot().selectedCommandId!;
    ide.send({ type: "user.addCommand", command: "b", index: 0 });
    const b = ide.getSnapshot().selectedCommandId!;
    expect(await ids(ide)).toEqual([b, "c-open", a, "c-user", "c-pass", "c-submit", "c-check"]);
  });

  it("adds an empty command, which the user fills in afterwards", async () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.addCommand", command: "" });
    const id = ide.getSnapshot().selectedCommandId!;
    ide.send({ type: "user.changeCommand", commandId: id, command: "click", target: "id=buy" });
    expect((await shown(ide)).at(-1)).toEqual({ id, command: "click", target: "id=buy", value: "" });
  });

  it("refuses an index past the end, changing nothing", () => {
    const ide = createIde({ project: shopProject() });
    const before = ide.getSnapshot();
    ide.send({ type: "user.addCommand", command: "echo", index: 6 });
    expectRefused(ide, before, /index 6 is past the end/);
  });

  it("changes only the given fields of a command, and keeps the fields it does not know", async () => {
    const ide = createIde({ project: shopProject() });
    const original = (await shown(ide))[1] as Record<string, unknown>;
    ide.send({ type: "user.changeCommand", commandId: "c-user", value: "bob" });
    expect((await shown(ide))[1]).toEqual({ ...original, value: "bob" });
    expect(ide.getSnapshot().project.unsaved).toBe(true);
  });

  it("refuses a change of a command the displayed test lacks, changing nothing", () => {
    const ide = createIde({ project: shopProject() });
    const before = ide.getSnapshot();
    ide.send({ type: "user.changeCommand", commandId: "c2-add", value: "v" });
    expectRefused(ide, before, /"logs in" has no command with the id "c2-add"/);
  });

  it.each([
    ["c-open", 4, ["c-user", "c-pass", "c-submit", "c-check", "c-open"]],
    ["c-check", 0, ["c-check", "c-open", "c-user", "c-pass", "c-submit"]],
    ["c-user", 2, ["c-open", "c-pass", "c-user", "c-submit", "c-check"]],
    ["c-pass", 2, LOGIN],
  ])("moves %s to index %i, counted in the list without it", async (commandId, toIndex, order) => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.moveCommand", commandId, toIndex });
    expect(await ids(ide)).toEqual(order);
    expect(ide.getSnapshot().project.unsaved).toBe(true);
  });

  it("refuses a move past the end or of an unknown command, changing nothing", () => {
    const ide = createIde({ project: shopProject() });
    let before = ide.getSnapshot();
    ide.send({ type: "user.moveCommand", commandId: "c-open", toIndex: 5 });
    expectRefused(ide, before, /toIndex 5 is past the end/);
    before = ide.getSnapshot();
    ide.send({ type: "user.moveCommand", commandId: "c-nowhere", toIndex: 0 });
    expectRefused(ide, before, /c-nowhere/);
  });

  it("deletes a command and moves the selection to the next, else the previous, else none", async () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.selectTest", testId: "t-cart" });
    ide.send({ type: "user.deleteCommand", commandId: "c2-open" });
    expect(ide.getSnapshot().selectedCommandId).toBe("c2-add");
    ide.send({ type: "user.deleteCommand", commandId: "c2-assert" });
    expect(ide.getSnapshot().selectedCommandId).toBe("c2-add");
    ide.send({ type: "user.deleteCommand", commandId: "c2-add" });
    expect(ide.getSnapshot().selectedCommandId).toBeNull();
    expect(await shown(ide)).toEqual([]);
    expect(ide.getSnapshot().project.unsaved).toBe(true);
  });

  it("ignores events that are not events of the contract (a missing command, a negative index), changing nothing", () => {
    const ide = createIde({ project: shopProject() });
    const before = ide.getSnapshot();
    for (const event of [
      { type: "user.addCommand" },
      { type: "user.addCommand", command: "echo", index: -1 },
      { type: "user.moveCommand", commandId: "c-open", toIndex: 1.5 },
      { type: "user.selectCommand" },
      { type: "user.renameTest", testId: "t-login" },
      { type: "user.changeCommand", commandId: "c-open", value: 3 },
    ]) {
      ide.send(event as never);
    }
    expect(ide.getSnapshot()).toBe(before);
  });
});

describe("the user's edits beside runs and dialogs", () => {
  it("refuses every edit of the test being played, with a warning, while the run is running and finishing; then takes them", async () => {
    const ide = createIde({ project: shopProject(), executor: fakeExecutor({ hang: new Set(["type"]) }) });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "running");
    const before = ide.getSnapshot();
    for (const event of [
      { type: "user.addCommand", command: "echo" },
      { type: "user.changeCommand", commandId: "c-open", value: "v" },
      { type: "user.moveCommand", commandId: "c-open", toIndex: 1 },
      { type: "user.deleteCommand", commandId: "c-open" },
      { type: "user.renameTest", testId: "t-login", name: "new name" },
    ] as const) {
      ide.send(event);
      expect(ide.getSnapshot().project).toEqual(before.project);
    }
    expect(warnings(ide).map((w) => w.message)).toEqual(Array(5).fill(expect.stringContaining('"logs in" is being played')));
    // Looking around is fine while it plays.
    ide.send({ type: "user.selectCommand", commandId: "c-pass" });
    expect(ide.getSnapshot().selectedCommandId).toBe("c-pass");
    ide.send({ type: "user.stopPlayback" });
    await waitForStatus(ide, "ended");
    ide.send({ type: "user.deleteCommand", commandId: "c-pass" });
    expect(await ids(ide)).toEqual(["c-open", "c-user", "c-submit", "c-check"]);
  });

  it("keeps the user's edit when a plugin's load asks over it and the user declines", async () => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "a");
    ide.send({ type: "user.deleteCommand", commandId: "c-open" });
    const load = ide.handle({ uri: "/project", verb: "post", project: otherProject() }, { id: "a" });
    await waitForDialog(ide, "loadProject");
    // An edit while the dialog is open is kept too.
    ide.send({ type: "user.deleteCommand", commandId: "c-user" });
    ide.send({ type: "user.decline" });
    expect(await load).toBe(false);
    expect(await ids(ide)).toEqual(["c-pass", "c-submit", "c-check"]);
    expect(ide.getSnapshot().project.unsaved).toBe(true);
  });

  it("changes nothing while the window is closed", () => {
    const ide = createIde({ project: shopProject(), window: "closed" });
    const before = ide.getSnapshot();
    ide.send({ type: "user.addTest", name: "x" });
    ide.send({ type: "user.deleteCommand", commandId: "c-open" });
    expect(ide.getSnapshot()).toEqual(before);
  });
});

describe("the plugins' commands in the view", () => {
  it("lists each registered plugin's commands with the docs a UI can show, as strings", async () => {
    const ide = createIde();
    let reads = 0;
    const hostileDocs = {
      get description() {
        reads += 1;
        if (reads > 1) throw new Error("read twice");
        return "once";
      },
    };
    await register(ide, "a", {
      commands: [
        { id: "eyesCheckWindow", name: "check window", docs: { description: "Checks the window.", target: { name: "name", value: "a step name" }, value: "tag" } },
        { id: "plain", name: "plain" },
        { id: "odd", name: "odd docs", docs: ["not", "docs"] },
        { id: "partly", name: "partly", docs: { description: 7, target: { description: "no name" } } },
        { id: "hostile", name: "hostile", docs: hostileDocs },
      ],
    });
    expect(ide.getSnapshot().plugins).toEqual([
      {
        id: "a",
        name: "Plugin a",
        version: "1.0.0",
        commands: [
          { id: "eyesCheckWindow", name: "check window", docs: { description: "Checks the window.", target: "name", value: "tag" } },
          { id: "plain", name: "plain", docs: null },
          { id: "odd", name: "odd docs", docs: null },
          { id: "partly", name: "partly", docs: {} },
          { id: "hostile", name: "hostile", docs: null },
        ],
      },
    ]);
    expect(JSON.parse(JSON.stringify(ide.getSnapshot().plugins))).toEqual(ide.getSnapshot().plugins);
  });
});
