// The typed plugin client against the real host: what a plugin author relies on is that each
// helper gets its route's reply, replies are never paired with the wrong request, the IDE's
// messages reach the handler and its answer counts, the plugin comes back after the IDE
// forgets it, and every failure to connect or to be answered is a sentence, not a hang.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startHost } from "../../apps/host/host.ts";
import type { Host } from "../../apps/host/host.ts";
import { ConnectionRefusedError, connectPlugin, isErrorReply } from "../../client/index.ts";
import type { ErrorReply, OutboundMessage, PluginClient, Registration } from "../../client/index.ts";
import { exampleCheck, runExamplePlugin } from "../../examples/plugin.ts";
import type { ExamplePlugin } from "../../examples/plugin.ts";
import type { Ide, IdeView } from "../../index.ts";
import { otherProject } from "../support/shared.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const shop = () => JSON.parse(readFileSync(join(ROOT, "examples/shop.side"), "utf8")) as Record<string, unknown>;
const SHOP = { id: "6f1d2c7a-3b0e-4c55-9d0e-1b2a3c4d5e6f", name: "Shop checkout" };
/** A test case of examples/shop.side, as the file has it (and as playbackStarted's `test` carries it). */
const testOf = (id: string) => (shop().tests as Array<{ id: string; name: string }>).find((test) => test.id === id)!;

const REGISTRATION: Registration = { name: "Client test plugin", version: "2.1.0", commands: [{ id: "clientCheck", name: "client check" }] };

let host: Host;
let clients: PluginClient[];
let tmp: string;

beforeEach(async () => {
  host = await startHost({ port: 0, tokenFile: null, project: shop() });
  clients = [];
  tmp = mkdtempSync(join(tmpdir(), "ide-core-client-"));
});

