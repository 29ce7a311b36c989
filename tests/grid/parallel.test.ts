// A parallel suite on a real Selenium Grid (CONTRACT section 16): two workers, two sessions at
// once in the Grid's status; a session that dies mid-suite ends its test fatal while the others
// go on (its browser killed on the node, as a crash would); and `npm run play` plays the same
// suite on the Grid from the command line.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Host } from "../../apps/host/host.ts";
import { openSessions } from "../../drivers/grid/grid.ts";
import type { Grid } from "../../drivers/grid/grid.ts";
import type { SessionPool } from "../../drivers/host/sessions.ts";
import type { ExampleSite } from "../../drivers/host/site.ts";
import { playAndWait } from "../support/runs.ts";
import { gridHost } from "./support.ts";
import type { GridHost } from "./support.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const WAIT = { timeout: 90_000, interval: 50 };
const command = (id: string, name: string, target = "", value = "") => ({ id, comment: "", command: name, target, targets: [], value });
/** A test that opens the shop, pauses 3 s with its browser open, and checks the cart. */
const slowTest = (id: string) => ({
  id,
  name: `slow ${id}`,
  commands: [command(`${id}-1`, "open", "/shop"), command(`${id}-2`, "pause", "3000"), command(`${id}-3`, "click", "linkText=Add to cart"), command(`${id}-4`, "assertText", "css=.cart-count", "1")],
});
const PROJECT = {
  id: "p-grid",
  name: "Grid project",
  url: "http://127.0.0.1:1",
  tests: ["g1", "g2", "g3"].map(slowTest),
  suites: [{ id: "s-par", name: "Parallel suite", persistSession: false, parallel: true, timeout: 300, tests: ["g1", "g2", "g3"] }],
};

let fixture: GridHost;
let grid: Grid;
let site: ExampleSite;
let pool: SessionPool;
let host: Host;
let dir: string;

beforeAll(async () => {
  fixture = await gridHost(PROJECT, 2);
  ({ grid, site, pool, host } = fixture);
  dir = mkdtempSync(join(tmpdir(), "ide-core-grid-par-"));
}, 120_000);

afterAll(() => fixture?.close(), 60_000);

/** The Chromium main processes the Grid's node runs now (its chromedrivers' children). */
function nodeBrowsers(nodePid: number): number[] {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .flatMap((m) => (m ? [{ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] }] : []));
  const drivers = rows.filter((r) => r.ppid === nodePid && r.args.includes("chromedriver")).map((r) => r.pid);
  return rows.filter((r) => drivers.includes(r.ppid) && /chromium/.test(r.args) && !r.args.includes("--type=")).map((r) => r.pid);
}


