// CONTRACT section 13 through handle(): the displayed test's routes (GET/POST/PUT/DELETE
// /record/command), GET /record/tab, POST /popup/alert and GET /export/location, each in
// both request forms and with `payload: null`, with every error they give.
import { describe, expect, it } from "vitest";
import {
  createIde,
  expectError,
  fakeExecutor,
  logsOf,
  recordingDeliver,
  register,
  SHOP,
  shopProject,
  takeControl,
  waitForDialog,
  waitForStatus,
  isPending,
} from "./support.ts";
import type { ErrorCode, Ide } from "./support.ts";

/** The two forms of CONTRACT section 2, and the flat form with `payload: null` as real plugins send it. */
const SHAPES = ["flat", "payload", "payload: null"] as const;
type Shape = (typeof SHAPES)[number];

function ask(uri: string, verb: string, fields: Record<string, unknown>, shape: Shape) {
  if (shape === "payload") return { uri, verb, payload: { ...fields } };
  if (shape === "payload: null") return { uri, verb, ...fields, payload: null };
  return { uri, verb, ...fields };
}

const LOGIN_IDS = ["c-open", "c-user", "c-pass", "c-submit", "c-check"];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const commandIds = (ide: Ide) => ide.handle({ uri: "/record/command", verb: "get" }, { id: "a" }).then((r) => (r as { commands: Array<{ id: string }> }).commands.map((c) => c.id));

/** `{ error, errorCode, status: "error", message }`: the anchor's fields beside the contract's. */
function expectAnchoredError(reply: unknown, code: ErrorCode): void {
  const shown = JSON.stringify(reply);
  expect(Object.keys(reply as object).sort(), shown).toEqual(["error", "errorCode", "message", "status"]);
  const { error, errorCode, status, message } = reply as Record<string, unknown>;
  expect(errorCode, shown).toBe(code);
  expect(status, shown).toBe("error");
  expect(typeof error === "string" && error.length > 0, shown).toBe(true);
  expect(message, shown).toBe(error);
}

async function shopWithPlugin(options: Parameters<typeof createIde>[0] = {}): Promise<Ide> {
  const ide = createIde({ project: shopProject(), ...options });
  await register(ide, "a");
  return ide;
}