afterEach(async () => {
  await Promise.all(clients.map((client) => client.disconnect()));
  await host.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function connect(id: string): Promise<PluginClient> {
  const client = await connectPlugin({ url: host.urls.plugins, id, token: host.token });
  clients.push(client);
  return client;
}

/** Resolves with the first view (now or later) that satisfies `predicate`. */
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

const dialogOpen = (kind: NonNullable<IdeView["dialog"]>["kind"]) => (view: IdeView) => view.dialog?.kind === kind;

/** The client asks for control and the user accepts. */
async function takeControl(client: PluginClient) {
  const reply = client.control(REGISTRATION);
  await viewWhere(host.ide, dialogOpen("controlConsent"));
  host.ide.send({ type: "user.accept" });
  expect(await reply).toBe(true);
}

function expectErrorReply(reply: unknown, code: string): ErrorReply {
  expect(isErrorReply(reply), JSON.stringify(reply)).toBe(true);
  expect((reply as ErrorReply).errorCode).toBe(code);
  return reply as ErrorReply;
}

/** Collects printed lines; `seen(pattern)` resolves when a line matching it is printed. */
function printedLines() {
  const lines: string[] = [];
  const waiting: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  return {
    lines,
    print(line: string) {
      lines.push(line);
      for (const waiter of [...waiting]) {
        if (waiter.pattern.test(line)) {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    },
    seen(pattern: RegExp): Promise<string> {
      const found = lines.find((line) => pattern.test(line));
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve) => waiting.push({ pattern, resolve }));
    },
  };
}

describe("the route helpers", () => {
  it("answers health, register, the logs, the project and a locator with their routes' replies", async () => {
    const client = await connect("helper-plugin");
    expect(await client.health()).toBe(false);
    expect(await client.register(REGISTRATION)).toBe(true);
    expect(await client.health()).toBe(true);
    expect(host.ide.getSnapshot().plugins).toContainEqual(
      expect.objectContaining({ id: "helper-plugin", name: REGISTRATION.name, version: REGISTRATION.version }),
    );

    expect(await client.log("system entry")).toBe(true);
    expect(await client.log("system warning", "warn")).toBe(true);
    expect(await client.playbackLog("playback error", "error")).toBe(true);
    const logs = host.ide.getSnapshot().logs.filter((entry) => entry.source === "helper-plugin");
    expect(logs.map(({ group, level, message }) => ({ group, level, message }))).toEqual([
      { group: "system", level: "info", message: "system entry" },
      { group: "system", level: "warn", message: "system warning" },
      { group: "playback", level: "error", message: "playback error" },
    ]);

    expect(await client.getProject()).toEqual(SHOP);
    expect(await client.location("id=user")).toBe("//input[@id='user']");
    expect(await client.location("name=password")).toBe("//input[@name='password']");
    expect(expectErrorReply(await client.location("id=nowhere"), "ElementNotFound").error).toContain("nowhere");
    expectErrorReply(await client.location("nostrategy=x"), "InvalidLocator");
  });

  it("declares a locator strategy that GET /playback/location then reads, lists it, and says when another plugin has the name", async () => {
    const client = await connect("strategy-plugin");
    const sku = { name: "sku", css: '[data-sku="{value}"]', attribute: "data-sku" };
    expectErrorReply(await client.declareStrategy(sku), "MissingPlugin");
    expect(await client.register(REGISTRATION)).toBe(true);
    expect(expectErrorReply(await client.declareStrategy({ name: "sku", css: "[data-sku" }), "InvalidRequest").error).toContain("{value}");
    expectErrorReply(await client.location("sku=hat-3"), "InvalidLocator");
    expect(await client.declareStrategy(sku)).toBe(true);
    expect(await client.strategies()).toEqual({ strategies: [{ ...sku, plugin: "strategy-plugin" }] });
    // The element the template finds, by the same xpath a plain css= gives.
    const xpath = await client.location('css=[data-sku="hat-3"]');
    expect(xpath).toMatch(/^\/\/.*button/);
    expect(await client.location("sku=hat-3")).toBe(xpath);
    expectErrorReply(await client.location("sku=no-such-sku"), "ElementNotFound");

    const other = await connect("other-plugin");
    expect(await other.register({ name: "Other", version: "1" })).toBe(true);
    expect(expectErrorReply(await other.declareStrategy({ name: "sku", xpath: "//*[@id='{value}']" }), "StrategyTaken").error).toContain("strategy-plugin");
  });

  it("sets a command's state in the running test case, and says when no test case runs", async () => {
    const client = await connect("state-plugin");
    expectErrorReply(await client.commandState("c-user", "passed"), "NoRunningTest");
    // Paused before its first command (which needs a page, and fails at once here), the run is still running.
    host.ide.send({ type: "user.toggleBreakpoint", commandId: "c-open" });
    host.ide.send({ type: "user.startPlayback", testId: "t-login" });
    await viewWhere(host.ide, (view) => view.playback?.status === "paused");
    expect(await client.commandState("c-user", "passed", "typed alice")).toBe(true);
    expect(await client.commandState("c-pass", "failed")).toBe(true);
    expectErrorReply(await client.commandState("c2-add", "passed"), "UnknownCommand");
    const commands = host.ide.getSnapshot().playback!.commands;
    expect(commands.find((command) => command.id === "c-user")).toMatchObject({ state: "passed", message: "typed alice" });
    expect(commands.find((command) => command.id === "c-pass")).toMatchObject({ state: "failed", message: null });
  });

  it("takes control, loads a project, and closes the IDE, each after the user's answer", async () => {
    const client = await connect("controller-plugin");
    await takeControl(client);
    expect(host.ide.getSnapshot().control).toMatchObject({ mode: "controlled", controller: "controller-plugin" });
    expect(await client.control(REGISTRATION)).toBe(true);

    expect(await client.loadProject(otherProject())).toBe(true);
    expect(host.ide.getSnapshot().project.name).toBe("Search smoke");
    expectErrorReply(await client.loadProject({ name: "no id, no tests" }), "InvalidProject");

    host.ide.send({ type: "user.editProject" });
    const kept = client.loadProject(shop());
    await viewWhere(host.ide, dialogOpen("loadProject"));
    host.ide.send({ type: "user.decline" });
    expect(await kept).toBe(false);

    const keptOpen = client.closeIde();
    await viewWhere(host.ide, dialogOpen("closeWindow"));
    host.ide.send({ type: "user.decline" });
    expect(await keptOpen).toBe(false);
    expect(host.ide.getSnapshot().window).toBe("open");

    const closed = client.closeIde();
    await viewWhere(host.ide, dialogOpen("closeWindow"));
    host.ide.send({ type: "user.accept" });
    expect(await closed).toBe(true);
    expect(host.ide.getSnapshot().window).toBe("closed");
  });

  it("answers a declined control request with false, and POST /close from a non-controller with an error reply", async () => {
    const client = await connect("declined-plugin");
    const reply = client.control(REGISTRATION);
    await viewWhere(host.ide, dialogOpen("controlConsent"));
    host.ide.send({ type: "user.decline" });
    expect(await reply).toBe(false);
    expectErrorReply(await client.closeIde(), "NotControlled");
  });

  it("opens a closed window with the open request, alone or with a request", async () => {
    const client = await connect("opener-plugin");
    host.ide.send({ type: "user.closeWindow" });
    expectErrorReply(await client.health(), "IdeNotActive");
    expect(await client.open()).toBe(true);
    expect(host.ide.getSnapshot().window).toBe("open");

    host.ide.send({ type: "user.closeWindow" });
    expect(await client.open({ uri: "/playback/location", verb: "get", payload: { location: "id=user" } })).toBe("//input[@id='user']");
    expect(host.ide.getSnapshot().window).toBe("open");
  });

  it("resolves with an error reply, never a rejection, for a request the IDE refuses", async () => {
    const client = await connect("plain-plugin");
    expectErrorReply(await client.request({ uri: "/nowhere", verb: "get" }), "NoRoute");
    expectErrorReply(await client.request({ uri: "/health", verb: "patch" }), "InvalidRequest");
    expectErrorReply(await client.request({ uri: "/register", verb: "post", name: "" }), "InvalidRequest");
    expect(await client.request({ uri: "/v1/HEALTH", verb: "GET" })).toBe(false);
  });
});

describe("the displayed test's helpers (CONTRACT section 13)", () => {
  it("reads the displayed test, inserts, changes and deletes its commands, each making the project unsaved", async () => {
    const client = await connect("editor-plugin");
    expect(await client.register(REGISTRATION)).toBe(true);
    const before = await client.getDisplayedTest();
    expect(isErrorReply(before)).toBe(false);
    expect((before as { commands: Array<{ id: string }> }).commands.map((c) => c.id)).toEqual(["c2-open", "c2-add", "c2-assert"]);

    expect(await client.addCommand({ command: "clientCheck", target: "login page", index: 1, select: true })).toBe(true);
    const inserted = host.ide.getSnapshot().selectedCommandId!;
    expect(host.ide.getSnapshot().project.unsaved).toBe(true);
    expect(await client.changeCommand(inserted, { value: "v", targets: [["id=user", "id"]] })).toBe(true);
    expect(await client.deleteCommand("c2-add")).toBe(true);
    const after = (await client.getDisplayedTest()) as { commands: Array<Record<string, unknown>> };
    expect(after.commands.map((c) => c.id)).toEqual(["c2-open", inserted, "c2-assert"]);
    expect(after.commands[1]).toEqual({ id: inserted, command: "clientCheck", target: "login page", value: "v", targets: [["id=user", "id"]] });

    const unknown = expectErrorReply(await client.deleteCommand("c2-add"), "UnknownCommand");
    expect(unknown).toMatchObject({ status: "error", message: unknown.error });
    expectErrorReply(await client.addCommand({ command: "" }), "InvalidRequest");
  });

  it("asks the user with an alert and gets the answer, exports a locator, and hears there is no tab outside the extension", async () => {
    const client = await connect("alert-plugin");
    expect(await client.register(REGISTRATION)).toBe(true);
    const answer = client.alert("Accept the new baseline?", { confirm: "Accept", cancel: "Reject" });
    const view = await viewWhere(host.ide, dialogOpen("pluginAlert"));
    expect(view.dialog).toEqual({
      kind: "pluginAlert",
      requester: "alert-plugin",
      title: "Client test plugin says...",
      text: "Accept the new baseline?",
      confirmLabel: "Accept",
      cancelLabel: "Reject",
    });
    host.ide.send({ type: "user.decline" });
    expect(await answer).toBe(false);

    expect(await client.exportLocation("css=#user")).toBe('By.css("#user")');
    expectErrorReply(await client.exportLocation("nostrategy=x"), "InvalidLocator");
    expect(await client.tabUnderTest()).toEqual({ error: "No active tab found", errorCode: "NoPage" });
  });
});

describe("request ids", () => {
  it("pairs every reply with its own request when hundreds are in flight at once", async () => {
    const client = await connect("busy-plugin");
    const locators = ["id=user", "name=password", "linkText=Help and support"];
    const expected = ["//input[@id='user']", "//input[@name='password']", "//a[contains(text(),'Help and support')]"];
    const asked = Array.from({ length: 300 }, (_, i) =>
      i % 4 === 3 ? client.location(`id=missing-${i}`) : client.location(locators[i % 4]),
    );
    const replies = await Promise.all(asked);
    replies.forEach((reply, i) => {
      if (i % 4 === 3) expect(expectErrorReply(reply, "ElementNotFound").error).toContain(`missing-${i}`);
      else expect(reply, `request ${i}`).toBe(expected[i % 4]);
    });
  });

  it("keeps a plugin's log entries in the order it sent them, without waiting between them", async () => {
    const client = await connect("ordered-plugin");
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => client.playbackLog(`entry ${i}`)));
    expect(replies.every((reply) => reply === true)).toBe(true);
    const messages = host.ide.getSnapshot().logs.filter((entry) => entry.source === "ordered-plugin").map((entry) => entry.message);
    expect(messages).toEqual(Array.from({ length: 200 }, (_, i) => `entry ${i}`));
  });

  it("keeps two connections' replies apart", async () => {
    const [a, b] = await Promise.all([connect("plugin-a"), connect("plugin-b")]);
    expect(await a.register(REGISTRATION)).toBe(true);
    const [healthA, healthB] = await Promise.all([a.health(), b.health()]);
    expect([healthA, healthB]).toEqual([true, false]);
  });
});

