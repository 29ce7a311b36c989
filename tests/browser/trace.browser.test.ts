// A run's trace in the host (CONTRACT section 17), in real Chromium: a test that fails keeps,
// for every page command, its times, state, locator and a JPEG of the page after it, and for the
// failed command the page's URL, title, HTML and the console error the page logged; with
// "retain-on-failure" a passing test keeps nothing on disk. Pictures are taken beside the run
// (tracedExecutor.ts): commands that end while one is taken share the next, stored once.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIde } from "../../index.ts";
import type { Ide } from "../../index.ts";
import { sessionPool } from "../../drivers/host/sessions.ts";
import type { SessionPool } from "../../drivers/host/sessions.ts";
import { tracedExecutor } from "../../drivers/host/tracedExecutor.ts";
import { traceStore } from "../../drivers/host/traceStore.ts";
import { MANIFEST_FILE, picturePolicy, readTraceManifest } from "../../services/traces/index.ts";
import type { TraceMode } from "../../services/traces/index.ts";
import { servePages } from "../support/browserPages.ts";
import { playAndWait } from "../support/runs.ts";

const SHOP = `<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1>
<button id="add" type="button" onclick="document.getElementById('count').textContent = '1'">Add</button>
<p id="count">0</p></body></html>`;

const COUNTER = `<!doctype html><html><head><title>Counter</title></head><body>
<button id="more" type="button" onclick="const n = document.getElementById('n'); n.textContent = String(Number(n.textContent) + 1)">More</button>
<p id="n">0</p></body></html>`;

let site: Awaited<ReturnType<typeof servePages>>;
let pool: SessionPool;

beforeAll(async () => {
  site = await servePages({ "/shop": SHOP, "/counter": COUNTER });
  pool = sessionPool({ baseUrl: site.origin, implicitWaitMs: 500 });
}, 60_000);

afterAll(async () => {
  await pool?.close();
  await site?.close();
});

const command = (id: string, name: string, target = "", value = "") => ({ id, command: name, target, targets: [], value });

function tracedIde(mode: TraceMode, commands: ReturnType<typeof command>[]) {
  const root = mkdtempSync(join(tmpdir(), "ide-core-traces-"));
  const store = traceStore({ root });
  const ide: Ide = createIde({
    // As the host composes it: retain-on-failure spaces its pictures.
    executor: tracedExecutor(pool, store, picturePolicy(mode)),
    trace: mode,
    traces: store,
    project: { id: "p", name: "traced", url: site.origin, tests: [{ id: "t", name: "adds to cart", commands }] },
  });
  return { ide, store, root };
}

describe("a run's trace in the host", () => {
  it("keeps every command's picture of a failing test, and the failure's page, DOM and console error", async () => {
    const { ide, store, root } = tracedIde("retain-on-failure", [
      command("c1", "open", "/shop"),
      command("c2", "click", "id=add"),
      command("c3", "executeScript", "console.error('stock service down: 503'); throw new Error('the stock is gone')"),
    ]);
    const run = await playAndWait(ide, { type: "user.startPlayback", testId: "t" });
    expect(run.result).toBe("failed");
    const { manifest, dir } = await store.finished(run.runId, "t");
    expect(dir).not.toBeNull();
    // What is on disk is the manifest, read back through its schema.
    const read = readTraceManifest(JSON.parse(readFileSync(join(dir!, MANIFEST_FILE), "utf8")));
    expect(read.ok).toBe(true);
    expect(read.ok && read.manifest).toEqual(manifest);
    expect(manifest).toMatchObject({ testName: "adds to cart", result: "failed" });
    expect(manifest.steps.map((s) => [s.index, s.command, s.state, s.locator])).toEqual([
      [1, "open", "passed", null],
      [2, "click", "passed", "id=add"],
      [3, "executeScript", "failed", null],
    ]);
    for (const step of manifest.steps) {
      expect(step.endedAt! >= step.startedAt).toBe(true);
      expect(step.screenshot).toMatch(/\.jpg$/);
      const jpeg = readFileSync(join(dir!, step.screenshot!));
      expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    }
    const failed = manifest.steps[2];
    expect(failed.message).toContain("the stock is gone");
    expect(failed.failure).toMatchObject({ url: `${site.origin}/shop`, title: "Shop" });
    expect(failed.failure!.consoleErrors).toContain("stock service down: 503");
    expect(readFileSync(join(dir!, failed.failure!.dom!), "utf8")).toContain('<p id="count">1</p>');
    expect(readdirSync(root)).toEqual([manifest.traceId]);
    ide.stop();
  }, 60_000);

  it("gives every command of a traced run a picture, stores a shared picture once, and pictures a failure with its own DOM and console error", async () => {
    const clicks = Array.from({ length: 12 }, (_, i) => command(`k${i}`, "click", "id=more"));
    const { ide, store } = tracedIde("on", [
      command("c1", "open", "/counter"),
      ...clicks,
      command("c2", "executeScript", "console.error('counter service down: 503'); throw new Error('the counter is gone')"),
    ]);
    const run = await playAndWait(ide, { type: "user.startPlayback", testId: "t" });
    expect(run.result).toBe("failed");
    const { manifest, dir } = await store.finished(run.runId, "t");
    expect(manifest.steps).toHaveLength(14);
    for (const step of manifest.steps) expect(step.screenshot).toMatch(/^\d{5}\.jpg$/);
    // A picture several commands share is one file; no file is left that no command names.
    const named = new Set(manifest.steps.map((s) => s.screenshot));
    expect(new Set(readdirSync(dir!).filter((f) => f.endsWith(".jpg")))).toEqual(named);
    for (const file of named) expect([...readFileSync(join(dir!, file!)).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const failed = manifest.steps[13];
    expect(failed).toMatchObject({ command: "executeScript", state: "failed" });
    expect(failed.failure).toMatchObject({ url: `${site.origin}/counter`, title: "Counter" });
    expect(failed.failure!.consoleErrors).toContain("counter service down: 503");
    // Its DOM is the page after every command before it.
    expect(readFileSync(join(dir!, failed.failure!.dom!), "utf8")).toContain('<p id="n">12</p>');
    ide.stop();
  }, 60_000);

  it("keeps no files of a passing test under retain-on-failure, but still tells its commands", async () => {
    const { ide, store, root } = tracedIde("retain-on-failure", [command("c1", "open", "/shop"), command("c2", "click", "id=add")]);
    const run = await playAndWait(ide, { type: "user.startPlayback", testId: "t" });
    expect(run.result).toBe("passed");
    const { manifest, dir } = await store.finished(run.runId, "t");
    expect(dir).toBeNull();
    expect(manifest.steps.map((s) => s.state)).toEqual(["passed", "passed"]);
    expect(readdirSync(root)).toEqual([]);
    ide.stop();
  }, 60_000);
});
