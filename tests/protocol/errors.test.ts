// Every error code of CONTRACT section 3, each reply exactly { error, errorCode }.
import { describe, expect, it } from "vitest";
import {
  CONTROLLED_ONLY,
  createIde,
  expectError,
  fakeExecutor,
  fixtureDocument,
  FORMS,
  logsOf,
  otherProject,
  register,
  registrationOf,
  request,
  ROUTE_CASES,
  SHOP,
  shopProject,
  takeControl,
  waitForDialog,
  waitForStatus,
} from "./support.ts";

describe("InvalidRequest", () => {
  it.each([
    ["undefined", undefined],
    ["null", null],
    ["a number", 42],
    ["a string", "/health"],
    ["a boolean", true],
    ["an array", [{ uri: "/health", verb: "get" }]],
    ["an empty array", []],
  ])("answers InvalidRequest for a message that is %s", async (_, message) => {
    const ide = createIde();
    expectError(await ide.handle(message, { id: "a" }), "InvalidRequest");
  });

  it("answers InvalidRequest for a message with no uri, naming uri", async () => {
    const ide = createIde();
    expect(expectError(await ide.handle({ verb: "get" }, { id: "a" }), "InvalidRequest")).toContain("uri");
  });

  it.each([42, null, true, ["/health"], { path: "/health" }])("answers InvalidRequest for a uri of %j, naming uri", async (uri) => {
    const ide = createIde();
    expect(expectError(await ide.handle({ uri, verb: "get" }, { id: "a" }), "InvalidRequest")).toContain("uri");
  });

  it.each([undefined, "fetch", "patch", "", 1, null, ["get"]])("answers InvalidRequest for a verb of %j, naming verb", async (verb) => {
    const ide = createIde();
    const message = verb === undefined ? { uri: "/health" } : { uri: "/health", verb };
    expect(expectError(await ide.handle(message, { id: "a" }), "InvalidRequest")).toContain("verb");
  });

  it.each(["text", 7, [], [{ message: "x" }], true])("answers InvalidRequest for a payload of %j, naming payload", async (payload) => {
    const ide = createIde();
    const error = expectError(await ide.handle({ uri: "/log", verb: "post", message: "m", payload }, { id: "a" }), "InvalidRequest");
    expect(error).toContain("payload");
  });

  it("answers a field given flat and under payload with different values, naming the field, and logs nothing", async () => {
    const ide = createIde();
    const error = expectError(
      await ide.handle({ uri: "/log", verb: "post", message: "a", payload: { message: "b" } }, { id: "a" }),
      "InvalidRequest",
    );
    expect(error).toContain("message");
    expect(logsOf(ide)).toEqual([]);
  });

  it("accepts a field given flat and under payload with equal values", async () => {
    // Equal structured values count as the same value (deep equality).
    const ide = createIde();
    const commands = [{ id: "x", name: "X" }];
    expect(
      await ide.handle({ uri: "/register", verb: "post", name: "A", version: "1", commands, payload: { commands: [{ id: "x", name: "X" }] } }, { id: "a" }),
    ).toBe(true);
  });

  it.each(FORMS)("names a missing field of a route (%s form)", async (form) => {
    const ide = createIde();
    expect(expectError(await ide.handle(request("/log", "post", {}, form), { id: "a" }), "InvalidRequest")).toContain("message");
    expect(
      expectError(await ide.handle(request("/playback/location", "get", {}, form), { id: "a" }), "InvalidRequest"),
    ).toContain("location");
    expect(
      expectError(await ide.handle(request("/playback/command", "post", { state: "passed" }, form), { id: "a" }), "InvalidRequest"),
    ).toContain("commandId");
    expect(
      expectError(await ide.handle(request("/register", "post", { version: "1" }, form), { id: "a" }), "InvalidRequest"),
    ).toContain("name");
    expect(
      expectError(await ide.handle(request("/control", "post", { name: "C" }, form), { id: "a" }), "InvalidRequest"),
    ).toContain("version");
  });

  it.each(FORMS)("names a mistyped field of a route (%s form)", async (form) => {
    const ide = createIde();
    expect(
      expectError(await ide.handle(request("/log", "post", { message: 42 }, form), { id: "a" }), "InvalidRequest"),
    ).toContain("message");
    expect(
      expectError(await ide.handle(request("/playback/location", "get", { location: ["id=user"] }, form), { id: "a" }), "InvalidRequest"),
    ).toContain("location");
    expect(
      expectError(await ide.handle(request("/playback/command", "post", { commandId: 3, state: "passed" }, form), { id: "a" }), "InvalidRequest"),
    ).toContain("commandId");
    expect(
      expectError(await ide.handle(request("/playback/log", "post", { message: "m", type: 1 }, form), { id: "a" }), "InvalidRequest"),
    ).toContain("type");
    expect(
      expectError(await ide.handle(request("/register", "post", { name: "", version: "1" }, form), { id: "a" }), "InvalidRequest"),
    ).toContain("name");
    expect(
      expectError(await ide.handle(request("/register", "post", { name: "A", version: 1 }, form), { id: "a" }), "InvalidRequest"),
    ).toContain("version");
    expect(
      expectError(await ide.handle(request("/register", "post", { name: "A", version: "1", dependencies: { x: 1 } }, form), { id: "a" }), "InvalidRequest"),
    ).toContain("dependencies");
    expect(
      expectError(await ide.handle(request("/register", "post", { name: "A", version: "1", commands: {} }, form), { id: "a" }), "InvalidRequest"),
    ).toContain("commands");
  });

  it("names an unknown enum value", async () => {
    const ide = createIde();
    expect(
      expectError(await ide.handle({ uri: "/log", verb: "post", type: "info", message: "m" }, { id: "a" }), "InvalidRequest"),
    ).toContain("type");
    expect(
      expectError(await ide.handle({ uri: "/playback/log", verb: "post", type: "debug", message: "m" }, { id: "a" }), "InvalidRequest"),
    ).toContain("type");
    expect(
      expectError(await ide.handle({ uri: "/playback/command", verb: "post", commandId: "c", state: "ok" }, { id: "a" }), "InvalidRequest"),
    ).toContain("state");
    expect(
      expectError(
        await ide.handle({ uri: "/register", verb: "post", name: "A", version: "1", commands: [{ id: "c", name: "C", type: "button" }] }, { id: "a" }),
        "InvalidRequest",
      ),
    ).toContain("type");
  });

  it("answers a registration with duplicate command ids, naming commands, and registers nothing", async () => {
    const ide = createIde();
    const commands = [{ id: "same", name: "one" }, { id: "same", name: "two" }];
    const error = expectError(
      await ide.handle({ uri: "/register", verb: "post", name: "A", version: "1", commands }, { id: "a" }),
      "InvalidRequest",
    );
    expect(error).toContain("commands");
    expect(ide.getSnapshot().plugins).toEqual([]);
  });

  it("answers POST /project without a project, naming project", async () => {
    const ide = createIde();
    await register(ide, "a");
    expect(expectError(await ide.handle({ uri: "/project", verb: "post" }, { id: "a" }), "InvalidRequest")).toContain("project");
  });
});