describe("outbound messages", () => {
  it("hands projectLoaded, playbackStarted and playbackStopped to the handler", async () => {
    const client = await connect("listening-plugin");
    const received: OutboundMessage[] = [];
    const stoppedSeen = new Promise<void>((resolve) =>
      client.onMessage((message) => {
        received.push(message);
        if (message.event === "playbackStopped") resolve();
      }),
    );
    expect(await client.register(REGISTRATION)).toBe(true);
    host.ide.send({ type: "user.loadProject", project: shop() });
    host.ide.send({ type: "user.toggleBreakpoint", commandId: "c2-open" });
    host.ide.send({ type: "user.startPlayback", testId: "t-cart" });
    await viewWhere(host.ide, (view) => view.playback?.status === "paused");
    host.ide.send({ type: "user.stopPlayback" });
    await stoppedSeen;
    const runId = host.ide.getSnapshot().playback!.runId;
    const test = testOf("t-cart");
    expect(received).toEqual([
      { action: "event", event: "projectLoaded", options: { projectId: SHOP.id, projectName: SHOP.name } },
      { action: "event", event: "playbackStarted", options: { runId, testId: "t-cart", testName: "adds to cart", projectName: SHOP.name, test } },
      { action: "event", event: "playbackStopped", options: { runId, testId: "t-cart", testName: "adds to cart", projectName: SHOP.name } },
    ]);
  });

  it("hands a suite's events to the handler, each test's between suitePlaybackStarted and suitePlaybackStopped", async () => {
    const client = await connect("suite-plugin");
    const received: OutboundMessage[] = [];
    const suiteStopped = new Promise<void>((resolve) =>
      client.onMessage((message) => {
        received.push(message);
        if (message.event === "suitePlaybackStopped") resolve();
      }),
    );
    expect(await client.register(REGISTRATION)).toBe(true);
    host.ide.send({ type: "user.startSuite", suiteId: "s-default" });
    await suiteStopped;
    const runId = host.ide.getSnapshot().playback!.runId;
    const suite = (shop().suites as Array<{ id: string; name: string; tests: string[] }>)[0];
    const perTest = suite.tests.flatMap((testId) => {
      const test = testOf(testId);
      const options = { runId, testId, testName: test.name, suiteName: suite.name, projectName: SHOP.name };
      return [
        { action: "event", event: "playbackStarted", options: { ...options, test } },
        { action: "event", event: "playbackStopped", options },
      ];
    });
    expect(received).toEqual([
      { action: "event", event: "suitePlaybackStarted", options: { runId, tests: suite.tests.map(testOf) } },
      ...perTest,
      { action: "event", event: "suitePlaybackStopped", options: { runId, suiteName: suite.name, projectName: SHOP.name } },
    ]);
  });

  it("saves the project only when the handler's answer is not an error", async () => {
    const client = await connect("saving-plugin");
    await takeControl(client);
    const asked: string[] = [];
    let answer: () => unknown = () => true;
    client.onMessage((message) => {
      // A save first asks every plugin whether it can emit the project (v3's `emit`).
      if (message.event !== undefined) asked.push(message.event);
      if (message.event === "saveProject") {
        expect(message.options.project).toMatchObject({ id: SHOP.id, name: SHOP.name });
        return answer();
      }
    });
    const errorLogs = () => host.ide.getSnapshot().logs.filter((entry) => entry.level === "error").length;

    host.ide.send({ type: "user.editProject" });
    host.ide.send({ type: "user.saveProject" });
    await viewWhere(host.ide, (view) => !view.project.unsaved);
    expect(asked).toEqual(["saveProject"]);

    answer = () => ({ error: "the disk is full" });
    host.ide.send({ type: "user.editProject" });
    host.ide.send({ type: "user.saveProject" });
    await viewWhere(host.ide, (view) => view.logs.filter((entry) => entry.level === "error").length === 1);
    expect(host.ide.getSnapshot().project.unsaved).toBe(true);

    answer = () => {
      throw new Error("no space left");
    };
    host.ide.send({ type: "user.saveProject" });
    await viewWhere(host.ide, (view) => view.logs.filter((entry) => entry.level === "error").length === 2);
    expect(host.ide.getSnapshot().project.unsaved).toBe(true);
    expect(errorLogs()).toBe(2);

    answer = async () => true;
    host.ide.send({ type: "user.saveProject" });
    await viewWhere(host.ide, (view) => !view.project.unsaved);
  });

  it("answers true for the plugin when no handler is subscribed, and stops calling a handler after its unsubscribe", async () => {
    const client = await connect("quiet-plugin");
    await takeControl(client);
    let calls = 0;
    const unsubscribe = client.onMessage(() => {
      calls += 1;
      return { error: "refusing" };
    });
    unsubscribe();
    host.ide.send({ type: "user.editProject" });
    host.ide.send({ type: "user.saveProject" });
    await viewWhere(host.ide, (view) => !view.project.unsaved);
    expect(calls).toBe(0);
  });
});

