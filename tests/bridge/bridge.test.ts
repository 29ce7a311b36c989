// The plugin bridge on a real host over loopback: frames in, replies out, outbound events
// and their responses, malformed frames, dropped connections, and every refusal.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { get } from "node:http";
import { startHost } from "../../apps/host/host.ts";
import type { Host } from "../../apps/host/host.ts";
import { otherProject, shopProject } from "../support/shared.ts";
import { connectRaw, openSocket, pluginUrl, refusedStatus } from "./support.ts";
import type { RawPlugin } from "./support.ts";

const registration = (name: string) => ({ name, version: "1.0.0" });

let host: Host;
const plugins: RawPlugin[] = [];

async function plugin(id: string) {
  const p = await connectRaw(host, id);
  plugins.push(p);
  return p;
}

beforeEach(async () => {
  host = await startHost({ port: 0, tokenFile: null, project: shopProject(), limits: { deliverTimeoutMs: 2_000 } });
});

afterEach(async () => {
  await Promise.all(plugins.splice(0).map((p) => p.close()));
  await host.close();
});

async function takeControl(p: RawPlugin) {
  const reply = p.request({ uri: "/control", verb: "post", payload: registration("Boss") });
  await vi.waitFor(() => expect(host.ide.getSnapshot().dialog?.kind).toBe("controlConsent"));
  host.ide.send({ type: "user.accept" });
  expect(await reply).toBe(true);
}

function httpStatus(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get({ host: "127.0.0.1", port: host.port, path, headers }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? -1, body }));
    }).on("error", reject);
  });
}

describe("requests over the bridge", () => {
  it("answers every route of the contract, in both request forms", async () => {
    const p = await plugin("ext-one");
    expect(await p.request({ uri: "/health", verb: "get" })).toBe(false);
    expect(await p.request({ uri: "/register", verb: "post", payload: registration("One") })).toBe(true);
    expect(await p.request({ uri: "/health", verb: "get" })).toBe(true);
    expect(await p.request({ uri: "/log", verb: "post", message: "flat form" })).toBe(true);
    expect(await p.request({ uri: "/log", verb: "post", payload: { type: "warn", message: "payload form" } })).toBe(true);
    expect(await p.request({ uri: "/playback/log", verb: "post", payload: { message: "to playback" } })).toBe(true);
    expect(await p.request({ uri: "/project", verb: "get" })).toEqual({
      id: shopProject().id,
      name: shopProject().name,
    });
    expect(await p.request({ uri: "/playback/location", verb: "get", location: "id=user" })).toBe("//input[@id='user']");
    expect(await p.request({ uri: "/playback/command", verb: "post", commandId: "c1", state: "passed" })).toMatchObject({
      errorCode: "NoRunningTest",
    });
    expect(await p.request({ uri: "/project", verb: "post", payload: { project: otherProject() } })).toBe(true);
    expect(host.ide.getSnapshot().project.name).toBe(otherProject().name);
    expect(await p.request({ openIDEIfClosed: true })).toBe(true);
    await takeControl(p);
    expect(await p.request({ uri: "/close", verb: "post" })).toBe(true);
    expect(host.ide.getSnapshot().window).toBe("closed");
    expect(await p.request({ uri: "/health", verb: "get" })).toMatchObject({ errorCode: "IdeNotActive" });

    const logs = host.ide.getSnapshot().logs.filter((l) => l.source === "ext-one");
    expect(logs.map((l) => [l.group, l.level, l.message])).toEqual([
      ["system", "info", "flat form"],
      ["system", "warn", "payload form"],
      ["playback", "info", "to playback"],
    ]);
  });

  it("sets command states while a test case runs", async () => {
    const p = await plugin("ext-runner");
    // The run pauses before its first command (a page command, which fails at once here), so it is still running.
    const first = (shopProject() as { tests: Array<{ commands: Array<{ id: string }> }> }).tests[0].commands[0];
    host.ide.send({ type: "user.toggleBreakpoint", commandId: first.id });
    host.ide.send({ type: "user.startPlayback" });
    await vi.waitFor(() => expect(host.ide.getSnapshot().playback).toMatchObject({ status: "paused", currentCommandId: first.id }));
    expect(await p.request({ uri: "/playback/command", verb: "post", commandId: first.id, state: "failed", message: "no such button" })).toBe(true);
    expect(host.ide.getSnapshot().playback!.commands[0]).toMatchObject({ id: first.id, state: "failed", message: "no such button" });
  });

  it("takes the sender from the connection, never from a field of the frame or the message", async () => {
    const p = await plugin("ext-real");
    p.send({ type: "request", id: "r1", sender: "ext-fake", message: { uri: "/register", verb: "post", sender: { id: "ext-fake" }, ...registration("Real") } });
    expect(await p.next((f) => f.id === "r1")).toEqual({ type: "reply", id: "r1", reply: true });
    expect(host.ide.getSnapshot().plugins.map((x) => x.id)).toEqual(["ext-real"]);
  });

  it("pairs replies with their ids when many requests are in flight at once", async () => {
    const p = await plugin("ext-busy");
    await p.request({ uri: "/register", verb: "post", ...registration("Busy") });
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2 === 0
          ? p.request({ uri: "/playback/location", verb: "get", location: i % 4 === 0 ? "id=user" : "name=password" })
          : p.request({ uri: "/log", verb: "post", message: `entry ${i}` }),
      ),
    );
    replies.forEach((reply, i) => {
      const expected = i % 2 === 1 ? true : i % 4 === 0 ? "//input[@id='user']" : "//input[@name='password']";
      expect(reply, `request ${i}`).toBe(expected);
    });
    const logged = host.ide.getSnapshot().logs.filter((l) => l.source === "ext-busy").map((l) => l.message);
    expect(logged).toEqual(Array.from({ length: 25 }, (_, k) => `entry ${2 * k + 1}`));
  });
});