describe("NoRoute", () => {
  it.each([
    "/nothing",
    "/health/",
    "/v1/health/",
    "/health?x=1",
    "/health#top",
    "/api/health",
    "/v2/health",
    "/v1/v1/health",
    "/v1",
    "/v1/",
    "health",
    "",
    " /health",
    "/playback",
    "/playback/",
    "/private/connect",
    "/PRIVATE/connect",
    "/Private/Connect",
    "/v1/private/connect",
    "/V1/PRIVATE/CONNECT",
    "/private",
    "/private/",
    "/privateThing",
  ])("answers NoRoute for the uri %j, with any verb, and changes nothing", async (uri) => {
    const ide = createIde();
    expectError(await ide.handle({ uri, verb: "post", controller: { id: "a", name: "x" } }, { id: "a" }), "NoRoute");
    expectError(await ide.handle({ uri, verb: "get" }, { id: "a" }), "NoRoute");
    expect(ide.getSnapshot().control.mode).toBe("notControlled");
  });
});

describe("VerbNotAllowed", () => {
  it.each([
    ["/health", "post", ["GET"]],
    ["/health", "delete", ["GET"]],
    ["/register", "get", ["POST"]],
    ["/log", "put", ["POST"]],
    ["/project", "delete", ["GET", "POST"]],
    ["/project", "put", ["GET", "POST"]],
    ["/control", "get", ["POST"]],
    ["/close", "delete", ["POST"]],
    ["/playback/location", "post", ["GET"]],
    ["/playback/command", "get", ["POST"]],
    ["/playback/log", "get", ["POST"]],
  ])("answers VerbNotAllowed to %s with %s, listing the verbs it takes", async (uri, verb, takes) => {
    const ide = createIde();
    const error = expectError(await ide.handle({ uri, verb, message: "m" }, { id: "a" }), "VerbNotAllowed");
    for (const allowed of takes) expect(error.toUpperCase()).toContain(allowed);
    const notTaken = ["GET", "POST", "PUT", "DELETE"].filter((v) => !takes.includes(v));
    // The text lists exactly the verbs taken: none of the others appears as a word except the one sent.
    for (const other of notTaken.filter((v) => v !== verb.toUpperCase())) {
      expect(error.toUpperCase().split(/[^A-Z]+/)).not.toContain(other);
    }
  });
});

