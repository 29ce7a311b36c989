// Every route of CONTRACT section 4, in both request forms, with its success value exactly.
import { describe, expect, it, vi } from "vitest";
import {
  createIde,
  expectError,
  fakeExecutor,
  fixtureDocument,
  FORMS,
  logsOf,
  OTHER,
  otherProject,
  register,
  registrationOf,
  request,
  SHOP,
  shopProject,
  takeControl,
  waitForDialog,
  waitForStatus,
} from "./support.ts";

describe.each(FORMS)("routes in the %s form", (form) => {
  it("answers GET /health with false for an unregistered sender and true once it registered", async () => {
    const ide = createIde();
    expect(await ide.handle(request("/health", "get", {}, form), { id: "a" })).toBe(false);
    expect(await ide.handle(request("/register", "post", registrationOf("A"), form), { id: "a" })).toBe(true);
    expect(await ide.handle(request("/health", "get", {}, form), { id: "a" })).toBe(true);
    expect(await ide.handle(request("/health", "get", {}, form), { id: "b" })).toBe(false);
  });

  it("answers POST /register with true and lists the plugin in the view", async () => {
    const ide = createIde();
    const reply = await ide.handle(request("/register", "post", { name: "Visual checks", version: "2.1.0" }, form), {
      id: "ext-a",
    });
    expect(reply).toBe(true);
    expect(ide.getSnapshot().plugins).toEqual([{ id: "ext-a", name: "Visual checks", version: "2.1.0", commands: [] }]);
  });

  it("answers POST /log with true and writes the message to the system group", async () => {
    const ide = createIde();
    expect(await ide.handle(request("/log", "post", { message: `logged ${form}` }, form), { id: "a" })).toBe(true);
    expect(logsOf(ide)).toContainEqual(
      expect.objectContaining({ group: "system", level: "info", message: `logged ${form}`, source: "a" }),
    );
  });

  it("answers GET /project with exactly the id and name of the loaded project", async () => {
    const ide = createIde({ project: shopProject() });
    const reply = await ide.handle(request("/project", "get", {}, form), { id: "a" });
    expect(reply).toEqual({ id: SHOP.id, name: SHOP.name });
    expect(Object.keys(reply as object).sort()).toEqual(["id", "name"]);
  });

  it("answers POST /project with true and loads the project when there are no unsaved changes", async () => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "a");
    expect(await ide.handle(request("/project", "post", { project: otherProject() }, form), { id: "a" })).toBe(true);
    expect(ide.getSnapshot().project).toEqual({ id: OTHER.id, name: OTHER.name, unsaved: false, path: null });
    expect(await ide.handle(request("/project", "get", {}, form), { id: "a" })).toEqual(OTHER);
  });

  it("answers POST /project with false when the user keeps the unsaved changes", async () => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "a");
    ide.send({ type: "user.editProject" });
    const reply = ide.handle(request("/project", "post", { project: otherProject() }, form), { id: "a" });
    await waitForDialog(ide, "loadProject");
    ide.send({ type: "user.decline" });
    expect(await reply).toBe(false);
    expect(ide.getSnapshot().project).toEqual({ id: SHOP.id, name: SHOP.name, unsaved: true, path: null });
  });

  it("answers POST /project with true once the user agrees to lose the unsaved changes", async () => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "a");
    ide.send({ type: "user.editProject" });
    const reply = ide.handle(request("/project", "post", { project: otherProject() }, form), { id: "a" });
    await waitForDialog(ide, "loadProject");
    ide.send({ type: "user.accept" });
    expect(await reply).toBe(true);
    expect(ide.getSnapshot().project).toEqual({ id: OTHER.id, name: OTHER.name, unsaved: false, path: null });
  });

  it("answers POST /control with true when the user accepts", async () => {
    const ide = createIde();
    const reply = ide.handle(request("/control", "post", registrationOf("Controller"), form), { id: "c" });
    await waitForDialog(ide, "controlConsent");
    ide.send({ type: "user.accept" });
    expect(await reply).toBe(true);
    expect(ide.getSnapshot().control).toEqual({ mode: "controlled", controller: "c", candidate: null });
  });

  it("answers POST /control with false when the user declines", async () => {
    const ide = createIde();
    const reply = ide.handle(request("/control", "post", registrationOf("Controller"), form), { id: "c" });
    await waitForDialog(ide, "controlConsent");
    ide.send({ type: "user.decline" });
    expect(await reply).toBe(false);
    expect(ide.getSnapshot().control).toEqual({ mode: "notControlled", controller: null, candidate: null });
  });

  it("answers POST /close from the controller with true and closes the window", async () => {
    const ide = createIde();
    await takeControl(ide, "c");
    expect(await ide.handle(request("/close", "post", {}, form), { id: "c" })).toBe(true);
    expect(ide.getSnapshot().window).toBe("closed");
  });

  it("answers POST /close with false when the user keeps the window open over unsaved changes", async () => {
    const ide = createIde();
    await takeControl(ide, "c");
    ide.send({ type: "user.editProject" });
    const reply = ide.handle(request("/close", "post", {}, form), { id: "c" });
    await waitForDialog(ide, "closeWindow");
    ide.send({ type: "user.decline" });
    expect(await reply).toBe(false);
    expect(ide.getSnapshot().window).toBe("open");
    expect(ide.getSnapshot().project.unsaved).toBe(true);
  });

  it("answers GET /playback/location with the xpath string, no xpath= prefix", async () => {
    const ide = createIde({ document: fixtureDocument() });
    expect(await ide.handle(request("/playback/location", "get", { location: "id=user" }, form), { id: "p" })).toBe(
      "//input[@id='user']",
    );
  });

  it("answers POST /playback/command with true and records the state and message", async () => {
    const ide = createIde({ project: shopProject(), executor: fakeExecutor({ hang: new Set(["open"]) }) });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "running");
    const reply = await ide.handle(
      request("/playback/command", "post", { commandId: "c-user", state: "failed", message: "no such field" }, form),
      { id: "p" },
    );
    expect(reply).toBe(true);
    expect(ide.getSnapshot().playback?.commands.find((c) => c.id === "c-user")).toEqual({
      id: "c-user",
      command: "type",
      target: "id=user",
      value: "alice",
      state: "failed",
      message: "no such field",
    });
  });

  it("answers POST /playback/log with true and writes the message to the playback group", async () => {
    const ide = createIde();
    expect(await ide.handle(request("/playback/log", "post", { message: `step ${form}` }, form), { id: "p" })).toBe(
      true,
    );
    expect(logsOf(ide)).toContainEqual(
      expect.objectContaining({ group: "playback", level: "info", message: `step ${form}`, source: "p" }),
    );
  });
});

