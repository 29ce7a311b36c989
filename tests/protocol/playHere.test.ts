// A command row's runs (CONTRACT section 20): Play to here (with and without Play from here),
// Execute this command, and disabled commands (v3's `//`), driven through createIde with
// ide.send, a fake page under test and a registered plugin.
import { describe, expect, it, vi } from "vitest";
import { createIde, fakeExecutor, logsOf, recordingDeliver, register, settle, statesOf, waitForStatus } from "./support.ts";
import type { Ide } from "./support.ts";

type Row = [id: string, command: string, target?: string, value?: string];

const testOf = (id: string, rows: Row[], name = id) => ({
  id,
  name,
  commands: rows.map(([cid, command, target = "", value = ""]) => ({ id: cid, command, target, value })),
});
const projectOf = (...tests: Array<ReturnType<typeof testOf>>) => ({ id: "inline", name: "Inline", url: "http://127.0.0.1:8080", tests });

const view = (ide: Ide) => ide.getSnapshot().playback!;
const warnings = (ide: Ide) => logsOf(ide).filter((l) => l.level === "warn").map((l) => l.message);
const executedIds = (executor: ReturnType<typeof fakeExecutor>) => executor.executed.map((c) => c.id);

/** Four page commands in a row. */
const straight = () =>
  projectOf(
    testOf("t", [
      ["c1", "open", "/"],
      ["c2", "click", "id=a"],
      ["c3", "click", "id=b"],
      ["c4", "click", "id=c"],
    ]),
  );

describe("Play to here", () => {
  it("pauses before the command, having played those before it, and resuming plays to the end", async () => {
    const executor = fakeExecutor();
    const ide = createIde({ project: straight(), executor });
    ide.send({ type: "user.startPlayback", untilCommandId: "c3" });
    expect(await waitForStatus(ide, "paused")).toMatchObject({ currentCommandId: "c3" });
    expect(executedIds(executor)).toEqual(["c1", "c2"]);
    expect(statesOf(ide).map(([id, state]) => [id, state])).toEqual([
      ["c1", "passed"],
      ["c2", "passed"],
      ["c3", null],
      ["c4", null],
    ]);
    ide.send({ type: "user.resumePlayback" });
    expect(await waitForStatus(ide, "ended")).toMatchObject({ result: "passed" });
    expect(executedIds(executor)).toEqual(["c1", "c2", "c3", "c4"]);
  });

  it("plays from Play from here's command to just before Play to here's, together", async () => {
    const executor = fakeExecutor();
    const ide = createIde({ project: straight(), executor });
    ide.send({ type: "user.startPlayback", fromCommandId: "c2", untilCommandId: "c4" });
    expect(await waitForStatus(ide, "paused")).toMatchObject({ currentCommandId: "c4" });
    expect(executedIds(executor)).toEqual(["c2", "c3"]);
    expect(view(ide).commands[0].state).toBeNull();
  });

  it("pauses once: a loop that comes back to the command goes on past it", async () => {
    const ide = createIde({
      project: projectOf(
        testOf("t", [
          ["c1", "times", "3"],
          ["c2", "echo", "turn"],
          ["c3", "end"],
        ]),
      ),
    });
    ide.send({ type: "user.startPlayback", untilCommandId: "c2" });
    expect(await waitForStatus(ide, "paused")).toMatchObject({ currentCommandId: "c2" });
    expect(logsOf(ide).filter((l) => l.message === "turn")).toHaveLength(0);
    ide.send({ type: "user.resumePlayback" });
    expect(await waitForStatus(ide, "ended")).toMatchObject({ result: "passed" });
    expect(logsOf(ide).filter((l) => l.message === "turn")).toHaveLength(3);
  });

  it("steps from the command like from a breakpoint, pausing again after it", async () => {
    const executor = fakeExecutor();
    const ide = createIde({ project: straight(), executor });
    ide.send({ type: "user.startPlayback", untilCommandId: "c2" });
    await waitForStatus(ide, "paused");
    ide.send({ type: "user.stepPlayback" });
    await vi.waitFor(() => expect(view(ide)).toMatchObject({ status: "paused", currentCommandId: "c3" }));
    expect(executedIds(executor)).toEqual(["c1", "c2"]);
  });

  it("says in the log that the test ended without reaching the command when it lies in a branch not taken", async () => {
    const executor = fakeExecutor();
    const ide = createIde({
      project: projectOf(
        testOf("t", [
          ["c1", "if", "false"],
          ["c2", "click", "id=never"],
          ["c3", "end"],
          ["c4", "click", "id=after"],
        ]),
      ),
      executor,
    });
    ide.send({ type: "user.startPlayback", untilCommandId: "c2" });
    expect(await waitForStatus(ide, "ended")).toMatchObject({ result: "passed" });
    expect(executedIds(executor)).toEqual(["c4"]);
    expect(logsOf(ide).map((l) => l.message)).toContain("Play to here: the test ended without reaching command #2; it lies in a branch that was not taken.");
  });

  it.each([
    ["Play to here", { untilCommandId: "nope" }],
    ["Play from here", { fromCommandId: "nope" }],
  ])("starts nothing for a %s command the test lacks, and says why in a warn log", async (what, ids) => {
    const executor = fakeExecutor();
    const ide = createIde({ project: straight(), executor });
    ide.send({ type: "user.startPlayback", ...ids });
    await settle();
    expect(ide.getSnapshot().playback?.status ?? "idle").toBe("idle");
    expect(executor.executed).toEqual([]);
    expect(warnings(ide)).toEqual([`${what}: the test "t" has no command with the id "nope". Nothing was started.`]);
  });

  it("pauses only in the run's first test's own commands, not in a test that a run command calls", async () => {
    const executor = fakeExecutor();
    const ide = createIde({
      project: projectOf(testOf("main", [["m1", "run", "helper"], ["m2", "click", "id=x"]]), testOf("helper", [["h1", "click", "id=h"]])),
      executor,
    });
    ide.send({ type: "user.startPlayback", testId: "main", untilCommandId: "m2" });
    expect(await waitForStatus(ide, "paused")).toMatchObject({ currentCommandId: "m2" });
    expect(executedIds(executor)).toEqual(["h1"]);
  });
});

