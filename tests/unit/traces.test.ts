// The trace service and the host's trace store (CONTRACT section 17) without a browser: the
// manifest read back whole or not at all, which traces are kept, the store bounded to the last
// runs (and pictures per run) in a temporary folder, the extension's trace mode, and createIde's trace option and port.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tracedExecutor } from "../../drivers/host/tracedExecutor.ts";
import { traceStore } from "../../drivers/host/traceStore.ts";
import { SAVE_EVERY_MS } from "../../drivers/traces/traceStore.ts";
import { runLabel } from "../../ui/traces.ts";
import { createIde } from "../../index.ts";
import { fakeExecutor } from "../support/executor.ts";
import { playAndWait } from "../support/runs.ts";
import { keepsTrace, KEPT_TRACES, listedRuns, locatorOf, MANIFEST_FILE, readTraceManifest, traceIdOf, tracesToDrop } from "../../services/traces/index.ts";
import type { TraceManifest } from "../../services/traces/index.ts";
import { storedTraceMode } from "../../apps/extension/traces.ts";

const JPEG = `data:image/jpeg;base64,${Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]).toString("base64")}`;

/** One test of `commands` page commands told to the store as the core and the traced executor would. */
async function playInto(store: ReturnType<typeof traceStore>, n: number, commands: number, result: "passed" | "failed" = "failed", keep = true) {
  const key = `k${n}`;
  const runId = `run-${n}`;
  store.testStarted({ key, runId, testId: "t", testName: `test ${n}`, suiteName: null, at: Date.now() });
  for (let i = 1; i <= commands; i++) {
    const event = { index: i, commandId: `c${i}`, command: "click", target: "id=add", value: "", message: null, healed: null, at: Date.now() };
    store.command(key, { ...event, phase: "start", state: "pending" });
    store.attach(runId, { image: Promise.resolve(JPEG) });
    store.command(key, { ...event, phase: "end", state: "passed" });
  }
  store.testEnded(key, { result, keep, at: Date.now() });
  return store.finished(runId, "t");
}

describe("the trace service", () => {
  it("keeps every trace with on, only a test that did not pass with retain-on-failure, none with off", () => {
    expect(["passed", "failed", "fatal", "stopped"].map((r) => keepsTrace("on", r as "passed"))).toEqual([true, true, true, true]);
    expect(["passed", "failed", "fatal", "stopped"].map((r) => keepsTrace("retain-on-failure", r as "passed"))).toEqual([false, true, true, true]);
    expect(keepsTrace("off", "failed")).toBe(false);
  });

  it("drops the oldest traces past the bound, and only folders named as traces", () => {
    const ids = Array.from({ length: 25 }, (_, i) => traceIdOf(Date.UTC(2026, 0, 1, 0, 0, i), i + 1));
    expect(tracesToDrop(["notes", ...ids].reverse(), KEPT_TRACES)).toEqual(ids.slice(0, 5));
    expect(tracesToDrop(ids.slice(0, 3))).toEqual([]);
  });

  it("reads a manifest back whole, and names what is wrong with a damaged one", () => {
    expect(readTraceManifest({ format: "ide-core.trace", version: 1 })).toMatchObject({ ok: false, problem: "the trace manifest is not usable: traceId must be a string" });
  });

  it("lists the kept runs newest first, a run still being written once, as it is now", () => {
    const manifest = (n: number, result: TraceManifest["result"]): TraceManifest => ({
      format: "ide-core.trace",
      version: 1,
      traceId: traceIdOf(Date.UTC(2026, 0, 1, 0, 0, n), n),
      runId: `run-${n}`,
      testId: "t",
      testName: `test ${n}`,
      suiteName: null,
      startedAt: 0,
      endedAt: null,
      result,
      steps: [],
      screenshotsDropped: 0,
    });
    const runs = listedRuns([manifest(3, null)], [manifest(1, "passed"), manifest(3, "failed"), manifest(2, "failed")]);
    expect(runs.map((r) => [r.testName, r.result])).toEqual([
      ["test 3", null],
      ["test 2", "failed"],
      ["test 1", "passed"],
    ]);
  });

  it("reads the extension's trace mode from its storage: on unless it names another, and a bad one said and left on", async () => {
    const storage = (stored: Record<string, unknown>) => ({ get: async (key: string) => (key in stored ? { [key]: stored[key] } : {}) });
    expect(await storedTraceMode(storage({}))).toEqual({ mode: "on", problem: null });
    expect(await storedTraceMode(storage({ trace: "retain-on-failure" }))).toEqual({ mode: "retain-on-failure", problem: null });
    expect(await storedTraceMode(storage({ trace: "sometimes" }))).toEqual({
      mode: "on",
      problem: 'The stored trace mode "sometimes" is not "on", "off" or "retain-on-failure": traces stay on.',
    });
  });

  it("names the locator that found a command's element: the healed one, else a target that is a locator", () => {
    expect(locatorOf("id=buy", { locator: "css=.buy" })).toBe("css=.buy");
    expect(locatorOf("id=buy", null)).toBe("id=buy");
    expect(locatorOf("/shop", null)).toBeNull();
  });
});

