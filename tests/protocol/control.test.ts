// Control mode through the protocol (CONTRACT sections 4 and 5): consent, handover, close.
import { describe, expect, it } from "vitest";
import {
  createIde,
  expectError,
  isPending,
  otherProject,
  register,
  request,
  SHOP,
  shopProject,
  takeControl,
  waitForDialog,
  waitForStatus,
} from "./support.ts";

describe("POST /control", () => {
  it("opens a consent dialog naming the plugin and its sender id, and waits for the user", async () => {
    const ide = createIde();
    const reply = ide.handle({ uri: "/control", verb: "post", payload: { name: "Visual checks", version: "3" } }, { id: "ext-abc" });
    const dialog = await waitForDialog(ide, "controlConsent");
    expect(dialog.requester).toBe("ext-abc");
    expect(`${dialog.title} ${dialog.text}`).toContain("Visual checks");
    expect(`${dialog.title} ${dialog.text}`).toContain("ext-abc");
    expect(ide.getSnapshot().control).toEqual({ mode: "awaitingConsent", controller: null, candidate: "ext-abc" });
    expect(await isPending(reply)).toBe(true);
    ide.send({ type: "user.accept" });
    expect(await reply).toBe(true);
    expect(ide.getSnapshot().dialog).toBeNull();
  });

  it("restarts the plugin session on accept: the controller is the only registered plugin", async () => {
    const ide = createIde();
    await register(ide, "a");
    await register(ide, "b");
    await takeControl(ide, "c");
    expect(ide.getSnapshot().plugins).toEqual([{ id: "c", name: "Plugin c", version: "1.0.0", commands: [] }]);
    expect(await ide.handle({ uri: "/health", verb: "get" }, { id: "c" })).toBe(true);
    expect(await ide.handle({ uri: "/health", verb: "get" }, { id: "a" })).toBe(false);
  });

  it("changes nothing on decline", async () => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "a");
    const before = ide.getSnapshot();
    const reply = ide.handle({ uri: "/control", verb: "post", name: "C", version: "1" }, { id: "c" });
    await waitForDialog(ide, "controlConsent");
    ide.send({ type: "user.decline" });
    expect(await reply).toBe(false);
    const after = ide.getSnapshot();
    expect(after.control).toEqual(before.control);
    expect(after.plugins).toEqual(before.plugins);
    expect(after.dialog).toBeNull();
  });

  it("answers true with no dialog when the sender already controls", async () => {
    const ide = createIde();
    await takeControl(ide, "c");
    expect(await ide.handle({ uri: "/control", verb: "post", name: "C", version: "1" }, { id: "c" })).toBe(true);
    expect(ide.getSnapshot().dialog).toBeNull();
    expect(ide.getSnapshot().control).toEqual({ mode: "controlled", controller: "c", candidate: null });
  });

  it("keeps the current controller and its rights until the user accepts a handover", async () => {
    const ide = createIde({ project: shopProject() });
    await takeControl(ide, "old");
    const handover = ide.handle({ uri: "/control", verb: "post", name: "New", version: "1" }, { id: "new" });
    await waitForDialog(ide, "controlConsent");
    expect(ide.getSnapshot().control).toEqual({ mode: "awaitingConsent", controller: "old", candidate: "new" });
    expect(await ide.handle({ uri: "/log", verb: "post", message: "still mine" }, { id: "old" })).toBe(true);
    expect(await ide.handle({ uri: "/project", verb: "get" }, { id: "old" })).toEqual(SHOP);
    expectError(await ide.handle({ uri: "/log", verb: "post", message: "not yet" }, { id: "new" }), "CannotAccessInControlMode");
    ide.send({ type: "user.accept" });
    expect(await handover).toBe(true);
    expect(ide.getSnapshot().control).toEqual({ mode: "controlled", controller: "new", candidate: null });
    expect(ide.getSnapshot().plugins.map((p) => p.id)).toEqual(["new"]);
    expectError(await ide.handle({ uri: "/log", verb: "post", message: "lost" }, { id: "old" }), "CannotAccessInControlMode");
    expect(await ide.handle({ uri: "/log", verb: "post", message: "mine now" }, { id: "new" })).toBe(true);
  });

  it("leaves the current controller in place when the user declines a handover", async () => {
    const ide = createIde();
    await takeControl(ide, "old");
    const handover = ide.handle({ uri: "/control", verb: "post", name: "New", version: "1" }, { id: "new" });
    await waitForDialog(ide, "controlConsent");
    ide.send({ type: "user.decline" });
    expect(await handover).toBe(false);
    expect(ide.getSnapshot().control).toEqual({ mode: "controlled", controller: "old", candidate: null });
    expect(ide.getSnapshot().plugins.map((p) => p.id)).toEqual(["old"]);
    expect(await ide.handle({ uri: "/register", verb: "post", name: "Old", version: "2" }, { id: "old" })).toBe(true);
    expectError(await ide.handle({ uri: "/register", verb: "post", name: "New", version: "1" }, { id: "new" }), "CannotAccessInControlMode");
  });

  it("answers the controller's own POST /control with true during a handover dialog", async () => {
    // README decision: a plugin already in control asking again is answered true even during a handover dialog.
    const ide = createIde();
    await takeControl(ide, "old");
    const handover = ide.handle({ uri: "/control", verb: "post", name: "New", version: "1" }, { id: "new" });
    await waitForDialog(ide, "controlConsent");
    expect(await ide.handle({ uri: "/control", verb: "post", name: "Old", version: "1" }, { id: "old" })).toBe(true);
    expect(ide.getSnapshot().control).toEqual({ mode: "awaitingConsent", controller: "old", candidate: "new" });
    ide.send({ type: "user.decline" });
    expect(await handover).toBe(false);
  });

  it("answers a waiting handover with IdeNotActive when the controller closes the window", async () => {
    const ide = createIde();
    await takeControl(ide, "old");
    const handover = ide.handle({ uri: "/control", verb: "post", name: "New", version: "1" }, { id: "new" });
    await waitForDialog(ide, "controlConsent");
    expect(await ide.handle({ uri: "/close", verb: "post" }, { id: "old" })).toBe(true);
    expectError(await handover, "IdeNotActive");
    expect(ide.getSnapshot()).toMatchObject({ window: "closed", dialog: null, control: { mode: "notControlled", controller: null, candidate: null } });
  });

  it("loads a project with no unsaved changes while the consent dialog is open", async () => {
    // README decision: one dialog at a time applies only to requests that would open one.
    const ide = createIde({ project: shopProject() });
    await register(ide, "a");
    const control = ide.handle({ uri: "/control", verb: "post", name: "C", version: "1" }, { id: "c" });
    await waitForDialog(ide, "controlConsent");
    expect(await ide.handle({ uri: "/project", verb: "post", project: otherProject() }, { id: "a" })).toBe(true);
    expect(ide.getSnapshot().project.name).toBe("Search smoke");
    expect(ide.getSnapshot().dialog?.kind).toBe("controlConsent");
    ide.send({ type: "user.decline" });
    expect(await control).toBe(false);
  });

  it.each(["user.accept", "user.decline"] as const)(
    "opens a closed window and leaves it open after %s",
    async (answer) => {
      const ide = createIde({ window: "closed" });
      const reply = ide.handle({ uri: "/control", verb: "post", name: "C", version: "1" }, { id: "c" });
      await waitForDialog(ide, "controlConsent");
      expect(ide.getSnapshot().window).toBe("open");
      ide.send({ type: answer });
      expect(await reply).toBe(answer === "user.accept");
      expect(ide.getSnapshot().window).toBe("open");
    },
  );

  it("answers a registration problem before asking the user", async () => {
    const ide = createIde();
    expectError(await ide.handle({ uri: "/control", verb: "post", name: "C" }, { id: "c" }), "InvalidRequest");
    expect(ide.getSnapshot().dialog).toBeNull();
  });
});

