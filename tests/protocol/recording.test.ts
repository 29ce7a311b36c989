// Recording (CONTRACT section 14) through the public API only: Record and Stop recording
// (ide.send), what the page's recorder reports (ide.record), the plugins' messages and their
// mutations (deliver), and the joins with runs, dialogs, loads and closing the window.
import { describe, expect, it, vi } from "vitest";
import {
  byEvent,
  createIde,
  fakeExecutor,
  logsOf,
  otherProject,
  recordingDeliver,
  register,
  request,
  settle,
  shopProject,
  waitForDialog,
  waitForStatus,
} from "./support.ts";
import type { Ide, OutboundMessage } from "./support.ts";

const click = (target: string, extra: Record<string, unknown> = {}) => ({
  type: "recorder.commandRecorded",
  command: "click",
  target,
  targets: [[target, "id"], [`css=#${target.slice(3)}`, "css:finder"]],
  value: "",
  frame: [],
  tabId: 7,
  ...extra,
});
const page = { type: "recorder.pageSeen", url: "http://127.0.0.1:8080/login?next=cart", width: 1280, height: 900, tabId: 7 };

const emptyTestProject = () => ({ ...shopProject(), url: "", tests: [{ id: "t-new", name: "new test", commands: [] }] });

const commandsOf = (ide: Ide, testId = ide.getSnapshot().displayedTestId) =>
  ide.getProject().tests.find((t) => t.id === testId)!.commands;
const shown = (ide: Ide) => commandsOf(ide).map((c) => `${c.command} ${c.target}`);

describe("Record and Stop recording", () => {
  it("records into the displayed test and shows the recording in the view until it stops", () => {
    const ide = createIde({ project: shopProject() });
    expect(ide.getSnapshot().recording).toBeNull();
    const before = Date.now();
    ide.send({ type: "user.startRecording" });
    const { recording } = ide.getSnapshot();
    expect(recording).toEqual({ testId: "t-login", startedAt: expect.any(Number) });
    expect(recording!.startedAt).toBeGreaterThanOrEqual(before);
    ide.send({ type: "user.stopRecording" });
    expect(ide.getSnapshot().recording).toBeNull();
  });

  it("inserts each recorded command after the selected one, selects it and makes the project unsaved", () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.selectCommand", commandId: "c-user" });
    ide.send({ type: "user.startRecording" });
    expect(ide.getSnapshot().project.unsaved).toBe(false);
    expect(ide.record(click("id=one"))).toBe(true);
    ide.record(click("id=two"));
    expect(shown(ide).slice(0, 4)).toEqual(["open /login", "type id=user", "click id=one", "click id=two"]);
    const recorded = commandsOf(ide)[3];
    expect(ide.getSnapshot().selectedCommandId).toBe(recorded.id);
    expect(recorded.targets).toEqual([["id=two", "id"], ["css=#two", "css:finder"]]);
    expect(ide.getSnapshot().project.unsaved).toBe(true);
  });

  it("starts an empty test with open (path and query) and setWindowSize, and gives the project the page's url", () => {
    const ide = createIde({ project: emptyTestProject() });
    ide.send({ type: "user.startRecording" });
    ide.record(page);
    ide.record(click("id=go"));
    expect(shown(ide)).toEqual(["open /login?next=cart", "setWindowSize 1280x900", "click id=go"]);
    expect(ide.getProject().url).toBe("http://127.0.0.1:8080");
  });

  it("puts selectFrame before the first command done in another frame", () => {
    const ide = createIde({ project: emptyTestProject() });
    ide.send({ type: "user.startRecording" });
    ide.record(click("id=a", { frame: [0] }));
    ide.record(click("id=b", { frame: [0] }));
    ide.record(click("id=c"));
    expect(shown(ide)).toEqual(["selectFrame index=0", "click id=a", "click id=b", "selectFrame relative=top", "click id=c"]);
    expect(commandsOf(ide)[0].targets).toEqual([["index=0"]]);
  });

  it("names a frame by its element's locator when the recorder found one, with index=N as its fallback, and by index=N where it found none", () => {
    const ide = createIde({ project: emptyTestProject() });
    ide.send({ type: "user.startRecording" });
    ide.record(click("id=a", { frame: [1, 0], frameTargets: [["id=payment", "id"], null] }));
    ide.record(click("id=b", { frame: [2], frameTargets: [["name=ads", "name"]] }));
    expect(shown(ide)).toEqual(["selectFrame id=payment", "selectFrame index=0", "click id=a", "selectFrame relative=parent", "selectFrame relative=parent", "selectFrame name=ads", "click id=b"]);
    expect(commandsOf(ide)[0].targets).toEqual([["id=payment", "id"], ["index=1"]]);
    expect(commandsOf(ide)[1].targets).toEqual([["index=0"]]);
    expect(commandsOf(ide)[5].targets).toEqual([["name=ads", "name"], ["index=2"]]);
  });

  it("changes nothing for what the recorder reports while not recording, or for a report that is not well formed", () => {
    const ide = createIde({ project: shopProject() });
    expect(ide.record(click("id=x"))).toBe(true);
    for (const bad of [null, 42, { type: "recorder.commandRecorded" }, { ...click("id=x"), frame: [-1] }, { ...click("id=x"), frame: [0], frameTargets: [[1, "id"]] }, { type: "user.accept" }]) {
      expect(ide.record(bad)).toBe(false);
    }
    expect(ide.getSnapshot().project.unsaved).toBe(false);
    expect(commandsOf(ide)).toHaveLength(5);
  });

  it("warns and records nothing when the project has no test", () => {
    const ide = createIde({ project: { ...shopProject(), tests: [] } });
    ide.send({ type: "user.startRecording" });
    expect(ide.getSnapshot().recording).toBeNull();
    expect(logsOf(ide).at(-1)).toMatchObject({ level: "warn", message: expect.stringMatching(/no test to record into/) });
  });
});

