// Runs that really run (CONTRACT sections 9 to 12), driven through createIde().handle and
// ide.send: PUT /playback/var, POST /playback/start and /playback/stop in both request forms,
// plugin commands and their answers, the page under test (a fake executor), suites, the
// start and end as plugins hear them, and Selenium's control flow.
import { describe, expect, it, vi } from "vitest";
import {
  byEvent,
  createIde,
  expectError,
  fakeExecutor,
  FORMS,
  isPending,
  logsOf,
  pluginRunProject,
  recordingDeliver,
  register,
  registrationOf,
  request,
  settle,
  SHOP,
  shopProject,
  statesOf,
  takeControl,
  waitForStatus,
} from "./support.ts";
import type { Ide, OutboundMessage } from "./support.ts";

// ---------------------------------------------------------------------------------------
// Small builders

type Row = [id: string, command: string, target?: string, value?: string];

/** A .side test written as rows of [id, command, target, value]. */
const testOf = (id: string, rows: Row[], name = id) => ({
  id,
  name,
  commands: rows.map(([cid, command, target = "", value = ""]) => ({ id: cid, command, target, value })),
});

/** A small inline .side project. */
const projectOf = (...tests: Array<ReturnType<typeof testOf>>) => ({ id: "inline", name: "Inline", url: "http://127.0.0.1:8080", tests });

/** Every plugin command of plugin-run.side, declared by one plugin. */
const PLUGIN_COMMANDS = ["pCount", "pText", "pLater", "pOk", "pFail", "pFatal", "pSilent", "pHang", "pCmd", "pNext"];
const declaring = (commands = PLUGIN_COMMANDS) => ({ commands: commands.map((id) => ({ id, name: id })) });

type Execute = Extract<OutboundMessage, { action: "execute" }>;
const isExecute = (message: OutboundMessage): message is Execute => message.action === "execute";
const executes = (calls: ReturnType<typeof recordingDeliver>["calls"]) =>
  calls.flatMap((c) => (isExecute(c.message) ? [{ to: c.to, ...c.message }] : []));
const eventsOf = (calls: ReturnType<typeof recordingDeliver>["calls"]) =>
  calls.flatMap((c) => ("event" in c.message ? [[c.to, c.message.event] as const] : []));

/**
 * A plugin's `deliver`: run events answer `true` (or `onEvent`'s answer), `execute` answers
 * `onExecute`'s answer (default `true`).
 */
function pluginDeliver(
  onExecute: (message: Execute) => unknown = () => true,
  onEvent: (message: OutboundMessage & { action: "event" }) => unknown = () => true,
) {
  return recordingDeliver((_to, message) => (isExecute(message) ? onExecute(message) : onEvent(message as never)));
}

/** A promise and its resolver, for a plugin that answers when the test says so. */
function later<T = unknown>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const stuckOnOpen = () => fakeExecutor({ hang: new Set(["open"]) });

const view = (ide: Ide) => ide.getSnapshot().playback!;

// ---------------------------------------------------------------------------------------

describe("PUT /playback/var", () => {
  /** A run held at a breakpoint on its first command, and a registered plugin "p". */
  async function pausedRun() {
    const ide = createIde({ project: shopProject() });
    await register(ide, "p");
    ide.send({ type: "user.toggleBreakpoint", commandId: "c-open" });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "paused");
    return ide;
  }

  describe.each(FORMS)("in the %s form", (form) => {
    it.each<[string, unknown, unknown]>([
      ["JSON text of an object", '{"user":"alice","ids":[1,2]}', { user: "alice", ids: [1, 2] }],
      ["JSON text of a string", '"hello"', "hello"],
      ["JSON text of a number", "42", 42],
      ["a number, taken as itself", 507, 507],
      ["a boolean, taken as itself", true, true],
      ["null, taken as itself", null, null],
    ])("sets the variable from %s and answers true", async (_, contents, value) => {
      const ide = await pausedRun();
      expect(await ide.handle(request("/playback/var", "put", { name: "v", contents }, form), { id: "p" })).toBe(true);
      expect(view(ide).variables).toEqual({ v: value });
    });

    it.each<[string, unknown]>([
      ["text that is not JSON", "not json"],
      ["an object", { user: "alice" }],
      ["an array", [1, 2]],
    ])("answers InvalidRequest naming contents for %s, and sets nothing", async (_, contents) => {
      const ide = await pausedRun();
      const error = expectError(await ide.handle(request("/playback/var", "put", { name: "v", contents }, form), { id: "p" }), "InvalidRequest");
      expect(error).toContain("contents");
      expect(view(ide).variables).toEqual({});
    });

    it("answers InvalidRequest naming the field for a missing contents or a name that is not a string", async () => {
      const ide = await pausedRun();
      expect(expectError(await ide.handle(request("/playback/var", "put", { name: "v" }, form), { id: "p" }), "InvalidRequest")).toContain(
        "contents",
      );
      expect(
        expectError(await ide.handle(request("/playback/var", "put", { name: 7, contents: "1" }, form), { id: "p" }), "InvalidRequest"),
      ).toContain("name");
    });

    it("answers NoRunningTest with no run", async () => {
      const ide = createIde({ project: shopProject() });
      await register(ide, "p");
      expectError(await ide.handle(request("/playback/var", "put", { name: "v", contents: "1" }, form), { id: "p" }), "NoRunningTest");
      expect(ide.getSnapshot().playback).toBeNull();
    });

    it("answers NoRunningTest once the run has ended", async () => {
      const ide = createIde({ project: shopProject() });
      await register(ide, "p");
      ide.send({ type: "user.startPlayback" });
      await waitForStatus(ide, "ended");
      expectError(await ide.handle(request("/playback/var", "put", { name: "v", contents: "1" }, form), { id: "p" }), "NoRunningTest");
      expect(view(ide).variables).toEqual({});
    });

    it("answers MissingPlugin to a sender that did not register", async () => {
      const ide = await pausedRun();
      expectError(await ide.handle(request("/playback/var", "put", { name: "v", contents: "1" }, form), { id: "stranger" }), "MissingPlugin");
      expect(view(ide).variables).toEqual({});
    });
  });

  it("writes a playback log entry naming the plugin and the variable", async () => {
    const ide = await pausedRun();
    expect(await ide.handle({ uri: "/playback/var", verb: "put", name: "token", contents: '"abc"' }, { id: "p" })).toBe(true);
    expect(logsOf(ide)).toContainEqual(
      expect.objectContaining({ group: "playback", level: "info", source: "p", message: "Plugin p: added variable token" }),
    );
  });

  it("replaces a variable that is put again", async () => {
    const ide = await pausedRun();
    await ide.handle({ uri: "/playback/var", verb: "put", name: "n", contents: "1" }, { id: "p" });
    await ide.handle({ uri: "/playback/var", verb: "put", name: "n", contents: "2" }, { id: "p" });
    expect(view(ide).variables).toEqual({ n: 2 });
  });

  it("keeps a variable named __proto__ as a plain variable, away from Object.prototype", async () => {
    const ide = await pausedRun();
    expect(await ide.handle({ uri: "/playback/var", verb: "put", name: "__proto__", contents: '{"polluted":true}' }, { id: "p" })).toBe(true);
    expect(Object.hasOwn(view(ide).variables, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("is not controlled-only: a plugin other than the controller is refused for not being registered", async () => {
    const ide = createIde({ project: shopProject() });
    await takeControl(ide, "boss");
    ide.send({ type: "user.toggleBreakpoint", commandId: "c-open" });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "paused");
    expectError(await ide.handle({ uri: "/playback/var", verb: "put", name: "v", contents: "1" }, { id: "other" }), "MissingPlugin");
    expect(await ide.handle({ uri: "/playback/var", verb: "put", name: "v", contents: "1" }, { id: "boss" })).toBe(true);
  });

  it("lets a plugin put a variable while it handles playbackStarted, and the first command already reads it", async () => {
    let ide!: Ide;
    const { calls, deliver } = pluginDeliver(
      () => true,
      async (message) => {
        if (message.event === "playbackStarted") {
          expect(await ide.handle({ uri: "/playback/var", verb: "put", payload: { name: "user", contents: '{"name":"alice"}' } }, { id: "p" })).toBe(true);
        }
        return true;
      },
    );
    ide = createIde({ project: projectOf(testOf("t", [["c1", "pOk", "hello ${user.name}"], ["c2", "echo", "bye ${user.name}"]])), deliver });
    await register(ide, "p", declaring());
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "ended");
    expect(executes(calls).map((e) => e.command.target)).toEqual(["hello alice"]);
    expect(logsOf(ide)).toContainEqual(expect.objectContaining({ group: "playback", source: "ide", level: "info", message: "bye alice" }));
    expect(view(ide)).toMatchObject({ result: "passed", variables: { user: { name: "alice" } } });
  });

  it("gives a page command the variable's value in place of ${name}", async () => {
    const executor = fakeExecutor();
    const ide = createIde({ project: projectOf(testOf("t", [["c1", "type", "id=q", "${word}"]])), executor });
    await register(ide, "p");
    ide.send({ type: "user.toggleBreakpoint", commandId: "c1" });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "paused");
    await ide.handle({ uri: "/playback/var", verb: "put", name: "word", contents: 507 }, { id: "p" });
    ide.send({ type: "user.resumePlayback" });
    await waitForStatus(ide, "ended");
    expect(executor.executed).toEqual([{ id: "c1", command: "type", target: "id=q", value: "507" }]);
  });

  it("starts each run with no variables", async () => {
    const ide = await pausedRun();
    await ide.handle({ uri: "/playback/var", verb: "put", name: "v", contents: "1" }, { id: "p" });
    ide.send({ type: "user.stopPlayback" });
    await waitForStatus(ide, "ended");
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "paused");
    expect(view(ide).variables).toEqual({});
  });
});