describe.each(SHAPES)("the /record/command routes, %s", (shape) => {
  it("answer GET with the commands of the displayed test as in the .side file", async () => {
    const ide = await shopWithPlugin();
    const reply = (await ide.handle(ask("/record/command", "get", {}, shape), { id: "a" })) as { commands: unknown[] };
    expect(Object.keys(reply)).toEqual(["commands"]);
    expect(reply.commands).toEqual((shopProject().tests as Array<{ commands: unknown[] }>)[0].commands.map((c) => expect.objectContaining(c as object)));
    ide.send({ type: "user.selectTest", testId: "t-cart" });
    expect(await commandIds(ide)).toEqual(["c2-open", "c2-add", "c2-assert"]);
  });

  it("insert a command at the end with POST, answer true, give it a new id and make the project unsaved", async () => {
    const ide = await shopWithPlugin();
    expect(await ide.handle(ask("/record/command", "post", { command: "eyesCheckWindow", target: "login page" }, shape), { id: "a" })).toBe(true);
    const { commands } = (await ide.handle({ uri: "/record/command", verb: "get" }, { id: "a" })) as { commands: Array<Record<string, string>> };
    expect(commands.slice(0, 5).map((c) => c.id)).toEqual(LOGIN_IDS);
    expect(commands[5]).toEqual({ id: expect.stringMatching(UUID), command: "eyesCheckWindow", target: "login page", value: "" });
    expect(ide.getSnapshot().project.unsaved).toBe(true);
    expect(ide.getSnapshot().selectedCommandId).toBeNull();
  });

  it("insert a command at `index`, and select it when `select` is true", async () => {
    const ide = await shopWithPlugin();
    expect(await ide.handle(ask("/record/command", "post", { command: "echo", value: "v", index: 0, select: true }, shape), { id: "a" })).toBe(true);
    const ids = await commandIds(ide);
    expect(ids.slice(1)).toEqual(LOGIN_IDS);
    expect(ide.getSnapshot().selectedCommandId).toBe(ids[0]);
  });

  it("change only the given fields of a command with PUT, targets as in the .side file", async () => {
    const ide = await shopWithPlugin();
    const targets = [["id=user", "id"], ["css=#user", "css:finder"]];
    expect(await ide.handle(ask("/record/command", "put", { id: "c-user", value: "bob", targets }, shape), { id: "a" })).toBe(true);
    const { commands } = (await ide.handle({ uri: "/record/command", verb: "get" }, { id: "a" })) as { commands: Array<Record<string, unknown>> };
    const before = (shopProject().tests as Array<{ commands: Array<Record<string, unknown>> }>)[0].commands[1];
    expect(commands[1]).toEqual({ ...before, value: "bob", targets });
    expect(commands[1]).toMatchObject({ id: "c-user", command: "type", target: "id=user" });
    expect(ide.getSnapshot().project.unsaved).toBe(true);
  });

  it("remove a command with DELETE", async () => {
    const ide = await shopWithPlugin();
    expect(await ide.handle(ask("/record/command", "delete", { id: "c-pass" }, shape), { id: "a" })).toBe(true);
    expect(await commandIds(ide)).toEqual(["c-open", "c-user", "c-submit", "c-check"]);
    expect(ide.getSnapshot().project.unsaved).toBe(true);
  });

  it("answer NoTestSelected with the anchor's status and message when the project has no test", async () => {
    const ide = createIde();
    await register(ide, "a");
    expectAnchoredError(await ide.handle(ask("/record/command", "get", {}, shape), { id: "a" }), "NoTestSelected");
    expectAnchoredError(await ide.handle(ask("/record/command", "post", { command: "echo" }, shape), { id: "a" }), "NoTestSelected");
    expectAnchoredError(await ide.handle(ask("/record/command", "put", { id: "x", value: "v" }, shape), { id: "a" }), "NoTestSelected");
    expectAnchoredError(await ide.handle(ask("/record/command", "delete", { id: "x" }, shape), { id: "a" }), "NoTestSelected");
    expect(ide.getSnapshot().project.unsaved).toBe(false);
  });

  it("answer UnknownCommand with the anchor's status and message for an id the displayed test lacks", async () => {
    const ide = await shopWithPlugin();
    // c2-open is a command of another test: only the displayed test counts.
    expectAnchoredError(await ide.handle(ask("/record/command", "put", { id: "c2-open", value: "v" }, shape), { id: "a" }), "UnknownCommand");
    expectAnchoredError(await ide.handle(ask("/record/command", "delete", { id: "nope" }, shape), { id: "a" }), "UnknownCommand");
    expect(await commandIds(ide)).toEqual(LOGIN_IDS);
    expect(ide.getSnapshot().project.unsaved).toBe(false);
  });
});