describe("a parallel suite on the Grid", () => {
  it("fails the test whose browser is killed on the node mid-suite (its command ends fatal), while the others go on, and the next run works", async () => {
    const playing = playAndWait(host.ide, { type: "user.startSuite", suiteId: "s-par" }, WAIT.timeout);
    // Both tests wait in their pause: one browser of the node is killed under its test.
    let browsers: number[] = [];
    await vi.waitFor(async () => {
      expect(openSessions(await grid.status())).toBe(2);
      const runs = host.ide.getSnapshot().playback?.suite?.runs ?? [];
      expect(runs.filter((r) => r.status === "running")).toHaveLength(2);
      browsers = nodeBrowsers(grid.pids[1]);
      expect(browsers).toHaveLength(2);
    }, WAIT);
    process.kill(browsers[0], "SIGKILL");
    const over = await playing;
    const results = over.suite!.runs.map((r) => r.result);
    expect(results.filter((r) => r === "failed")).toHaveLength(1);
    expect(results.filter((r) => r === "passed")).toHaveLength(2);
    expect(over.result).toBe("failed");

    expect((await playAndWait(host.ide, { type: "user.startSuite", suiteId: "s-par" }, WAIT.timeout)).result).toBe("passed");
  }, 180_000);

  it("plays two tests at once in two sessions seen together in the Grid's status, then the third", async () => {
    const playing = playAndWait(host.ide, { type: "user.startSuite", suiteId: "s-par" }, WAIT.timeout);
    let most = 0;
    await vi.waitFor(async () => {
      most = Math.max(most, openSessions(await grid.status()));
      expect(most).toBe(2);
    }, WAIT);
    const over = await playing;
    expect(over.result).toBe("passed");
    expect(over.suite!.runs.map((r) => [r.testId, r.result])).toEqual([
      ["g1", "passed"],
      ["g2", "passed"],
      ["g3", "passed"],
    ]);
    expect(new Set(over.suite!.runs.map((r) => r.runId)).size).toBe(3);
    expect(pool.size()).toBe(2);
  }, 120_000);

  it("fails the test whose session is deleted on the Grid mid-suite, while the others go on", async () => {
    // How each test ended, to say what went wrong when the counts do not hold.
    const ends: unknown[] = [];
    const watching = host.ide.onTestEnded((ended) => ends.push({ test: ended.testName, result: ended.result, failure: ended.failure?.message }));
    const sessionIds = async () =>
      ((await grid.status()).nodes ?? []).flatMap((n) => n.slots).flatMap((slot) => (slot.session ? [(slot.session as { sessionId: string }).sessionId] : []))
        // A slot whose session is still starting says "reserved" in place of an id.
        .filter((id) => id !== "reserved");
    // Each test of a suite without persistSession starts a session of its own: the sessions the
    // run before left are replaced as the tests start, so the one deleted must be a new one.
    const before = new Set(await sessionIds());
    const playing = playAndWait(host.ide, { type: "user.startSuite", suiteId: "s-par" }, WAIT.timeout);
    let ids: string[] = [];
    await vi.waitFor(async () => {
      ids = (await sessionIds()).filter((id) => !before.has(id));
      expect(ids).toHaveLength(2);
      expect((host.ide.getSnapshot().playback?.suite?.runs ?? []).filter((r) => r.status === "running")).toHaveLength(2);
    }, WAIT);
    // A session just started may be in the node's slot a moment before the router takes a DELETE for it.
    await vi.waitFor(async () => {
      const answer = await fetch(`${grid.url}/session/${ids[0]}`, { method: "DELETE" });
      expect(answer.ok, `${answer.status} ${await answer.text()}`).toBe(true);
    }, WAIT);
    const results = (await playing).suite!.runs.map((r) => r.result);
    watching.unsubscribe();
    expect(results.filter((r) => r === "failed"), JSON.stringify(ends)).toHaveLength(1);
    expect(results.filter((r) => r === "passed"), JSON.stringify(ends)).toHaveLength(2);
  }, 180_000);

  it("plays from the command line on the Grid with two workers: npm run play --webdriver-url", async () => {
    // The host above keeps its two sessions for its next run: give the Grid's slots back first.
    await pool.close();
    await vi.waitFor(async () => expect(openSessions(await grid.status())).toBe(0), WAIT);
    const file = join(dir, "grid.side");
    const junit = join(dir, "grid.xml");
    writeFileSync(file, JSON.stringify(PROJECT));
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "bin/play.ts", file, "--webdriver-url", grid.url, "--workers", "2", "--base-url", site.url, "--junit", junit, "--port", "0", "--token-file", join(dir, "token")],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    let most = 0;
    const watching = setInterval(() => void grid.status().then((s) => (most = Math.max(most, openSessions(s))), () => {}), 100);
    // A run that does not end is stopped before the test's own limit, so its output says where it stood.
    const limit = setTimeout(() => child.kill("SIGKILL"), 150_000);
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve)).finally(() => {
      clearTimeout(limit);
      child.kill("SIGKILL");
    });
    clearInterval(watching);
    expect(code, `npm run play printed:\n${stdout}\n${stderr}`).toBe(0);
    expect(stdout).toMatch(/^3 tests: 3 passed, 0 failed, 0 fatal/m);
    expect(most).toBe(2);
    const report = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(readFileSync(junit, "utf8"));
    expect(report.testsuites).toMatchObject({ tests: "3", failures: "0", errors: "0" });
    expect(report.testsuites.testsuite.name).toBe("Parallel suite");
  }, 180_000);
});