describe("POST /playback/start", () => {
  describe.each(FORMS)("in the %s form", (form) => {
    it.each<[string, Record<string, string>, string, string | null]>([
      ["nothing (the first test)", {}, "t-login", null],
      ["a testId", { testId: "t-cart" }, "t-cart", null],
      ["a testName", { testName: "adds to cart" }, "t-cart", null],
      ["a suiteId", { suiteId: "s-default" }, "t-login", "s-default"],
      ["a suiteName", { suiteName: "Default Suite" }, "t-login", "s-default"],
    ])("starts the run that names %s and answers its runId", async (_, selector, testId, suiteId) => {
      const { calls, deliver } = recordingDeliver();
      const ide = createIde({ project: shopProject(), deliver, executor: stuckOnOpen() });
      await register(ide, "p");
      const reply = await ide.handle(request("/playback/start", "post", selector, form), { id: "p" });
      expect(Object.keys(reply as object)).toEqual(["runId"]);
      const { runId } = reply as { runId: string };
      expect(typeof runId).toBe("string");
      const playback = await waitForStatus(ide, "running");
      expect(playback).toMatchObject({ runId, testId, running: true });
      expect(playback.suite?.id ?? null).toBe(suiteId);
      expect(byEvent(calls, "playbackStarted").map((c) => c.message.options)).toEqual([expect.objectContaining({ runId, testId })]);
    });

    it("answers InvalidRequest when more than one of testId, testName, suiteId and suiteName is given", async () => {
      const ide = createIde({ project: shopProject() });
      await register(ide, "p");
      for (const selector of [
        { testId: "t-login", testName: "logs in" },
        { testId: "t-login", suiteId: "s-default" },
        { suiteId: "s-default", suiteName: "Default Suite" },
      ]) {
        const error = expectError(await ide.handle(request("/playback/start", "post", selector, form), { id: "p" }), "InvalidRequest");
        expect(error).toMatch(/testId|testName|suiteId|suiteName/);
      }
      expect(ide.getSnapshot().playback).toBeNull();
    });

    it("answers InvalidRequest naming testId when it is not a string", async () => {
      const ide = createIde({ project: shopProject() });
      await register(ide, "p");
      expect(expectError(await ide.handle(request("/playback/start", "post", { testId: 3 }, form), { id: "p" }), "InvalidRequest")).toContain(
        "testId",
      );
    });

    it.each([{ testId: "t-nope" }, { testName: "nope" }, { suiteId: "s-nope" }, { suiteName: "nope" }])(
      "answers UnknownTest for %j and starts nothing",
      async (selector) => {
        const { calls, deliver } = recordingDeliver();
        const ide = createIde({ project: shopProject(), deliver });
        await register(ide, "p");
        expectError(await ide.handle(request("/playback/start", "post", selector, form), { id: "p" }), "UnknownTest");
        expect(ide.getSnapshot().playback).toBeNull();
        expect(calls).toEqual([]);
      },
    );

    it("answers MissingPlugin to a sender that did not register", async () => {
      const ide = createIde({ project: shopProject() });
      expectError(await ide.handle(request("/playback/start", "post", {}, form), { id: "stranger" }), "MissingPlugin");
      expect(ide.getSnapshot().playback).toBeNull();
    });

    it("answers CannotAccessInControlMode to a plugin other than the controller, and starts for the controller", async () => {
      const ide = createIde({ project: shopProject(), executor: stuckOnOpen() });
      await takeControl(ide, "boss");
      expectError(await ide.handle(request("/playback/start", "post", {}, form), { id: "other" }), "CannotAccessInControlMode");
      expect(ide.getSnapshot().playback).toBeNull();
      const reply = (await ide.handle(request("/playback/start", "post", {}, form), { id: "boss" })) as { runId: string };
      expect(view(ide).runId).toBe(reply.runId);
    });
  });

  it("answers UnknownTest for a project without tests", async () => {
    const ide = createIde();
    await register(ide, "p");
    expectError(await ide.handle({ uri: "/playback/start", verb: "post" }, { id: "p" }), "UnknownTest");
  });

  /** Each way a run can be under way, and how to get there. */
  const underWay: Array<[string, () => Promise<{ ide: Ide; release: () => void }>]> = [
    [
      "starting (a plugin has not answered playbackStarted)",
      async () => {
        const answer = later();
        const { deliver } = pluginDeliver(undefined, (m) => (m.event === "playbackStarted" ? answer.promise : true));
        const ide = createIde({ project: shopProject(), deliver });
        await register(ide, "p");
        ide.send({ type: "user.startPlayback" });
        await waitForStatus(ide, "starting");
        return { ide, release: () => answer.resolve(true) };
      },
    ],
    [
      "running",
      async () => {
        const ide = createIde({ project: shopProject(), executor: stuckOnOpen() });
        await register(ide, "p");
        ide.send({ type: "user.startPlayback" });
        await waitForStatus(ide, "running");
        return { ide, release: () => ide.send({ type: "user.stopPlayback" }) };
      },
    ],
    [
      "paused",
      async () => {
        const ide = createIde({ project: shopProject() });
        await register(ide, "p");
        ide.send({ type: "user.toggleBreakpoint", commandId: "c-open" });
        ide.send({ type: "user.startPlayback" });
        await waitForStatus(ide, "paused");
        return { ide, release: () => ide.send({ type: "user.stopPlayback" }) };
      },
    ],
    [
      "finishing (a plugin has not answered playbackStopped)",
      async () => {
        const answer = later();
        const { deliver } = pluginDeliver(undefined, (m) => (m.event === "playbackStopped" ? answer.promise : true));
        const ide = createIde({ project: shopProject(), deliver });
        await register(ide, "p");
        ide.send({ type: "user.startPlayback" });
        await waitForStatus(ide, "finishing");
        return { ide, release: () => answer.resolve(true) };
      },
    ],
  ];

  it.each(underWay)("answers Busy while a run is %s, and the run goes on", async (_, setUp) => {
    const { ide, release } = await setUp();
    const { runId, status } = view(ide);
    expectError(await ide.handle({ uri: "/playback/start", verb: "post", testId: "t-cart" }, { id: "p" }), "Busy");
    expect(view(ide)).toMatchObject({ runId, status, testId: "t-login" });
    release();
    await waitForStatus(ide, "ended");
    const again = (await ide.handle({ uri: "/playback/start", verb: "post", testId: "t-cart" }, { id: "p" })) as { runId: string };
    expect(again.runId).not.toBe(runId);
    expect(view(ide)).toMatchObject({ runId: again.runId, testId: "t-cart" });
  });
});