describe("keepRegistered", () => {
  it("registers at once, and again after the user closes and reopens the window", async () => {
    const client = await connect("looping-plugin");
    let registered = 0;
    let onRegistered: () => void = () => {};
    const refusals: string[] = [];
    let onRefusal: () => void = () => {};
    const nextRegistration = () => new Promise<void>((resolve) => (onRegistered = resolve));

    let first = nextRegistration();
    const stop = client.keepRegistered(REGISTRATION, {
      intervalMs: 10,
      onRegistered: () => {
        registered += 1;
        onRegistered();
      },
      onRefused: (reply, route) => {
        refusals.push(`${route} ${reply.errorCode}`);
        onRefusal();
      },
    });
    await first;
    expect(await client.health()).toBe(true);

    const refused = new Promise<void>((resolve) => (onRefusal = resolve));
    first = nextRegistration();
    host.ide.send({ type: "user.closeWindow" });
    expect(host.ide.getSnapshot().plugins).toEqual([]);
    await refused;
    host.ide.send({ type: "user.openWindow" });
    await first;
    expect(registered).toBe(2);
    expect(refusals).toContain("/health IdeNotActive");
    expect(host.ide.getSnapshot().plugins.map((plugin) => plugin.id)).toEqual(["looping-plugin"]);
    stop();
  });

  it("sends nothing more once stopped", async () => {
    const client = await connect("stopped-plugin");
    let registered = false;
    const stop = client.keepRegistered(REGISTRATION, { intervalMs: 10, onRegistered: () => (registered = true) });
    stop();
    // The loop's first /health is already on its way; had it not stopped, its /register
    // would reach the host before the second of these.
    expect(await client.health()).toBe(false);
    expect(await client.health()).toBe(false);
    expect(registered).toBe(false);
  });

  it("tells the plugin when its loop stops because the host went away", async () => {
    const client = await connect("orphan-plugin");
    const failed = new Promise<Error>((resolve) => client.keepRegistered(REGISTRATION, { intervalMs: 10, onFailed: resolve }));
    await host.close();
    expect((await failed).message).toMatch(/connection to the IDE host closed \(code \d+\); the registration loop stopped/);
  });

  it("refuses an interval that is not a positive number", async () => {
    const client = await connect("hasty-plugin");
    expect(() => client.keepRegistered(REGISTRATION, { intervalMs: 0 })).toThrow(/intervalMs/);
  });
});

