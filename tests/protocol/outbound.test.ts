// Outbound messages (CONTRACT section 8) through a recording `deliver`, and saving.
import { describe, expect, it, vi } from "vitest";
import type { SideProject } from "../../index.ts";
import {
  byEvent,
  createIde,
  fakeExecutor,
  logsOf,
  OTHER,
  otherProject,
  recordingDeliver,
  register,
  SHOP,
  shopProject,
  takeControl,
  waitForStatus,
} from "./support.ts";

/** A page under test where `open` never finishes: the run stays on its first command until it is stopped. */
const stuckOnOpen = () => fakeExecutor({ hang: new Set(["open"]) });

const shopTest = (id: string) => (shopProject().tests as Array<{ id: string }>).find((t) => t.id === id);

describe("projectLoaded", () => {
  it("goes to every registered plugin when a project is loaded", async () => {
    const { calls, deliver } = recordingDeliver();
    const ide = createIde({ project: shopProject(), deliver });
    await register(ide, "a");
    await register(ide, "b");
    expect(await ide.handle({ uri: "/project", verb: "post", project: otherProject() }, { id: "a" })).toBe(true);
    await vi.waitFor(() => expect(byEvent(calls, "projectLoaded")).toHaveLength(2));
    const message = { action: "event", event: "projectLoaded", options: { projectId: OTHER.id, projectName: OTHER.name } };
    expect(byEvent(calls, "projectLoaded")).toEqual(
      expect.arrayContaining([
        { to: "a", message },
        { to: "b", message },
      ]),
    );
  });

  it("goes out only once the user accepted a load over unsaved changes", async () => {
    const { calls, deliver } = recordingDeliver();
    const ide = createIde({ project: shopProject(), deliver });
    await register(ide, "a");
    ide.send({ type: "user.editProject" });
    const reply = ide.handle({ uri: "/project", verb: "post", project: otherProject() }, { id: "a" });
    await vi.waitFor(() => expect(ide.getSnapshot().dialog?.kind).toBe("loadProject"));
    expect(byEvent(calls, "projectLoaded")).toEqual([]);
    ide.send({ type: "user.accept" });
    expect(await reply).toBe(true);
    await vi.waitFor(() => expect(byEvent(calls, "projectLoaded")).toHaveLength(1));
  });

  it("does not go out when the user keeps the unsaved changes", async () => {
    const { calls, deliver } = recordingDeliver();
    const ide = createIde({ project: shopProject(), deliver });
    await register(ide, "a");
    ide.send({ type: "user.editProject" });
    const reply = ide.handle({ uri: "/project", verb: "post", project: otherProject() }, { id: "a" });
    await vi.waitFor(() => expect(ide.getSnapshot().dialog?.kind).toBe("loadProject"));
    ide.send({ type: "user.decline" });
    expect(await reply).toBe(false);
    // A later message proves deliveries have run: nothing for the declined load came before it.
    ide.send({ type: "user.startPlayback" });
    await vi.waitFor(() => expect(byEvent(calls, "playbackStarted")).toHaveLength(1));
    expect(byEvent(calls, "projectLoaded")).toEqual([]);
  });
});

