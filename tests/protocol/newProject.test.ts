// New project (CONTRACT section 20): a load of an empty project, asked over unsaved changes.
import { describe, expect, it } from "vitest";
import type { SideSuite } from "../../services/side/index.ts";
import { createIde, settle, shopProject } from "./support.ts";

describe("New project", () => {
  it("starts an untitled project with one empty test in one suite at once when nothing is unsaved", async () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.newProject" });
    await settle();
    const project = ide.getProject();
    expect(project.name).toBe("Untitled project");
    expect(project.url).toBe("");
    expect(project.tests.map((t) => [t.name, t.commands.length])).toEqual([["Untitled", 0]]);
    expect((project.suites as SideSuite[]).map((s) => [s.name, s.tests])).toEqual([["Default Suite", [project.tests[0].id]]]);
    expect(ide.getSnapshot().displayedTestId).toBe(project.tests[0].id);
    expect(ide.getSnapshot().project.unsaved).toBe(false);
    ide.stop();
  });

  it("asks over unsaved changes and keeps them when the user declines", async () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.addTest", name: "mine" });
    ide.send({ type: "user.newProject" });
    await settle();
    expect(ide.getSnapshot().dialog?.kind).toBe("loadProject");
    ide.send({ type: "user.decline" });
    await settle();
    expect(ide.getProject().tests.map((t) => t.name)).toContain("mine");
    expect(ide.getSnapshot().project.unsaved).toBe(true);

    ide.send({ type: "user.newProject" });
    await settle();
    ide.send({ type: "user.accept" });
    await settle();
    expect(ide.getProject().name).toBe("Untitled project");
    expect(ide.getSnapshot().project.unsaved).toBe(false);
    // A new project starts an empty history: the edit of the old one cannot be undone into it.
    expect(ide.getSnapshot().history).toEqual({ canUndo: false, canRedo: false, undo: null, redo: null });
    ide.stop();
  });

  it("gives every new project ids of its own", async () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.newProject" });
    await settle();
    const first = ide.getProject();
    ide.send({ type: "user.newProject" });
    await settle();
    const second = ide.getProject();
    expect(second.id).not.toBe(first.id);
    expect(second.tests[0].id).not.toBe(first.tests[0].id);
    ide.stop();
  });
});