describe("POST /record/command", () => {
  it("inserts after the selected command when no index is given", async () => {
    const ide = await shopWithPlugin();
    ide.send({ type: "user.selectCommand", commandId: "c-user" });
    expect(await ide.handle({ uri: "/record/command", verb: "post", command: "echo" }, { id: "a" })).toBe(true);
    const ids = await commandIds(ide);
    expect(ids.filter((id) => LOGIN_IDS.includes(id))).toEqual(LOGIN_IDS);
    expect(ids.indexOf("c-user")).toBe(1);
    expect(ids[2]).toMatch(UUID);
    // Without `select`, the user's selection stays.
    expect(ide.getSnapshot().selectedCommandId).toBe("c-user");
  });

  it("takes index equal to the number of commands (the end)", async () => {
    const ide = await shopWithPlugin();
    expect(await ide.handle({ uri: "/record/command", verb: "post", command: "echo", index: 5 }, { id: "a" })).toBe(true);
    expect((await commandIds(ide)).slice(0, 5)).toEqual(LOGIN_IDS);
  });

  it.each([
    ["a missing command", {}, "command"],
    ["an empty command", { command: "" }, "command"],
    ["a command that is not a string", { command: 7 }, "command"],
    ["a target that is not a string", { command: "echo", target: 1 }, "target"],
    ["an index that is not a whole number", { command: "echo", index: 1.5 }, "index"],
    ["a negative index", { command: "echo", index: -1 }, "index"],
    ["an index past the end", { command: "echo", index: 6 }, "index"],
    ["a select that is not a boolean", { command: "echo", select: "yes" }, "select"],
  ])("answers InvalidRequest naming the field for %s, and changes nothing", async (_, fields, field) => {
    const ide = await shopWithPlugin();
    const error = expectError(await ide.handle({ uri: "/record/command", verb: "post", ...fields }, { id: "a" }), "InvalidRequest");
    expect(error).toContain(field);
    expect(await commandIds(ide)).toEqual(LOGIN_IDS);
    expect(ide.getSnapshot().project.unsaved).toBe(false);
  });

  it("answers MissingPlugin to a sender that did not register, for every edit", async () => {
    const ide = createIde({ project: shopProject() });
    expectError(await ide.handle({ uri: "/record/command", verb: "post", command: "echo" }, { id: "b" }), "MissingPlugin");
    expectError(await ide.handle({ uri: "/record/command", verb: "put", id: "c-open", value: "v" }, { id: "b" }), "MissingPlugin");
    expectError(await ide.handle({ uri: "/record/command", verb: "delete", id: "c-open" }, { id: "b" }), "MissingPlugin");
    // Reading needs no registration.
    expect(await ide.handle({ uri: "/record/command", verb: "get" }, { id: "b" })).toHaveProperty("commands");
    expect(ide.getSnapshot().project.unsaved).toBe(false);
  });

  it("serves the controller and refuses other plugins while controlled", async () => {
    const ide = createIde({ project: shopProject() });
    await takeControl(ide, "boss");
    expect(await ide.handle({ uri: "/record/command", verb: "post", command: "echo" }, { id: "boss" })).toBe(true);
    expectError(await ide.handle({ uri: "/record/command", verb: "get" }, { id: "other" }), "CannotAccessInControlMode");
  });
});

describe("PUT and DELETE /record/command", () => {
  it.each([
    ["a missing id", { value: "v" }, "id"],
    ["an empty command", { id: "c-open", command: "" }, "command"],
    ["targets that are not pairs", { id: "c-open", targets: [["id=user"]] }, "targets"],
    ["targets that are not an array", { id: "c-open", targets: "id=user" }, "targets"],
  ])("PUT answers InvalidRequest naming the field for %s", async (_, fields, field) => {
    const ide = await shopWithPlugin();
    expect(expectError(await ide.handle({ uri: "/record/command", verb: "put", ...fields }, { id: "a" }), "InvalidRequest")).toContain(field);
    expect(ide.getSnapshot().project.unsaved).toBe(false);
  });

  it("DELETE answers InvalidRequest without an id", async () => {
    const ide = await shopWithPlugin();
    expect(expectError(await ide.handle({ uri: "/record/command", verb: "delete" }, { id: "a" }), "InvalidRequest")).toContain("id");
    expect(await commandIds(ide)).toEqual(LOGIN_IDS);
  });

  it("DELETE of the selected command moves the selection to the next one; of another, keeps it", async () => {
    const ide = await shopWithPlugin();
    ide.send({ type: "user.selectCommand", commandId: "c-pass" });
    expect(await ide.handle({ uri: "/record/command", verb: "delete", id: "c-open" }, { id: "a" })).toBe(true);
    expect(ide.getSnapshot().selectedCommandId).toBe("c-pass");
    expect(await ide.handle({ uri: "/record/command", verb: "delete", id: "c-pass" }, { id: "a" })).toBe(true);
    expect(ide.getSnapshot().selectedCommandId).toBe("c-submit");
  });

  it("a change is what GET /project's project saves: the edit reaches the save port", async () => {
    const saved: unknown[] = [];
    const ide = await shopWithPlugin({ save: async (project) => void saved.push(project) });
    await ide.handle({ uri: "/record/command", verb: "put", id: "c-open", target: "/login" }, { id: "a" });
    ide.send({ type: "user.saveProject" });
    await new Promise((r) => setTimeout(r, 5));
    expect(ide.getSnapshot().project.unsaved).toBe(false);
    const tests = (saved[0] as { tests: Array<{ commands: Array<{ id: string; target: string }> }> }).tests;
    expect(tests[0].commands[0]).toMatchObject({ id: "c-open", target: "/login" });
  });
});