describe("a file chosen in a file input", () => {
  it("is recorded as type with the file's name and a warn log that its path must be set", () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.startRecording" });
    ide.record(click("id=avatar", { command: "type", value: "photo.png", upload: true }));
    expect(commandsOf(ide).find((c) => c.target === "id=avatar")).toMatchObject({ command: "type", value: "photo.png" });
    expect(logsOf(ide).at(-1)).toMatchObject({ level: "warn", message: expect.stringMatching(/"photo\.png".*Set the path of the file to upload/) });
    const logs = logsOf(ide).length;
    ide.record(click("id=name", { command: "type", value: "Ada" }));
    expect(logsOf(ide)).toHaveLength(logs);
  });
});

describe("what plugins are told, and their mutations", () => {
  async function recordingWith(answer: (to: string, message: OutboundMessage) => unknown, deliverTimeoutMs = 200) {
    const { calls, deliver } = recordingDeliver(answer);
    const ide = createIde({ project: shopProject(), deliver, limits: { deliverTimeoutMs } });
    await register(ide, "p1");
    await register(ide, "p2");
    ide.send({ type: "user.startRecording" });
    return { ide, calls };
  }

  it("tells every registered plugin that recording started and stopped, with the test's name", async () => {
    const { ide, calls } = await recordingWith(() => true);
    ide.send({ type: "user.stopRecording" });
    await vi.waitFor(() => expect(byEvent(calls, "recordingStopped")).toHaveLength(2));
    expect(byEvent(calls, "recordingStarted").map((c) => [c.to, c.message])).toEqual(
      ["p1", "p2"].map((to) => [to, { action: "event", event: "recordingStarted", options: { testName: "logs in" } }]),
    );
    expect(byEvent(calls, "recordingStopped")[0].message).toEqual({ action: "event", event: "recordingStopped", options: { testName: "logs in" } });
  });

  it("tells every plugin of each recorded command with its id, target, targets, value and tab", async () => {
    const { ide, calls } = await recordingWith(() => true);
    ide.record(click("id=go"));
    await vi.waitFor(() => expect(byEvent(calls, "commandRecorded")).toHaveLength(2));
    const id = commandsOf(ide).find((c) => c.target === "id=go")!.id;
    expect(byEvent(calls, "commandRecorded")[0].message).toEqual({
      action: "event",
      event: "commandRecorded",
      options: { tabId: 7, commandId: id, command: "click", target: "id=go", targets: [["id=go", "id"], ["css=#go", "css:finder"]], value: "" },
    });
  });

  it("removes the command when the first plugin to answer with a mutation says delete", async () => {
    const { ide } = await recordingWith((to, m) => ("event" in m && m.event === "commandRecorded" && to === "p2" ? { mutation: "delete" } : true));
    ide.record(click("id=go"));
    expect(shown(ide)).toContain("click id=go"); // shown at once
    await vi.waitFor(() => expect(shown(ide)).not.toContain("click id=go"));
  });

  it("changes the command on an update, and a warning names the plugin whose mutation was used when several answered", async () => {
    const { ide } = await recordingWith(async (to, m) => {
      if (!("event" in m) || m.event !== "commandRecorded") return true;
      if (to === "p2") await settle(20);
      return { mutation: "update", command: `clickAt`, target: `id=${to}`, value: "1,2", targets: [[`id=${to}`, "id"]] };
    });
    ide.record(click("id=go"));
    await vi.waitFor(() => expect(shown(ide)).toContain("clickAt id=p1"));
    const changed = commandsOf(ide).find((c) => c.command === "clickAt")!;
    expect(changed).toMatchObject({ value: "1,2", targets: [["id=p1", "id"]] });
    await vi.waitFor(() => expect(logsOf(ide).some((l) => l.level === "warn" && /first, from p1, was used/.test(l.message))).toBe(true));
  });

  it("ignores a mutation with fields of the wrong types, with a warning, and an error answer", async () => {
    const { ide } = await recordingWith((to, m) =>
      "event" in m && m.event === "commandRecorded" ? (to === "p1" ? { mutation: "update", command: 1, target: [], value: null } : { error: "nope", mutation: "delete" }) : true,
    );
    ide.record(click("id=go"));
    await vi.waitFor(() => expect(logsOf(ide).some((l) => l.level === "warn" && /p1 .*wrong types/.test(l.message))).toBe(true));
    expect(shown(ide)).toContain("click id=go");
  });

  it("ignores an answer that comes after deliverTimeoutMs, and never waits for it", async () => {
    const { ide } = await recordingWith(async (_, m) => {
      if ("event" in m && m.event === "commandRecorded") await settle(80);
      return { mutation: "delete" };
    }, 20);
    ide.record(click("id=go"));
    ide.record(click("id=next"));
    expect(shown(ide)).toEqual(expect.arrayContaining(["click id=go", "click id=next"]));
    await settle(150);
    expect(shown(ide)).toEqual(expect.arrayContaining(["click id=go", "click id=next"]));
  });

  it("inserts a plugin's POST /record/command after the last recorded command, with no commandRecorded of its own", async () => {
    const { ide, calls } = await recordingWith(() => true);
    ide.send({ type: "user.selectCommand", commandId: "c-user" });
    ide.record(click("id=go"));
    ide.send({ type: "user.selectCommand", commandId: "c-open" });
    expect(await ide.handle(request("/record/command", "post", { command: "echo", target: "from a plugin" }), { id: "p1" })).toBe(true);
    const ids = commandsOf(ide).map((c) => c.command);
    expect(ids.indexOf("click")).toBe(2); // after the selected command, c-user
    expect(ids.indexOf("echo")).toBe(ids.indexOf("click") + 1); // not after c-open, selected since
    await settle(10);
    expect(byEvent(calls, "commandRecorded")).toHaveLength(2); // the click only, to both plugins
  });
});