describe("POST /playback/stop", () => {
  describe.each(FORMS)("in the %s form", (form) => {
    it("answers NoRunningTest with no run", async () => {
      const ide = createIde({ project: shopProject() });
      await register(ide, "p");
      expectError(await ide.handle(request("/playback/stop", "post", {}, form), { id: "p" }), "NoRunningTest");
    });

    it("answers NoRunningTest once the run has ended", async () => {
      const ide = createIde({ project: shopProject() });
      await register(ide, "p");
      ide.send({ type: "user.startPlayback" });
      await waitForStatus(ide, "ended");
      expectError(await ide.handle(request("/playback/stop", "post", {}, form), { id: "p" }), "NoRunningTest");
    });

    it("stops a running run: the executing command becomes undetermined, the rest keep no state", async () => {
      const executor = stuckOnOpen();
      const ide = createIde({ project: shopProject(), executor });
      await register(ide, "p");
      ide.send({ type: "user.startPlayback" });
      await waitForStatus(ide, "running");
      expect(await ide.handle(request("/playback/stop", "post", {}, form), { id: "p" })).toBe(true);
      expect(view(ide)).toMatchObject({ status: "ended", running: false, currentCommandId: null });
      expect(statesOf(ide).map(([id, state]) => [id, state])).toEqual([
        ["c-open", "undetermined"],
        ["c-user", null],
        ["c-pass", null],
        ["c-submit", null],
        ["c-check", null],
      ]);
      expect(executor.aborted).toEqual(["c-open"]);
      expect(view(ide).result).toBe("stopped");
    });

    it("answers MissingPlugin to a sender that did not register, and the run goes on", async () => {
      const ide = createIde({ project: shopProject(), executor: stuckOnOpen() });
      ide.send({ type: "user.startPlayback" });
      await waitForStatus(ide, "running");
      expectError(await ide.handle(request("/playback/stop", "post", {}, form), { id: "stranger" }), "MissingPlugin");
      expect(view(ide).status).toBe("running");
    });

    it("answers CannotAccessInControlMode to a plugin other than the controller, and stops for the controller", async () => {
      const ide = createIde({ project: shopProject(), executor: stuckOnOpen() });
      await takeControl(ide, "boss");
      ide.send({ type: "user.startPlayback" });
      await waitForStatus(ide, "running");
      expectError(await ide.handle(request("/playback/stop", "post", {}, form), { id: "other" }), "CannotAccessInControlMode");
      expect(view(ide).status).toBe("running");
      expect(await ide.handle(request("/playback/stop", "post", {}, form), { id: "boss" })).toBe(true);
      expect(view(ide).status).toBe("ended");
    });
  });

  it("answers true only once every plugin answered playbackStopped", async () => {
    const stopped = later();
    const { calls, deliver } = pluginDeliver(undefined, (m) => (m.event === "playbackStopped" ? stopped.promise : true));
    const ide = createIde({ project: shopProject(), deliver, executor: stuckOnOpen() });
    await register(ide, "p");
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "running");
    const reply = ide.handle({ uri: "/playback/stop", verb: "post" }, { id: "p" });
    await vi.waitFor(() => expect(byEvent(calls, "playbackStopped")).toHaveLength(1));
    expect(await isPending(reply)).toBe(true);
    expect(view(ide)).toMatchObject({ status: "finishing", running: true });
    expect(view(ide).commands[0].state).toBe("undetermined");
    stopped.resolve(true);
    expect(await reply).toBe(true);
    expect(view(ide)).toMatchObject({ status: "ended", running: false });
  });

  it("answers a second stop sent while the run is finishing once it is over, too", async () => {
    const stopped = later();
    const { deliver } = pluginDeliver(undefined, (m) => (m.event === "playbackStopped" ? stopped.promise : true));
    const ide = createIde({ project: shopProject(), deliver, executor: stuckOnOpen() });
    await register(ide, "p");
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "running");
    const first = ide.handle({ uri: "/playback/stop", verb: "post" }, { id: "p" });
    await waitForStatus(ide, "finishing");
    const second = ide.handle({ uri: "/playback/stop", verb: "post", payload: null }, { id: "p" });
    expect(await isPending(second)).toBe(true);
    stopped.resolve(true);
    expect(await first).toBe(true);
    expect(await second).toBe(true);
  });

  it("stops a paused run without marking any command", async () => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "p");
    ide.send({ type: "user.toggleBreakpoint", commandId: "c-open" });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "paused");
    expect(await ide.handle({ uri: "/playback/stop", verb: "post" }, { id: "p" })).toBe(true);
    expect(view(ide).commands.every((c) => c.state === null)).toBe(true);
    expect(view(ide).result).toBe("stopped");
  });

  it("ends a run the user stopped with the result stopped, never passed, and the next run plays anew", async () => {
    const ide = createIde({ project: shopProject(), executor: stuckOnOpen() });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "running");
    ide.send({ type: "user.stopPlayback" });
    expect((await waitForStatus(ide, "ended")).result).toBe("stopped");
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "running");
    expect(view(ide).result).toBeNull();
  });

  it("ends a run with the result stopped when the window closes under it", async () => {
    const ide = createIde({ project: shopProject(), executor: stuckOnOpen() });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "running");
    ide.send({ type: "user.closeWindow" });
    expect((await waitForStatus(ide, "ended")).result).toBe("stopped");
  });

  it("stops a run that is starting before its first command", async () => {
    const started = later();
    const executor = fakeExecutor();
    const { calls, deliver } = pluginDeliver(undefined, (m) => (m.event === "playbackStarted" ? started.promise : true));
    const ide = createIde({ project: shopProject(), deliver, executor });
    await register(ide, "p");
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "starting");
    expect(await ide.handle({ uri: "/playback/stop", verb: "post" }, { id: "p" })).toBe(true);
    started.resolve(true);
    await settle(10);
    expect(executor.executed).toEqual([]);
    expect(view(ide).commands.every((c) => c.state === null)).toBe(true);
    expect(eventsOf(calls)).toEqual([
      ["p", "playbackStarted"],
      ["p", "playbackStopped"],
    ]);
  });
});

describe("payload: null (round 2)", () => {
  it("answers GET /health with payload: null like one without payload", async () => {
    const ide = createIde();
    expect(await ide.handle({ uri: "/health", verb: "get", payload: null }, { id: "p" })).toBe(false);
    await register(ide, "p");
    expect(await ide.handle({ uri: "/health", verb: "get", payload: null }, { id: "p" })).toBe(true);
  });

  it("registers with the fields flat and payload: null", async () => {
    const ide = createIde();
    expect(await ide.handle({ uri: "/register", verb: "post", payload: null, ...registrationOf("Flat") }, { id: "p" })).toBe(true);
    expect(ide.getSnapshot().plugins).toEqual([{ id: "p", name: "Flat", version: "1.0.0", commands: [] }]);
  });

  it("answers POST /register with payload: null and no fields with InvalidRequest naming the missing field", async () => {
    const ide = createIde();
    const error = expectError(await ide.handle({ uri: "/register", verb: "post", payload: null }, { id: "p" }), "InvalidRequest");
    expect(error).toMatch(/name|version/);
  });
});