describe("editing the displayed test while a run plays it", () => {
  it("answers Busy to every edit while the displayed test is running, then edits once the run is over", async () => {
    const ide = await shopWithPlugin({ executor: fakeExecutor({ hang: new Set(["type"]) }) });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "running");
    expectError(await ide.handle({ uri: "/record/command", verb: "post", command: "echo" }, { id: "a" }), "Busy");
    expectError(await ide.handle({ uri: "/record/command", verb: "put", id: "c-open", value: "v" }, { id: "a" }), "Busy");
    expectError(await ide.handle({ uri: "/record/command", verb: "delete", id: "c-open" }, { id: "a" }), "Busy");
    // Reading is fine while it plays.
    expect(await commandIds(ide)).toEqual(LOGIN_IDS);
    expect(ide.getSnapshot().project.unsaved).toBe(false);
    ide.send({ type: "user.stopPlayback" });
    await waitForStatus(ide, "ended");
    expect(await ide.handle({ uri: "/record/command", verb: "delete", id: "c-open" }, { id: "a" })).toBe(true);
  });

  it("answers Busy while the run is finishing (its plugins not yet answered playbackStopped)", async () => {
    let release: (value: unknown) => void = () => {};
    const { deliver } = recordingDeliver((_, message) =>
      "event" in message && message.event === "playbackStopped" ? new Promise((r) => (release = r)) : true,
    );
    const ide = await shopWithPlugin({ deliver, executor: fakeExecutor() });
    ide.send({ type: "user.startPlayback" });
    await waitForStatus(ide, "finishing");
    expectError(await ide.handle({ uri: "/record/command", verb: "post", command: "echo" }, { id: "a" }), "Busy");
    release(true);
    await waitForStatus(ide, "ended");
    expect(await ide.handle({ uri: "/record/command", verb: "post", command: "echo" }, { id: "a" })).toBe(true);
  });

  it("edits the displayed test while a run plays another one", async () => {
    const ide = await shopWithPlugin({ executor: fakeExecutor({ hang: new Set(["click"]) }) });
    ide.send({ type: "user.startPlayback", testId: "t-cart" });
    await waitForStatus(ide, "running");
    expect(ide.getSnapshot().displayedTestId).toBe("t-login");
    expect(await ide.handle({ uri: "/record/command", verb: "post", command: "echo" }, { id: "a" })).toBe(true);
    ide.send({ type: "user.selectTest", testId: "t-cart" });
    expectError(await ide.handle({ uri: "/record/command", verb: "post", command: "echo" }, { id: "a" }), "Busy");
    ide.send({ type: "user.stopPlayback" });
  });
});

describe.each(SHAPES)("GET /record/tab, %s", (shape) => {
  it("answers NoPage, No active tab found, without a tab port (outside the browser extension)", async () => {
    const ide = createIde();
    const reply = await ide.handle(ask("/record/tab", "get", {}, shape), { id: "anyone" });
    expectError(reply, "NoPage");
    expect(reply).toEqual({ error: "No active tab found", errorCode: "NoPage" });
  });

  it("answers the tab under test's { id } to any sender, also while another plugin controls", async () => {
    const ide = createIde({ tabUnderTest: async () => ({ id: 42 }) });
    expect(await ide.handle(ask("/record/tab", "get", {}, shape), { id: "anyone" })).toEqual({ id: 42 });
    await takeControl(ide, "boss");
    expect(await ide.handle(ask("/record/tab", "get", {}, shape), { id: "other" })).toEqual({ id: 42 });
  });
});