describe("uri and verb matching", () => {
  it.each(["/HEALTH", "/Health", "/v1/health", "/V1/HEALTH", "/v1/Health"])("takes %s as GET /health", async (uri) => {
    const ide = createIde();
    await register(ide, "a");
    expect(await ide.handle({ uri, verb: "get" }, { id: "a" })).toBe(true);
  });

  it.each(["GET", "Get", "gEt"])("takes the verb %s as get", async (verb) => {
    const ide = createIde();
    expect(await ide.handle({ uri: "/health", verb }, { id: "a" })).toBe(false);
  });

  it("takes /V1/PLAYBACK/LOG with verb POST as the playback log route", async () => {
    const ide = createIde();
    expect(await ide.handle({ uri: "/V1/PLAYBACK/LOG", verb: "POST", message: "upper" }, { id: "p" })).toBe(true);
    expect(logsOf(ide)).toContainEqual(expect.objectContaining({ group: "playback", message: "upper" }));
  });
});

describe("message objects", () => {
  it("accepts a request object with no prototype", async () => {
    const ide = createIde();
    const message = Object.assign(Object.create(null) as Record<string, unknown>, { uri: "/log", verb: "post", message: "bare" });
    expect(await ide.handle(message, { id: "a" })).toBe(true);
    expect(logsOf(ide).at(-1)).toMatchObject({ message: "bare" });
  });

  it("does not take uri or verb from under payload", async () => {
    const ide = createIde();
    expectError(await ide.handle({ payload: { uri: "/health", verb: "get" } }, { id: "a" }), "InvalidRequest");
  });
});