describe("Execute this command", () => {
  it("plays only that command of the displayed test, shows its state on its row alone, and changes nothing in the project", async () => {
    const executor = fakeExecutor();
    const ide = createIde({ project: straight(), executor });
    const before = ide.getProject();
    ide.send({ type: "user.executeCommand", commandId: "c3" });
    expect(await waitForStatus(ide, "ended")).toMatchObject({ testId: "t", result: "passed" });
    expect(executedIds(executor)).toEqual(["c3"]);
    expect(statesOf(ide).map(([id, state]) => [id, state])).toEqual([
      ["c1", null],
      ["c2", null],
      ["c3", "passed"],
      ["c4", null],
    ]);
    expect(ide.getProject()).toEqual(before);
    expect(ide.getSnapshot().project.unsaved).toBe(false);
  });

  it("shows a command that failed as failed, with the page's message, and the run as failed", async () => {
    const executor = fakeExecutor({ answer: () => ({ state: "failed", message: "Element id=b not found" }) });
    const ide = createIde({ project: straight(), executor });
    ide.send({ type: "user.executeCommand", commandId: "c3" });
    expect(await waitForStatus(ide, "ended")).toMatchObject({ result: "failed" });
    expect(statesOf(ide)[2]).toEqual(["c3", "failed", "Element id=b not found"]);
  });

  it("starts with no variables the first time, then with those the last run ended with, and keeps what it stores for the next", async () => {
    const executor = fakeExecutor();
    const project = projectOf(
      testOf("t", [
        ["c1", "storeText", "alice", "user"],
        ["c2", "type", "id=name", "${user}"],
        ["c3", "store", "bob", "user"],
      ]),
    );
    const ide = createIde({ project, executor });
    ide.send({ type: "user.executeCommand", commandId: "c2" });
    expect(await waitForStatus(ide, "ended")).toMatchObject({ variables: {} });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "ended");
    ide.send({ type: "user.executeCommand", commandId: "c2" });
    await waitForStatus(ide, "ended");
    expect(executor.executed.filter((c) => c.id === "c2").map((c) => c.value)).toEqual(["${user}", "alice", "bob"]);
    ide.send({ type: "user.executeCommand", commandId: "c3" });
    await vi.waitFor(() => expect(view(ide)).toMatchObject({ status: "ended", variables: { user: "bob" } }));
    ide.send({ type: "user.executeCommand", commandId: "c2" });
    await waitForStatus(ide, "ended");
    expect(executor.executed.filter((c) => c.id === "c2").at(-1)!.value).toBe("bob");
  });

  it("is refused while a run plays, with a warn log, and the run goes on", async () => {
    const executor = fakeExecutor({ hang: new Set(["click"]) });
    const ide = createIde({ project: straight(), executor });
    ide.send({ type: "user.startPlayback" });
    await vi.waitFor(() => expect(view(ide).currentCommandId).toBe("c2"));
    ide.send({ type: "user.executeCommand", commandId: "c4" });
    await settle();
    expect(warnings(ide)).toEqual(["A run is under way: a command can be executed by itself only once it is over. Nothing was executed."]);
    expect(executedIds(executor)).toEqual(["c1", "c2"]);
    expect(view(ide)).toMatchObject({ status: "running", currentCommandId: "c2" });
  });

  it.each<[string, Row[], string, string]>([
    ["an unknown command id", [["c1", "click", "id=a"]], "nope", 'Execute this command: the test "t" has no command with the id "nope". Nothing was started.'],
    [
      "a control-flow command",
      [["c1", "if", "true"], ["c2", "end"]],
      "c1",
      'Execute this command: command #1 of "t" cannot be executed by itself: if is control flow, which means nothing by itself: use Play from here, or play the whole test. Nothing was started.',
    ],
    [
      "a disabled command",
      [["c1", "//click", "id=a"]],
      "c1",
      'Execute this command: command #1 of "t" cannot be executed by itself: it is disabled (enable it first). Nothing was started.',
    ],
  ])("is refused for %s, saying why in a warn log, and plays nothing", async (_, rows, commandId, message) => {
    const executor = fakeExecutor();
    const ide = createIde({ project: projectOf(testOf("t", rows)), executor });
    ide.send({ type: "user.executeCommand", commandId });
    await settle();
    expect(warnings(ide)).toEqual([message]);
    expect(ide.getSnapshot().playback?.status ?? "idle").toBe("idle");
    expect(executor.executed).toEqual([]);
  });

  it("executes a command of the displayed test, not of the project's first", async () => {
    const executor = fakeExecutor();
    const ide = createIde({ project: projectOf(testOf("first", [["f1", "click", "id=f"]]), testOf("second", [["s1", "click", "id=s"]])), executor });
    ide.send({ type: "user.selectTest", testId: "second" });
    ide.send({ type: "user.executeCommand", commandId: "s1" });
    expect(await waitForStatus(ide, "ended")).toMatchObject({ testId: "second" });
    expect(executedIds(executor)).toEqual(["s1"]);
    ide.send({ type: "user.executeCommand", commandId: "f1" });
    await settle();
    expect(warnings(ide)).toEqual(['Execute this command: the test "second" has no command with the id "f1". Nothing was started.']);
  });

  it("has a plugin's command executed by its plugin, and plugins hear no playbackStarted or playbackStopped of it", async () => {
    const { calls, deliver } = recordingDeliver();
    const ide = createIde({ project: projectOf(testOf("t", [["c1", "pCheck", "home"], ["c2", "click", "id=a"]])), deliver });
    await register(ide, "p", { commands: [{ id: "pCheck", name: "check" }] });
    ide.send({ type: "user.executeCommand", commandId: "c1" });
    expect(await waitForStatus(ide, "ended")).toMatchObject({ result: "passed" });
    expect(calls.map((c) => c.message.action === "execute" ? ["execute", c.message.command.command] : ["event", (c.message as { event: string }).event])).toEqual([
      ["execute", "pCheck"],
    ]);
    expect(statesOf(ide).map(([, state]) => state)).toEqual(["passed", null]);
  });

  it("stops a recording first, as Play does", async () => {
    const ide = createIde({ project: straight(), executor: fakeExecutor() });
    ide.send({ type: "user.startRecording" });
    expect(ide.getSnapshot().recording).not.toBeNull();
    ide.send({ type: "user.executeCommand", commandId: "c2" });
    expect(await waitForStatus(ide, "ended")).toMatchObject({ result: "passed" });
    expect(ide.getSnapshot().recording).toBeNull();
  });
});

