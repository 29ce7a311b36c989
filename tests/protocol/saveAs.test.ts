// Save as, the project's path, the recent list and opening a recent file (CONTRACT section 20),
// through createIde with fake save and read ports.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createIde, logsOf, otherProject, recordingDeliver, shopProject, takeControl, waitForDialog, OTHER, SHOP } from "./support.ts";
import type { Ide, IdeOptions } from "./support.ts";
import { newProject } from "../../services/side/index.ts";
import type { SideProject } from "../../services/side/index.ts";

const ides: Ide[] = [];
afterEach(() => ides.splice(0).forEach((ide) => ide.stop()));

/** A save port that keeps what it was given, refusing paths under /missing as a host refuses a missing folder. */
function fakeSave() {
  const saves: Array<{ project: SideProject; path: string | null }> = [];
  const save: NonNullable<IdeOptions["save"]> = async (project, to) => {
    if (to.path?.startsWith("/missing/")) throw new Error("the folder /missing does not exist; nothing was written");
    saves.push({ project, path: to.path });
    return to.path ?? "/default/place.side";
  };
  return { saves, save };
}

/** A read port over an in-memory folder. */
function fakeFiles(files: Record<string, string>) {
  const reads: string[] = [];
  const readProject = async (path: string) => {
    reads.push(path);
    if (!(path in files)) throw new Error("there is no such file");
    return files[path];
  };
  return { reads, readProject };
}

function start(options: IdeOptions = {}) {
  const ide = createIde({ project: shopProject(), ...options });
  ides.push(ide);
  return ide;
}

describe("Save as", () => {
  it("writes the project to the path, names it in the view and the recent list, and says where", async () => {
    const { saves, save } = fakeSave();
    const ide = start({ save });
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.saveProject", path: "/work/shop.side" });
    await vi.waitFor(() => expect(ide.getSnapshot().project.unsaved).toBe(false));
    expect(saves.map((s) => [s.project.id, s.path])).toEqual([[SHOP.id, "/work/shop.side"]]);
    expect(ide.getSnapshot().project).toEqual({ ...SHOP, unsaved: false, path: "/work/shop.side" });
    expect(ide.getSnapshot().recentProjects).toEqual(["/work/shop.side"]);
    expect(logsOf(ide).at(-1)).toMatchObject({ level: "info", message: `Saved "${SHOP.name}" to /work/shop.side` });
  });

  it("writes every later plain Save to that path", async () => {
    const { saves, save } = fakeSave();
    const ide = start({ save });
    ide.send({ type: "user.saveProject", path: "/work/shop.side" });
    await vi.waitFor(() => expect(ide.getSnapshot().project.path).toBe("/work/shop.side"));
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.saveProject" });
    await vi.waitFor(() => expect(saves).toHaveLength(2));
    expect(saves[1].path).toBe("/work/shop.side");
  });

  it("keeps a plain Save at the port's default place while the project has no path", async () => {
    const { saves, save } = fakeSave();
    const ide = start({ save });
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.saveProject" });
    await vi.waitFor(() => expect(ide.getSnapshot().project.unsaved).toBe(false));
    expect(saves[0].path).toBeNull();
    expect(ide.getSnapshot().project.path).toBeNull();
    expect(ide.getSnapshot().recentProjects).toEqual([]);
    expect(logsOf(ide).at(-1)?.message).toBe(`Saved "${SHOP.name}" to /default/place.side`);
  });

  it("writes nothing into a missing folder: an error log, the project unsaved and its path as it was", async () => {
    const { saves, save } = fakeSave();
    const ide = start({ save, projectPath: "/work/shop.side", recentProjects: ["/work/shop.side"] });
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.saveProject", path: "/missing/shop.side" });
    await vi.waitFor(() => expect(logsOf(ide).at(-1)?.level).toBe("error"));
    expect(logsOf(ide).at(-1)?.message).toContain("to /missing/shop.side failed: the folder /missing does not exist");
    expect(saves).toEqual([]);
    expect(ide.getSnapshot().project).toMatchObject({ unsaved: true, path: "/work/shop.side" });
    expect(ide.getSnapshot().recentProjects).toEqual(["/work/shop.side"]);
  });

  it("gives the project to the controller while controlled, writes no file and keeps the path, saying so", async () => {
    const { saves, save } = fakeSave();
    const { calls, deliver } = recordingDeliver();
    const ide = start({ save, deliver });
    await takeControl(ide, "ctl");
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.saveProject", path: "/work/shop.side" });
    await vi.waitFor(() => expect(ide.getSnapshot().project.unsaved).toBe(false));
    expect(calls.filter((c) => "event" in c.message && c.message.event === "saveProject").map((c) => c.to)).toEqual(["ctl"]);
    expect(saves).toEqual([]);
    expect(ide.getSnapshot().project.path).toBeNull();
    expect(logsOf(ide).some((l) => l.level === "warn" && l.message.includes("nothing was written to /work/shop.side"))).toBe(true);
  });

  it("refuses an empty path at the door, saying why and changing nothing", () => {
    const { saves, save } = fakeSave();
    const ide = start({ save });
    ide.send({ type: "user.saveProject", path: "" } as never);
    expect(logsOf(ide).at(-1)).toMatchObject({ level: "error", message: "The project was not saved: path must be a non-empty string." });
    expect(saves).toEqual([]);
    expect(ide.getSnapshot().project.path).toBeNull();
  });

  it("starts from the path and recent list it is given, ten at most", () => {
    const many = Array.from({ length: 12 }, (_, i) => `/p/${i}.side`);
    const ide = start({ projectPath: "/p/0.side", recentProjects: many });
    expect(ide.getSnapshot().project.path).toBe("/p/0.side");
    expect(ide.getSnapshot().recentProjects).toEqual(many.slice(0, 10));
    expect(() => createIde({ recentProjects: [3] as never })).toThrow(/recentProjects/);
  });
});