describe("identity and unknown fields", () => {
  it("ignores a sender field inside the message: the identity is the second argument", async () => {
    const ide = createIde();
    const reply = await ide.handle(
      { uri: "/register", verb: "post", name: "A", version: "1", sender: { id: "impostor" } },
      { id: "real" },
    );
    expect(reply).toBe(true);
    expect(ide.getSnapshot().plugins.map((p) => p.id)).toEqual(["real"]);
    expect(await ide.handle({ uri: "/health", verb: "get", sender: "real" }, { id: "impostor" })).toBe(false);
    expect(await ide.handle({ uri: "/log", verb: "post", message: "m", sender: "impostor" }, { id: "real" })).toBe(true);
    expect(logsOf(ide).at(-1)).toMatchObject({ message: "m", source: "real" });
  });

  it("ignores fields a route does not name", async () => {
    const ide = createIde({ project: shopProject() });
    expect(await ide.handle({ uri: "/health", verb: "get", extra: 1, nested: { a: [1] } }, { id: "a" })).toBe(false);
    expect(await ide.handle({ uri: "/log", verb: "post", message: "m", colour: "red" }, { id: "a" })).toBe(true);
    expect(
      await ide.handle({ uri: "/project", verb: "get", payload: { unexpected: true } }, { id: "a" }),
    ).toEqual(SHOP);
  });

  it("keeps the fields a registration sends that the contract does not name", async () => {
    const ide = createIde();
    const reply = await ide.handle(
      {
        uri: "/register",
        verb: "post",
        payload: {
          name: "A",
          version: "1",
          homepage: "https://example.org/a",
          commands: [{ id: "eyesCheck", name: "check", type: "region", docs: { description: "d" }, icon: "eye.png" }],
          dependencies: { "@example/eyes": "1.2.3" },
          jest: { extraGlobals: ["x"] },
          exports: { languages: ["java"] },
        },
      },
      { id: "a" },
    );
    expect(reply).toBe(true);
    // The view lists only id, name and version; `ide.actor` (section 1) is the only place a
    // registration can be seen in full, so the check is on its serialised context.
    const context = JSON.stringify(ide.actor.getSnapshot().context);
    expect(context).toContain('"homepage":"https://example.org/a"');
    expect(context).toContain('"icon":"eye.png"');
    expect(context).toContain('"extraGlobals":["x"]');
  });
});

describe("GET /health", () => {
  it("answers a strict boolean, never a truthy object", async () => {
    const ide = createIde();
    const before = await ide.handle({ uri: "/health", verb: "get" }, { id: "a" });
    await register(ide, "a");
    const after = await ide.handle({ uri: "/health", verb: "get" }, { id: "a" });
    expect(typeof before).toBe("boolean");
    expect(typeof after).toBe("boolean");
    expect([before, after]).toEqual([false, true]);
  });

  it("answers false again once the window was closed and reopened, since the plugin session ended", async () => {
    const ide = createIde();
    await register(ide, "a");
    ide.send({ type: "user.closeWindow" });
    ide.send({ type: "user.openWindow" });
    expect(await ide.handle({ uri: "/health", verb: "get" }, { id: "a" })).toBe(false);
  });
});