describe("playbackStarted and playbackStopped", () => {
  // CONTRACT section 9: the anchor's fields (runId, test) beside ide-core's earlier ones.
  const started = (runId: string) => ({ runId, testId: "t-login", testName: "logs in", projectName: SHOP.name, test: shopTest("t-login") });
  const stopped = (runId: string) => ({ runId, testId: "t-login", testName: "logs in", projectName: SHOP.name });

  it("tell every registered plugin when the user starts and stops a test case", async () => {
    const { calls, deliver } = recordingDeliver();
    const ide = createIde({ project: shopProject(), deliver, executor: stuckOnOpen() });
    await register(ide, "a");
    await register(ide, "b");
    ide.send({ type: "user.startPlayback" });
    await vi.waitFor(() => expect(byEvent(calls, "playbackStarted")).toHaveLength(2));
    const { runId } = await waitForStatus(ide, "running");
    expect(byEvent(calls, "playbackStarted")).toEqual(
      expect.arrayContaining([
        { to: "a", message: { action: "event", event: "playbackStarted", options: started(runId) } },
        { to: "b", message: { action: "event", event: "playbackStarted", options: started(runId) } },
      ]),
    );
    ide.send({ type: "user.stopPlayback" });
    await vi.waitFor(() => expect(byEvent(calls, "playbackStopped")).toHaveLength(2));
    expect(byEvent(calls, "playbackStopped")).toEqual(
      expect.arrayContaining([
        { to: "a", message: { action: "event", event: "playbackStopped", options: stopped(runId) } },
        { to: "b", message: { action: "event", event: "playbackStopped", options: stopped(runId) } },
      ]),
    );
    await waitForStatus(ide, "ended");
    expect(ide.getSnapshot().playback).toMatchObject({ runId, testId: "t-login", running: false });
  });

  it("names the chosen test case", async () => {
    const { calls, deliver } = recordingDeliver();
    const ide = createIde({ project: shopProject(), deliver, executor: stuckOnOpen() });
    await register(ide, "a");
    ide.send({ type: "user.startPlayback", testId: "t-cart" });
    await vi.waitFor(() => expect(byEvent(calls, "playbackStarted")).toHaveLength(1));
    expect(calls[0].message.options).toEqual({
      runId: ide.getSnapshot().playback!.runId,
      testId: "t-cart",
      testName: "adds to cart",
      projectName: SHOP.name,
      test: shopTest("t-cart"),
    });
  });

  it("tells the plugins playbackStopped when a fatal command state ends the test case", async () => {
    const { calls, deliver } = recordingDeliver();
    const ide = createIde({ project: shopProject(), deliver, executor: stuckOnOpen() });
    await register(ide, "a");
    ide.send({ type: "user.startPlayback" });
    const { runId } = await waitForStatus(ide, "running");
    expect(await ide.handle({ uri: "/playback/command", verb: "post", commandId: "c-open", state: "fatal" }, { id: "a" })).toBe(true);
    await vi.waitFor(() => expect(byEvent(calls, "playbackStopped")).toHaveLength(1));
    expect(byEvent(calls, "playbackStopped")[0]).toEqual({
      to: "a",
      message: { action: "event", event: "playbackStopped", options: stopped(runId) },
    });
    await waitForStatus(ide, "ended");
  });

  it("tells the plugins playbackStopped when the user closes the window during a test case, before dropping them", async () => {
    const { calls, deliver } = recordingDeliver();
    const ide = createIde({ project: shopProject(), deliver, executor: stuckOnOpen() });
    await register(ide, "a");
    ide.send({ type: "user.startPlayback" });
    await vi.waitFor(() => expect(byEvent(calls, "playbackStarted")).toHaveLength(1));
    const { runId } = await waitForStatus(ide, "running");
    ide.send({ type: "user.closeWindow" });
    await vi.waitFor(() => expect(byEvent(calls, "playbackStopped")).toHaveLength(1));
    expect(byEvent(calls, "playbackStopped")[0]).toEqual({
      to: "a",
      message: { action: "event", event: "playbackStopped", options: stopped(runId) },
    });
    await waitForStatus(ide, "ended");
    expect(ide.getSnapshot().playback?.running).toBe(false);
    expect(ide.getSnapshot().plugins).toEqual([]);
  });

  it("goes only to the controller while controlled, the only plugin of the session", async () => {
    const { calls, deliver } = recordingDeliver();
    const ide = createIde({ project: shopProject(), deliver });
    await register(ide, "a");
    await takeControl(ide, "boss");
    ide.send({ type: "user.startPlayback" });
    await vi.waitFor(() => expect(byEvent(calls, "playbackStarted")).toHaveLength(1));
    expect(byEvent(calls, "playbackStarted")[0].to).toBe("boss");
  });
});