describe("GET /record/tab's port", () => {
  it.each([
    ["answers null", async () => null],
    ["rejects", async () => Promise.reject(new Error("tabs API gone"))],
    ["answers something that is not a tab", async () => ({ id: "7" }) as unknown as { id: number }],
  ])("gives NoPage when the port %s", async (_, port) => {
    const ide = createIde({ tabUnderTest: port });
    expect(await ide.handle({ uri: "/record/tab", verb: "get" }, { id: "x" })).toEqual({ error: "No active tab found", errorCode: "NoPage" });
  });

  it("gives NoPage when the port does not answer within deliverTimeoutMs", async () => {
    const ide = createIde({ tabUnderTest: () => new Promise(() => {}), limits: { deliverTimeoutMs: 20 } });
    expectError(await ide.handle({ uri: "/record/tab", verb: "get" }, { id: "x" }), "NoPage");
  });
});

describe.each(SHAPES)("POST /popup/alert, %s", (shape) => {
  it("shows the plugin's message as text in a dialog titled NAME says..., and answers true on accept", async () => {
    const ide = await shopWithPlugin();
    const text = '<b>Baseline</b> & "new" <script>x()</script>';
    const reply = ide.handle(ask("/popup/alert", "post", { message: text }, shape), { id: "a" });
    const dialog = await waitForDialog(ide, "pluginAlert");
    expect(dialog).toEqual({ kind: "pluginAlert", requester: "a", title: "Plugin a says...", text, confirmLabel: "OK", cancelLabel: null });
    expect(await isPending(reply)).toBe(true);
    ide.send({ type: "user.accept" });
    expect(await reply).toBe(true);
    expect(ide.getSnapshot().dialog).toBeNull();
  });

  it("gives the plugin's button labels, and answers false on decline", async () => {
    const ide = await shopWithPlugin();
    const reply = ide.handle(ask("/popup/alert", "post", { message: "Accept the new baseline?", confirm: "Accept", cancel: "Reject" }, shape), { id: "a" });
    expect(await waitForDialog(ide, "pluginAlert")).toMatchObject({ confirmLabel: "Accept", cancelLabel: "Reject" });
    ide.send({ type: "user.decline" });
    expect(await reply).toBe(false);
  });
});