describe("plugin commands (CONTRACT section 10)", () => {
  /** pCmd answered by the plugin as `answer` says, then pNext (answered true), in one test. */
  async function runAnswering(answer: (message: Execute) => unknown, limits?: { deliverTimeoutMs: number }) {
    const { calls, deliver } = pluginDeliver((m) => (m.command.command === "pCmd" ? answer(m) : true));
    const ide = createIde({ project: projectOf(testOf("t", [["c1", "pCmd", "x"], ["c2", "pNext"]])), deliver, limits });
    await register(ide, "p", declaring());
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "ended");
    return { ide, calls };
  }

  it.each<[string, unknown, string | null]>([
    ["true", true, null],
    ["an object without error or status", { ok: 1 }, null],
    ["a number", 42, null],
    ["false", false, null],
    ["a string, as the message", "checked 3 regions", "checked 3 regions"],
    ['{ status: "passed" }', { status: "passed" }, null],
    ['{ status: "undetermined", message }', { status: "undetermined", message: "no baseline" }, "no baseline"],
  ])("sets passed (or the state named) for an answer of %s, and the run goes on", async (_, answer, message) => {
    const { ide } = await runAnswering(() => answer);
    const state = typeof answer === "object" && answer !== null && "status" in answer ? (answer as { status: string }).status : "passed";
    expect(statesOf(ide)).toEqual([
      ["c1", state, message],
      ["c2", "passed", null],
    ]);
    expect(view(ide).result).toBe("passed");
  });

  it("sets failed with the message for { status: \"failed\", message } and ends the run", async () => {
    const { ide } = await runAnswering(() => ({ status: "failed", message: "differs" }));
    expect(statesOf(ide)).toEqual([
      ["c1", "failed", "differs"],
      ["c2", null, null],
    ]);
    expect(view(ide).result).toBe("failed");
  });

  it("sets fatal for { status: \"fatal\", message } and ends the run", async () => {
    const { ide } = await runAnswering(() => ({ status: "fatal", message: "session lost" }));
    expect(statesOf(ide)).toEqual([
      ["c1", "fatal", "session lost"],
      ["c2", null, null],
    ]);
    expect(view(ide).result).toBe("failed");
  });

  it("sets failed with error as the message for { error } and ends the run", async () => {
    const { ide } = await runAnswering(() => ({ error: "region not found" }));
    expect(statesOf(ide)).toEqual([
      ["c1", "failed", "region not found"],
      ["c2", null, null],
    ]);
    expect(view(ide).result).toBe("failed");
  });

  it("sets fatal for { error, status: \"fatal\" } and ends the run", async () => {
    const { ide } = await runAnswering(() => ({ error: "browser gone", status: "fatal" }));
    expect(view(ide).commands.map((c) => [c.id, c.state])).toEqual([
      ["c1", "fatal"],
      ["c2", null],
    ]);
    expect(view(ide).result).toBe("failed");
  });

  it.each<[string, (message: Execute) => unknown, { deliverTimeoutMs: number } | undefined]>([
    ["undefined", () => undefined, undefined],
    ["null", () => null, undefined],
    ["a delivery that rejects", () => Promise.reject(new Error("port closed")), undefined],
    [
      "a delivery that throws",
      () => {
        throw new Error("no port");
      },
      undefined,
    ],
    ["no answer within deliverTimeoutMs", () => new Promise(() => {}), { deliverTimeoutMs: 30 }],
  ])("sets fatal, saying the plugin did not respond, for %s, and ends the run", async (_, answer, limits) => {
    const { ide } = await runAnswering(answer, limits);
    const [first, second] = view(ide).commands;
    expect(first.state).toBe("fatal");
    expect(first.message).toContain("Plugin p did not respond");
    expect(second.state).toBeNull();
    expect(view(ide).result).toBe("failed");
  });

  it("goes on after a pending answer, and takes the plugin's later state while the run is finishing", async () => {
    const stopped = later();
    let ide!: Ide;
    const { deliver } = pluginDeliver(
      (m) => (m.command.command === "pLater" ? { status: "pending", message: "comparing" } : true),
      (m) => (m.event === "playbackStopped" ? stopped.promise : true),
    );
    ide = createIde({ project: projectOf(testOf("t", [["c1", "pLater"], ["c2", "pOk"]])), deliver });
    await register(ide, "p", declaring());
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "finishing");
    expect(statesOf(ide)).toEqual([
      ["c1", "pending", "comparing"],
      ["c2", "passed", null],
    ]);
    expect(await ide.handle({ uri: "/playback/command", verb: "post", commandId: "c1", state: "passed", message: "matches" }, { id: "p" })).toBe(true);
    stopped.resolve(true);
    await waitForStatus(ide, "ended");
    expect(statesOf(ide)[0]).toEqual(["c1", "passed", "matches"]);
  });

  it("leaves no command pending once the run is over: a state the plugin never settled becomes undetermined", async () => {
    const { ide } = await runAnswering(() => ({ status: "pending" }));
    expect(view(ide).commands.map((c) => [c.id, c.state])).toEqual([
      ["c1", "undetermined"],
      ["c2", "passed"],
    ]);
  });

  it("counts a failed state that a plugin sends later in the run's result", async () => {
    // CONTRACT section 9: the result is passed only when no command ended failed or fatal.
    const stopped = later();
    const { deliver } = pluginDeliver(
      (m) => (m.command.command === "pLater" ? { status: "pending" } : true),
      (m) => (m.event === "playbackStopped" ? stopped.promise : true),
    );
    const ide = createIde({ project: projectOf(testOf("t", [["c1", "pLater"], ["c2", "pOk"]])), deliver });
    await register(ide, "p", declaring());
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "finishing");
    expect(await ide.handle({ uri: "/playback/command", verb: "post", commandId: "c1", state: "failed", message: "differs" }, { id: "p" })).toBe(true);
    stopped.resolve(true);
    await waitForStatus(ide, "ended");
    expect(statesOf(ide)[0]).toEqual(["c1", "failed", "differs"]);
    expect(view(ide).result).toBe("failed");
  });

  it("sends execute with the command's target and value after ${...}, and the run's ids", async () => {
    const { calls, deliver } = pluginDeliver();
    const ide = createIde({ project: pluginRunProject(), deliver });
    await register(ide, "p", declaring());
    ide.send({ type: "user.startPlayback", testId: "t-plugin" });
    const { runId } = await waitForStatus(ide, "ended");
    const options = (commandId: string) => ({
      runId,
      testId: "t-plugin",
      originalTestId: "t-plugin",
      commandId,
      isNested: false,
      assertionsDisabled: false,
      tabId: null,
      windowId: null,
      frameId: null,
    });
    expect(executes(calls)).toEqual([
      { to: "p", action: "execute", command: { command: "pCount", target: "round 2", value: "x" }, options: options("c3") },
      { to: "p", action: "execute", command: { command: "pCount", target: "round 2", value: "x" }, options: options("c3") },
      { to: "p", action: "execute", command: { command: "pText", target: "", value: "" }, options: options("c5") },
      { to: "p", action: "execute", command: { command: "pLater", target: "", value: "" }, options: options("c6") },
    ]);
    expect(logsOf(ide)).toContainEqual(expect.objectContaining({ group: "playback", level: "info", source: "ide", message: "done 2" }));
    expect(view(ide)).toMatchObject({ result: "passed", variables: { n: "2" } });
  });

  it("sends the page under test's tab, window and frame ids when the executor has them", async () => {
    const { calls, deliver } = pluginDeliver();
    const executor = fakeExecutor({ pageIds: { tabId: 7, windowId: 3, frameId: 0 } });
    const ide = createIde({ project: projectOf(testOf("t", [["c1", "pOk"]])), deliver, executor });
    await register(ide, "p", declaring());
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "ended");
    expect(executes(calls).map((e) => e.options)).toEqual([expect.objectContaining({ tabId: 7, windowId: 3, frameId: 0, isNested: false })]);
  });

  it("sends execute only to the plugin that declared the command", async () => {
    const { calls, deliver } = pluginDeliver();
    const ide = createIde({ project: projectOf(testOf("t", [["c1", "pOk"], ["c2", "pFail"]])), deliver });
    await register(ide, "ok-plugin", declaring(["pOk"]));
    await register(ide, "fail-plugin", declaring(["pFail"]));
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "ended");
    expect(executes(calls).map((e) => [e.to, e.command.command])).toEqual([
      ["ok-plugin", "pOk"],
      ["fail-plugin", "pFail"],
    ]);
  });

  it("fails a command nobody declared, naming it, when there is no page under test", async () => {
    const ide = createIde({ project: pluginRunProject() });
    ide.send({ type: "user.startPlayback", testId: "t-unknown" });
    await waitForStatus(ide, "ended");
    const [first, second] = view(ide).commands;
    expect(first.state).toBe("failed");
    expect(first.message).toContain("frobnicate");
    expect(second.state).toBeNull();
  });
});

