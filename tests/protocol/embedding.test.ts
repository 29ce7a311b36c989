// The embedding API of CONTRACT section 1: handle never throws or rejects, subscribe,
// getSnapshot, stop, the options.
import { describe, expect, it, vi } from "vitest";
import {
  createIde,
  expectError,
  isPending,
  logsOf,
  register,
  settle,
  shopProject,
  takeControl,
  waitForDialog,
  waitForStatus,
} from "./support.ts";
import type { IdeView } from "./support.ts";

const TRAPS = [
  "get",
  "set",
  "has",
  "ownKeys",
  "getOwnPropertyDescriptor",
  "defineProperty",
  "deleteProperty",
  "getPrototypeOf",
  "setPrototypeOf",
  "isExtensible",
  "preventExtensions",
  "apply",
  "construct",
] as const;

function throwingProxy<T extends object>(target: T): T {
  const handler: ProxyHandler<T> = {};
  for (const trap of TRAPS) {
    (handler as Record<string, unknown>)[trap] = () => {
      throw new Error(`trap ${trap}`);
    };
  }
  return new Proxy(target, handler);
}

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function cyclic(): Record<string, unknown> {
  const message: Record<string, unknown> = { uri: "/log", verb: "post", message: "m" };
  message.self = message;
  return message;
}

function throwingGetter(field: string): Record<string, unknown> {
  const message: Record<string, unknown> = { uri: "/log", verb: "post", message: "m" };
  Object.defineProperty(message, field, {
    enumerable: true,
    get() {
      throw new Error(`getter ${field}`);
    },
  });
  return message;
}

/** Messages that no plugin can send as JSON; each must get an exact InvalidRequest. */
const HOSTILE: Array<[string, () => unknown]> = [
  ["a Proxy that throws on every trap", () => throwingProxy({ uri: "/health", verb: "get" })],
  ["a Proxy of a function that throws on every trap", () => throwingProxy(() => {})],
  ["a revoked Proxy", revokedProxy],
  ["a payload that is a throwing Proxy", () => ({ uri: "/log", verb: "post", payload: throwingProxy({ message: "m" }) })],
  ["an object with a throwing uri getter", () => throwingGetter("uri")],
  ["an object with a throwing verb getter", () => throwingGetter("verb")],
  ["an object with a throwing message getter", () => throwingGetter("message")],
  ["an object with a throwing payload getter", () => throwingGetter("payload")],
  ["a cyclic object", cyclic],
  ["a cyclic payload", () => {
    const payload: Record<string, unknown> = { message: "m" };
    payload.loop = payload;
    return { uri: "/log", verb: "post", payload };
  }],
  ["a BigInt", () => 10n],
  ["a BigInt field", () => ({ uri: "/log", verb: "post", message: 10n })],
  ["a BigInt in an ignored field", () => ({ uri: "/health", verb: "get", extra: 10n })],
  ["a Symbol", () => Symbol("message")],
  ["a Symbol as the uri", () => ({ uri: Symbol("/health"), verb: "get" })],
  ["a Symbol as the message", () => ({ uri: "/log", verb: "post", message: Symbol("m") })],
  ["a function", () => () => ({ uri: "/health", verb: "get" })],
  ["a function as the message", () => ({ uri: "/log", verb: "post", message: () => "m" })],
  ["a toJSON that throws", () => ({ uri: "/health", verb: "get", extra: { toJSON() { throw new Error("toJSON"); } } })],
  ["an array nested 200,000 deep", () => {
    let deep: unknown = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    return { uri: "/log", verb: "post", message: "m", deep };
  }],
];

describe("handle with hostile input", () => {
  it.each(HOSTILE)("answers %s with InvalidRequest, without throwing", async (_, make) => {
    const ide = createIde();
    let reply: Promise<unknown> | undefined;
    expect(() => {
      reply = ide.handle(make(), { id: "a" });
    }).not.toThrow();
    await expect(reply).resolves.toBeDefined();
    expectError(await reply, "InvalidRequest");
    expect(logsOf(ide)).toEqual([]);
    expect(await ide.handle({ uri: "/health", verb: "get" }, { id: "a" })).toBe(false);
  });

  it("never rejects for a field holding a function that JSON would drop", async () => {
    const ide = createIde();
    const reply = await ide.handle({ uri: "/health", verb: "get", callback: () => true }, { id: "a" });
    // Either the route's value or an exact error; never a throw or a rejection.
    const isError = typeof reply === "object" && reply !== null && (reply as { errorCode?: unknown }).errorCode === "InvalidRequest";
    expect(reply === false || isError, JSON.stringify(reply)).toBe(true);
  });

  it("keeps Object.prototype clean when a message carries __proto__ keys", async () => {
    const ide = createIde();
    const message = JSON.parse(
      '{"uri":"/register","verb":"post","constructor":{"prototype":{"polluted":1}},"payload":{"name":"A","version":"1","__proto__":{"polluted":2}}}',
    );
    const reply = await ide.handle(message, { id: "__proto__" });
    expect(reply).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(ide.getSnapshot().plugins).toEqual([{ id: "__proto__", name: "A", version: "1", commands: [] }]);
    expect(await ide.handle({ uri: "/health", verb: "get" }, { id: "constructor" })).toBe(false);
    expect(await ide.handle({ uri: "/health", verb: "get" }, { id: "toString" })).toBe(false);
  });

  it("answers every hostile message in a row and still works afterwards", async () => {
    const ide = createIde({ project: shopProject() });
    const replies = await Promise.all(HOSTILE.map(([, make]) => ide.handle(make(), { id: "a" })));
    for (const reply of replies) expectError(reply, "InvalidRequest");
    await register(ide, "a");
    expect(await ide.handle({ uri: "/health", verb: "get" }, { id: "a" })).toBe(true);
  });
});