describe("IdeNotActive", () => {
  it.each(ROUTE_CASES.filter((r) => r.uri !== "/control"))(
    "answers IdeNotActive to $verb $uri while the window is closed",
    async ({ verb, uri, fields }) => {
      const ide = createIde({ project: shopProject(), window: "closed" });
      expectError(await ide.handle(request(uri, verb, fields), { id: "a" }), "IdeNotActive");
      expect(ide.getSnapshot().window).toBe("closed");
      expect(logsOf(ide)).toEqual([]);
    },
  );

  it("answers every route but POST /control after the user closed the window", async () => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "a");
    ide.send({ type: "user.closeWindow" });
    for (const { verb, uri, fields } of ROUTE_CASES.filter((r) => r.uri !== "/control")) {
      expectError(await ide.handle(request(uri, verb, fields, "payload"), { id: "a" }), "IdeNotActive");
    }
  });

  it("answers a request waiting on the consent dialog when the user closes the window", async () => {
    const ide = createIde();
    const reply = ide.handle({ uri: "/control", verb: "post", name: "C", version: "1" }, { id: "c" });
    await waitForDialog(ide, "controlConsent");
    ide.send({ type: "user.closeWindow" });
    expectError(await reply, "IdeNotActive");
    expect(ide.getSnapshot()).toMatchObject({ window: "closed", dialog: null, control: { mode: "notControlled", controller: null } });
  });

  it("answers a load waiting on the unsaved-changes dialog when the user closes the window, keeping the changes", async () => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "a");
    ide.send({ type: "user.editProject" });
    const reply = ide.handle({ uri: "/project", verb: "post", project: otherProject() }, { id: "a" });
    await waitForDialog(ide, "loadProject");
    ide.send({ type: "user.closeWindow" });
    expectError(await reply, "IdeNotActive");
    expect(ide.getSnapshot().project).toEqual({ ...SHOP, unsaved: true, path: null });
  });

  it("answers a close waiting on the unsaved-changes dialog when the user closes the window", async () => {
    const ide = createIde({ project: shopProject() });
    await takeControl(ide, "c");
    ide.send({ type: "user.editProject" });
    const reply = ide.handle({ uri: "/close", verb: "post" }, { id: "c" });
    await waitForDialog(ide, "closeWindow");
    ide.send({ type: "user.closeWindow" });
    expectError(await reply, "IdeNotActive");
    expect(ide.getSnapshot().project.unsaved).toBe(true);
  });
});

describe("CannotAccessInControlMode", () => {
  it.each(CONTROLLED_ONLY)("answers CannotAccessInControlMode to $verb $uri from a plugin that is not the controller", async ({ verb, uri, fields }) => {
    const ide = createIde({ project: shopProject() });
    await takeControl(ide, "boss");
    for (const form of FORMS) {
      expectError(await ide.handle(request(uri, verb, fields, form), { id: "other" }), "CannotAccessInControlMode");
    }
    expect(ide.getSnapshot()).toMatchObject({
      window: "open",
      control: { mode: "controlled", controller: "boss" },
      project: { ...SHOP, unsaved: false },
      plugins: [{ id: "boss" }],
      logs: [],
    });
  });

  it("lets the controller use every controlled-only route", async () => {
    const ide = createIde({ project: shopProject() });
    await takeControl(ide, "boss");
    expect(await ide.handle({ uri: "/register", verb: "post", name: "Boss", version: "2" }, { id: "boss" })).toBe(true);
    expect(await ide.handle({ uri: "/log", verb: "post", message: "m" }, { id: "boss" })).toBe(true);
    expect(await ide.handle({ uri: "/project", verb: "get" }, { id: "boss" })).toEqual(SHOP);
    expect(await ide.handle({ uri: "/project", verb: "post", project: otherProject() }, { id: "boss" })).toBe(true);
    expect(await ide.handle({ uri: "/close", verb: "post" }, { id: "boss" })).toBe(true);
  });

  it("still serves the never-controlled-only routes to other plugins", async () => {
    const ide = createIde({
      project: shopProject(),
      resolveLocator: async () => "//input[@id='user']",
      executor: fakeExecutor({ hang: new Set(["open"]) }),
    });
    await takeControl(ide, "boss");
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "running");
    expect(await ide.handle({ uri: "/health", verb: "get" }, { id: "other" })).toBe(false);
    expect(await ide.handle({ uri: "/playback/location", verb: "get", location: "id=user" }, { id: "other" })).toBe(
      "//input[@id='user']",
    );
    expect(await ide.handle({ uri: "/playback/command", verb: "post", commandId: "c-open", state: "passed" }, { id: "other" })).toBe(true);
    expect(await ide.handle({ uri: "/playback/log", verb: "post", message: "m" }, { id: "other" })).toBe(true);
    expect(logsOf(ide).at(-1)).toMatchObject({ group: "playback", source: "other" });
  });
});