describe("POST /popup/alert", () => {
  it("answers Busy while another dialog is open, and the open one goes on", async () => {
    const ide = await shopWithPlugin();
    const control = ide.handle({ uri: "/control", verb: "post", name: "C", version: "1" }, { id: "c" });
    await waitForDialog(ide, "controlConsent");
    expectError(await ide.handle({ uri: "/popup/alert", verb: "post", message: "m" }, { id: "a" }), "Busy");
    expect(ide.getSnapshot().dialog?.kind).toBe("controlConsent");
    ide.send({ type: "user.decline" });
    expect(await control).toBe(false);
  });

  it("answers Busy to a second alert, and to a consent or a load over unsaved changes while it is open", async () => {
    const ide = await shopWithPlugin();
    await register(ide, "b");
    ide.send({ type: "user.editProject" });
    const first = ide.handle({ uri: "/popup/alert", verb: "post", message: "first" }, { id: "a" });
    await waitForDialog(ide, "pluginAlert");
    expectError(await ide.handle({ uri: "/popup/alert", verb: "post", message: "second" }, { id: "b" }), "Busy");
    expectError(await ide.handle({ uri: "/control", verb: "post", name: "C", version: "1" }, { id: "c" }), "Busy");
    expectError(await ide.handle({ uri: "/project", verb: "post", project: shopProject() }, { id: "b" }), "Busy");
    expect(ide.getSnapshot()).toMatchObject({ dialog: { kind: "pluginAlert", text: "first" }, project: { unsaved: true }, control: { mode: "notControlled" } });
    ide.send({ type: "user.accept" });
    expect(await first).toBe(true);
    // The alert is over: a load over unsaved changes asks the user again.
    const load = ide.handle({ uri: "/project", verb: "post", project: shopProject() }, { id: "b" });
    await waitForDialog(ide, "loadProject");
    ide.send({ type: "user.decline" });
    expect(await load).toBe(false);
  });

  it("takes null labels as none: OK and a single button", async () => {
    const ide = await shopWithPlugin();
    const reply = ide.handle({ uri: "/popup/alert", verb: "post", message: "m", confirm: null, cancel: null }, { id: "a" });
    expect(await waitForDialog(ide, "pluginAlert")).toMatchObject({ confirmLabel: "OK", cancelLabel: null });
    ide.send({ type: "user.decline" });
    expect(await reply).toBe(false);
  });

  it("answers IdeNotActive when the window closes before the user answered", async () => {
    const ide = await shopWithPlugin();
    const reply = ide.handle({ uri: "/popup/alert", verb: "post", message: "m" }, { id: "a" });
    await waitForDialog(ide, "pluginAlert");
    ide.send({ type: "user.closeWindow" });
    expectError(await reply, "IdeNotActive");
    ide.send({ type: "user.openWindow" });
    expect(ide.getSnapshot().dialog).toBeNull();
  });

  it("answers IdeNotActive when the controller closes the IDE (no unsaved changes) while the alert is open", async () => {
    const ide = createIde({ project: shopProject() });
    await takeControl(ide, "boss");
    const reply = ide.handle({ uri: "/popup/alert", verb: "post", message: "m" }, { id: "boss" });
    await waitForDialog(ide, "pluginAlert");
    expect(await ide.handle({ uri: "/close", verb: "post" }, { id: "boss" })).toBe(true);
    expectError(await reply, "IdeNotActive");
    expect(ide.getSnapshot()).toMatchObject({ window: "closed", dialog: null });
  });

  it("answers false when the transport loses the plugin that asked", async () => {
    const ide = await shopWithPlugin();
    const reply = ide.handle({ uri: "/popup/alert", verb: "post", message: "m" }, { id: "a" });
    await waitForDialog(ide, "pluginAlert");
    ide.dropSender("someone-else");
    expect(await isPending(reply)).toBe(true);
    ide.dropSender("a");
    expect(await reply).toBe(false);
    expect(ide.getSnapshot().dialog).toBeNull();
  });

  it("answers IdeNotActive when the IDE stops before the user answered", async () => {
    const ide = await shopWithPlugin();
    const reply = ide.handle({ uri: "/popup/alert", verb: "post", message: "m" }, { id: "a" });
    await waitForDialog(ide, "pluginAlert");
    ide.stop();
    expectError(await reply, "IdeNotActive");
  });

  it.each([
    ["a missing message", {}, "message"],
    ["a message that is not a string", { message: 3 }, "message"],
    ["an empty confirm label", { message: "m", confirm: "" }, "confirm"],
    ["a cancel label that is not a string", { message: "m", cancel: false }, "cancel"],
  ])("answers InvalidRequest naming the field for %s, and opens nothing", async (_, fields, field) => {
    const ide = await shopWithPlugin();
    expect(expectError(await ide.handle({ uri: "/popup/alert", verb: "post", ...fields }, { id: "a" }), "InvalidRequest")).toContain(field);
    expect(ide.getSnapshot().dialog).toBeNull();
  });

  it("answers MissingPlugin to a sender that did not register", async () => {
    const ide = createIde();
    expectError(await ide.handle({ uri: "/popup/alert", verb: "post", message: "m" }, { id: "b" }), "MissingPlugin");
    expect(ide.getSnapshot().dialog).toBeNull();
  });

  it("answers PayloadTooLarge for a message over logMessageBytes", async () => {
    const ide = createIde({ limits: { logMessageBytes: 10 } });
    await register(ide, "a");
    expectError(await ide.handle({ uri: "/popup/alert", verb: "post", message: "x".repeat(11) }, { id: "a" }), "PayloadTooLarge");
    expect(ide.getSnapshot().dialog).toBeNull();
  });

  it("is not controlled-only: a registered plugin asks the user while another controls", async () => {
    const ide = createIde();
    await takeControl(ide, "boss");
    // The controller's session holds only the controller: the other plugin registers first, which is controlled-only.
    const reply = ide.handle({ uri: "/popup/alert", verb: "post", message: "from the boss" }, { id: "boss" });
    await waitForDialog(ide, "pluginAlert");
    ide.send({ type: "user.accept" });
    expect(await reply).toBe(true);
    expect(logsOf(ide)).toEqual([]);
  });
});