describe("opening a recent project", () => {
  const other = JSON.stringify(otherProject());

  it("reads the file and loads it, naming it as the project's path and the newest recent file", async () => {
    const { reads, readProject } = fakeFiles({ "/work/other.side": other });
    const ide = start({ readProject, recentProjects: ["/work/shop.side", "/work/other.side"] });
    ide.send({ type: "user.openRecent", path: "/work/other.side" });
    await vi.waitFor(() => expect(ide.getSnapshot().project.id).toBe(OTHER.id));
    expect(reads).toEqual(["/work/other.side"]);
    expect(ide.getSnapshot().project).toEqual({ ...OTHER, unsaved: false, path: "/work/other.side" });
    expect(ide.getSnapshot().recentProjects).toEqual(["/work/other.side", "/work/shop.side"]);
    expect(ide.getProject().tests.map((t) => t.id)).toEqual((otherProject() as { tests: Array<{ id: string }> }).tests.map((t) => t.id));
  });

  it("asks over unsaved changes, and loads only when the user accepts", async () => {
    const { readProject } = fakeFiles({ "/work/other.side": other });
    const ide = start({ readProject });
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.openRecent", path: "/work/other.side" });
    const dialog = await waitForDialog(ide, "loadProject");
    expect(dialog.title).toContain(OTHER.name);
    ide.send({ type: "user.decline" });
    expect(ide.getSnapshot().project).toEqual({ ...SHOP, unsaved: true, path: null });
    ide.send({ type: "user.openRecent", path: "/work/other.side" });
    await waitForDialog(ide, "loadProject");
    ide.send({ type: "user.accept" });
    await vi.waitFor(() => expect(ide.getSnapshot().project).toEqual({ ...OTHER, unsaved: false, path: "/work/other.side" }));
  });

  it.each([
    ["a missing file", "/work/gone.side", "there is no such file"],
    ["a file that is not JSON", "/work/broken.side", "it is not JSON"],
    ["a file that is no .side project", "/work/notes.side", "it is not a usable .side project"],
  ])("changes nothing for %s, with an error log naming it", async (_what, path, why) => {
    const { readProject } = fakeFiles({ "/work/broken.side": "{ not json", "/work/notes.side": JSON.stringify({ id: "x", name: "No tests" }) });
    const ide = start({ readProject, projectPath: "/work/shop.side" });
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.openRecent", path });
    await vi.waitFor(() => expect(logsOf(ide).at(-1)?.level).toBe("error"));
    expect(logsOf(ide).at(-1)?.message).toContain(`The project ${path} could not be opened: ${why}`);
    expect(ide.getSnapshot().project).toEqual({ ...SHOP, unsaved: true, path: "/work/shop.side" });
    expect(ide.getSnapshot().dialog).toBeNull();
  });

  it("says so when the IDE was given no way to read files", async () => {
    const ide = start();
    ide.send({ type: "user.openRecent", path: "/work/other.side" });
    await vi.waitFor(() => expect(logsOf(ide).at(-1)?.message).toContain("createIde was given no readProject"));
    expect(ide.getSnapshot().project.id).toBe(SHOP.id);
  });

  it("forgets the path when the page loads another project or starts a new one", async () => {
    const ide = start({ projectPath: "/work/shop.side" });
    ide.send({ type: "user.loadProject", project: otherProject() });
    await vi.waitFor(() => expect(ide.getSnapshot().project.id).toBe(OTHER.id));
    expect(ide.getSnapshot().project.path).toBeNull();
    expect(ide.getSnapshot().recentProjects).toEqual([]);
  });
});

describe("newProject()", () => {
  it("is an untitled project with one empty test in one default suite, with new ids each time", () => {
    const first = newProject();
    const second = newProject();
    expect(first).toMatchObject({ name: "Untitled project", url: "", version: "2.0", tests: [{ name: "Untitled", commands: [] }] });
    expect(first.suites).toEqual([
      { id: expect.any(String), name: "Default Suite", persistSession: false, parallel: false, timeout: 300, tests: [first.tests[0].id] },
    ]);
    expect(new Set([first.id, second.id, first.tests[0].id, second.tests[0].id]).size).toBe(4);
  });
});