describe("outbound messages over the bridge", () => {
  it("sends playbackStarted and playbackStopped as event frames to registered plugins", async () => {
    const p = await plugin("ext-listener");
    await p.request({ uri: "/register", verb: "post", ...registration("Listener") });
    host.ide.send({ type: "user.startPlayback" });
    const started = await p.next((f) => f.type === "event");
    expect(started.message).toMatchObject({ action: "event", event: "playbackStarted", options: { projectName: shopProject().name } });
    p.send({ type: "response", id: started.id, response: true });
    host.ide.send({ type: "user.stopPlayback" });
    const stopped = await p.next((f) => f.type === "event");
    expect(stopped.message).toMatchObject({ event: "playbackStopped" });
    expect(stopped.id).not.toBe(started.id);
  });

  it("carries execute in an event frame, and the response frame's response is the command's answer (none is undefined)", async () => {
    const p = await plugin("ext-commands");
    await p.request({ uri: "/register", verb: "post", name: "Raw commands", version: "1.0.0", commands: [{ id: "rawCheck", name: "raw check" }] });
    const rawCommand = (id: string, target: string) => ({ id, command: "rawCheck", target, value: "v" });
    const project = {
      id: "p-raw",
      name: "Raw commands",
      tests: [{ id: "t-raw", name: "raw", commands: [rawCommand("r1", "first"), rawCommand("r2", "second"), rawCommand("r3", "third")] }],
    };
    expect(await p.request({ uri: "/project", verb: "post", project })).toBe(true);
    const isEvent = (name: string) => (f: Record<string, unknown>) => f.type === "event" && (f.message as { event?: string }).event === name;
    const isExecute = (f: Record<string, unknown>) => f.type === "event" && (f.message as { action: string }).action === "execute";
    const commands = () => host.ide.getSnapshot().playback!.commands.map(({ id, state, message }) => ({ id, state, message }));

    host.ide.send({ type: "user.startPlayback", testId: "t-raw" });
    const started = await p.next(isEvent("playbackStarted"));
    const runId = (started.message as { options: { runId: string } }).options.runId;
    p.send({ type: "response", id: started.id, response: true });

    const first = await p.next(isExecute);
    expect(first.message).toEqual({
      action: "execute",
      command: { command: "rawCheck", target: "first", value: "v" },
      options: {
        runId,
        testId: "t-raw",
        originalTestId: "t-raw",
        commandId: "r1",
        isNested: false,
        assertionsDisabled: false,
        tabId: null,
        windowId: null,
        frameId: null,
      },
    });
    p.send({ type: "response", id: first.id, response: "looked fine" });
    const second = await p.next(isExecute);
    expect((second.message as { options: { commandId: string } }).options.commandId).toBe("r2");
    // JSON has no undefined: a plugin that answers undefined sends the frame without `response`.
    p.send({ type: "response", id: second.id });
    const stopped = await p.next(isEvent("playbackStopped"));
    p.send({ type: "response", id: stopped.id, response: true });
    await vi.waitFor(() => expect(host.ide.getSnapshot().playback?.status).toBe("ended"));
    expect(commands()).toEqual([
      { id: "r1", state: "passed", message: "looked fine" },
      // "did not respond" with no reason: read as the answer undefined, not as a time-out.
      { id: "r2", state: "fatal", message: "Raw commands did not respond" },
      { id: "r3", state: null, message: null },
    ]);

    host.ide.send({ type: "user.startPlayback", testId: "t-raw" });
    const again = await p.next(isEvent("playbackStarted"));
    p.send({ type: "response", id: again.id, response: true });
    const nulled = await p.next(isExecute);
    p.send({ type: "response", id: nulled.id, response: null });
    const stoppedAgain = await p.next(isEvent("playbackStopped"));
    p.send({ type: "response", id: stoppedAgain.id, response: true });
    await vi.waitFor(() => expect(host.ide.getSnapshot().playback).toMatchObject({ status: "ended", result: "failed" }));
    expect(commands()[0]).toEqual({ id: "r1", state: "fatal", message: "Raw commands did not respond" });

    // Every response frame was taken: no InvalidFrame error came back for any of them.
    expect(await p.request({ uri: "/health", verb: "get" })).toBe(true);
    expect(p.buffered().filter((f) => f.type === "error")).toEqual([]);
  });

  it("counts the project saved once the controller's response to saveProject arrives", async () => {
    const p = await plugin("ext-boss");
    await takeControl(p);
    host.ide.send({ type: "user.editProject" });
    host.ide.send({ type: "user.saveProject" });
    const save = await p.next((f) => f.type === "event" && (f.message as { event: string }).event === "saveProject");
    expect((save.message as { options: { project: { id: string } } }).options.project.id).toBe(shopProject().id);
    expect(host.ide.getSnapshot().project.unsaved).toBe(true);
    p.send({ type: "response", id: save.id, response: true });
    await vi.waitFor(() => expect(host.ide.getSnapshot().project.unsaved).toBe(false));
  });

  it("keeps the changes unsaved when the controller answers saveProject with an error", async () => {
    const p = await plugin("ext-boss");
    await takeControl(p);
    host.ide.send({ type: "user.editProject" });
    host.ide.send({ type: "user.saveProject" });
    const save = await p.next((f) => f.type === "event" && (f.message as { event: string }).event === "saveProject");
    p.send({ type: "response", id: save.id, response: { error: "disk full" } });
    await vi.waitFor(() => expect(host.ide.getSnapshot().logs.at(-1)?.message).toContain("disk full"));
    expect(host.ide.getSnapshot().project.unsaved).toBe(true);
  });
});