describe("subscribe", () => {
  // The listener may be called after the change has settled (core/ide.ts batches one view per
  // turn of the event loop), so each check lets pending work run first.
  it("calls the listener with the new view on every change and stops after unsubscribe", async () => {
    const ide = createIde();
    const views: IdeView[] = [];
    const subscription = ide.subscribe((view) => views.push(view));
    await ide.handle({ uri: "/log", verb: "post", message: "first" }, { id: "a" });
    await settle();
    expect(views.length).toBeGreaterThan(0);
    expect(views.at(-1)!.logs.map((l) => l.message)).toEqual(["first"]);
    expect(views.at(-1)).toEqual(ide.getSnapshot());
    await register(ide, "a");
    await settle();
    expect(views.at(-1)!.plugins.map((p) => p.id)).toEqual(["a"]);
    ide.send({ type: "user.editProject" });
    await settle();
    expect(views.at(-1)!.project.unsaved).toBe(true);

    subscription.unsubscribe();
    const count = views.length;
    await ide.handle({ uri: "/log", verb: "post", message: "second" }, { id: "a" });
    ide.send({ type: "user.closeWindow" });
    await settle();
    expect(views).toHaveLength(count);
    expect(ide.getSnapshot().window).toBe("closed");
  });

  it("tells the listener about a dialog opening and closing", async () => {
    const ide = createIde();
    const kinds: Array<string | null> = [];
    ide.subscribe((view) => kinds.push(view.dialog?.kind ?? null));
    const reply = ide.handle({ uri: "/control", verb: "post", name: "C", version: "1" }, { id: "c" });
    await waitForDialog(ide, "controlConsent");
    // The listener hears of it on the next turn of the event loop, with the view as it is then.
    await vi.waitFor(() => expect(kinds).toContain("controlConsent"));
    ide.send({ type: "user.accept" });
    await reply;
    await settle();
    expect(kinds.at(-1)).toBeNull();
  });

  it("gives a listener one view per turn of the event loop while a fast run plays, the last one showing the run over", async () => {
    const turns = 500;
    const commands = [
      { id: "t1", command: "times", target: String(turns), value: "100000" },
      { id: "s1", command: "store", target: "x", value: "v" },
      { id: "e1", command: "end", target: "", value: "" },
    ];
    const ide = createIde({ project: { id: "p", name: "P", url: "http://127.0.0.1:8080", tests: [{ id: "t", name: "t", commands }] } });
    const views: IdeView[] = [];
    ide.subscribe((view) => views.push(view));
    ide.send({ type: "user.startPlayback", testId: "t" });
    await vi.waitFor(() => expect(ide.getSnapshot().playback?.status).toBe("ended"), { timeout: 30_000 });
    await settle();
    // 1,000 commands answer in microtasks; the run lets the event loop turn every 64 of them.
    expect(views.length).toBeGreaterThan(1);
    expect(views.length).toBeLessThan((2 * turns) / 16);
    expect(views.at(-1)!.playback).toMatchObject({ status: "ended", result: "passed" });
  });

  it("keeps other listeners when one unsubscribes", async () => {
    const ide = createIde();
    const a = vi.fn();
    const b = vi.fn();
    ide.subscribe(a).unsubscribe();
    ide.subscribe(b);
    await ide.handle({ uri: "/log", verb: "post", message: "m" }, { id: "x" });
    await settle();
    expect(a).not.toHaveBeenCalled();
    expect(b).toHaveBeenCalled();
  });
});

/** Every object in `value` is a plain object or an array; no functions, no undefined, no class instances. */
function expectPlain(value: unknown, path = "view"): void {
  if (value === null || ["string", "number", "boolean"].includes(typeof value)) {
    if (typeof value === "number") expect(Number.isFinite(value), path).toBe(true);
    return;
  }
  expect(typeof value, path).toBe("object");
  const proto = Object.getPrototypeOf(value);
  expect(proto === Object.prototype || proto === Array.prototype, `${path} is not plain`).toBe(true);
  for (const [key, item] of Object.entries(value as object)) expectPlain(item, `${path}.${key}`);
}

