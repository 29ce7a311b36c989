// Runs of plugin commands over the real bridge: a Node plugin written with the typed client
// answers `execute` through onCommand, and each answer sets its command's state in the view
// (CONTRACT section 10); the run's events reach it, a variable it puts while the run starts
// is in the next command's target (section 11), and its playback routes start and stop runs
// (section 12).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startHost } from "../../apps/host/host.ts";
import type { Host } from "../../apps/host/host.ts";
import { connectPlugin, isErrorReply } from "../../client/index.ts";
import type { CommandToExecute, ErrorReply, ExecuteOptions, PluginClient, PluginMessage, Registration } from "../../client/index.ts";
import type { Ide, IdeView } from "../../index.ts";

const PLUGIN_ID = "commands-plugin";
const NAMES = ["pcPass", "pcText", "pcStatus", "pcLater", "pcError", "pcThrow", "pcMissing", "pcSilent", "pcNull", "pcFatal", "pcEcho"];
const REGISTRATION: Registration = {
  name: "Commands plugin",
  version: "1.0.0",
  commands: NAMES.map((id) => ({ id, name: id })),
};

const step = (id: string, command: string, target = "", value = "") => ({ id, command, target, value });
const PROJECT = {
  id: "p-plugin-commands",
  name: "Plugin commands",
  tests: [
    {
      id: "t-answers",
      name: "answers",
      commands: [
        step("a1", "pcPass", "one"),
        step("a2", "pcText", "two"),
        step("a3", "pcStatus", "three"),
        step("a4", "pcLater", "four"),
        step("a5", "pcError", "five"),
        step("a6", "pcPass", "six"),
      ],
    },
    { id: "t-throw", name: "throws", commands: [step("b1", "pcThrow"), step("b2", "pcPass")] },
    { id: "t-missing", name: "no handler", commands: [step("m1", "pcMissing", "lost")] },
    { id: "t-silent", name: "silent", commands: [step("s1", "pcSilent"), step("s2", "pcPass")] },
    { id: "t-null", name: "null", commands: [step("n1", "pcNull")] },
    { id: "t-fatal", name: "fatal", commands: [step("f1", "pcFatal"), step("f2", "pcPass")] },
    { id: "t-vars", name: "variables", commands: [step("v1", "pcEcho", "${who.name} at ${place}", "${count}"), step("v2", "pcPass", "${place}")] },
  ],
  suites: [],
};

let host: Host;
let client: PluginClient;
/** What the plugin saw, in order: "event NAME" and "execute COMMAND TARGET". */
let seen: string[];
let executed: Array<{ command: CommandToExecute; options: ExecuteOptions }>;
let events: PluginMessage[];

beforeEach(async () => {
  host = await startHost({ port: 0, tokenFile: null, project: PROJECT });
  client = await connectPlugin({ url: host.urls.plugins, id: PLUGIN_ID, token: host.token });
  seen = [];
  executed = [];
  events = [];
  client.onMessage((message) => {
    seen.push(`event ${message.event}`);
    events.push(message);
  });
  expect(await client.register(REGISTRATION)).toBe(true);
});

afterEach(async () => {
  await client.disconnect();
  await host.close();
});

/** Handles `name` with `answer`, writing down each execute. */
function handle(name: string, answer: (command: CommandToExecute, options: ExecuteOptions) => unknown) {
  return client.onCommand(name, async (command, options) => {
    seen.push(`execute ${command.command} ${command.target}`);
    executed.push({ command, options });
    return answer(command, options) as never;
  });
}

function viewWhere(ide: Ide, predicate: (view: IdeView) => boolean): Promise<IdeView> {
  return new Promise((resolve) => {
    const now = ide.getSnapshot();
    if (predicate(now)) return resolve(now);
    const subscription = ide.subscribe((view) => {
      if (!predicate(view)) return;
      subscription.unsubscribe();
      resolve(view);
    });
  });
}

/** Runs a test as the user's "Start" does and resolves with the view once the run is over. */
async function run(testId: string): Promise<NonNullable<IdeView["playback"]>> {
  host.ide.send({ type: "user.startPlayback", testId });
  const view = await viewWhere(host.ide, (v) => v.playback?.testId === testId && v.playback.status === "ended");
  return view.playback!;
}