describe("malformed frames", () => {
  const cases: Array<[string, unknown, unknown]> = [
    ["text that is not JSON", "{nope", null],
    ["JSON that is not an object", "[1,2]", null],
    ["a frame of an unknown type", { type: "hello", id: 7 }, 7],
    ["a request without an id", { type: "request", message: { uri: "/health", verb: "get" } }, null],
    ["a request whose id is an object", { type: "request", id: { a: 1 }, message: {} }, null],
    ["a response to no event", { type: "response", id: "e999", response: true }, "e999"],
  ];

  it.each(cases)("answers %s with an InvalidFrame error frame and stays usable", async (_name, frame, id) => {
    const p = await plugin("ext-clumsy");
    p.send(frame);
    const error = await p.next((f) => f.type === "error");
    expect(error).toMatchObject({ type: "error", id, errorCode: "InvalidFrame" });
    expect(typeof error.error).toBe("string");
    expect(await p.request({ uri: "/health", verb: "get" })).toBe(false);
  });

  it("answers a binary frame with an error frame", async () => {
    const p = await plugin("ext-binary");
    p.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await p.next((f) => f.type === "error")).toMatchObject({ errorCode: "InvalidFrame", id: null });
    expect(await p.request({ uri: "/health", verb: "get" })).toBe(false);
  });

  it("refuses a request id that is still waiting for its reply, and answers the first", async () => {
    const p = await plugin("ext-twice");
    p.send({ type: "request", id: "same", message: { uri: "/control", verb: "post", ...registration("Twice") } });
    await vi.waitFor(() => expect(host.ide.getSnapshot().dialog?.kind).toBe("controlConsent"));
    p.send({ type: "request", id: "same", message: { uri: "/health", verb: "get" } });
    expect(await p.next((f) => f.type === "error")).toMatchObject({ id: "same", errorCode: "InvalidFrame" });
    host.ide.send({ type: "user.decline" });
    expect(await p.next((f) => f.type === "reply")).toEqual({ type: "reply", id: "same", reply: false });
  });

  it("answers a message the protocol refuses with an ordinary error reply", async () => {
    const p = await plugin("ext-wrong");
    expect(await p.request({ uri: "/nowhere", verb: "get" })).toMatchObject({ errorCode: "NoRoute" });
    expect(await p.request("just a string")).toMatchObject({ errorCode: "InvalidRequest" });
  });
});