describe("getSnapshot", () => {
  it("is a plain, JSON-serialisable view in every part", async () => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "a");
    await ide.handle({ uri: "/log", verb: "post", type: "warn", message: "w" }, { id: "a" });
    // A suite run held at a breakpoint, with a variable and a command state: every part of the view is filled.
    ide.send({ type: "user.toggleBreakpoint", commandId: "c-open" });
    ide.send({ type: "user.startSuite" });
    await waitForStatus(ide, "paused");
    expect(await ide.handle({ uri: "/playback/var", verb: "put", name: "user", contents: '{"name":"alice","tags":["a"]}' }, { id: "a" })).toBe(true);
    await ide.handle({ uri: "/playback/command", verb: "post", commandId: "c-open", state: "passed" }, { id: "a" });
    const control = ide.handle({ uri: "/control", verb: "post", name: "C", version: "1" }, { id: "c" });
    await waitForDialog(ide, "controlConsent");

    const view = ide.getSnapshot();
    expectPlain(view);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
    expect(Object.keys(view).sort()).toEqual(
      [
        "clipboard",
        "control",
        "dialog",
        "displayedTestId",
        "healing",
        "history",
        "logs",
        "logsDropped",
        "dataFiles",
        "pick",
        "playback",
        "plugins",
        "project",
        "recentProjects",
        "recording",
        "recordingSettings",
        "runControls",
        "selectedCommandId",
        "window",
      ].sort(),
    );
    expect(Object.keys(view.dialog!).sort()).toEqual(["cancelLabel", "confirmLabel", "kind", "requester", "text", "title"]);
    expect(Object.keys(view.logs[0]).sort()).toEqual(["at", "group", "id", "level", "message", "source"]);
    expect(Object.keys(view.playback!).sort()).toEqual(
      [
        "breakpoints",
        "canPause",
        "commands",
        "currentCommandId",
        "dataRows",
        "delayMs",
        "playingTestIds",
        "result",
        "runId",
        "running",
        "status",
        "suite",
        "testId",
        "testName",
        "tryNo",
        "variables",
      ].sort(),
    );
    expect(view.playback).toMatchObject({
      status: "paused",
      running: true,
      result: null,
      suite: { id: "s-default", name: "Default Suite", testIndex: 0, tests: ["t-login", "t-cart"] },
      currentCommandId: "c-open",
      breakpoints: ["c-open"],
      variables: { user: { name: "alice", tags: ["a"] } },
    });
    expect(view.runControls).toEqual({ breakpoints: ["c-open"], delayMs: 0 });
    expect(Object.keys(view.playback!.commands[0]).sort()).toEqual(["command", "id", "message", "state", "target", "value"]);
    expect(view.logsDropped).toEqual({ system: 0, playback: 0 });
    ide.send({ type: "user.decline" });
    expect(await control).toBe(false);
  });

  it("starts with the view of a new untitled project when no project is given", () => {
    const view = createIde().getSnapshot();
    expect(view).toMatchObject({
      window: "open",
      control: { mode: "notControlled", controller: null, candidate: null },
      project: { unsaved: false },
      dialog: null,
      plugins: [],
      logs: [],
      logsDropped: { system: 0, playback: 0 },
      playback: null,
    });
    expect(typeof view.project.id).toBe("string");
    expect(view.project.id.length).toBeGreaterThan(0);
  });

  it("is not changed by a caller mutating a view it was given", async () => {
    const ide = createIde();
    await register(ide, "a");
    const view = ide.getSnapshot();
    try {
      (view.plugins as unknown[]).push({ id: "fake", name: "F", version: "0" });
      (view as { window: string }).window = "closed";
    } catch {
      // A frozen view is fine too.
    }
    await ide.handle({ uri: "/log", verb: "post", message: "m" }, { id: "a" });
    expect(ide.getSnapshot().plugins.map((p) => p.id)).toEqual(["a"]);
    expect(ide.getSnapshot().window).toBe("open");
    expect(await ide.handle({ uri: "/health", verb: "get" }, { id: "fake" })).toBe(false);
  });

  it("counts log entries dropped past logEntriesPerGroup, keeping the newest", async () => {
    const ide = createIde({ limits: { logEntriesPerGroup: 3 } });
    for (let i = 1; i <= 5; i++) await ide.handle({ uri: "/log", verb: "post", message: `s${i}` }, { id: "a" });
    await ide.handle({ uri: "/playback/log", verb: "post", message: "p1" }, { id: "a" });
    const view = ide.getSnapshot();
    expect(view.logs.map((l) => l.message)).toEqual(["s3", "s4", "s5", "p1"]);
    expect(view.logsDropped).toEqual({ system: 2, playback: 0 });
  });
});