describe("connecting", () => {
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error("the connection was not refused");
      },
      (error: unknown) => error as ConnectionRefusedError,
    );

  it("rejects a wrong token with the status 401 and says what to do", async () => {
    const error = await refusal(connectPlugin({ url: host.urls.plugins, id: "intruder", token: "not-the-token" }));
    expect(error).toBeInstanceOf(ConnectionRefusedError);
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/token is wrong or missing/);
    expect(error.message).toMatch(/npm start/);
  });

  it("rejects a plugin id that is connected already with the status 409", async () => {
    await connect("twin-plugin");
    const error = await refusal(connectPlugin({ url: host.urls.plugins, id: "twin-plugin", token: host.token }));
    expect(error.status).toBe(409);
    expect(error.message).toContain('The plugin id "twin-plugin" is already connected');
  });

  it("rejects a plugin id the host cannot use with the status 400, in the host's words", async () => {
    const error = await refusal(connectPlugin({ url: host.urls.plugins, id: "has spaces", token: host.token }));
    expect(error.status).toBe(400);
    expect(error.message).toContain('"has spaces"');
    expect(error.hostReason.length).toBeGreaterThan(0);
  });

  it("rejects a path that takes no plugins with the status 404", async () => {
    const error = await refusal(connectPlugin({ url: `ws://127.0.0.1:${host.port}/elsewhere`, id: "lost", token: host.token }));
    expect(error.status).toBe(404);
    expect(error.message).toContain("/plugins");
  });

  it("says nothing is listening when no host runs at the address", async () => {
    const { port } = host;
    await host.close();
    await expect(connectPlugin({ url: `ws://127.0.0.1:${port}/plugins`, id: "early", token: "t" })).rejects.toThrow(
      /nothing is listening there\. Start it with npm start/,
    );
  });

  it("reads the token from the token file when none is given", async () => {
    const tokenFile = join(tmp, "token");
    writeFileSync(tokenFile, `${host.token}\n`);
    const client = await connectPlugin({ url: host.urls.plugins, id: "file-plugin", tokenFile });
    clients.push(client);
    expect(await client.health()).toBe(false);
  });

  it("says to start the host first when there is no token and no token file", async () => {
    const tokenFile = join(tmp, "missing", "token");
    await expect(connectPlugin({ url: host.urls.plugins, id: "no-token", tokenFile })).rejects.toThrow(
      new RegExp(`token file ${tokenFile.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} does not exist.*npm start first`),
    );
    const empty = join(tmp, "empty");
    writeFileSync(empty, "\n");
    await expect(connectPlugin({ url: host.urls.plugins, id: "no-token", tokenFile: empty })).rejects.toThrow(/is empty/);
  });

  it("refuses missing or malformed arguments before connecting", async () => {
    const url = host.urls.plugins;
    await expect(connectPlugin({ url, id: "" })).rejects.toThrow(/needs `id`/);
    await expect(connectPlugin({ url } as never)).rejects.toThrow(/needs `id`/);
    await expect(connectPlugin({ url, id: "x".repeat(201) })).rejects.toThrow(/at most 200/);
    await expect(connectPlugin({ id: "p" } as never)).rejects.toThrow(/needs `url`/);
    await expect(connectPlugin({ url: "not a url", id: "p" })).rejects.toThrow(/is not a URL/);
    await expect(connectPlugin({ url: `http://127.0.0.1:${host.port}/plugins`, id: "p" })).rejects.toThrow(/must start with ws:\/\//);
  });
});