describe("POST /register", () => {
  it("replaces the same sender's entry when it registers again", async () => {
    const ide = createIde();
    expect(await ide.handle({ uri: "/register", verb: "post", name: "First", version: "1" }, { id: "a" })).toBe(true);
    expect(await ide.handle({ uri: "/register", verb: "post", name: "Second", version: "2" }, { id: "a" })).toBe(true);
    expect(ide.getSnapshot().plugins).toEqual([{ id: "a", name: "Second", version: "2", commands: [] }]);
  });

  it("lets a sender re-register with its own command ids", async () => {
    const ide = createIde();
    const commands = [{ id: "eyesCheck", name: "check" }];
    expect(await ide.handle({ uri: "/register", verb: "post", name: "A", version: "1", commands }, { id: "a" })).toBe(true);
    expect(await ide.handle({ uri: "/register", verb: "post", name: "A", version: "2", commands }, { id: "a" })).toBe(true);
    expect(ide.getSnapshot().plugins).toEqual([{ id: "a", name: "A", version: "2", commands: [{ id: "eyesCheck", name: "check", docs: null }] }]);
  });

  it("keeps plugins in the view in registration order", async () => {
    const ide = createIde();
    await register(ide, "b");
    await register(ide, "a");
    expect(ide.getSnapshot().plugins.map((p) => p.id)).toEqual(["b", "a"]);
  });
});

describe("POST /log and POST /playback/log", () => {
  it.each([
    ["error", "error"],
    ["warn", "warn"],
    [null, "info"],
    [undefined, "info"],
  ] as const)("writes type %s at level %s", async (type, level) => {
    const ide = createIde();
    const fields = type === undefined ? { message: "m" } : { type, message: "m" };
    expect(await ide.handle({ uri: "/log", verb: "post", ...fields }, { id: "sys" })).toBe(true);
    expect(await ide.handle({ uri: "/playback/log", verb: "post", payload: fields }, { id: "run" })).toBe(true);
    expect(logsOf(ide).map(({ group, level, message, source }) => ({ group, level, message, source }))).toEqual([
      { group: "system", level, message: "m", source: "sys" },
      { group: "playback", level, message: "m", source: "run" },
    ]);
  });

  it("keeps a log message verbatim, links and markup included", async () => {
    const ide = createIde();
    const message = "see <b>https://example.org/a?b=1</b> and mailto:x@example.org\n\ttrailing  ";
    expect(await ide.handle({ uri: "/log", verb: "post", message }, { id: "a" })).toBe(true);
    expect(logsOf(ide).at(-1)?.message).toBe(message);
  });

  it("gives every log entry an id and a time, oldest first", async () => {
    const ide = createIde();
    await ide.handle({ uri: "/log", verb: "post", message: "one" }, { id: "a" });
    await ide.handle({ uri: "/playback/log", verb: "post", message: "two" }, { id: "a" });
    await ide.handle({ uri: "/log", verb: "post", message: "three" }, { id: "a" });
    const logs = logsOf(ide);
    expect(logs.map((l) => l.message)).toEqual(["one", "two", "three"]);
    expect(new Set(logs.map((l) => l.id)).size).toBe(3);
    for (const entry of logs) expect(typeof entry.at).toBe("number");
  });
});