describe("stop", () => {
  it("answers waiting requests with IdeNotActive", async () => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "a");
    const control = ide.handle({ uri: "/control", verb: "post", name: "C", version: "1" }, { id: "c" });
    await waitForDialog(ide, "controlConsent");
    expect(await isPending(control)).toBe(true);
    ide.stop();
    expectError(await control, "IdeNotActive");
  });

  it("answers a load waiting on the user with IdeNotActive", async () => {
    const ide = createIde({ project: shopProject() });
    await takeControl(ide, "c");
    ide.send({ type: "user.editProject" });
    const load = ide.handle({ uri: "/project", verb: "post", project: shopProject() }, { id: "c" });
    await waitForDialog(ide, "loadProject");
    ide.stop();
    expectError(await load, "IdeNotActive");
  });

  it("answers every later request with IdeNotActive", async () => {
    // README decision: after stop(), every handle() answers IdeNotActive.
    const ide = createIde();
    ide.stop();
    expectError(await ide.handle({ uri: "/health", verb: "get" }, { id: "a" }), "IdeNotActive");
    expectError(await ide.handle({ openIDEIfClosed: true }, { id: "a" }), "IdeNotActive");
    expectError(await ide.handle({ uri: "/control", verb: "post", name: "C", version: "1" }, { id: "a" }), "IdeNotActive");
  });
});

describe("options", () => {
  it.each([
    [{ id: "p", name: "P" }, "tests"],
    [{ name: "P", tests: [] }, "id"],
    [{ id: "p", name: "P", tests: [{ id: "t", name: "T", commands: [{ id: 1, command: "open" }] }] }, "commands[0].id"],
    ["not a project", "project"],
  ])("throws a TypeError naming the problem for an unusable project %#", (project, named) => {
    let caught: unknown;
    try {
      createIde({ project });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TypeError);
    expect((caught as TypeError).message).toContain(named);
  });

  it("starts with the given project", async () => {
    const ide = createIde({ project: shopProject() });
    expect(ide.getSnapshot().project).toEqual({ id: "6f1d2c7a-3b0e-4c55-9d0e-1b2a3c4d5e6f", name: "Shop checkout", unsaved: false, path: null });
  });

  it('starts closed with window: "closed"', async () => {
    const ide = createIde({ window: "closed" });
    expect(ide.getSnapshot().window).toBe("closed");
    expectError(await ide.handle({ uri: "/health", verb: "get" }, { id: "a" }), "IdeNotActive");
    ide.send({ type: "user.openWindow" });
    expect(await ide.handle({ uri: "/health", verb: "get" }, { id: "a" })).toBe(false);
  });

  it('starts open with window: "open"', () => {
    expect(createIde({ window: "open" }).getSnapshot().window).toBe("open");
  });

  it("passes inspection events to inspect", async () => {
    const events: Array<{ type: string; event?: { type?: string } }> = [];
    const ide = createIde({ inspect: (event) => void events.push(event as (typeof events)[number]) });
    expect(events.length).toBeGreaterThan(0);
    await ide.handle({ uri: "/register", verb: "post", name: "A", version: "1" }, { id: "a" });
    expect(events.some((e) => e.type === "@xstate.event" && e.event?.type === "request.register")).toBe(true);
  });

  it("exposes the root actor", () => {
    const ide = createIde();
    expect(typeof ide.actor.getSnapshot).toBe("function");
    expect(ide.actor.getSnapshot().status).toBe("active");
    ide.stop();
    expect(ide.actor.getSnapshot().status).toBe("stopped");
  });
});

describe("send", () => {
  it("ignores what is not a user event of the contract, and keeps working", async () => {
    const ide = createIde({ project: shopProject() });
    const before = ide.getSnapshot();
    const hostile = new Proxy({}, { get() { throw new Error("trap"); } });
    for (const event of [
      null,
      42,
      "user.accept",
      { type: "user.unknown" },
      { type: "request.close", requestId: 1, sender: "x" },
      { type: "user.startPlayback", testId: Symbol("t") },
      { type: "user.startPlayback", testId: { toString: () => { throw new Error("no"); } } },
      hostile,
    ]) {
      expect(() => ide.send(event as never)).not.toThrow();
    }
    expect(ide.actor.getSnapshot().status).toBe("active");
    expect(ide.getSnapshot()).toEqual(before);
    ide.send({ type: "user.startPlayback", testId: "t-login" });
    expect(ide.getSnapshot().playback?.testId).toBe("t-login");
    expect(await ide.handle({ uri: "/health", verb: "get" }, { id: "p" })).toBe(false);
  });
});