describe("NotControlled", () => {
  it.each(FORMS)("answers POST /close while not in control mode (%s form) and keeps the window open", async (form) => {
    const ide = createIde();
    await register(ide, "a");
    expectError(await ide.handle(request("/close", "post", {}, form), { id: "a" }), "NotControlled");
    expect(ide.getSnapshot().window).toBe("open");
  });
});

describe("MissingPlugin", () => {
  it.each(FORMS)("answers POST /project from an unregistered sender (%s form) and loads nothing", async (form) => {
    const ide = createIde({ project: shopProject() });
    expectError(await ide.handle(request("/project", "post", { project: otherProject() }, form), { id: "stranger" }), "MissingPlugin");
    expect(ide.getSnapshot().project).toEqual({ ...SHOP, unsaved: false, path: null });
  });
});

describe("CommandConflict", () => {
  it("refuses a registration whose command id another plugin registered, and registers nothing", async () => {
    const ide = createIde();
    expect(
      await ide.handle({ uri: "/register", verb: "post", name: "A", version: "1", commands: [{ id: "check", name: "Check" }] }, { id: "a" }),
    ).toBe(true);
    const before = ide.getSnapshot().plugins;
    const error = expectError(
      await ide.handle(
        { uri: "/register", verb: "post", payload: { name: "B", version: "1", commands: [{ id: "fresh", name: "F" }, { id: "check", name: "C" }] } },
        { id: "b" },
      ),
      "CommandConflict",
    );
    expect(error).toContain("check");
    expect(ide.getSnapshot().plugins).toEqual(before);
    expect(await ide.handle({ uri: "/health", verb: "get" }, { id: "b" })).toBe(false);
    // "fresh" was not registered either: another plugin may take it.
    expect(
      await ide.handle({ uri: "/register", verb: "post", name: "C", version: "1", commands: [{ id: "fresh", name: "F" }] }, { id: "c" }),
    ).toBe(true);
  });

  it("leaves a plugin's earlier registration in place when its new one clashes", async () => {
    const ide = createIde();
    await ide.handle({ uri: "/register", verb: "post", name: "A", version: "1", commands: [{ id: "check", name: "C" }] }, { id: "a" });
    await ide.handle({ uri: "/register", verb: "post", name: "B", version: "1" }, { id: "b" });
    expectError(
      await ide.handle({ uri: "/register", verb: "post", name: "B2", version: "2", commands: [{ id: "check", name: "C" }] }, { id: "b" }),
      "CommandConflict",
    );
    expect(ide.getSnapshot().plugins).toEqual([
      { id: "a", name: "A", version: "1", commands: [{ id: "check", name: "C", docs: null }] },
      { id: "b", name: "B", version: "1", commands: [] },
    ]);
  });
});