describe("POST /playback/command", () => {
  it("replaces the old state and its message with a new state", async () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.toggleBreakpoint", commandId: "c-open" });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "paused");
    const command = () => ide.getSnapshot().playback?.commands.find((c) => c.id === "c-open");
    expect(command()).toMatchObject({ state: null, message: null });
    await ide.handle({ uri: "/playback/command", verb: "post", commandId: "c-open", state: "pending", message: "loading" }, { id: "p" });
    expect(command()).toMatchObject({ state: "pending", message: "loading" });
    expect(await ide.handle({ uri: "/playback/command", verb: "post", commandId: "c-open", state: "passed" }, { id: "p" })).toBe(true);
    expect(command()).toMatchObject({ state: "passed", message: null });
  });

  it.each(["failed", "passed", "pending", "undetermined"])("keeps the test case running after state %s", async (state) => {
    const ide = createIde({ project: shopProject(), executor: fakeExecutor({ hang: new Set(["open"]) }) });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "running");
    expect(await ide.handle({ uri: "/playback/command", verb: "post", commandId: "c-pass", state }, { id: "p" })).toBe(true);
    expect(ide.getSnapshot().playback).toMatchObject({ testId: "t-login", running: true, status: "running", currentCommandId: "c-open" });
  });

  it("ends the playback on fatal and keeps the commands' last states in the view", async () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.toggleBreakpoint", commandId: "c2-open" });
    ide.send({ type: "user.startPlayback", testId: "t-cart" });
    await waitForStatus(ide, "paused");
    await ide.handle({ uri: "/playback/command", verb: "post", commandId: "c2-open", state: "passed" }, { id: "p" });
    expect(
      await ide.handle({ uri: "/playback/command", verb: "post", commandId: "c2-add", state: "fatal", message: "gone" }, { id: "p" }),
    ).toBe(true);
    const playback = await waitForStatus(ide, "ended");
    expect(playback).toMatchObject({ testId: "t-cart", testName: "adds to cart", running: false, result: "failed" });
    expect(playback.commands.map((c) => [c.id, c.state, c.message])).toEqual([
      ["c2-open", "passed", null],
      ["c2-add", "fatal", "gone"],
      ["c2-assert", null, null],
    ]);
    expectError(
      await ide.handle({ uri: "/playback/command", verb: "post", commandId: "c2-assert", state: "passed" }, { id: "p" }),
      "NoRunningTest",
    );
  });

  it("ends a running test case on fatal: the command that was executing becomes undetermined", async () => {
    const executor = fakeExecutor({ hang: new Set(["open"]) });
    const ide = createIde({ project: shopProject(), executor });
    ide.send({ type: "user.startPlayback", testId: "t-cart" });
    await waitForStatus(ide, "running");
    expect(await ide.handle({ uri: "/playback/command", verb: "post", commandId: "c2-add", state: "fatal", message: "gone" }, { id: "p" })).toBe(
      true,
    );
    await waitForStatus(ide, "ended");
    expect(ide.getSnapshot().playback?.commands.map((c) => [c.id, c.state])).toEqual([
      ["c2-open", "undetermined"],
      ["c2-add", "fatal"],
      ["c2-assert", null],
    ]);
    expect(executor.aborted).toEqual(["c2-open"]);
  });
});