describe("POST /close", () => {
  it("closes the window at once with no unsaved changes, ending control and dropping plugins", async () => {
    const ide = createIde({ project: shopProject() });
    await takeControl(ide, "c");
    expect(await ide.handle({ uri: "/close", verb: "post" }, { id: "c" })).toBe(true);
    expect(ide.getSnapshot()).toMatchObject({
      window: "closed",
      control: { mode: "notControlled", controller: null, candidate: null },
      plugins: [],
      dialog: null,
    });
  });

  it("asks the user over unsaved changes; discard and close makes the project saved again", async () => {
    const ide = createIde({ project: shopProject() });
    await takeControl(ide, "c");
    ide.send({ type: "user.editProject" });
    const reply = ide.handle({ uri: "/close", verb: "post" }, { id: "c" });
    const dialog = await waitForDialog(ide, "closeWindow");
    expect(dialog.requester).toBe("c");
    expect(await isPending(reply)).toBe(true);
    ide.send({ type: "user.accept" });
    expect(await reply).toBe(true);
    expect(ide.getSnapshot()).toMatchObject({ window: "closed", project: { ...SHOP, unsaved: false }, dialog: null });
  });

  it("goes back to the last saved copy after discard and close", async () => {
    const ide = createIde({ project: shopProject() });
    await takeControl(ide, "c");
    // The loaded project is the saved copy; a newer edit is then discarded.
    expect(await ide.handle({ uri: "/project", verb: "post", project: otherProject() }, { id: "c" })).toBe(true);
    ide.send({ type: "user.editProject" });
    const reply = ide.handle({ uri: "/close", verb: "post" }, { id: "c" });
    await waitForDialog(ide, "closeWindow");
    ide.send({ type: "user.accept" });
    expect(await reply).toBe(true);
    expect(ide.getSnapshot().project).toEqual({ id: "0b9a8c7d-1e2f-4a3b-8c5d-6e7f8a9b0c1d", name: "Search smoke", unsaved: false, path: null });
  });

  it("keeps the window open and the changes unsaved when the user keeps the window open", async () => {
    const ide = createIde({ project: shopProject() });
    await takeControl(ide, "c");
    ide.send({ type: "user.editProject" });
    const reply = ide.handle(request("/close", "post", {}, "payload"), { id: "c" });
    await waitForDialog(ide, "closeWindow");
    ide.send({ type: "user.decline" });
    expect(await reply).toBe(false);
    expect(ide.getSnapshot()).toMatchObject({
      window: "open",
      control: { mode: "controlled", controller: "c" },
      project: { unsaved: true },
      dialog: null,
    });
  });
});