const states = (playback: NonNullable<IdeView["playback"]>) => playback.commands.map(({ id, state, message }) => ({ id, state, message }));

function expectErrorReply(reply: unknown, code: string): ErrorReply {
  expect(isErrorReply(reply), JSON.stringify(reply)).toBe(true);
  expect((reply as ErrorReply).errorCode).toBe(code);
  return reply as ErrorReply;
}

describe("plugin commands over the bridge", () => {
  it("sets each command's state from its handler's answer, and tells the plugin of the run's start and end", async () => {
    handle("pcPass", () => true);
    handle("pcText", (command) => `${command.target} checked`);
    handle("pcStatus", () => ({ status: "passed", message: "by status" }));
    handle("pcLater", () => ({ status: "pending" }));
    handle("pcError", (command) => ({ error: `${command.target} is wrong` }));
    // pcLater's state is known only once the test is over: the run is finishing until this answer.
    client.onMessage(async (message) => {
      if (message.event !== "playbackStopped") return undefined;
      const later = executed.find((e) => e.command.command === "pcLater")!;
      expect(await client.commandState(later.options.commandId, "passed", "decided at the end")).toBe(true);
      return true;
    });

    const playback = await run("t-answers");

    expect(states(playback)).toEqual([
      { id: "a1", state: "passed", message: null },
      { id: "a2", state: "passed", message: "two checked" },
      { id: "a3", state: "passed", message: "by status" },
      { id: "a4", state: "passed", message: "decided at the end" },
      { id: "a5", state: "failed", message: "five is wrong" },
      { id: "a6", state: null, message: null },
    ]);
    expect(playback.result).toBe("failed");
    expect(seen).toEqual([
      "event playbackStarted",
      "execute pcPass one",
      "execute pcText two",
      "execute pcStatus three",
      "execute pcLater four",
      "execute pcError five",
      "event playbackStopped",
    ]);
    const [started, stopped] = events;
    expect(started).toMatchObject({
      event: "playbackStarted",
      options: { runId: playback.runId, testId: "t-answers", testName: "answers", projectName: PROJECT.name, test: { id: "t-answers" } },
    });
    expect(stopped).toEqual({
      action: "event",
      event: "playbackStopped",
      options: { runId: playback.runId, testId: "t-answers", testName: "answers", projectName: PROJECT.name },
    });
    expect(executed[0]).toEqual({
      command: { command: "pcPass", target: "one", value: "" },
      options: {
        runId: playback.runId,
        testId: "t-answers",
        originalTestId: "t-answers",
        commandId: "a1",
        isNested: false,
        assertionsDisabled: false,
        tabId: null,
        windowId: null,
        frameId: null,
      },
    });
  });

  it("fails a command whose handler throws, one with no handler, and one whose handler was unsubscribed", async () => {
    handle("pcThrow", () => {
      throw new Error("the widget is missing");
    });
    const stopPass = handle("pcPass", () => true);

    expect(states(await run("t-throw"))).toEqual([
      { id: "b1", state: "failed", message: "the widget is missing" },
      { id: "b2", state: null, message: null },
    ]);
    expect(states(await run("t-missing"))).toEqual([
      { id: "m1", state: "failed", message: `The plugin ${PLUGIN_ID} has no handler for pcMissing.` },
    ]);

    stopPass();
    expect(states(await run("t-answers"))[0]).toEqual({
      id: "a1",
      state: "failed",
      message: `The plugin ${PLUGIN_ID} has no handler for pcPass.`,
    });
    expect(seen.filter((line) => line.startsWith("execute"))).toEqual(["execute pcThrow "]);
  });

  it("ends the run as fatal when a handler answers nothing, null, or a fatal error", async () => {
    handle("pcSilent", () => undefined);
    handle("pcNull", () => null);
    handle("pcFatal", () => ({ error: "the browser is gone", status: "fatal" }));
    handle("pcPass", () => true);

    // Exactly "did not respond": the answer was read as undefined, not waited for until the time limit.
    const silent = await run("t-silent");
    expect(states(silent)).toEqual([
      { id: "s1", state: "fatal", message: "Commands plugin did not respond" },
      { id: "s2", state: null, message: null },
    ]);
    expect(silent.result).toBe("failed");
    expect(states(await run("t-null"))).toEqual([{ id: "n1", state: "fatal", message: "Commands plugin did not respond" }]);
    expect(states(await run("t-fatal"))).toEqual([
      { id: "f1", state: "fatal", message: "the browser is gone" },
      { id: "f2", state: null, message: null },
    ]);
    expect(seen.filter((line) => line === "event playbackStopped")).toHaveLength(3);
  });

  it("puts variables while handling playbackStarted, and the next plugin command gets them in its target and value", async () => {
    handle("pcEcho", (command) => `${command.target} / ${command.value}`);
    handle("pcPass", () => true);
    client.onMessage(async (message) => {
      if (message.event !== "playbackStarted") return undefined;
      // Before answering: the first command waits for this answer.
      expect(await client.setVariable("who", { name: "Ada" })).toBe(true);
      expect(await client.setVariable("place", "the shop")).toBe(true);
      expect(await client.setVariable("count", 3)).toBe(true);
      return true;
    });

    const playback = await run("t-vars");

    expect(executed.map((e) => e.command)).toEqual([
      { command: "pcEcho", target: "Ada at the shop", value: "3" },
      { command: "pcPass", target: "the shop", value: "" },
    ]);
    expect(states(playback)[0]).toEqual({ id: "v1", state: "passed", message: "Ada at the shop / 3" });
    expect(playback.variables).toEqual({ who: { name: "Ada" }, place: "the shop", count: 3 });
    const added = host.ide.getSnapshot().logs.filter((entry) => entry.group === "playback" && entry.source === PLUGIN_ID);
    expect(added.map((entry) => entry.message)).toEqual([
      "Commands plugin: added variable who",
      "Commands plugin: added variable place",
      "Commands plugin: added variable count",
    ]);

    // With no run starting or running there is nothing to put it in.
    expectErrorReply(await client.setVariable("late", 1), "NoRunningTest");
    await expect(client.setVariable("nothing", undefined)).rejects.toThrow(TypeError);
    await expect(client.setVariable("big", 1n)).rejects.toThrow(/not JSON/);
  });

  it("starts and stops a run with startPlayback and stopPlayback", async () => {
    handle("pcPass", () => true);
    handle("pcText", () => "text");
    expectErrorReply(await client.stopPlayback(), "NoRunningTest");
    expectErrorReply(await client.startPlayback({ testId: "t-nowhere" }), "UnknownTest");
    expectErrorReply(await client.startPlayback({ testId: "t-answers", testName: "answers" }), "InvalidRequest");

    host.ide.send({ type: "user.toggleBreakpoint", commandId: "a3" });
    const started = await client.startPlayback({ testName: "answers" });
    expect(started).toEqual({ runId: expect.any(String) });
    const paused = await viewWhere(host.ide, (view) => view.playback?.status === "paused");
    expect(paused.playback).toMatchObject({ runId: (started as { runId: string }).runId, testId: "t-answers", currentCommandId: "a3" });
    expectErrorReply(await client.startPlayback(), "Busy");

    expect(await client.stopPlayback()).toBe(true);
    // Answered once the run is over, after the plugins heard playbackStopped.
    const over = host.ide.getSnapshot().playback!;
    expect(over.status).toBe("ended");
    expect(seen.at(-1)).toBe("event playbackStopped");
    expect(states(over).slice(0, 3)).toEqual([
      { id: "a1", state: "passed", message: null },
      { id: "a2", state: "passed", message: "text" },
      { id: "a3", state: null, message: null },
    ]);
  });

  it("refuses a second handler for the same command until the first is unsubscribed", () => {
    const stop = client.onCommand("pcPass", () => true);
    expect(() => client.onCommand("pcPass", () => true)).toThrow(/pcPass has a handler already/);
    stop();
    client.onCommand("pcPass", () => true);
    expect(() => client.onCommand("", () => true)).toThrow(TypeError);
    expect(() => client.onCommand("pcText", "yes" as never)).toThrow(TypeError);
  });
});
