// Nothing lost on a crash (CONTRACT round 4), with the real host: `npm start` as a process,
// edits through the plugin bridge and the UI page's socket, the process killed with SIGKILL
// right after the last edit was acknowledged, and a start on the same data folder offering
// "Restore unsaved changes". Each round is a fresh data folder and a random number of edits.
// A run cut off by the crash leaves its trace up to its last commands.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebSocket } from "ws";
import { MANIFEST_FILE, readTraceManifest } from "../../services/traces/index.ts";
import { shopProject } from "../support/shared.ts";
import { killLeftovers, runScript, waitForOutput } from "../support/processes.ts";
import type { Run } from "../support/processes.ts";

afterEach(killLeftovers);

const LIMIT_MS = 20_000;

interface Command {
  command: string;
  target: string;
  value: string;
}
interface UiTest {
  id: string;
  name: string;
  commands: Array<Command & { id: string }>;
}
interface UiState {
  dialog: { kind: string; title: string } | null;
  unsaved: boolean;
  tests: UiTest[];
  logs: Array<{ level: string; message: string }>;
}

const SHOP = shopProject() as unknown as { tests: UiTest[] };

/** A data folder with a project file in it, as a user has. */
function dataFolder() {
  const dir = mkdtempSync(join(tmpdir(), "ide-core-crash-"));
  const projectFile = join(dir, "shop.side");
  writeFileSync(projectFile, JSON.stringify(shopProject()));
  return { dir, projectFile, args: ["--port", "0", "--token-file", join(dir, "token"), "--project", projectFile] };
}

async function startIde(args: string[]): Promise<{ run: Run; host: string; token: string }> {
  const run = runScript("bin/start.ts", args);
  const [, pageUrl] = await waitForOutput(run, /IDE page\s+(\S+)/);
  const url = new URL(pageUrl);
  return { run, host: url.host, token: url.searchParams.get("token")! };
}

/** A socket, its messages heard from the first (the IDE may send them with the upgrade's answer). */
async function opened(url: string, onMessage: (data: unknown) => void): Promise<WebSocket> {
  const socket = new WebSocket(url);
  socket.on("message", onMessage);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${url} did not open`)), LIMIT_MS);
    socket.once("open", () => (clearTimeout(timer), resolve()));
    socket.once("error", reject);
  });
  return socket;
}

/** A plugin on the bridge: each request resolves with its reply. */
async function plugin(host: string, token: string) {
  const waiting = new Map<number, (reply: unknown) => void>();
  const socket = await opened(`ws://${host}/plugins?id=crash-test&token=${token}`, (data) => {
    const message = JSON.parse(String(data)) as { type: string; id: number; reply: unknown };
    if (message.type === "reply") waiting.get(message.id)?.(message.reply);
  });
  let next = 0;
  const ask = (message: Record<string, unknown>) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(() => reject(new Error(`no reply to ${JSON.stringify(message)}`)), LIMIT_MS);
      waiting.set(id, (reply) => (clearTimeout(timer), resolve(reply)));
      socket.send(JSON.stringify({ type: "request", id, message }));
    });
  expect(await ask({ uri: "/register", verb: "post", name: "Crash test", version: "1.0.0" })).toBe(true);
  return { ask, close: () => socket.close() };
}