describe("disabled commands (a name starting with //)", () => {
  it("are passed over: they keep no state, reach neither the page nor a plugin, and no unknown-command message is given", async () => {
    const executor = fakeExecutor();
    const { calls, deliver } = recordingDeliver();
    const ide = createIde({
      project: projectOf(
        testOf("t", [
          ["c1", "open", "/"],
          ["c2", "//click", "id=off"],
          ["c3", "//noSuchCommand", "x"],
          ["c4", "//pCheck", "home"],
          ["c5", "click", "id=on"],
        ]),
      ),
      executor,
      deliver,
    });
    await register(ide, "p", { commands: [{ id: "pCheck", name: "check" }] });
    ide.send({ type: "user.startPlayback" });
    expect(await waitForStatus(ide, "ended")).toMatchObject({ result: "passed" });
    expect(executedIds(executor)).toEqual(["c1", "c5"]);
    expect(calls.filter((c) => c.message.action === "execute")).toEqual([]);
    expect(statesOf(ide)).toEqual([
      ["c1", "passed", null],
      ["c2", null, null],
      ["c3", null, null],
      ["c4", null, null],
      ["c5", "passed", null],
    ]);
    expect(logsOf(ide).filter((l) => /unknown command/i.test(l.message))).toEqual([]);
  });

  it("leave a disabled block's commands to play as plain commands, and a disabled end does not break the flow", async () => {
    const executor = fakeExecutor();
    const ide = createIde({
      project: projectOf(
        testOf("t", [
          ["c1", "//if", "false"],
          ["c2", "click", "id=inside"],
          ["c3", "//end"],
          ["c4", "times", "2"],
          ["c5", "click", "id=loop"],
          ["c6", "//end"],
          ["c7", "end"],
        ]),
      ),
      executor,
    });
    ide.send({ type: "user.startPlayback" });
    expect(await waitForStatus(ide, "ended")).toMatchObject({ result: "passed" });
    expect(executedIds(executor)).toEqual(["c2", "c5", "c5"]);
    expect(statesOf(ide).map(([, state]) => state)).toEqual([null, "passed", null, "passed", "passed", null, "passed"]);
  });

  it("still take Play to here: the run pauses before one, then passes over it", async () => {
    const executor = fakeExecutor();
    const ide = createIde({ project: projectOf(testOf("t", [["c1", "click", "id=a"], ["c2", "//click", "id=off"], ["c3", "click", "id=b"]])), executor });
    ide.send({ type: "user.startPlayback", untilCommandId: "c2" });
    expect(await waitForStatus(ide, "paused")).toMatchObject({ currentCommandId: "c2" });
    ide.send({ type: "user.resumePlayback" });
    await waitForStatus(ide, "ended");
    expect(executedIds(executor)).toEqual(["c1", "c3"]);
    expect(view(ide).commands[1].state).toBeNull();
  });
});