describe("a dropped connection", () => {
  it("ends its consent dialog as declined and changes nothing else", async () => {
    const bystander = await plugin("ext-bystander");
    await bystander.request({ uri: "/register", verb: "post", ...registration("Bystander") });
    host.ide.send({ type: "user.editProject" });
    const asker = await plugin("ext-asker");
    asker.send({ type: "request", id: 1, message: { uri: "/control", verb: "post", ...registration("Asker") } });
    await vi.waitFor(() => expect(host.ide.getSnapshot().dialog?.requester).toBe("ext-asker"));
    asker.socket.terminate();
    await vi.waitFor(() => expect(host.ide.getSnapshot().dialog).toBeNull());
    const view = host.ide.getSnapshot();
    expect(view.control.mode).toBe("notControlled");
    expect(view.project).toMatchObject({ id: shopProject().id, unsaved: true });
    expect(view.plugins.map((x) => x.id)).toEqual(["ext-bystander"]);
    expect(await bystander.request({ uri: "/health", verb: "get" })).toBe(true);
  });

  it("keeps the unsaved changes when it drops while its load waits for the user", async () => {
    const loader = await plugin("ext-loader");
    await loader.request({ uri: "/register", verb: "post", ...registration("Loader") });
    host.ide.send({ type: "user.editProject" });
    loader.send({ type: "request", id: 1, message: { uri: "/project", verb: "post", project: otherProject() } });
    await vi.waitFor(() => expect(host.ide.getSnapshot().dialog?.kind).toBe("loadProject"));
    loader.socket.terminate();
    await vi.waitFor(() => expect(host.ide.getSnapshot().dialog).toBeNull());
    expect(host.ide.getSnapshot().project).toMatchObject({ name: shopProject().name, unsaved: true });
  });

  it("ends its control, and outbound messages to it fail at once with a warning", async () => {
    const boss = await plugin("ext-boss");
    await takeControl(boss);
    boss.socket.terminate();
    await vi.waitFor(() => expect(host.ide.getSnapshot().control.mode).toBe("notControlled"));
    expect(host.bridge.connected()).toEqual([]);
    host.ide.send({ type: "user.startPlayback" });
    // The run ends by itself (its first command needs a page): both of its events fail to reach the plugin.
    const undelivered = () =>
      host.ide
        .getSnapshot()
        .logs.filter((l) => l.level === "warn" && /message to ext-boss was not delivered: .*not connected/.test(l.message))
        .map((l) => l.message.match(/The (\w+) message/)?.[1]);
    await vi.waitFor(() => expect(undelivered()).toEqual(["playbackStarted", "playbackStopped"]));
  });

  it("frees its plugin id for the next connection", async () => {
    const first = await plugin("ext-again");
    await first.close();
    await vi.waitFor(() => expect(host.bridge.connected()).toEqual([]));
    const second = await plugin("ext-again");
    expect(await second.request({ uri: "/health", verb: "get" })).toBe(false);
  });
});