describe("InvalidProject", () => {
  it.each([
    ["a project with no tests", { id: "p", name: "P" }, "tests"],
    ["a project with no id", { name: "P", tests: [] }, "id"],
    ["a project whose name is not a string", { id: "p", name: 5, tests: [] }, "name"],
    ["a test with no commands", { id: "p", name: "P", tests: [{ id: "t", name: "T" }] }, "commands"],
    [
      "a command whose id is not a string",
      { id: "p", name: "P", tests: [{ id: "t", name: "T", commands: [{ id: 1, command: "open" }] }] },
      "id",
    ],
    [
      "a command with no command",
      { id: "p", name: "P", tests: [{ id: "t", name: "T", commands: [{ id: "c" }] }] },
      "command",
    ],
    ["a string", "not a project", "project"],
    ["an array", [], "project"],
  ])("answers %s, naming the first problem, and keeps the loaded project", async (_, project, named) => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "a");
    const error = expectError(await ide.handle({ uri: "/project", verb: "post", project }, { id: "a" }), "InvalidProject");
    expect(error).toContain(named);
    expect(ide.getSnapshot().project).toEqual({ ...SHOP, unsaved: false, path: null });
  });

  it("names the path of the first problem deep in the project", async () => {
    const ide = createIde();
    await register(ide, "a");
    const project = shopProject() as { tests: Array<{ commands: Array<Record<string, unknown>> }> };
    project.tests[1].commands[2].command = 7;
    const error = expectError(await ide.handle({ uri: "/project", verb: "post", project }, { id: "a" }), "InvalidProject");
    expect(error).toMatch(/tests\[1\]\.commands\[2\]\.command/);
  });

  it("loads a minimal project, filling the defaults", async () => {
    const ide = createIde();
    await register(ide, "a");
    const project = { id: "min", name: "Minimal", tests: [{ id: "t", name: "T", commands: [{ id: "c", command: "open" }] }] };
    expect(await ide.handle({ uri: "/project", verb: "post", project }, { id: "a" })).toBe(true);
    ide.send({ type: "user.startPlayback" });
    expect(ide.getSnapshot().playback?.commands).toEqual([
      { id: "c", command: "open", target: "", value: "", state: null, message: null },
    ]);
  });
});

describe("Busy", () => {
  it("answers a second load while the unsaved-changes dialog is open, leaving the first waiting", async () => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "a");
    await register(ide, "b");
    ide.send({ type: "user.editProject" });
    const first = ide.handle({ uri: "/project", verb: "post", project: otherProject() }, { id: "a" });
    const dialog = await waitForDialog(ide, "loadProject");
    expectError(await ide.handle({ uri: "/project", verb: "post", project: otherProject() }, { id: "b" }), "Busy");
    expect(ide.getSnapshot().dialog).toEqual(dialog);
    ide.send({ type: "user.decline" });
    expect(await first).toBe(false);
  });

  it("answers POST /control while another dialog is open", async () => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "a");
    ide.send({ type: "user.editProject" });
    const load = ide.handle({ uri: "/project", verb: "post", project: otherProject() }, { id: "a" });
    await waitForDialog(ide, "loadProject");
    expectError(await ide.handle({ uri: "/control", verb: "post", name: "C", version: "1" }, { id: "c" }), "Busy");
    expect(ide.getSnapshot().control.mode).toBe("notControlled");
    ide.send({ type: "user.accept" });
    expect(await load).toBe(true);
  });

  it("answers a second POST /control while the consent dialog is open", async () => {
    const ide = createIde();
    const first = ide.handle({ uri: "/control", verb: "post", name: "C", version: "1" }, { id: "c" });
    await waitForDialog(ide, "controlConsent");
    expectError(await ide.handle({ uri: "/control", verb: "post", name: "D", version: "1" }, { id: "d" }), "Busy");
    expect(ide.getSnapshot().control.candidate).toBe("c");
    ide.send({ type: "user.accept" });
    expect(await first).toBe(true);
    expect(ide.getSnapshot().control.controller).toBe("c");
  });

  it("answers a load over unsaved changes while the consent dialog is open", async () => {
    const ide = createIde({ project: shopProject() });
    await takeControl(ide, "boss");
    ide.send({ type: "user.editProject" });
    const handover = ide.handle({ uri: "/control", verb: "post", name: "New", version: "1" }, { id: "new" });
    await waitForDialog(ide, "controlConsent");
    expectError(await ide.handle({ uri: "/project", verb: "post", project: otherProject() }, { id: "boss" }), "Busy");
    expect(ide.getSnapshot().project).toEqual({ ...SHOP, unsaved: true, path: null });
    ide.send({ type: "user.decline" });
    expect(await handover).toBe(false);
  });

  it("answers POST /close over unsaved changes while the consent dialog is open", async () => {
    const ide = createIde({ project: shopProject() });
    await takeControl(ide, "boss");
    ide.send({ type: "user.editProject" });
    const handover = ide.handle({ uri: "/control", verb: "post", name: "New", version: "1" }, { id: "new" });
    await waitForDialog(ide, "controlConsent");
    expectError(await ide.handle({ uri: "/close", verb: "post" }, { id: "boss" }), "Busy");
    expect(ide.getSnapshot().window).toBe("open");
    ide.send({ type: "user.decline" });
    expect(await handover).toBe(false);
  });
});