describe("saving while controlled", () => {
  it("sends saveProject with the project to the controller, not to save, and counts it saved once delivered", async () => {
    const { calls, deliver } = recordingDeliver();
    const save = vi.fn(async (_project: SideProject) => {});
    const ide = createIde({ project: shopProject(), deliver, save });
    await takeControl(ide, "boss");
    ide.send({ type: "user.editProject" });
    expect(ide.getSnapshot().project.unsaved).toBe(true);
    ide.send({ type: "user.saveProject" });
    await vi.waitFor(() => expect(ide.getSnapshot().project.unsaved).toBe(false));
    const saves = byEvent(calls, "saveProject");
    expect(saves).toHaveLength(1);
    expect(saves[0].to).toBe("boss");
    expect(saves[0].message).toMatchObject({ action: "event", event: "saveProject" });
    const options = saves[0].message.options as Record<string, unknown>;
    expect(Object.keys(options)).toEqual(["project"]);
    const project = options.project as SideProject;
    expect(project).toMatchObject({ id: SHOP.id, name: SHOP.name });
    expect(project.tests.map((t) => t.id)).toEqual(["t-login", "t-cart"]);
    expect(save).not.toHaveBeenCalled();
  });

  it("sends the project's unknown fields back unchanged", async () => {
    const { calls, deliver } = recordingDeliver();
    const original = { ...shopProject(), customField: { kept: [1, 2] } };
    const ide = createIde({ project: original, deliver });
    await takeControl(ide, "boss");
    ide.send({ type: "user.saveProject" });
    await vi.waitFor(() => expect(byEvent(calls, "saveProject")).toHaveLength(1));
    const sent = (byEvent(calls, "saveProject")[0].message.options as Record<string, unknown>).project as Record<string, unknown>;
    expect(sent.customField).toEqual({ kept: [1, 2] });
    expect((sent.suites as unknown[]).length).toBe(1);
  });

  it("counts an answer of undefined as delivered", async () => {
    const { deliver } = recordingDeliver(() => undefined);
    const ide = createIde({ project: shopProject(), deliver });
    await takeControl(ide, "boss");
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.saveProject" });
    await vi.waitFor(() => expect(ide.getSnapshot().project.unsaved).toBe(false));
  });

  it("counts the project unsaved until the controller's answer arrives", async () => {
    let answer: (value: unknown) => void = () => {};
    // The save's first question (can the plugin emit the project?) is answered at once: no.
    const { calls, deliver } = recordingDeliver((_, message) =>
      message.action === ("emit" as string) ? undefined : new Promise((resolve) => (answer = resolve)),
    );
    const ide = createIde({ project: shopProject(), deliver });
    await takeControl(ide, "boss");
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.saveProject" });
    await vi.waitFor(() => expect(byEvent(calls, "saveProject")).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ide.getSnapshot().project.unsaved).toBe(true);
    answer({ ok: true });
    await vi.waitFor(() => expect(ide.getSnapshot().project.unsaved).toBe(false));
  });

  it("keeps an edit made while the save was under way unsaved", async () => {
    let answer: (value: unknown) => void = () => {};
    // The save's first question (can the plugin emit the project?) is answered at once: no.
    const { calls, deliver } = recordingDeliver((_, message) =>
      message.action === ("emit" as string) ? undefined : new Promise((resolve) => (answer = resolve)),
    );
    const ide = createIde({ project: shopProject(), deliver });
    await takeControl(ide, "boss");
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.saveProject" });
    await vi.waitFor(() => expect(byEvent(calls, "saveProject")).toHaveLength(1));
    ide.send({ type: "user.editProject" });
    answer(true);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ide.getSnapshot().project.unsaved).toBe(true);
  });

  const failures: Array<[string, (to: string) => unknown, Record<string, unknown>]> = [
    ["rejects", () => Promise.reject(new Error("the plugin crashed")), {}],
    ["answers { error }", () => ({ error: "disk full" }), {}],
    ["never answers", () => new Promise(() => {}), { limits: { deliverTimeoutMs: 50 } }],
    ["throws synchronously", () => {
      throw new Error("no port");
    }, {}],
  ];

  it.each(failures)("keeps the changes unsaved and logs an error when deliver %s", async (_, answer, extra) => {
    const { calls, deliver } = recordingDeliver((to, message) => ("event" in message && message.event === "saveProject" ? answer(to) : true));
    const save = vi.fn(async (_project: SideProject) => {});
    const ide = createIde({ project: shopProject(), deliver, save, ...extra });
    await takeControl(ide, "boss");
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.saveProject" });
    await vi.waitFor(() =>
      expect(logsOf(ide)).toContainEqual(expect.objectContaining({ group: "system", level: "error", source: "ide" })),
    );
    expect(byEvent(calls, "saveProject")).toHaveLength(1);
    expect(ide.getSnapshot().project.unsaved).toBe(true);
    expect(save).not.toHaveBeenCalled();
  });

  it("keeps the changes unsaved when there is no deliver at all", async () => {
    // README decision: saving while controlled with no `deliver` fails like a refused delivery.
    const save = vi.fn(async (_project: SideProject) => {});
    const ide = createIde({ project: shopProject(), save });
    await takeControl(ide, "boss");
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.saveProject" });
    await vi.waitFor(() =>
      expect(logsOf(ide).some((l) => l.group === "system" && l.source === "ide" && l.level !== "info")).toBe(true),
    );
    expect(ide.getSnapshot().project.unsaved).toBe(true);
    expect(save).not.toHaveBeenCalled();
  });
});