describe("recording beside runs, dialogs, loads and the window", () => {
  it("stops a recording before a run starts, and tells the plugins in that order", async () => {
    const { calls, deliver } = recordingDeliver(() => true);
    const ide = createIde({ project: shopProject(), deliver, executor: fakeExecutor() });
    await register(ide, "p1");
    ide.send({ type: "user.startRecording" });
    ide.send({ type: "user.startPlayback" });
    expect(ide.getSnapshot().recording).toBeNull();
    await vi.waitFor(() => expect(byEvent(calls, "playbackStarted")).toHaveLength(1));
    const order = calls.map((c) => ("event" in c.message ? c.message.event : "")).filter((e) => /recording|playback/.test(e));
    expect(order.slice(0, 3)).toEqual(["recordingStarted", "recordingStopped", "playbackStarted"]);
  });

  it("stops a recording for a suite and for POST /playback/start", async () => {
    for (const start of ["suite", "request"] as const) {
      const ide = createIde({ project: shopProject(), executor: fakeExecutor() });
      await register(ide, "p1");
      ide.send({ type: "user.startRecording" });
      if (start === "suite") ide.send({ type: "user.startSuite" });
      else expect(await ide.handle(request("/playback/start", "post", {}), { id: "p1" })).toMatchObject({ runId: expect.any(String) });
      expect(ide.getSnapshot().recording).toBeNull();
      expect(logsOf(ide).some((l) => /recording stopped: a run started/.test(l.message))).toBe(true);
    }
  });

  it("refuses to start recording while a run plays: the event changes nothing", async () => {
    const ide = createIde({ project: shopProject(), executor: fakeExecutor() });
    ide.send({ type: "user.toggleBreakpoint", commandId: "c-user" });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "paused");
    ide.send({ type: "user.startRecording" });
    expect(ide.getSnapshot().recording).toBeNull();
    ide.send({ type: "user.stopPlayback" });
    await vi.waitFor(() => expect(ide.getSnapshot().playback?.running).toBe(false));
    ide.send({ type: "user.startRecording" });
    expect(ide.getSnapshot().recording).not.toBeNull();
  });

  it("stops when the window closes, keeping what was recorded", () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.startRecording" });
    ide.record(click("id=go"));
    ide.send({ type: "user.closeWindow" });
    expect(ide.getSnapshot().recording).toBeNull();
    expect(shown(ide)).toContain("click id=go");
    ide.send({ type: "user.openWindow" });
    expect(ide.record(click("id=after"))).toBe(true);
    expect(shown(ide)).not.toContain("click id=after");
  });

  it("keeps recording while the user answers a load dialog, and stops once the other project is loaded", async () => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "p1");
    ide.send({ type: "user.startRecording" });
    ide.record(click("id=go")); // unsaved: a load asks first
    const load = ide.handle(request("/project", "post", { project: otherProject() }), { id: "p1" });
    await waitForDialog(ide, "loadProject");
    expect(ide.getSnapshot().recording).not.toBeNull();
    ide.send({ type: "user.accept" });
    expect(await load).toBe(true);
    expect(ide.getSnapshot().recording).toBeNull();
    expect(logsOf(ide).some((l) => /another project was loaded/.test(l.message))).toBe(true);
  });

  it("stops when the tab under test closes, with a warning, keeping what was recorded", () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.startRecording" });
    ide.record(click("id=go"));
    ide.record({ type: "recorder.tabClosed" });
    expect(ide.getSnapshot().recording).toBeNull();
    expect(shown(ide)).toContain("click id=go");
    expect(logsOf(ide).at(-1)).toMatchObject({ level: "warn", message: expect.stringMatching(/tab under test was closed/) });
  });
});