describe("disconnecting", () => {
  it("rejects a request still waiting for the user when the plugin disconnects, and ends its dialog", async () => {
    const client = await connect("leaving-plugin");
    const waiting = client.control(REGISTRATION);
    const outcome = waiting.catch((error: Error) => error);
    await viewWhere(host.ide, dialogOpen("controlConsent"));
    await client.disconnect();
    expect(await outcome).toBeInstanceOf(Error);
    await expect(waiting).rejects.toThrow(/The plugin disconnected before the IDE host replied to request \d+ \(POST \/control\)/);
    const view = await viewWhere(host.ide, (v) => v.dialog === null);
    expect(view.control.mode).toBe("notControlled");
    expect(client.connected).toBe(false);
    await expect(client.health()).rejects.toThrow(/the connection to the IDE host is closed/);
  });

  it("rejects a waiting request when the host closes the connection", async () => {
    const client = await connect("abandoned-plugin");
    const closes: number[] = [];
    client.onClose(({ code, byPlugin }) => {
      expect(byPlugin).toBe(false);
      closes.push(code);
    });
    const waiting = client.control(REGISTRATION);
    await viewWhere(host.ide, dialogOpen("controlConsent"));
    void host.close();
    await expect(waiting).rejects.toThrow(/connection to the IDE host closed \(code \d+\) before it replied to request \d+ \(POST \/control\)/);
    expect(closes).toHaveLength(1);
  });

  it("frees the plugin id, so the plugin can connect again", async () => {
    const client = await connect("returning-plugin");
    await client.disconnect();
    // The host lets go of the id when its side of the socket closes, which may come a moment later.
    await vi.waitFor(() => expect(host.bridge.connected()).not.toContain("returning-plugin"));
    const again = await connect("returning-plugin");
    expect(await again.health()).toBe(false);
  });
});