/** The IDE page's socket: the state its updates give, and user events sent as the page does. */
async function uiPage(host: string, token: string) {
  const state: UiState = { dialog: null, unsaved: false, tests: [], logs: [] };
  let updates = 0;
  const socket = await opened(`ws://${host}/ui?token=${token}`, (data) => {
    const message = JSON.parse(String(data)) as {
      type: string;
      view?: { dialog: UiState["dialog"]; project: { unsaved: boolean } };
      tests?: UiTest[];
      logs?: { entries: UiState["logs"] };
    };
    if (message.type !== "update") return;
    updates++;
    state.dialog = message.view!.dialog;
    state.unsaved = message.view!.project.unsaved;
    if (message.tests) state.tests = message.tests;
    state.logs.push(...(message.logs?.entries ?? []));
  });
  async function until(what: string, done: (state: UiState) => boolean): Promise<UiState> {
    const started = Date.now();
    while (updates === 0 || !done(state)) {
      if (Date.now() - started > LIMIT_MS) throw new Error(`the IDE page never showed ${what}: ${JSON.stringify(state.dialog)} ${JSON.stringify(state.logs)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return state;
  }
  return { send: (event: Record<string, unknown>) => socket.send(JSON.stringify(event)), until, close: () => socket.close() };
}

const commandsOf = (tests: UiTest[], index = 0): Command[] =>
  tests[index].commands.map(({ command, target, value }) => ({ command, target, value }));

/** Kills the host at once, as a crash does, and waits until it is gone. */
async function crash(run: Run) {
  run.child.kill("SIGKILL");
  await run.exited;
}

async function stop(run: Run) {
  run.child.kill("SIGINT");
  expect(await run.exited).toBe(0);
}

/** N random edits of the displayed test through /record/command (adds and changes), each awaited; what the test is then. */
async function randomEdits(ask: (message: Record<string, unknown>) => Promise<unknown>, n: number, round: number): Promise<Command[]> {
  const expected = commandsOf(SHOP.tests);
  const ids = SHOP.tests[0].commands.map((c) => c.id);
  for (let i = 0; i < n; i++) {
    if (Math.random() < 0.8) {
      const command = { command: `echo`, target: `round ${round} edit ${i}`, value: String(Math.random()) };
      expect(await ask({ uri: "/record/command", verb: "post", ...command })).toBe(true);
      expected.push(command);
    } else {
      const at = Math.floor(Math.random() * ids.length);
      const value = `changed in round ${round} edit ${i}`;
      expect(await ask({ uri: "/record/command", verb: "put", id: ids[at], value })).toBe(true);
      expected[at] = { ...expected[at], value };
    }
  }
  return expected;
}

describe("npm start after a crash", () => {
  it("restores every edit acknowledged before a SIGKILL, over several rounds of up to 200 random edits", { timeout: 240_000 }, async () => {
    for (let round = 1; round <= 3; round++) {
      const folder = dataFolder();
      const first = await startIde(folder.args);
      const bridge = await plugin(first.host, first.token);
      const n = 1 + Math.floor(Math.random() * 200);
      const expected = await randomEdits(bridge.ask, n, round);
      await crash(first.run);

      const second = await startIde(folder.args);
      const page = await uiPage(second.host, second.token);
      const shown = await page.until("the restore dialog", (s) => s.dialog?.kind === "restoreUnsaved");
      expect(shown.dialog!.title).toBe("Restore unsaved changes");
      expect(commandsOf(shown.tests)).toEqual(commandsOf(SHOP.tests));
      page.send({ type: "user.accept" });
      const restored = await page.until("the restored project", (s) => s.dialog === null && s.unsaved);
      expect(commandsOf(restored.tests), `round ${round}, ${n} edits`).toEqual(expected);
      page.close();
      await stop(second.run);
    }
  });

  it("restores the user's edit shown in the IDE page when the host is killed right after", { timeout: 60_000 }, async () => {
    const folder = dataFolder();
    const first = await startIde(folder.args);
    const page = await uiPage(first.host, first.token);
    page.send({ type: "user.addTest", name: "written just before the crash" });
    await page.until("the new test", (s) => s.tests.some((t) => t.name === "written just before the crash"));
    await crash(first.run);

    const second = await startIde(folder.args);
    const again = await uiPage(second.host, second.token);
    await again.until("the restore dialog", (s) => s.dialog?.kind === "restoreUnsaved");
    again.send({ type: "user.accept" });
    const restored = await again.until("the restored project", (s) => s.dialog === null && s.unsaved);
    expect(restored.tests.map((t) => t.name)).toEqual([...SHOP.tests.map((t) => t.name), "written just before the crash"]);
    await stop(second.run);
  });

  it("drops the journal when the user declines, and offers nothing at the next start", { timeout: 60_000 }, async () => {
    const folder = dataFolder();
    const first = await startIde(folder.args);
    await randomEdits((await plugin(first.host, first.token)).ask, 5, 0);
    await crash(first.run);

    const second = await startIde(folder.args);
    const page = await uiPage(second.host, second.token);
    await page.until("the restore dialog", (s) => s.dialog?.kind === "restoreUnsaved");
    page.send({ type: "user.decline" });
    const kept = await page.until("the saved project", (s) => s.dialog === null);
    expect(commandsOf(kept.tests)).toEqual(commandsOf(SHOP.tests));
    expect(kept.unsaved).toBe(false);
    await crash(second.run);
    expect(existsSync(join(folder.dir, "journal.json"))).toBe(false);

    const third = await startIde(folder.args);
    const last = await uiPage(third.host, third.token);
    expect((await last.until("the IDE", () => true)).dialog).toBeNull();
    await stop(third.run);
  });

  it("clears the journal when the user says yes to loading another project over the changes", { timeout: 60_000 }, async () => {
    const folder = dataFolder();
    const first = await startIde(folder.args);
    const page = await uiPage(first.host, first.token);
    page.send({ type: "user.addTest", name: "to be discarded" });
    await page.until("the edit", (s) => s.unsaved);
    expect(existsSync(join(folder.dir, "journal.json"))).toBe(true);
    page.send({ type: "user.loadProject", project: { ...shopProject(), name: "Another" } });
    await page.until("the load dialog", (s) => s.dialog?.kind === "loadProject");
    page.send({ type: "user.accept" });
    await page.until("the loaded project", (s) => s.dialog === null && !s.unsaved);
    expect(existsSync(join(folder.dir, "journal.json"))).toBe(false);
    await crash(first.run);

    const second = await startIde(folder.args);
    expect((await (await uiPage(second.host, second.token)).until("the IDE", () => true)).dialog).toBeNull();
    await stop(second.run);
  });

  it("keeps the trace of a run cut off by a SIGKILL up to its last commands, and the next start lists it as not ended", { timeout: 90_000 }, async () => {
    const site = createServer((_, res) => res.end("<!doctype html><title>Shop</title><h1>shop</h1>"));
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    try {
      const folder = dataFolder();
      const command = (id: string, name: string, target: string, value = "") => ({ id, comment: "", command: name, target, targets: [], value });
      const test = {
        id: "t-cut",
        name: "cut off",
        commands: [command("c1", "open", "/"), command("c2", "assertText", "css=h1", "shop"), command("c3", "echo", "last before the crash"), command("c4", "pause", "60000")],
      };
      const project = { ...shopProject(), url: `http://127.0.0.1:${(site.address() as AddressInfo).port}`, tests: [test], suites: [] };
      writeFileSync(folder.projectFile, JSON.stringify(project));
      const first = await startIde(folder.args);
      const page = await uiPage(first.host, first.token);
      await page.until("the project", (s) => s.tests.some((t) => t.name === "cut off"));
      page.send({ type: "user.startPlayback" });
      // The trace on disk as the run plays: the crash comes once it holds the commands before the pause.
      const traces = join(folder.dir, "traces");
      const onDisk = () => {
        for (const id of existsSync(traces) ? readdirSync(traces) : []) {
          try {
            const read = readTraceManifest(JSON.parse(readFileSync(join(traces, id, MANIFEST_FILE), "utf8")));
            if (read.ok) return read.manifest;
          } catch {
            // not written yet, or being written
          }
        }
        return null;
      };
      await expect.poll(() => onDisk()?.steps.filter((step) => step.state === "passed").length, { timeout: LIMIT_MS }).toBe(3);
      await crash(first.run);
      const cut = onDisk()!;
      expect(cut).toMatchObject({ testName: "cut off", result: null, endedAt: null });
      expect(cut.steps.map((step) => step.command)).toEqual(["open", "assertText", "echo", "pause"]);
      expect(existsSync(join(traces, cut.traceId, cut.steps[1].screenshot!))).toBe(true);

      const second = await startIde(folder.args);
      const listed = (await (await fetch(`http://${second.host}/traces?token=${second.token}`)).json()) as { runs: unknown[] };
      expect(listed.runs).toEqual([expect.objectContaining({ traceId: cut.traceId, testName: "cut off", result: null, playing: false, commands: 4 })]);
      await stop(second.run);
    } finally {
      site.close();
    }
  });

  it("moves an unreadable journal aside, names it in an error log and applies nothing of it", { timeout: 60_000 }, async () => {
    const folder = dataFolder();
    const journal = join(folder.dir, "journal.json");
    writeFileSync(journal, '{"format":"ide-core.journal","version":1,"writtenAt":9999999999999,"project":{"id":"x","na');
    const run = await startIde(folder.args);
    const page = await uiPage(run.host, run.token);
    const state = await page.until("the error", (s) => s.logs.some((l) => l.level === "error"));
    const aside = readdirSync(folder.dir).find((name) => name.startsWith("journal.json.unreadable-"));
    expect(aside).toBeDefined();
    expect(existsSync(journal)).toBe(false);
    expect(state.logs.find((l) => l.level === "error")!.message).toContain(join(folder.dir, aside!));
    expect(state.dialog).toBeNull();
    expect(commandsOf(state.tests)).toEqual(commandsOf(SHOP.tests));
    expect(state.unsaved).toBe(false);
    await stop(run.run);
  });
});