describe("the page under test", () => {
  it("fails the first page command at once, saying there is no page under test, when there is no executor", async () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.startPlayback" });
    const playback = await waitForStatus(ide, "ended");
    expect(playback.result).toBe("failed");
    const [open, ...rest] = playback.commands;
    expect(open.state).toBe("failed");
    expect(open.message).toContain("open");
    expect(rest.every((c) => c.state === null && c.message === null)).toBe(true);
  });

  it("plays every command of a test through the executor, in order, and passes", async () => {
    const executor = fakeExecutor();
    const ide = createIde({ project: shopProject(), executor });
    ide.send({ type: "user.startPlayback", testId: "t-cart" });
    const playback = await waitForStatus(ide, "ended");
    expect(executor.executed.map((c) => c.id)).toEqual(["c2-open", "c2-add", "c2-assert"]);
    expect(playback.commands.every((c) => c.state === "passed")).toBe(true);
    expect(playback.result).toBe("passed");
  });

  const failing = (name: RegExp) =>
    fakeExecutor({ answer: ({ command }) => (name.test(command.command) ? { state: "failed", message: `${command.command} does not hold` } : undefined) });

  it("keeps the run going after a verifyText that does not hold, and the run fails", async () => {
    const executor = failing(/^verify/);
    const project = projectOf(testOf("t", [["c1", "open", "/"], ["c2", "verifyText", "id=a", "x"], ["c3", "click", "id=b"]]));
    const ide = createIde({ project, executor });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "ended");
    expect(statesOf(ide)).toEqual([
      ["c1", "passed", null],
      ["c2", "failed", "verifyText does not hold"],
      ["c3", "passed", null],
    ]);
    expect(view(ide).result).toBe("failed");
  });

  it("ends the run after an assertText that does not hold", async () => {
    const executor = failing(/^assert/);
    const project = projectOf(testOf("t", [["c1", "open", "/"], ["c2", "assertText", "id=a", "x"], ["c3", "click", "id=b"]]));
    const ide = createIde({ project, executor });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "ended");
    expect(statesOf(ide)).toEqual([
      ["c1", "passed", null],
      ["c2", "failed", "assertText does not hold"],
      ["c3", null, null],
    ]);
    expect(executor.executed.map((c) => c.id)).toEqual(["c1", "c2"]);
    expect(view(ide).result).toBe("failed");
  });

  it("ends the run with fatal when the page under test is gone", async () => {
    const executor = fakeExecutor({ answer: ({ command }) => (command.command === "click" ? Promise.reject(new Error("tab closed")) : undefined) });
    const project = projectOf(testOf("t", [["c1", "click", "id=a"], ["c2", "click", "id=b"]]));
    const ide = createIde({ project, executor });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "ended");
    expect(view(ide).commands.map((c) => [c.id, c.state])).toEqual([
      ["c1", "fatal"],
      ["c2", null],
    ]);
  });

  it("stores what a page command stored as a variable for the commands after it", async () => {
    const executor = fakeExecutor({ answer: ({ command }) => (command.command === "storeText" ? { state: "passed", variables: { title: "Shop" } } : undefined) });
    const project = projectOf(testOf("t", [["c1", "storeText", "css=h1", "title"], ["c2", "echo", "title is ${title}"]]));
    const ide = createIde({ project, executor });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "ended");
    expect(view(ide).variables).toEqual({ title: "Shop" });
    expect(logsOf(ide)).toContainEqual(expect.objectContaining({ group: "playback", message: "title is Shop" }));
  });
});