describe("the example plugin", () => {
  let plugin: ExamplePlugin | null = null;

  afterEach(async () => {
    await plugin?.stop();
    plugin = null;
  });

  it("registers, logs to both groups, reads the project, resolves a locator, takes control, executes its command in a run and saves", async () => {
    const out = printedLines();
    plugin = await runExamplePlugin({ url: host.urls.plugins, id: "example-plugin", token: host.token, print: out.print, intervalMs: 10, stepMs: 0 });
    await out.seen(/^Registered as "Example plugin" 1\.0\.0\.$/);
    await out.seen(/^Wrote to the system log\.$/);
    await out.seen(/^Wrote to the playback log\.$/);
    await out.seen(/^The project is "Shop checkout" \(id 6f1d2c7a-3b0e-4c55-9d0e-1b2a3c4d5e6f\)\.$/);
    await out.seen(/^The locator id=user is the element \/\/input\[@id='user'\]\.$/);
    await out.seen(/^Declared the locator strategy sku: sku=VALUE finds \[data-sku="\{value\}"\]\.$/);
    await out.seen(/^The locator sku=hat-3 is the element \/\/.*button.*\.$/);
    await out.seen(/^In code, id=user is By\.id\("user"\)\.$/);
    await out.seen(/Restart and allow access/);

    const logs = host.ide.getSnapshot().logs.filter((entry) => entry.source === "example-plugin");
    expect(logs.map((entry) => entry.group)).toEqual(["system", "playback"]);
    for (const entry of logs) expect(entry.message).toMatch(/https:\/\//);
    expect(host.ide.getSnapshot().plugins).toContainEqual(
      expect.objectContaining({ id: "example-plugin", name: "Example plugin", version: "1.0.0" }),
    );

    const consent = await viewWhere(host.ide, dialogOpen("controlConsent"));
    expect(consent.dialog!.text).toContain("example-plugin");
    host.ide.send({ type: "user.accept" });
    await out.seen(/^Control granted.*"checked by the example plugin"/);

    // Then it asks the user, through the IDE, to insert its command into the displayed test.
    await out.seen(/^The displayed test has 3 commands\. Asking the user/);
    const alert = await viewWhere(host.ide, dialogOpen("pluginAlert"));
    expect(alert.dialog).toMatchObject({ requester: "example-plugin", title: "Example plugin says...", confirmLabel: "Add it", cancelLabel: "No, thanks" });
    host.ide.send({ type: "user.selectCommand", commandId: "c2-open" });
    host.ide.send({ type: "user.accept" });
    await out.seen(/^Inserted exampleCheck into the displayed test and selected it/);
    const edited = host.ide.getSnapshot();
    expect(edited.project.unsaved).toBe(true);
    const cart = (await plugin.client.getDisplayedTest()) as { commands: Array<{ id: string; command: string; target: string; value: string }> };
    expect(cart.commands.map((c) => c.command)).toEqual(["open", "exampleCheck", "click", "assertText"]);
    expect(cart.commands[1]).toMatchObject({ id: edited.selectedCommandId, target: "Added by the example plugin", value: "example plugin" });

    // The shipped project's test that uses the plugin's command, run as the UI's "Start" runs it.
    host.ide.send({ type: "user.startPlayback", testId: "t-example" });
    const done = await viewWhere(host.ide, (view) => view.playback?.testId === "t-example" && view.playback.status === "ended");
    expect(done.playback!.result).toBe("passed");
    expect(done.playback!.commands.map(({ id, command, state, message }) => ({ id, command, state, message }))).toEqual([
      { id: "c3-store", command: "store", state: "passed", message: null },
      { id: "c3-title", command: "exampleCheck", state: "passed", message: '"Shop checkout" contains "checkout"' },
      { id: "c3-plugin", command: "exampleCheck", state: "passed", message: '"Example plugin 1.0.0" contains "Example plugin"' },
      { id: "c3-echo", command: "echo", state: "passed", message: null },
    ]);
    expect(done.playback!.variables).toEqual({ title: "Shop checkout", examplePlugin: "Example plugin 1.0.0" });
    const playbackLogs = done.logs.filter((entry) => entry.group === "playback").map((entry) => entry.message);
    expect(playbackLogs).toContain("Example plugin: added variable examplePlugin");
    expect(playbackLogs).toContain("Example plugin 1.0.0 checked Shop checkout");
    await out.seen(/^Test case "checked by the example plugin" started\.$/);
    await out.seen(/^Put the variable examplePlugin = "Example plugin 1\.0\.0" for the run\.$/);
    await out.seen(/^Executed exampleCheck \(command c3-title\): passed: "Shop checkout" contains "checkout"\.$/);
    await out.seen(/^Executed exampleCheck \(command c3-plugin\): passed/);
    await out.seen(/^Test case "checked by the example plugin" stopped\.$/);

    host.ide.send({ type: "user.editProject" });
    host.ide.send({ type: "user.saveProject" });
    await viewWhere(host.ide, (view) => !view.project.unsaved);
    await out.seen(/asked to save the project "Shop checkout".*answered true/);
  });

  it("fails exampleCheck when the target does not contain the value", () => {
    const command = { command: "exampleCheck", target: "Shop checkout", value: "cart" };
    expect(exampleCheck(command)).toEqual({ error: '"Shop checkout" does not contain "cart"' });
    expect(exampleCheck({ ...command, value: "" })).toBe('checked "Shop checkout"');
  });

  it("registers again after the window is closed and reopened", async () => {
    const out = printedLines();
    plugin = await runExamplePlugin({ url: host.urls.plugins, token: host.token, print: out.print, intervalMs: 10, stepMs: 0 });
    await out.seen(/^Registered as/);
    // Its first steps end by asking for control, which would reopen a closed window.
    await viewWhere(host.ide, dialogOpen("controlConsent"));
    host.ide.send({ type: "user.decline" });
    await out.seen(/^Control declined/);
    host.ide.send({ type: "user.closeWindow" });
    await out.seen(/\/health answered IdeNotActive/);
    host.ide.send({ type: "user.openWindow" });
    await out.seen(/^Registered again/);
    expect(host.ide.getSnapshot().plugins.map((entry) => entry.id)).toEqual(["example-plugin"]);
    // The IDE forgot the plugin's strategy with it; it declares it again.
    await vi.waitFor(async () => expect(await plugin!.client.strategies()).toEqual({ strategies: [{ name: "sku", css: '[data-sku="{value}"]', attribute: "data-sku", plugin: "example-plugin" }] }));
  });

  it("runs as npm run example:plugin does, with --url, --id and --token-file, and stops on a signal", async () => {
    const tokenFile = join(tmp, "token");
    writeFileSync(tokenFile, host.token);
    const child = spawn(
      join(ROOT, "node_modules/.bin/tsx"),
      ["examples/plugin.ts", "--url", host.urls.plugins, "--id", "spawned-plugin", "--token-file", tokenFile],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const printed = new Promise<void>((resolve) =>
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes("The locator id=user is the element //input[@id='user'].")) resolve();
      }),
    );
    await Promise.race([printed, exited.then((code) => Promise.reject(new Error(`exited with ${code}: ${stderr}`)))]);
    expect(stdout).toContain('Connecting to ws://127.0.0.1:');
    expect(stdout).toContain('as "spawned-plugin"');
    expect(stdout).toContain('Registered as "Example plugin" 1.0.0.');
    expect(host.ide.getSnapshot().plugins.map((entry) => entry.id)).toContain("spawned-plugin");
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stdout).toContain("Stopping.");
  });
});