describe("NoRunningTest and UnknownCommand", () => {
  it.each(FORMS)("answers a command state with no running test case (%s form)", async (form) => {
    const ide = createIde({ project: shopProject() });
    expectError(
      await ide.handle(request("/playback/command", "post", { commandId: "c-open", state: "passed" }, form), { id: "p" }),
      "NoRunningTest",
    );
    expect(ide.getSnapshot().playback).toBeNull();
  });

  it("answers a command state after the user stopped the test case", async () => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.startPlayback" });
    ide.send({ type: "user.stopPlayback" });
    // Until the plugins heard playbackStopped the run is finishing and still takes states (CONTRACT section 9).
    await waitForStatus(ide, "ended");
    expectError(await ide.handle({ uri: "/playback/command", verb: "post", commandId: "c-open", state: "passed" }, { id: "p" }), "NoRunningTest");
    expect(ide.getSnapshot().playback?.commands.find((c) => c.id === "c-open")?.state).toBeNull();
  });

  it.each(FORMS)("answers a command id that is not in the running test case (%s form), naming it", async (form) => {
    const ide = createIde({ project: shopProject() });
    ide.send({ type: "user.toggleBreakpoint", commandId: "c-open" });
    ide.send({ type: "user.startPlayback", testId: "t-login" });
    await waitForStatus(ide, "paused");
    // c2-open belongs to the other test case of the project.
    const error = expectError(
      await ide.handle(request("/playback/command", "post", { commandId: "c2-open", state: "passed" }, form), { id: "p" }),
      "UnknownCommand",
    );
    expect(error).toContain("c2-open");
    expect(ide.getSnapshot().playback?.commands.every((c) => c.state === null)).toBe(true);
  });
});

describe("InvalidLocator, ElementNotFound and NoPage", () => {
  it("answers NoPage with no document and no resolver", async () => {
    const ide = createIde();
    expectError(await ide.handle({ uri: "/playback/location", verb: "get", location: "id=user" }, { id: "p" }), "NoPage");
  });

  it.each(["bogus=thing", "css=div[[", "xpath=//a[", "id=", "no strategy here"])(
    "answers InvalidLocator for %j before looking for a page",
    async (location) => {
      const ide = createIde();
      expectError(await ide.handle({ uri: "/playback/location", verb: "get", location }, { id: "p" }), "InvalidLocator");
    },
  );

  it("answers ElementNotFound for a valid locator that matches nothing", async () => {
    const ide = createIde({ document: fixtureDocument() });
    expectError(await ide.handle({ uri: "/playback/location", verb: "get", location: "css=.nothing-here" }, { id: "p" }), "ElementNotFound");
  });
});

describe("error replies", () => {
  it("never answers a failure with a bare false or undefined", async () => {
    const ide = createIde({ window: "closed" });
    const messages: unknown[] = [
      null,
      { uri: "/nothing", verb: "get" },
      { uri: "/health", verb: "post" },
      { uri: "/health", verb: "get" },
      { uri: "/close", verb: "post" },
    ];
    for (const message of messages) {
      const reply = await ide.handle(message, { id: "a" });
      expect(reply).not.toBe(false);
      expect(reply).not.toBeUndefined();
      expect(Object.keys(reply as object).sort()).toEqual(["error", "errorCode"]);
    }
  });

  it("changes nothing in the view for a refused request", async () => {
    const ide = createIde({ project: shopProject() });
    await register(ide, "a");
    const before = JSON.stringify(ide.getSnapshot());
    await ide.handle({ uri: "/register", verb: "post", name: "", version: "1" }, { id: "a" });
    await ide.handle({ uri: "/nothing", verb: "get" }, { id: "a" });
    await ide.handle({ uri: "/close", verb: "post" }, { id: "a" });
    await ide.handle({ uri: "/project", verb: "post", project: {} }, { id: "a" });
    expect(JSON.stringify(ide.getSnapshot())).toBe(before);
  });

  it("registers nothing for a registration that fails its checks", async () => {
    const ide = createIde();
    expectError(await ide.handle({ uri: "/register", verb: "post", ...registrationOf(""), extra: 1 }, { id: "a" }), "InvalidRequest");
    expect(ide.getSnapshot().plugins).toEqual([]);
  });
});