describe("who may connect", () => {
  it("refuses a plugin connection without a token", async () => {
    const refused = await refusedStatus(pluginUrl(host, "ext-x", null));
    expect(refused.status).toBe(401);
    expect(refused.text).toMatch(/no token/);
  });

  it("refuses a plugin connection with a wrong token", async () => {
    expect((await refusedStatus(pluginUrl(host, "ext-x", "not-the-token"))).status).toBe(401);
  });

  it("refuses a Host header other than 127.0.0.1 or localhost with the port (DNS rebinding)", async () => {
    const refused = await refusedStatus(pluginUrl(host, "ext-x"), { headers: { Host: `evil.example:${host.port}` } });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("evil.example");
    expect((await httpStatus(`/?token=${host.token}`, { Host: `evil.example:${host.port}` })).status).toBe(403);
  });

  it("accepts localhost with the port as the Host", async () => {
    const socket = await openSocket(pluginUrl(host, "ext-local"), { headers: { Host: `localhost:${host.port}` } });
    socket.close();
  });

  it("refuses a browser Origin other than the host's own page", async () => {
    const refused = await refusedStatus(pluginUrl(host, "ext-x"), { origin: "https://evil.example" });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("evil.example");
    const own = await openSocket(pluginUrl(host, "ext-own-page"), { origin: `http://127.0.0.1:${host.port}` });
    own.close();
  });

  it("refuses a second connection claiming a plugin id that is connected, and keeps the first", async () => {
    const first = await plugin("ext-taken");
    const refused = await refusedStatus(pluginUrl(host, "ext-taken"));
    expect(refused.status).toBe(409);
    expect(refused.text).toContain("ext-taken");
    expect(await first.request({ uri: "/health", verb: "get" })).toBe(false);
  });

  it("refuses a plugin connection that does not say who it is", async () => {
    expect((await refusedStatus(pluginUrl(host, null))).status).toBe(400);
    expect((await refusedStatus(pluginUrl(host, "has space"))).status).toBe(400);
  });

  it("refuses the UI's socket without the token or from another site", async () => {
    expect((await refusedStatus(pluginUrl(host, null, null, "/ui"))).status).toBe(401);
    expect((await refusedStatus(pluginUrl(host, null, host.token, "/ui"), { origin: "http://evil.example" })).status).toBe(403);
  });

  it("serves the UI page only with the token", async () => {
    expect((await httpStatus("/")).status).toBe(401);
    expect((await httpStatus("/?token=wrong")).status).toBe(401);
    const page = await httpStatus(`/?token=${host.token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(host.token);
  });
});