describe.each(SHAPES)("GET /export/location, %s", (shape) => {
  it.each([
    ["id=user", 'By.id("user")'],
    ["name=password", 'By.name("password")'],
    ["css=form > input.big", 'By.css("form > input.big")'],
    ["xpath=//a[@id='x']", `By.xpath("//a[@id='x']")`],
    ["//main/div[2]", 'By.xpath("//main/div[2]")'],
    ["linkText=Help and support", 'By.linkText("Help and support")'],
    ["link=Help", 'By.linkText("Help")'],
    ["partialLinkText=Help", 'By.partialLinkText("Help")'],
    ['id=a"b\\c\nd', 'By.id("a\\"b\\\\c\\nd")'],
  ])("turns %s into %s", async (location, code) => {
    const ide = createIde();
    expect(await ide.handle(ask("/export/location", "get", { location }, shape), { id: "anyone" })).toBe(code);
  });
});

describe("GET /export/location", () => {
  it("escapes the value as JSON does, so the code reads back the same value", async () => {
    const ide = createIde();
    const value = `it's "quoted" \\ and \u2028 and \t`;
    const code = (await ide.handle({ uri: "/export/location", verb: "get", location: `id=${value}` }, { id: "x" })) as string;
    expect(code.startsWith("By.id(")).toBe(true);
    expect(JSON.parse(code.slice("By.id(".length, -1))).toBe(value);
  });

  it.each(["user", "foo=bar", "css=a[", "xpath=//a[", "id="])("answers InvalidLocator for %s", async (location) => {
    const ide = createIde();
    expectError(await ide.handle({ uri: "/export/location", verb: "get", location }, { id: "x" }), "InvalidLocator");
  });

  it("answers InvalidRequest naming language and the six languages for a language it does not know", async () => {
    const ide = createIde();
    for (const language of ["java", "javascript", null]) {
      const error = expectError(await ide.handle({ uri: "/export/location", verb: "get", location: "id=user", language }, { id: "x" }), "InvalidRequest");
      expect(error).toContain("language");
      expect(error).toContain("python-pytest");
    }
  });

  it.each([
    ["java-junit", "id=user", 'By.id("user")'],
    ["python-pytest", "id=user", 'By.ID, "user"'],
    ["javascript-mocha", "css=#cart .count", 'By.css("#cart .count")'],
    ["ruby-rspec", "name=q", ":name, 'q'"],
    ["csharp-nunit", "linkText=Add to cart", 'By.LinkText("Add to cart")'],
  ])("answers the locator as the %s package writes it", async (language, location, code) => {
    const ide = createIde();
    expect(await ide.handle({ uri: "/export/location", verb: "get", location, language }, { id: "x" })).toBe(code);
  });

  it("answers InvalidLocator with a language too", async () => {
    const ide = createIde();
    expectError(await ide.handle({ uri: "/export/location", verb: "get", location: "foo=bar", language: "java-junit" }, { id: "x" }), "InvalidLocator");
  });

  it("answers InvalidRequest without a location", async () => {
    const ide = createIde();
    expect(expectError(await ide.handle({ uri: "/export/location", verb: "get" }, { id: "x" }), "InvalidRequest")).toContain("location");
  });

  it("is never controlled-only and needs no registration", async () => {
    const ide = createIde({ project: shopProject() });
    await takeControl(ide, "boss");
    expect(await ide.handle({ uri: "/export/location", verb: "get", location: "id=user" }, { id: "other" })).toBe('By.id("user")');
    expect(ide.getSnapshot().project).toEqual({ ...SHOP, unsaved: false, path: null });
  });
});