describe("typing that a stop finds in the focused field (CONTRACT round 4)", () => {
  const typing = (target: string, value: string | null) => ({
    type: "recorder.typing",
    field: value === null ? null : { target, targets: [[target, "id"]], value },
    frame: [],
    tabId: 7,
  });

  it("records what the user typed into the field that still has the focus as its type when Stop recording is pressed, before recordingStopped", async () => {
    const { calls, deliver } = recordingDeliver(() => true);
    const ide = createIde({ project: shopProject(), deliver });
    await register(ide, "p1");
    ide.send({ type: "user.startRecording" });
    ide.record(click("id=user"));
    expect(ide.record(typing("id=user", "b"))).toBe(true);
    ide.record(typing("id=user", "bob"));
    expect(commandsOf(ide).some((c) => c.value === "bob")).toBe(false);
    ide.send({ type: "user.stopRecording" });
    const typed = commandsOf(ide).filter((c) => c.command === "type" && c.value === "bob");
    expect(typed.map((c) => [c.command, c.target, c.value, c.targets])).toEqual([["type", "id=user", "bob", [["id=user", "id"]]]]);
    expect(ide.getSnapshot().selectedCommandId).toBe(typed[0].id);
    await vi.waitFor(() => expect(byEvent(calls, "recordingStopped")).toHaveLength(1));
    const order = calls.map((c) => ("event" in c.message ? c.message.event : "")).filter((e) => /recording|commandRecorded/.test(e));
    expect(order).toEqual(["recordingStarted", "commandRecorded", "commandRecorded", "recordingStopped"]);
  });

  it("records nothing more once the field's change came or its value went back to what was recorded", () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.startRecording" });
    ide.record(typing("id=user", "bo"));
    ide.record(typing("id=user", null)); // the change came: the recorder sends its type itself
    ide.record({ ...click("id=user"), command: "type", value: "bo" });
    ide.send({ type: "user.stopRecording" });
    expect(commandsOf(ide).filter((c) => c.value === "bo")).toHaveLength(1);
  });

  it("records the typing before a run starts, so Play plays it", async () => {
    const ide = createIde({ project: emptyTestProject(), executor: fakeExecutor() });
    ide.send({ type: "user.startRecording" });
    ide.record(click("id=user"));
    ide.record(typing("id=user", "alice"));
    ide.send({ type: "user.startPlayback" });
    expect(shown(ide)).toEqual(["click id=user", "type id=user"]);
    await vi.waitFor(() => expect(ide.getSnapshot().playback?.running).toBe(false));
    expect(ide.getSnapshot().playback!.commands.map((c) => c.state)).toEqual(["passed", "passed"]);
  });

  it("records the typing when the window closes and when the tab under test closes", () => {
    for (const stop of [{ type: "user.closeWindow" }, { type: "recorder.tabClosed" }] as const) {
      const ide = createIde({ project: shopProject() });
      ide.send({ type: "user.startRecording" });
      ide.record(typing("id=user", "carol"));
      if (stop.type === "user.closeWindow") ide.send(stop);
      else ide.record(stop);
      expect(ide.getSnapshot().recording).toBeNull();
      expect(commandsOf(ide, "t-login").map((c) => `${c.command} ${c.target} ${c.value}`)).toContain("type id=user carol");
    }
  });

  it("records the typing before another project is loaded, so loading asks before dropping it", async () => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "p1");
    ide.send({ type: "user.startRecording" });
    ide.record(typing("id=user", "dave"));
    expect(ide.getSnapshot().project.unsaved).toBe(false);
    const load = ide.handle(request("/project", "post", { project: otherProject() }), { id: "p1" });
    await waitForDialog(ide, "loadProject");
    expect(commandsOf(ide).map((c) => `${c.command} ${c.target} ${c.value}`)).toContain("type id=user dave");
    ide.send({ type: "user.decline" });
    expect(await load).toBe(false);
    expect(ide.getSnapshot().recording).not.toBeNull();
  });

  it("changes nothing for a typing report while not recording, or one that is not well formed", () => {
    const ide = createIde({ project: shopProject() });
    const before = JSON.stringify(ide.getProject());
    expect(ide.record(typing("id=user", "x"))).toBe(true);
    expect(ide.record({ type: "recorder.typing", field: { target: "id=user", value: 5 } })).toBe(false);
    ide.send({ type: "user.startRecording" });
    ide.send({ type: "user.stopRecording" });
    expect(JSON.stringify(ide.getProject())).toBe(before);
  });
});