describe("user.startPlayback", () => {
  it("starts nothing and writes a warning for an unknown test id", async () => {
    // README decision: an unknown testId starts nothing and writes a warning log.
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.startPlayback", testId: "t-nope" });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(ide.getSnapshot().playback).toBeNull();
    expect(ide.getSnapshot().logs).toContainEqual(expect.objectContaining({ group: "system", level: "warn", source: "ide" }));
  });

  it("starts the commands of a test case again with no state", async () => {
    const ide = createIde({ project: shopProject() });
    // A breakpoint on the first command holds each run there, before anything executed.
    ide.send({ type: "user.toggleBreakpoint", commandId: "c-open" });
    ide.send({ type: "user.startPlayback" });
    const first = await waitForStatus(ide, "paused");
    expect(await ide.handle({ uri: "/playback/command", verb: "post", commandId: "c-open", state: "passed", message: "seen" }, { id: "p" })).toBe(true);
    expect(ide.getSnapshot().playback?.commands[0]).toMatchObject({ id: "c-open", state: "passed", message: "seen" });
    ide.send({ type: "user.stopPlayback" });
    await waitForStatus(ide, "ended");
    ide.send({ type: "user.startPlayback" });
    expect(ide.getSnapshot().playback).toMatchObject({ testId: "t-login", running: true });
    expect(ide.getSnapshot().playback?.runId).not.toBe(first.runId);
    expect(ide.getSnapshot().playback?.commands.every((c) => c.state === null && c.message === null)).toBe(true);
    await waitForStatus(ide, "paused");
    expect(ide.getSnapshot().playback?.commands.every((c) => c.state === null && c.message === null)).toBe(true);
  });
});

describe("the user closing the window", () => {
  it("ends control, drops plugins and keeps the project's unsaved changes", async () => {
    const ide = createIde({ project: shopProject() });
    await takeControl(ide, "c");
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.closeWindow" });
    expect(ide.getSnapshot()).toMatchObject({
      window: "closed",
      control: { mode: "notControlled", controller: null },
      plugins: [],
      project: { ...SHOP, unsaved: true },
    });
  });

  it("lets any plugin use controlled-only routes after the window reopens", async () => {
    const ide = createIde({ project: shopProject() });
    await takeControl(ide, "c");
    ide.send({ type: "user.closeWindow" });
    ide.send({ type: "user.openWindow" });
    expect(await ide.handle({ uri: "/project", verb: "get" }, { id: "other" })).toEqual(SHOP);
  });
});

describe("user events that make no sense", () => {
  it("changes nothing when the user answers with no dialog open", async () => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "a");
    const before = JSON.stringify(ide.getSnapshot());
    ide.send({ type: "user.accept" });
    ide.send({ type: "user.decline" });
    ide.send({ type: "user.openWindow" });
    expect(JSON.stringify(ide.getSnapshot())).toBe(before);
  });
});