describe("the host's trace store", () => {
  it("keeps the last 20 of 25 runs, each with its manifest and pictures", async () => {
    const root = mkdtempSync(join(tmpdir(), "ide-core-trace-store-"));
    const store = traceStore({ root });
    const finished = [];
    for (let n = 1; n <= 25; n++) finished.push(await playInto(store, n, 3));
    const kept = readdirSync(root).sort();
    expect(kept).toHaveLength(20);
    expect(kept).toEqual(finished.slice(5).map((f) => f.manifest.traceId));
    for (const { dir } of finished.slice(0, 5)) expect(existsSync(dir!)).toBe(false);
    const last = finished[24];
    const read = readTraceManifest(JSON.parse(readFileSync(join(last.dir!, MANIFEST_FILE), "utf8")));
    expect(read.ok && read.manifest.steps.map((s) => s.screenshot)).toEqual(["00001.jpg", "00002.jpg", "00003.jpg"]);
    expect(readdirSync(last.dir!).sort()).toEqual(["00001.jpg", "00002.jpg", "00003.jpg", MANIFEST_FILE]);
  });

  it("keeps at most the bound of pictures in a run and counts the rest", async () => {
    const root = mkdtempSync(join(tmpdir(), "ide-core-trace-store-"));
    const { manifest, dir } = await playInto(traceStore({ root, maxScreenshots: 4 }), 1, 6);
    expect(manifest.steps.filter((s) => s.screenshot !== null)).toHaveLength(4);
    expect(manifest.screenshotsDropped).toBe(2);
    expect(readdirSync(dir!).filter((f) => f.endsWith(".jpg"))).toHaveLength(4);
  });

  it("stores a picture that several commands share once, each of them naming its file", async () => {
    const root = mkdtempSync(join(tmpdir(), "ide-core-trace-store-"));
    const store = traceStore({ root });
    store.testStarted({ key: "k", runId: "run", testId: "t", testName: "shared", suiteName: null, at: Date.now() });
    let show!: (image: string) => void;
    const later = new Promise<string | null>((resolve) => (show = resolve));
    // Command 1 has a picture of its own; 2, 3 and 4 ended while it was taken and share the next one.
    const images = [Promise.resolve(JPEG), later, later, later];
    images.forEach((image, i) => {
      const event = { index: i + 1, commandId: `c${i + 1}`, command: "click", target: "id=add", value: "", message: null, healed: null, at: Date.now() };
      store.command("k", { ...event, phase: "start", state: "pending" });
      store.attach("run", { image });
      store.command("k", { ...event, phase: "end", state: "passed" });
    });
    store.testEnded("k", { result: "passed", keep: true, at: Date.now() });
    show(JPEG);
    const { manifest, dir } = await store.finished("run", "t");
    expect(manifest.steps.map((s) => s.screenshot)).toEqual(["00001.jpg", "00002.jpg", "00002.jpg", "00002.jpg"]);
    expect(readdirSync(dir!).sort()).toEqual(["00001.jpg", "00002.jpg", MANIFEST_FILE]);
  });

  it("keeps a failed command's picture, DOM and console errors when it shares its picture with the commands before it", async () => {
    const root = mkdtempSync(join(tmpdir(), "ide-core-trace-store-"));
    const store = traceStore({ root, maxScreenshots: 0 });
    store.testStarted({ key: "k", runId: "run", testId: "t", testName: "failing", suiteName: null, at: Date.now() });
    const image = Promise.resolve(JPEG);
    const failure = Promise.resolve({ details: { url: "http://127.0.0.1/shop", title: "Shop", html: "<p>gone</p>" }, consoleErrors: ["stock service down"] });
    ["passed", "failed"].forEach((state, i) => {
      const event = { index: i + 1, commandId: `c${i + 1}`, command: "click", target: "id=add", value: "", message: null, healed: null, at: Date.now() };
      store.command("k", { ...event, phase: "start", state: "pending" });
      store.attach("run", state === "failed" ? { image, failure } : { image });
      store.command("k", { ...event, phase: "end", state: state as "passed" | "failed" });
    });
    store.testEnded("k", { result: "failed", keep: true, at: Date.now() });
    const { manifest, dir } = await store.finished("run", "t");
    // Past the bound of pictures only a failure's is kept: here the one both commands share.
    expect(manifest.steps.map((s) => s.screenshot)).toEqual(["00001.jpg", "00001.jpg"]);
    expect(manifest.steps[1].failure).toEqual({ url: "http://127.0.0.1/shop", title: "Shop", dom: "00002.html", consoleErrors: ["stock service down"] });
    expect(readFileSync(join(dir!, "00002.html"), "utf8")).toBe("<p>gone</p>");
  });

  it("removes the files of a trace that is not kept, and still tells its commands", async () => {
    const root = mkdtempSync(join(tmpdir(), "ide-core-trace-store-"));
    const { manifest, dir } = await playInto(traceStore({ root }), 1, 2, "passed", false);
    expect(dir).toBeNull();
    expect(manifest.steps.map((s) => s.state)).toEqual(["passed", "passed"]);
    expect(readdirSync(root)).toEqual([]);
  });

  it("writes a playing test's manifest as it plays, so a run cut off by a crash is listed as not ended, with its commands and pictures", async () => {
    const root = mkdtempSync(join(tmpdir(), "ide-core-trace-store-"));
    const store = traceStore({ root });
    store.testStarted({ key: "k", runId: "run", testId: "t", testName: "cut off", suiteName: "Shop", at: Date.now() });
    tellCommands(store, ["passed", "passed", "failed"]);
    // The process ends here (a crash): no testEnded. What is on disk is what a new process reads.
    const [{ traceId }] = store.live();
    const onDisk = () => {
      try {
        const read = readTraceManifest(JSON.parse(readFileSync(join(root, traceId, MANIFEST_FILE), "utf8")));
        return read.ok ? read.manifest : null;
      } catch {
        return null;
      }
    };
    await expect.poll(() => onDisk()?.steps.map((s) => [s.state, s.screenshot]), { timeout: 5_000 }).toEqual([
      ["passed", "00001.jpg"],
      ["passed", "00002.jpg"],
      ["failed", "00003.jpg"],
    ]);
    expect(onDisk()).toMatchObject({ result: null, endedAt: null, testName: "cut off" });
    const [listed] = listedRuns([], [onDisk()!]);
    expect(listed).toMatchObject({ result: null, playing: false, commands: 3 });
    expect(runLabel(listed)).toBe("Shop › cut off: not ended");
    // While this process still plays it, it is listed as playing, once.
    const both = listedRuns(store.live(), [onDisk()!]);
    expect(both.map(runLabel)).toEqual(["Shop › cut off: playing"]);
  });

  it("removes a trace that is not kept even after its manifest was written while it played", async () => {
    const root = mkdtempSync(join(tmpdir(), "ide-core-trace-store-"));
    const store = traceStore({ root });
    store.testStarted({ key: "k", runId: "run", testId: "t", testName: "passes", suiteName: null, at: Date.now() });
    tellCommands(store, ["passed", "passed"]);
    const [{ traceId }] = store.live();
    await expect.poll(() => existsSync(join(root, traceId, MANIFEST_FILE)), { timeout: 5_000 }).toBe(true);
    tellCommands(store, ["passed"], 3); // a change whose save is due when the test ends
    store.testEnded("k", { result: "passed", keep: false, at: Date.now() });
    const { dir } = await store.finished("run", "t");
    expect(dir).toBeNull();
    // Nothing written after the removal brings the folder back.
    await new Promise((resolve) => setTimeout(resolve, SAVE_EVERY_MS + 200));
    expect(readdirSync(root)).toEqual([]);
  });
});

