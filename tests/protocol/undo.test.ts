// Undo through the IDE's door (CONTRACT section 20): the user's edits, a plugin's and the
// recorder's are steps; IdeView.history names them; an undo or redo is an edit of the project
// (unsaved, journaled); a load starts an empty history.
import { describe, expect, it } from "vitest";
import { createIde, logsOf, register, shopProject, waitForDialog } from "./support.ts";

const EMPTY = { canUndo: false, canRedo: false, undo: null, redo: null };

describe("undo and redo through the IDE", () => {
  it("names the last step in the view, takes it back and does it again, and each is an unsaved edit", async () => {
    const ide = createIde({ project: shopProject() });
    expect(ide.getSnapshot().history).toEqual(EMPTY);
    ide.send({ type: "user.deleteTest", testId: "t-login" });
    expect(ide.getSnapshot().history).toEqual({ canUndo: true, canRedo: false, undo: 'Delete test "logs in"', redo: null });
    expect(ide.getSnapshot().project.unsaved).toBe(true);
    const deleted = ide.getProject();
    ide.send({ type: "user.undo" });
    expect(ide.getProject()).toEqual(shopProject());
    expect(ide.getSnapshot()).toMatchObject({ displayedTestId: "t-login", history: { canUndo: false, canRedo: true, redo: 'Delete test "logs in"' } });
    expect(ide.getSnapshot().project.unsaved).toBe(true);
    ide.send({ type: "user.redo" });
    expect(ide.getProject()).toEqual(deleted);
  });

  it("undoes a plugin's /record/command edit like the user's own", async () => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "p");
    expect(await ide.handle({ uri: "/record/command", verb: "post", command: "echo", target: "hi" }, { id: "p" })).toBe(true);
    expect(ide.getSnapshot().history.undo).toBe('Add command "echo"');
    ide.send({ type: "user.undo" });
    expect(ide.getProject()).toEqual(shopProject());
  });

  it("starts an empty history when a project is loaded over the edits", async () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.addSuite", name: "Nightly" });
    ide.send({ type: "user.loadProject", project: shopProject() });
    await waitForDialog(ide, "loadProject");
    expect(ide.getSnapshot().history.undo).toBe('Add suite "Nightly"');
    ide.send({ type: "user.accept" });
    await expect.poll(() => ide.getSnapshot().history).toEqual(EMPTY);
    expect(ide.getSnapshot().project.unsaved).toBe(false);
  });

  it("warns and changes nothing when there is nothing to undo", () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.undo" });
    expect(logsOf(ide).at(-1)).toMatchObject({ level: "warn", message: "There is nothing to undo. Nothing was changed." });
    expect(ide.getSnapshot().project.unsaved).toBe(false);
  });

  it("counts the clipboard's commands for the page's Paste", () => {
    const ide = createIde({ project: shopProject() });
    expect(ide.getSnapshot().clipboard).toEqual({ commands: 0 });
    ide.send({ type: "user.copyCommands", commandIds: ["c-open", "c-user"] });
    expect(ide.getSnapshot().clipboard).toEqual({ commands: 2 });
    expect(ide.getSnapshot().project.unsaved).toBe(false);
  });
});