describe("the run's start and end, as plugins hear them", () => {
  it.each<[string, unknown]>([
    ["{ error }", { error: "no session" }],
    ['{ status: "fatal" }', { status: "fatal", message: "no session" }],
  ])("stops the run before its first command when a plugin answers playbackStarted with %s, logging an error naming it", async (_, answer) => {
    const executor = fakeExecutor();
    const { calls, deliver } = pluginDeliver(undefined, (m) => (m.event === "playbackStarted" ? answer : true));
    const ide = createIde({ project: shopProject(), deliver, executor });
    await register(ide, "p");
    ide.send({ type: "user.startPlayback" });
    const playback = await waitForStatus(ide, "ended");
    expect(executor.executed).toEqual([]);
    expect(playback.commands.every((c) => c.state === null)).toBe(true);
    expect(playback.result).toBe("failed");
    const errors = logsOf(ide).filter((l) => l.level === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toContain("Plugin p");
    expect(eventsOf(calls)).toEqual([
      ["p", "playbackStarted"],
      ["p", "playbackStopped"],
    ]);
  });

  it("waits for every plugin's answer to playbackStarted before the first command", async () => {
    const started = later();
    const executor = fakeExecutor();
    const { deliver } = pluginDeliver(undefined, (m) => (m.event === "playbackStarted" ? started.promise : true));
    const ide = createIde({ project: shopProject(), deliver, executor });
    await register(ide, "slow");
    ide.send({ type: "user.startPlayback", testId: "t-cart" });
    await waitForStatus(ide, "starting");
    expect(await isPending(started.promise)).toBe(true);
    expect(executor.executed).toEqual([]);
    started.resolve(true);
    await waitForStatus(ide, "ended");
    expect(executor.executed.map((c) => c.id)).toEqual(["c2-open", "c2-add", "c2-assert"]);
  });

  it("goes on to the first command when a plugin does not answer playbackStarted within deliverTimeoutMs", async () => {
    const executor = fakeExecutor();
    const { deliver } = pluginDeliver(undefined, (m) => (m.event === "playbackStarted" ? new Promise(() => {}) : true));
    const ide = createIde({ project: shopProject(), deliver, executor, limits: { deliverTimeoutMs: 30 } });
    await register(ide, "silent");
    ide.send({ type: "user.startPlayback", testId: "t-cart" });
    await waitForStatus(ide, "ended");
    expect(view(ide).result).toBe("passed");
    expect(logsOf(ide)).toContainEqual(expect.objectContaining({ group: "system", level: "warn", source: "ide" }));
  });

  const suiteOptions = (runId: string) => ({
    started: (testId: string, testName: string) =>
      expect.objectContaining({ runId, testId, testName, suiteName: "Default Suite", projectName: SHOP.name }),
    stopped: (testId: string, testName: string) => ({ runId, testId, testName, suiteName: "Default Suite", projectName: SHOP.name }),
  });

  async function playSuite(start: (ide: Ide) => Promise<unknown>) {
    // The first test fails (its `type` does not hold); the suite goes on to the second.
    const executor = fakeExecutor({ answer: ({ command }) => (command.command === "type" ? { state: "failed", message: "no field" } : undefined) });
    const { calls, deliver } = recordingDeliver();
    const ide = createIde({ project: shopProject(), deliver, executor });
    await register(ide, "p");
    await start(ide);
    const playback = await waitForStatus(ide, "ended");
    return { ide, calls, executor, playback };
  }

  it.each<[string, (ide: Ide) => Promise<unknown>]>([
    ["the user starts it", async (ide) => ide.send({ type: "user.startSuite" })],
    ["a plugin starts it by suiteName", (ide) => ide.handle({ uri: "/playback/start", verb: "post", payload: { suiteName: "Default Suite" } }, { id: "p" })],
  ])("plays a suite when %s: suitePlaybackStarted, each test's start and stop, then suitePlaybackStopped, going on after a failed test", async (_, start) => {
    const { calls, executor, playback } = await playSuite(start);
    const { runId } = playback;
    const { started, stopped } = suiteOptions(runId);
    const tests = shopProject().tests as unknown[];
    expect(calls.map((c) => [c.to, (c.message as { event: string }).event, c.message.options])).toEqual([
      ["p", "suitePlaybackStarted", { runId, tests }],
      ["p", "playbackStarted", started("t-login", "logs in")],
      ["p", "playbackStopped", stopped("t-login", "logs in")],
      ["p", "playbackStarted", started("t-cart", "adds to cart")],
      ["p", "playbackStopped", stopped("t-cart", "adds to cart")],
      ["p", "suitePlaybackStopped", { runId, suiteName: "Default Suite", projectName: SHOP.name }],
    ]);
    expect(executor.executed.map((c) => c.id)).toEqual(["c-open", "c-user", "c2-open", "c2-add", "c2-assert"]);
    expect(playback).toMatchObject({
      testId: "t-cart",
      result: "failed",
      suite: { id: "s-default", name: "Default Suite", testIndex: 1, tests: ["t-login", "t-cart"] },
    });
  });

  it("lists each test the suite started with its run id, status and result, and says which tests it plays until it is over", async () => {
    const { ide, playback } = await playSuite((ide) => Promise.resolve(ide.send({ type: "user.startSuite" })));
    const { runId } = playback;
    expect(playback.suite!.runs).toEqual([
      { testId: "t-login", runId, tryNo: 1, status: "ended", result: "failed" },
      { testId: "t-cart", runId, tryNo: 1, status: "ended", result: "passed" },
    ]);
    expect(playback).toMatchObject({ running: false, playingTestIds: [], canPause: false, tryNo: 1 });

    const held = createIde({ project: shopProject(), executor: stuckOnOpen() });
    held.send({ type: "user.startSuite" });
    await waitForStatus(held, "running");
    expect(view(held)).toMatchObject({ running: true, canPause: true, playingTestIds: ["t-login", "t-cart"] });
    expect(view(held).suite!.runs).toEqual([{ testId: "t-login", runId: view(held).runId, tryNo: 1, status: "running", result: null }]);
    held.send({ type: "user.pausePlayback" });
    held.send({ type: "user.stopPlayback" });
    await waitForStatus(held, "ended");
    expect(view(held)).toMatchObject({ running: false, canPause: false, playingTestIds: [], result: "stopped" });
    ide.stop();
    held.stop();
  });

  it("says Pause does nothing while a test is paused, and a single test's run plays that test only", async () => {
    const ide = createIde({ project: shopProject(), executor: fakeExecutor() });
    ide.send({ type: "user.toggleBreakpoint", commandId: "c2-add" });
    ide.send({ type: "user.startPlayback", testId: "t-cart" });
    await waitForStatus(ide, "paused");
    expect(view(ide)).toMatchObject({ running: true, canPause: false, playingTestIds: ["t-cart"], suite: null });
    ide.stop();
  });

  it("passes a suite whose tests all pass", async () => {
    const ide = createIde({ project: shopProject(), executor: fakeExecutor() });
    ide.send({ type: "user.startSuite", suiteId: "s-default" });
    expect((await waitForStatus(ide, "ended")).result).toBe("passed");
  });

  it("ends a suite at the test the user stopped, and tells the plugins suitePlaybackStopped", async () => {
    const { calls, deliver } = recordingDeliver();
    const ide = createIde({ project: shopProject(), deliver, executor: stuckOnOpen() });
    await register(ide, "p");
    ide.send({ type: "user.startSuite" });
    await waitForStatus(ide, "running");
    ide.send({ type: "user.stopPlayback" });
    await waitForStatus(ide, "ended");
    expect(eventsOf(calls).map(([, event]) => event)).toEqual(["suitePlaybackStarted", "playbackStarted", "playbackStopped", "suitePlaybackStopped"]);
    expect(view(ide)).toMatchObject({ testId: "t-login", result: "stopped", suite: { testIndex: 0 } });
  });

  it("ends a suite stopped between two tests with the result stopped", async () => {
    const stopped = later();
    const { deliver } = pluginDeliver(undefined, (m) => (m.event === "playbackStopped" ? stopped.promise : true));
    const project = projectOf(testOf("t-a", [["a1", "echo", "a"]]), testOf("t-b", [["b1", "echo", "b"]]));
    const ide = createIde({ project: { ...project, suites: [{ id: "s", name: "S", tests: ["t-a", "t-b"] }] }, deliver });
    await register(ide, "p");
    ide.send({ type: "user.startSuite", suiteId: "s" });
    await waitForStatus(ide, "finishing");
    ide.send({ type: "user.stopPlayback" });
    stopped.resolve(true);
    const ended = await waitForStatus(ide, "ended");
    expect(ended).toMatchObject({ testId: "t-a", result: "stopped" });
    expect(ended.commands.map((c) => c.state)).toEqual(["passed"]);
  });

  it("ends a suite stopped after one of its tests failed with the result failed", async () => {
    const project = projectOf(testOf("t-a", [["a1", "pFail"]]), testOf("t-b", [["b1", "open", "/"]]));
    const { deliver } = pluginDeliver((m) => (m.command.command === "pFail" ? { error: "no" } : true));
    const ide = createIde({ project: { ...project, suites: [{ id: "s", name: "S", tests: ["t-a", "t-b"] }] }, deliver, executor: stuckOnOpen() });
    await register(ide, "p", declaring());
    ide.send({ type: "user.startSuite", suiteId: "s" });
    await vi.waitFor(() => expect(view(ide)).toMatchObject({ testId: "t-b", status: "running" }));
    ide.send({ type: "user.stopPlayback" });
    expect((await waitForStatus(ide, "ended")).result).toBe("failed");
  });
});

describe("control flow, run and variables (Selenium's)", () => {
  async function play(project: unknown, options: { executor?: ReturnType<typeof fakeExecutor>; testId?: string; plugin?: boolean } = {}) {
    const { calls, deliver } = pluginDeliver((m) => (m.command.command === "pFail" ? { error: "no" } : true));
    const ide = createIde({ project, deliver, executor: options.executor });
    if (options.plugin) await register(ide, "p", declaring());
    ide.send({ type: "user.startPlayback", testId: options.testId });
    await waitForStatus(ide, "ended");
    return { ide, calls, echoes: logsOf(ide).filter((l) => l.group === "playback" && l.source === "ide").map((l) => l.message) };
  }

  it("takes the branch whose condition holds, evaluated in the page under test with ${...} as arguments", async () => {
    const executor = fakeExecutor();
    const project = projectOf(
      testOf("t", [
        ["c1", "store", "5", "x"],
        ["c2", "if", "${x} > 7"],
        ["c3", "echo", "big"],
        ["c4", "elseIf", "${x} > 3"],
        ["c5", "echo", "middle"],
        ["c6", "else"],
        ["c7", "echo", "small"],
        ["c8", "end"],
        ["c9", "echo", "after"],
      ]),
    );
    const { ide, echoes } = await play(project, { executor });
    expect(echoes).toEqual(["middle", "after"]);
    expect(executor.conditions).toEqual([
      { script: "arguments[0] > 7", argv: ["5"] },
      { script: "arguments[0] > 3", argv: ["5"] },
    ]);
    expect(statesOf(ide).map(([id, state]) => [id, state])).toEqual([
      ["c1", "passed"],
      ["c2", "passed"],
      ["c3", null],
      ["c4", "passed"],
      ["c5", "passed"],
      ["c6", null],
      ["c7", null],
      ["c8", "passed"],
      ["c9", "passed"],
    ]);
    expect(view(ide).result).toBe("passed");
  });

  it("takes the else branch when no condition holds", async () => {
    const project = projectOf(testOf("t", [["c1", "if", "false"], ["c2", "echo", "then"], ["c3", "else"], ["c4", "echo", "else"], ["c5", "end"]]));
    const { echoes } = await play(project, { executor: fakeExecutor() });
    expect(echoes).toEqual(["else"]);
  });

  it("fails a condition with no page under test, saying so, and ends the run", async () => {
    const project = projectOf(testOf("t", [["c1", "if", "true"], ["c2", "echo", "then"], ["c3", "end"]]));
    const { ide, echoes } = await play(project);
    expect(echoes).toEqual([]);
    const [cond, ...rest] = view(ide).commands;
    expect(cond.state).toBe("failed");
    expect(cond.message).toMatch(/page under test/);
    expect(rest.every((c) => c.state === null)).toBe(true);
  });

  it("ends the run fatal when the page under test is gone while a condition is evaluated, and fails a condition that merely throws", async () => {
    const project = projectOf(testOf("t", [["c1", "if", "true"], ["c2", "echo", "then"], ["c3", "end"]]));
    const gone = Object.assign(new Error("the tab under test was closed."), { name: "PageGoneError" });
    const lost = await play(project, { executor: { ...fakeExecutor(), evaluate: async () => Promise.reject(gone) } });
    expect(view(lost.ide).commands[0]).toMatchObject({ state: "fatal", message: expect.stringMatching(/page under test is gone: the tab under test was closed/) });
    const thrown = await play(project, { executor: { ...fakeExecutor(), evaluate: async () => Promise.reject(new Error("x is not defined")) } });
    expect(view(thrown.ide).commands[0]).toMatchObject({ state: "failed", message: "x is not defined" });
  });

  it("turns a while loop until its limit, then fails it", async () => {
    const executor = fakeExecutor();
    const project = projectOf(testOf("t", [["c1", "while", "true", "3"], ["c2", "click", "id=more"], ["c3", "end"], ["c4", "echo", "after"]]));
    const { ide, echoes } = await play(project, { executor });
    expect(executor.executed.map((c) => c.id)).toEqual(["c2", "c2", "c2"]);
    expect(echoes).toEqual([]);
    const loop = view(ide).commands[0];
    expect(loop.state).toBe("failed");
    expect(loop.message).toMatch(/limit/i);
    expect(view(ide).result).toBe("failed");
  });

  it("leaves a while loop whose condition stops holding", async () => {
    const executor = fakeExecutor();
    const project = projectOf(testOf("t", [["c1", "while", "false"], ["c2", "click", "id=more"], ["c3", "end"], ["c4", "echo", "after"]]));
    const { ide, echoes } = await play(project, { executor });
    expect(executor.executed).toEqual([]);
    expect(echoes).toEqual(["after"]);
    expect(view(ide).result).toBe("passed");
  });

  it("repeats times n without a page under test", async () => {
    const project = projectOf(testOf("t", [["c1", "store", "3", "n"], ["c2", "times", "${n}"], ["c3", "pOk", "turn"], ["c4", "end"]]));
    const { ide, calls } = await play(project, { plugin: true });
    expect(executes(calls).map((e) => e.options.commandId)).toEqual(["c3", "c3", "c3"]);
    expect(view(ide).result).toBe("passed");
  });

  it("walks an array variable with forEach, giving each item to the commands inside", async () => {
    const project = projectOf(
      testOf("t", [["c1", "storeJson", '[{"user":"ann"},{"user":"bob"}]', "rows"], ["c2", "forEach", "rows", "row"], ["c3", "echo", "hi ${row.user}"], ["c4", "end"]]),
    );
    const { ide, echoes } = await play(project);
    expect(echoes).toEqual(["hi ann", "hi bob"]);
    expect(view(ide)).toMatchObject({ result: "passed", variables: { row: { user: "bob" } } });
  });

  it("walks rows that a plugin put while handling playbackStarted (plugin-run.side's t-each)", async () => {
    let ide!: Ide;
    const { calls, deliver } = pluginDeliver(
      () => true,
      async (m) => {
        if (m.event === "playbackStarted") {
          await ide.handle({ uri: "/playback/var", verb: "put", name: "rows", contents: '[{"user":"ann"},{"user":"bob"}]' }, { id: "p" });
        }
        return true;
      },
    );
    ide = createIde({ project: pluginRunProject(), deliver });
    await register(ide, "p", declaring());
    ide.send({ type: "user.startPlayback", testId: "t-each" });
    await waitForStatus(ide, "ended");
    expect(executes(calls).map((e) => e.command.target)).toEqual(["ann", "bob"]);
  });

  it("fails forEach over a variable that is not an array", async () => {
    const project = projectOf(testOf("t", [["c1", "store", "x", "rows"], ["c2", "forEach", "rows", "row"], ["c3", "echo", "${row}"], ["c4", "end"]]));
    const { ide, echoes } = await play(project);
    expect(echoes).toEqual([]);
    expect(view(ide).commands[1].state).toBe("failed");
  });

  it("leaves the loop at break", async () => {
    const executor = fakeExecutor();
    const project = projectOf(testOf("t", [["c1", "times", "5"], ["c2", "click", "id=a"], ["c3", "break"], ["c4", "end"], ["c5", "echo", "after"]]));
    const { ide, echoes } = await play(project, { executor });
    expect(executor.executed.map((c) => c.id)).toEqual(["c2"]);
    expect(echoes).toEqual(["after"]);
    expect(view(ide).result).toBe("passed");
  });

  it("plays a do block once, and again while repeatIf holds, up to its limit", async () => {
    const once = fakeExecutor();
    await play(projectOf(testOf("t", [["c1", "do"], ["c2", "click", "id=a"], ["c3", "repeatIf", "false"]])), { executor: once });
    expect(once.executed.map((c) => c.id)).toEqual(["c2"]);

    const limited = fakeExecutor();
    const { ide } = await play(projectOf(testOf("t", [["c1", "do"], ["c2", "click", "id=a"], ["c3", "repeatIf", "true", "3"]])), { executor: limited });
    // The limit counts the times repeatIf held, as while's counts its condition: once, then three more.
    expect(limited.executed.map((c) => c.id)).toEqual(["c2", "c2", "c2", "c2"]);
    const repeat = view(ide).commands[2];
    expect(repeat.state).toBe("failed");
    expect(repeat.message).toMatch(/limit/i);
  });

  it("plays another test by name with run, nested, and comes back after it", async () => {
    const { ide, calls, echoes } = await play(pluginRunProject(), { testId: "t-run", plugin: true });
    const sent = executes(calls).map((e) => [e.command.command, e.command.target, e.options.testId, e.options.originalTestId, e.options.isNested]);
    expect(sent).toEqual([
      ["pOk", "outer", "t-run", "t-run", false],
      ["pCount", "round 2", "t-plugin", "t-run", true],
      ["pCount", "round 2", "t-plugin", "t-run", true],
      ["pText", "", "t-plugin", "t-run", true],
      ["pLater", "", "t-plugin", "t-run", true],
      ["pOk", "after", "t-run", "t-run", false],
    ]);
    expect(echoes).toEqual(["done 2"]);
    expect(view(ide).commands.map((c) => [c.id, c.state])).toEqual([
      ["r1", "passed"],
      ["r2", "passed"],
      ["r3", "passed"],
    ]);
    // run shares its caller's variables.
    expect(view(ide).variables).toEqual({ n: "2" });
  });

  it("fails the run command when the test it names fails, and ends the run", async () => {
    const project = projectOf(testOf("outer", [["o1", "run", "inner"], ["o2", "echo", "after"]]), testOf("inner", [["i1", "pFail"], ["i2", "echo", "never"]]));
    const { ide, echoes } = await play(project, { testId: "outer", plugin: true });
    expect(echoes).toEqual([]);
    const [run, after] = view(ide).commands;
    expect(run.state).toBe("failed");
    expect(after.state).toBeNull();
  });

  it("fails run for a test the project lacks", async () => {
    const { ide } = await play(projectOf(testOf("t", [["c1", "run", "nowhere"]])));
    expect(view(ide).commands[0]).toMatchObject({ state: "failed" });
    expect(view(ide).commands[0].message).toContain("nowhere");
  });

  it("does not start a test whose control flow is broken: the offending command fails, and plugins hear nothing", async () => {
    const { ide, calls } = await play(pluginRunProject(), { testId: "t-bad-flow", plugin: true });
    expect(statesOf(ide).map(([id, state]) => [id, state])).toEqual([
      ["b1", "failed"],
      ["b2", null],
    ]);
    expect(view(ide).commands[0].message).toBeTruthy();
    expect(view(ide).result).toBe("failed");
    expect(byEvent(calls, "playbackStarted")).toEqual([]);
    expect(byEvent(calls, "playbackStopped")).toEqual([]);
    expect(executes(calls)).toEqual([]);
  });

  it("does not start a test with an end that closes nothing", async () => {
    const { ide } = await play(projectOf(testOf("t", [["c1", "echo", "x"], ["c2", "end"]])));
    expect(view(ide).commands.map((c) => c.state)).toEqual([null, "failed"]);
  });
});

describe("the new routes' verbs and spellings", () => {
  it.each([
    ["/playback/var", "post", "PUT"],
    ["/playback/start", "get", "POST"],
    ["/playback/stop", "delete", "POST"],
  ])("answers VerbNotAllowed to %s with %s, listing %s", async (uri, verb, allowed) => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "p");
    expect(expectError(await ide.handle({ uri, verb }, { id: "p" }), "VerbNotAllowed")).toContain(allowed);
  });

  it("takes /V1/PLAYBACK/START with verb POST as POST /playback/start", async () => {
    const ide = createIde({ project: shopProject(), executor: stuckOnOpen() });
    await register(ide, "p");
    const reply = (await ide.handle({ uri: "/V1/PLAYBACK/START", verb: "POST", testId: "t-cart" }, { id: "p" })) as { runId: string };
    expect(view(ide)).toMatchObject({ runId: reply.runId, testId: "t-cart" });
  });
});