describe("saving while not controlled", () => {
  it("hands the project to options.save and then counts it saved", async () => {
    const { calls, deliver } = recordingDeliver();
    const saved: SideProject[] = [];
    const ide = createIde({ project: shopProject(), deliver, save: async (project) => void saved.push(project) });
    await register(ide, "a");
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.saveProject" });
    await vi.waitFor(() => expect(ide.getSnapshot().project.unsaved).toBe(false));
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ id: SHOP.id, name: SHOP.name });
    expect(byEvent(calls, "saveProject")).toEqual([]);
  });

  it("keeps the saved copy in memory when there is no save option", async () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.saveProject" });
    await vi.waitFor(() => expect(ide.getSnapshot().project.unsaved).toBe(false));
  });

  it("keeps the changes unsaved and logs an error when save rejects", async () => {
    const ide = createIde({ project: shopProject(), save: async () => Promise.reject(new Error("read-only disk")) });
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.saveProject" });
    await vi.waitFor(() =>
      expect(logsOf(ide)).toContainEqual(expect.objectContaining({ group: "system", level: "error", source: "ide" })),
    );
    expect(ide.getSnapshot().project.unsaved).toBe(true);
  });
});

describe("a missing or failing channel for events", () => {
  it("drops outbound messages with a warning log when there is no deliver", async () => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "a");
    expect(await ide.handle({ uri: "/project", verb: "post", project: otherProject() }, { id: "a" })).toBe(true);
    await vi.waitFor(() =>
      expect(logsOf(ide)).toContainEqual(expect.objectContaining({ group: "system", level: "warn", source: "ide" })),
    );
    expect(ide.getSnapshot().project).toEqual({ ...OTHER, unsaved: false, path: null });
  });

  it("writes a warning and changes nothing else when deliver rejects an event", async () => {
    const { deliver } = recordingDeliver(() => Promise.reject(new Error("gone")));
    const ide = createIde({ project: shopProject(), deliver, executor: stuckOnOpen() });
    await register(ide, "a");
    ide.send({ type: "user.startPlayback" });
    await vi.waitFor(() =>
      expect(logsOf(ide)).toContainEqual(expect.objectContaining({ group: "system", level: "warn", source: "ide" })),
    );
    // A plugin that cannot be reached does not refuse the start: the run goes on to its first command.
    await waitForStatus(ide, "running");
    expect(ide.getSnapshot().playback).toMatchObject({ running: true, currentCommandId: "c-open" });
    expect(await ide.handle({ uri: "/health", verb: "get" }, { id: "a" })).toBe(true);
  });

  it("refuses to start a second run while one is under way, with a warning, and the first goes on", async () => {
    // Round 2 (CONTRACT section 12): a run under way must be stopped first; POST /playback/start says Busy,
    // the user's start writes a warning. (README's "Test cases" decision still says the first run is ended.)
    const { calls, deliver } = recordingDeliver();
    const ide = createIde({ project: shopProject(), deliver, executor: stuckOnOpen() });
    await register(ide, "a");
    ide.send({ type: "user.startPlayback", testId: "t-login" });
    const { runId } = await waitForStatus(ide, "running");
    ide.send({ type: "user.startPlayback", testId: "t-cart" });
    await vi.waitFor(() =>
      expect(logsOf(ide)).toContainEqual(expect.objectContaining({ group: "system", level: "warn", source: "ide" })),
    );
    expect(ide.getSnapshot().playback).toMatchObject({ runId, testId: "t-login", status: "running", currentCommandId: "c-open" });
    expect(calls.map((c) => [(c.message as { event?: string }).event, c.message.options.testId])).toEqual([["playbackStarted", "t-login"]]);
  });

  it("sends nothing when no plugin is registered", async () => {
    const { calls, deliver } = recordingDeliver();
    const ide = createIde({ project: shopProject(), deliver });
    ide.send({ type: "user.startPlayback" });
    ide.send({ type: "user.stopPlayback" });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toEqual([]);
    expect(logsOf(ide).filter((l) => l.level !== "info")).toEqual([]);
  });
});