describe("the open request", () => {
  it("replies true with no uri and opens a closed window with a fresh plugin session", async () => {
    const ide = createIde();
    await register(ide, "a");
    ide.send({ type: "user.closeWindow" });
    expect(ide.getSnapshot().window).toBe("closed");
    expect(await ide.handle({ openIDEIfClosed: true }, { id: "b" })).toBe(true);
    const view = ide.getSnapshot();
    expect(view.window).toBe("open");
    expect(view.plugins).toEqual([]);
    expect(view.control.mode).toBe("notControlled");
    expect(await ide.handle({ uri: "/health", verb: "get" }, { id: "a" })).toBe(false);
  });

  it.each([
    ["openIDEIfClosed at the top level", { openIDEIfClosed: true }],
    ["openIDEIfClosed under payload", { payload: { openIDEIfClosed: true } }],
    ["openSeleniumIDEIfClosed at the top level", { openSeleniumIDEIfClosed: true }],
    ["openSeleniumIDEIfClosed under payload", { payload: { openSeleniumIDEIfClosed: true } }],
  ])("opens a closed window with %s", async (_, message) => {
    const ide = createIde({ window: "closed" });
    expect(await ide.handle(message, { id: "a" })).toBe(true);
    expect(ide.getSnapshot().window).toBe("open");
  });

  it("replies true to the open request when the window is already open, keeping the registered plugins", async () => {
    // README decision: the open request only opens a closed window; an open one is left as it is.
    const ide = createIde();
    await register(ide, "a");
    expect(await ide.handle({ openIDEIfClosed: true }, { id: "b" })).toBe(true);
    expect(ide.getSnapshot().plugins.map((p) => p.id)).toEqual(["a"]);
  });

  it("opens the window and then handles a request that has a uri as usual", async () => {
    const ide = createIde({ window: "closed" });
    expect(await ide.handle({ uri: "/health", verb: "get", openIDEIfClosed: true }, { id: "a" })).toBe(false);
    expect(ide.getSnapshot().window).toBe("open");
    expect(
      await ide.handle({ uri: "/register", verb: "post", payload: { name: "A", version: "1", openSeleniumIDEIfClosed: true } }, { id: "a" }),
    ).toBe(true);
    expect(ide.getSnapshot().plugins.map((p) => p.id)).toEqual(["a"]);
  });

  it("runs the route's own checks after opening the window", async () => {
    const ide = createIde({ window: "closed" });
    expectError(await ide.handle({ uri: "/log", verb: "post", openIDEIfClosed: true }, { id: "a" }), "InvalidRequest");
  });

  it.each([
    ["the string \"true\"", { openIDEIfClosed: "true" }],
    ["the number 1", { openIDEIfClosed: 1 }],
    ["an object", { openIDEIfClosed: { value: true } }],
    ["false", { openSeleniumIDEIfClosed: false }],
    ["a flag nested under payload.payload", { payload: { payload: { openIDEIfClosed: true } } }],
    ["a flag nested under another field", { options: { openIDEIfClosed: true } }],
    ["a differently cased flag", { openideifclosed: true }],
  ])("does not open the window for %s", async (_, flag) => {
    const ide = createIde({ window: "closed" });
    expectError(await ide.handle({ uri: "/health", verb: "get", ...flag }, { id: "a" }), "IdeNotActive");
    expectError(await ide.handle({ ...flag }, { id: "a" }), "InvalidRequest");
    expect(ide.getSnapshot().window).toBe("closed");
  });

  it("keeps the window closed when a request with the flag fails the door checks", async () => {
    // README decision: the open request opens the window only after the door checks pass.
    const ide = createIde({ window: "closed" });
    expectError(await ide.handle({ uri: "/nothing", verb: "get", openIDEIfClosed: true }, { id: "a" }), "NoRoute");
    expectError(await ide.handle({ uri: "/health", verb: "post", openIDEIfClosed: true }, { id: "a" }), "VerbNotAllowed");
    expectError(await ide.handle({ uri: "/health", verb: "get", payload: 1, openIDEIfClosed: true }, { id: "a" }), "InvalidRequest");
    expect(ide.getSnapshot().window).toBe("closed");
    const small = createIde({ window: "closed", limits: { requestBytes: 100 } });
    expectError(
      await small.handle({ uri: "/log", verb: "post", message: "x".repeat(200), openIDEIfClosed: true }, { id: "a" }),
      "PayloadTooLarge",
    );
    expect(small.getSnapshot().window).toBe("closed");
  });

  it("keeps the window closed when the sender of an open request is over its rate", async () => {
    const ide = createIde({ window: "closed", limits: { requestsPerSecond: 0.001, requestBurst: 1 } });
    expectError(await ide.handle({ uri: "/health", verb: "get" }, { id: "a" }), "IdeNotActive");
    expectError(await ide.handle({ openIDEIfClosed: true }, { id: "a" }), "RateLimited");
    expect(ide.getSnapshot().window).toBe("closed");
  });

  it("takes a message with the flag and no uri as the open request whatever its verb", async () => {
    // README decision: "A message with openIDEIfClosed: true and no uri is the open request whatever its verb."
    const ide = createIde({ window: "closed" });
    expect(await ide.handle({ openIDEIfClosed: true, verb: "get" }, { id: "a" })).toBe(true);
    expect(ide.getSnapshot().window).toBe("open");
  });

  it("opens the window for POST /control with the flag and asks the user", async () => {
    const ide = createIde({ window: "closed" });
    const reply = ide.handle({ uri: "/control", verb: "post", name: "C", version: "1", openIDEIfClosed: true }, { id: "c" });
    await vi.waitFor(() => expect(ide.getSnapshot().dialog?.kind).toBe("controlConsent"));
    ide.send({ type: "user.accept" });
    expect(await reply).toBe(true);
    expect(ide.getSnapshot().window).toBe("open");
  });
});