describe("breakpoints, pause and step (CONTRACT section 12)", () => {
  it("pauses before a command with a breakpoint, steps one command, and resumes to the end", async () => {
    const executor = fakeExecutor();
    const ide = createIde({ project: shopProject(), executor });
    ide.send({ type: "user.toggleBreakpoint", commandId: "c2-add" });
    expect(ide.getSnapshot().runControls.breakpoints).toEqual(["c2-add"]);
    ide.send({ type: "user.startPlayback", testId: "t-cart" });
    expect(await waitForStatus(ide, "paused")).toMatchObject({ currentCommandId: "c2-add", breakpoints: ["c2-add"] });
    expect(executor.executed.map((c) => c.id)).toEqual(["c2-open"]);
    ide.send({ type: "user.stepPlayback" });
    await vi.waitFor(() => expect(view(ide)).toMatchObject({ status: "paused", currentCommandId: "c2-assert" }));
    expect(executor.executed.map((c) => c.id)).toEqual(["c2-open", "c2-add"]);
    ide.send({ type: "user.resumePlayback" });
    expect(await waitForStatus(ide, "ended")).toMatchObject({ result: "passed" });
    expect(executor.executed.map((c) => c.id)).toEqual(["c2-open", "c2-add", "c2-assert"]);
  });

  it("pauses after the executing command when the user pauses, and goes on when resumed", async () => {
    const clicked = later<{ state: "passed" }>();
    const executor = fakeExecutor({ answer: ({ command }) => (command.id === "c2-add" ? clicked.promise : undefined) });
    const ide = createIde({ project: shopProject(), executor });
    ide.send({ type: "user.startPlayback", testId: "t-cart" });
    await vi.waitFor(() => expect(view(ide).currentCommandId).toBe("c2-add"));
    ide.send({ type: "user.pausePlayback" });
    expect(view(ide)).toMatchObject({ status: "running", currentCommandId: "c2-add" });
    clicked.resolve({ state: "passed" });
    expect(await waitForStatus(ide, "paused")).toMatchObject({ currentCommandId: "c2-assert" });
    expect(statesOf(ide).map(([id, state]) => [id, state])).toEqual([
      ["c2-open", "passed"],
      ["c2-add", "passed"],
      ["c2-assert", null],
    ]);
    ide.send({ type: "user.resumePlayback" });
    expect(await waitForStatus(ide, "ended")).toMatchObject({ result: "passed" });
  });

  it("starts from fromCommandId when the user asks", async () => {
    const executor = fakeExecutor();
    const ide = createIde({ project: shopProject(), executor });
    ide.send({ type: "user.startPlayback", testId: "t-cart", fromCommandId: "c2-add" });
    await waitForStatus(ide, "ended");
    expect(executor.executed.map((c) => c.id)).toEqual(["c2-add", "c2-assert"]);
    expect(view(ide).commands[0].state).toBeNull();
  });

  it("keeps the user's delay within 0 to 10,000 ms and shows it", () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.setPlaybackDelay", ms: 250 });
    expect(ide.getSnapshot().runControls).toEqual({ breakpoints: [], delayMs: 250 });
    ide.send({ type: "user.setPlaybackDelay", ms: 20_000 });
    expect(ide.getSnapshot().runControls.delayMs).toBe(250);
  });
});

