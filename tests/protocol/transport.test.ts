// What issue 3 adds at the embedding API: a transport that loses a plugin
// (`ide.dropSender`), and the user loading a .side file from the UI (`user.loadProject`).
import { describe, expect, it } from "vitest";
import {
  createIde,
  isPending,
  logsOf,
  OTHER,
  otherProject,
  recordingDeliver,
  register,
  registrationOf,
  request,
  SHOP,
  shopProject,
  takeControl,
  waitForDialog,
} from "./support.ts";

describe("a plugin the transport lost", () => {
  it("no longer controls the IDE once its connection drops, and stays registered", async () => {
    const ide = createIde({ project: shopProject() });
    await takeControl(ide, "boss");
    ide.dropSender("boss");
    expect(ide.getSnapshot().control).toEqual({ mode: "notControlled", controller: null, candidate: null });
    expect(ide.getSnapshot().plugins.map((p) => p.id)).toEqual(["boss"]);
    expect(logsOf(ide).at(-1)?.message).toContain("boss disconnected");
  });

  it("has its consent dialog answered no, and the plugin in control keeps control", async () => {
    const ide = createIde();
    await takeControl(ide, "boss");
    const asked = ide.handle(request("/control", "post", registrationOf("Newcomer")), { id: "newcomer" });
    await waitForDialog(ide, "controlConsent");
    ide.dropSender("newcomer");
    expect(await asked).toBe(false);
    expect(ide.getSnapshot().dialog).toBeNull();
    expect(ide.getSnapshot().control).toEqual({ mode: "controlled", controller: "boss", candidate: null });
  });

  it("leaves a handover waiting for the user when the old controller drops", async () => {
    const ide = createIde();
    await takeControl(ide, "boss");
    const asked = ide.handle(request("/control", "post", registrationOf("Newcomer")), { id: "newcomer" });
    await waitForDialog(ide, "controlConsent");
    ide.dropSender("boss");
    expect(ide.getSnapshot().control).toEqual({ mode: "awaitingConsent", controller: null, candidate: "newcomer" });
    expect(await isPending(asked)).toBe(true);
    ide.send({ type: "user.decline" });
    expect(await asked).toBe(false);
    expect(ide.getSnapshot().control.mode).toBe("notControlled");
  });

  it("keeps the unsaved changes when it drops while its load waits for the user", async () => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "loader");
    ide.send({ type: "user.editProject" });
    const load = ide.handle(request("/project", "post", { project: otherProject() }), { id: "loader" });
    await waitForDialog(ide, "loadProject");
    ide.dropSender("loader");
    expect(await load).toBe(false);
    expect(ide.getSnapshot().project).toEqual({ ...SHOP, unsaved: true, path: null });
    expect(ide.getSnapshot().dialog).toBeNull();
  });

  it("keeps the window open with its changes when the controller drops while its close waits", async () => {
    const ide = createIde({ project: shopProject() });
    await takeControl(ide, "boss");
    ide.send({ type: "user.editProject" });
    const close = ide.handle(request("/close", "post"), { id: "boss" });
    await waitForDialog(ide, "closeWindow");
    ide.dropSender("boss");
    expect(await close).toBe(false);
    expect(ide.getSnapshot().window).toBe("open");
    expect(ide.getSnapshot().project.unsaved).toBe(true);
    expect(ide.getSnapshot().control.mode).toBe("notControlled");
  });

  it("changes nothing for another plugin's dialog", async () => {
    const ide = createIde();
    const asked = ide.handle(request("/control", "post", registrationOf("Asker")), { id: "asker" });
    await waitForDialog(ide, "controlConsent");
    ide.dropSender("bystander");
    expect(ide.getSnapshot().dialog?.requester).toBe("asker");
    ide.send({ type: "user.accept" });
    expect(await asked).toBe(true);
  });
});

describe("the user loading a .side file", () => {
  it("loads it at once when nothing is unsaved, and tells the registered plugins", async () => {
    const { calls, deliver } = recordingDeliver();
    const ide = createIde({ project: shopProject(), deliver });
    await register(ide, "watcher");
    ide.send({ type: "user.loadProject", project: otherProject() });
    expect(ide.getSnapshot().project).toEqual({ ...OTHER, unsaved: false, path: null });
    await expect.poll(() => calls.map((c) => ("event" in c.message ? c.message.event : c.message.action))).toEqual(["projectLoaded"]);
  });

  it("asks first over unsaved changes, and keeps them when the user says no", () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.loadProject", project: otherProject() });
    const dialog = ide.getSnapshot().dialog;
    expect(dialog).toMatchObject({ kind: "loadProject", requester: "ide" });
    expect(dialog?.text).toContain(OTHER.name);
    ide.send({ type: "user.decline" });
    expect(ide.getSnapshot().project).toEqual({ ...SHOP, unsaved: true, path: null });
    expect(ide.getSnapshot().dialog).toBeNull();
  });

  it("loads it over unsaved changes once the user says yes", () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.loadProject", project: otherProject() });
    ide.send({ type: "user.accept" });
    expect(ide.getSnapshot().project).toEqual({ ...OTHER, unsaved: false, path: null });
  });

  it("writes an error naming the problem for a file that is not a usable project, and changes nothing", () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.loadProject", project: { name: "No id or tests" } });
    expect(ide.getSnapshot().project).toEqual({ ...SHOP, unsaved: false, path: null });
    const last = logsOf(ide).at(-1);
    expect(last).toMatchObject({ level: "error", source: "ide", group: "system" });
    expect(last?.message).toMatch(/not a usable \.side project: .*id/);
  });

  it("is not loaded while another dialog waits for the user, and a warning says why", async () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.editProject" });
    const asked = ide.handle(request("/control", "post", registrationOf("Asker")), { id: "asker" });
    await waitForDialog(ide, "controlConsent");
    ide.send({ type: "user.loadProject", project: otherProject() });
    expect(ide.getSnapshot().dialog?.kind).toBe("controlConsent");
    expect(ide.getSnapshot().project.name).toBe(SHOP.name);
    expect(logsOf(ide).at(-1)).toMatchObject({ level: "warn" });
    ide.send({ type: "user.decline" });
    expect(await asked).toBe(false);
  });
});