/** Page commands with the given states told to the store's test "k" of run "run", each with a picture of its own. */
function tellCommands(store: ReturnType<typeof traceStore>, states: Array<"passed" | "failed">, from = 1) {
  states.forEach((state, i) => {
    const event = { index: from + i, commandId: `c${from + i}`, command: "click", target: "id=add", value: "", message: null, healed: null, at: Date.now() };
    store.command("k", { ...event, phase: "start", state: "pending" });
    store.attach("run", { image: Promise.resolve(JPEG) });
    store.command("k", { ...event, phase: "end", state });
  });
}

describe("createIde's trace option", () => {
  const project = (commands: Array<{ id: string; command: string; target?: string; value?: string }>) => ({
    id: "p",
    name: "traced",
    url: "http://127.0.0.1:1",
    tests: [{ id: "t", name: "the test", commands: commands.map((c) => ({ target: "", value: "", targets: [], ...c })) }],
  });

  it("tells the trace port of every command, the IDE's own and the page's, with its state, message and locator", async () => {
    const root = mkdtempSync(join(tmpdir(), "ide-core-trace-port-"));
    const store = traceStore({ root });
    const executor = fakeExecutor({ answer: (input) => (input.command.command === "click" ? { state: "passed", healed: { locator: "css=.buy", score: 0.9 } } : undefined) });
    const ide = createIde({
      executor,
      trace: "on",
      traces: store,
      project: project([{ id: "a", command: "echo", target: "hello" }, { id: "b", command: "click", target: "id=buy" }, { id: "c", command: "assertText", target: "id=total", value: "3" }]),
    });
    const run = await playAndWait(ide, { type: "user.startPlayback", testId: "t" });
    const { manifest, dir } = await store.finished(run.runId, "t");
    expect(dir).not.toBeNull();
    expect(manifest.steps.map((s) => [s.index, s.command, s.state, s.locator, s.healed?.locator ?? null])).toEqual([
      [1, "echo", "passed", null, null],
      [2, "click", "passed", "css=.buy", "css=.buy"],
      [3, "assertText", "passed", "id=total", null],
    ]);
    expect(manifest.steps.every((s) => s.endedAt !== null && s.endedAt >= s.startedAt)).toBe(true);
    expect(manifest.result).toBe("passed");
    ide.stop();
  });

  it("tells every turn of a loop's commands, each turn ended once, in the order they ran", async () => {
    const root = mkdtempSync(join(tmpdir(), "ide-core-trace-port-"));
    const store = traceStore({ root });
    const ide = createIde({
      executor: fakeExecutor(),
      trace: "on",
      traces: store,
      project: project([
        { id: "l", command: "times", target: "3" },
        { id: "b", command: "click", target: "id=add" },
        { id: "e", command: "end" },
        { id: "z", command: "echo", target: "done" },
      ]),
    });
    const run = await playAndWait(ide, { type: "user.startPlayback", testId: "t" });
    const { manifest } = await store.finished(run.runId, "t");
    const turn = [["times", "passed"], ["click", "passed"]];
    // The loop's head is evaluated once more to leave it, through its end.
    expect(manifest.steps.map((s) => [s.command, s.state])).toEqual([...turn, ...turn, ...turn, ["times", "passed"], ["end", "passed"], ["echo", "passed"]]);
    expect(manifest.steps.every((s) => s.endedAt !== null)).toBe(true);
    ide.stop();
  });

  it("tries a failed picture once more, so a browser that drops its first capture leaves no gap in the trace", async () => {
    const root = mkdtempSync(join(tmpdir(), "ide-core-trace-port-"));
    const store = traceStore({ root });
    let asked = 0;
    const page = {
      ...fakeExecutor(),
      capturePage: async () => {
        asked += 1;
        if (asked === 1) throw new Error("Not attached to an active page");
        return { url: "http://127.0.0.1:1/", title: "t", image: JPEG, at: Date.now() };
      },
      witnessOf: async () => null,
    };
    const ide = createIde({ executor: tracedExecutor(page, store), trace: "on", traces: store, project: project([{ id: "b", command: "click", target: "id=buy" }]) });
    const run = await playAndWait(ide, { type: "user.startPlayback", testId: "t" });
    const { manifest, dir } = await store.finished(run.runId, "t");
    expect(asked).toBe(2);
    expect(manifest.steps[0].screenshot).not.toBeNull();
    expect(existsSync(join(dir!, manifest.steps[0].screenshot!))).toBe(true);
    ide.stop();
  });

  it("tells the port nothing with trace off, and refuses a mode it does not know", async () => {
    const root = mkdtempSync(join(tmpdir(), "ide-core-trace-port-"));
    const store = traceStore({ root });
    const ide = createIde({ executor: fakeExecutor(), trace: "off", traces: store, project: project([{ id: "a", command: "click", target: "id=buy" }]) });
    await playAndWait(ide, { type: "user.startPlayback", testId: "t" });
    expect(readdirSync(root)).toEqual([]);
    ide.stop();
    expect(() => createIde({ trace: "always" as "on" })).toThrow('createIde: options.trace must be "on", "off" or "retain-on-failure", not "always".');
  });
});