describe("suites whose tests do not start", () => {
  const suiteProject = (tests: Array<ReturnType<typeof testOf>>) => ({
    ...projectOf(...tests),
    suites: [{ id: "s", name: "Suite", tests: tests.map((t) => t.id) }],
  });

  it("goes on past a test whose control flow is broken, and plugins hear only of the tests that started", async () => {
    const { calls, deliver } = recordingDeliver();
    const ide = createIde({ project: suiteProject([testOf("broken", [["b1", "end"]]), testOf("good", [["g1", "echo", "hi"]])]), deliver });
    await register(ide, "p");
    ide.send({ type: "user.startSuite" });
    const playback = await waitForStatus(ide, "ended");
    expect(calls.map((c) => [(c.message as { event: string }).event, c.message.options.testId])).toEqual([
      ["suitePlaybackStarted", undefined],
      ["playbackStarted", "good"],
      ["playbackStopped", "good"],
      ["suitePlaybackStopped", undefined],
    ]);
    expect(playback).toMatchObject({ testId: "good", result: "failed", suite: { testIndex: 1 } });
  });

  it("sends suitePlaybackStopped after a last test whose control flow is broken", async () => {
    // CONTRACT section 9: a suite sends suitePlaybackStopped after its last test.
    const { calls, deliver } = recordingDeliver();
    const ide = createIde({ project: suiteProject([testOf("good", [["g1", "echo", "hi"]]), testOf("broken", [["b1", "end"]])]), deliver });
    await register(ide, "p");
    ide.send({ type: "user.startSuite" });
    const playback = await waitForStatus(ide, "ended");
    expect(playback).toMatchObject({ testId: "broken", result: "failed" });
    expect(eventsOf(calls).map(([, e]) => e)).toEqual(["suitePlaybackStarted", "playbackStarted", "playbackStopped", "suitePlaybackStopped"]);
  });
});

describe("the IDE's own commands", () => {
  it("sets the run's delay with setSpeed", async () => {
    const ide = createIde({ project: projectOf(testOf("t", [["c1", "setSpeed", "5"], ["c2", "echo", "x"]])) });
    ide.send({ type: "user.startPlayback" });
    expect(await waitForStatus(ide, "ended")).toMatchObject({ delayMs: 5, result: "passed" });
    expect(ide.getSnapshot().runControls.delayMs).toBe(0);
  });

  it("waits at pause and goes on", async () => {
    const ide = createIde({ project: projectOf(testOf("t", [["c1", "pause", "5"], ["c2", "echo", "after the pause"]])) });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "ended");
    expect(statesOf(ide)).toEqual([
      ["c1", "passed", null],
      ["c2", "passed", null],
    ]);
    expect(logsOf(ide).map((l) => l.message)).toContain("after the pause");
  });

  it("fails store without a variable name", async () => {
    const ide = createIde({ project: projectOf(testOf("t", [["c1", "store", "x"]])) });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "ended");
    expect(view(ide).commands[0].state).toBe("failed");
  });
});
