// A suite's settings through the real `npm run play` (CONTRACT section 22): persistSession keeps
// the browser session (a cookie, local storage) and the variables from one test to the next, and
// without it each test starts in a fresh session with no variables; a suite's timeout ends a test
// failed and the next plays; a browser killed during a suite's first test ends that test fatal,
// and the next plays in a new browser. The pages are served here, on 127.0.0.1.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { playCli } from "../support/playCli.ts";

let server: Server;
let baseUrl: string;
let dir: string;
/** Told each time the browser loads /set. */
const setServed: Array<() => void> = [];

// /set sets a cookie (the server's) and local storage (the page's); /show prints what the browser
// brought: the cookie it sent, the storage it has, and the name the test passed in the query.
const PAGES: Record<string, (url: URL, cookie: string) => string> = {
  "/set": () => `<!doctype html><title>set</title><p id="done">set</p><script>localStorage.setItem("k", "kept")</script>`,
  "/show": (url, cookie) =>
    `<!doctype html><title>show</title><p id="seen"></p><script>document.getElementById("seen").textContent = ` +
    `"cookie=" + ${JSON.stringify(cookie)} + " storage=" + (localStorage.getItem("k") || "") + " name=" + ${JSON.stringify(url.searchParams.get("name") ?? "")};</script>`,
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ide-core-suites-"));
  server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const page = PAGES[url.pathname];
    if (!page) return void response.writeHead(404).end();
    const headers: Record<string, string> = { "content-type": "text/html" };
    if (url.pathname === "/set") {
      headers["set-cookie"] = "who=alice; Path=/";
      for (const told of setServed.splice(0)) told();
    }
    response.writeHead(200, headers).end(page(url, request.headers.cookie ?? ""));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const command = (id: string, name: string, target = "", value = "") => ({ id, comment: "", command: name, target, targets: [], value });

const TESTS = {
  sets: { id: "t-set", name: "sets", commands: [command("s1", "open", "/set"), command("s2", "store", "alice", "name")] },
  checks: { id: "t-check", name: "checks", commands: [command("k1", "open", "/show?name=${name}"), command("k2", "assertText", "id=seen", "cookie=who=alice storage=kept name=alice")] },
  waits: { id: "t-wait", name: "waits", commands: [command("w1", "open", "/set"), command("w2", "pause", "8000"), command("w3", "open", "/show")] },
  quick: { id: "t-quick", name: "quick", commands: [command("q1", "store", "yes", "went"), command("q2", "echo", "${went}")] },
  fresh: { id: "t-fresh", name: "fresh", commands: [command("f1", "open", "/show"), command("f2", "assertText", "id=seen", "cookie= storage= name=")] },
};

/** A project of one suite with these tests and settings, written to a .side file. */
function project(file: string, tests: Array<keyof typeof TESTS>, settings: { persistSession?: boolean; timeout?: number; parallel?: boolean }) {
  const side = {
    id: `p-${file}`,
    name: "Suites",
    url: baseUrl,
    version: "2.0",
    tests: tests.map((t) => TESTS[t]),
    suites: [{ id: "s-1", name: "Settings", persistSession: settings.persistSession ?? false, parallel: settings.parallel ?? false, timeout: settings.timeout ?? 300, tests: tests.map((t) => TESTS[t].id) }],
    urls: [],
    plugins: [],
  };
  const path = join(dir, file);
  writeFileSync(path, JSON.stringify(side));
  return path;
}

/** The line `npm run play` prints for a test, and the lines under it (its failure). */
const lineOf = (stdout: string, name: string) => stdout.split("\n").find((line) => new RegExp(`^\\w+ +${name} `).test(line)) ?? "";

// Each run starts a browser or two, which on a busy machine takes a while.
describe("npm run play, a suite's settings", { timeout: 400_000 }, () => {
  it("keeps the cookie, the storage and the variables from one test to the next in a persistSession suite", async () => {
    const run = await playCli([project("persist.side", ["sets", "checks"], { persistSession: true })], mkdtempSync(join(dir, "data-")));
    expect(run.stderr).toBe("");
    expect(lineOf(run.stdout, "sets")).toMatch(/^passed/);
    expect(lineOf(run.stdout, "checks")).toMatch(/^passed/);
    expect(run.code).toBe(0);
  });

  it("starts each test of a suite without persistSession in a fresh browser session, with no variables from the test before", async () => {
    const run = await playCli([project("fresh.side", ["sets", "checks", "fresh"], {})], mkdtempSync(join(dir, "data-")));
    expect(lineOf(run.stdout, "sets")).toMatch(/^passed/);
    expect(lineOf(run.stdout, "checks")).toMatch(/^failed/);
    // The page saw no cookie and no storage, and the name was never stored in this test.
    expect(run.stdout).toContain("cookie= storage= name=${name}");
    expect(lineOf(run.stdout, "fresh")).toMatch(/^passed/);
    expect(run.code).toBe(1);
  });

  it("says that persistSession wins over parallel, as side-runner 4 plays such a suite, and plays its tests in order in one session", async () => {
    const run = await playCli([project("both.side", ["sets", "checks"], { persistSession: true, parallel: true }), "-w", "2"], mkdtempSync(join(dir, "data-")));
    expect(run.stdout).toMatch(/^warning {8}The suite "Settings" is marked both parallel and persistSession: persistSession wins, as in side-runner 4/m);
    expect(lineOf(run.stdout, "sets")).toMatch(/^passed/);
    // The cookie, the storage and the variable of the test before: one session, in order.
    expect(lineOf(run.stdout, "checks")).toMatch(/^passed/);
    expect(run.code).toBe(0);
  });

  it("ends a test still playing when the suite's timeout of 1 s runs out, failed and saying so, and plays the next", async () => {
    const run = await playCli([project("timeout.side", ["waits", "quick"], { timeout: 1 })], mkdtempSync(join(dir, "data-")));
    expect(lineOf(run.stdout, "waits")).toMatch(/^failed/);
    expect(run.stdout).toContain("The suite's timeout of 1 s ran out");
    // The next test needs no browser: a second's timeout would not leave one the time to start.
    expect(lineOf(run.stdout, "quick")).toMatch(/^passed/);
    expect(run.code).toBe(1);
  });

  it("ends only the test whose browser was killed, fatal, and plays the next test in a new browser", async () => {
    const data = mkdtempSync(join(dir, "data-"));
    const playing = playCli([project("killed.side", ["waits", "fresh"], {})], data, (pid) => killBrowserUnder(pid));
    const run = await playing;
    expect(lineOf(run.stdout, "waits")).toMatch(/^fatal/);
    // Killed once it had loaded /set (its load still waited on, or the pause after it): the browser is gone, not one that could not start.
    expect(run.stdout).toMatch(/^ +fatal at open "\/(set|show)": .*The browser under test is gone/m);
    expect(lineOf(run.stdout, "fresh")).toMatch(/^passed/);
    expect(run.stdout).toMatch(/^2 tests: 1 passed, 0 failed, 1 fatal/m);
    expect(run.code).toBe(1);
  });
});

// ---- the browser's process, found in the process tree ----------------------------------

/** Each process's parent and name, from /proc. */
function processTable(): Array<{ pid: number; ppid: number; name: string }> {
  const rows = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      rows.push({ pid: Number(entry), ppid, name });
    } catch {
      // The process ended while the table was read.
    }
  }
  return rows;
}

/** The browser chromedriver started for `npm run play` (pid `root`); null before. */
function browserUnder(root: number): number | null {
  const table = processTable();
  const below = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of table) if (below.has(p.ppid) && !below.has(p.pid)) (below.add(p.pid), (grew = true));
  }
  const driver = table.find((p) => below.has(p.pid) && p.name === "chromedriver");
  const browser = driver && table.find((p) => p.ppid === driver.pid && /chrom/.test(p.name));
  return browser?.pid ?? null;
}

/** Kills the browser (SIGKILL, as the OOM killer does) once the first test's page loaded: during its pause. */
async function killBrowserUnder(root: number): Promise<void> {
  await new Promise<void>((resolve) => setServed.push(resolve));
  // The page asked for /set: let it finish loading, so the kill comes during the test's pause.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const pid = browserUnder(root);
  if (pid === null) throw new Error("no browser under npm run play once it had loaded /set");
  process.kill(pid, "SIGKILL");
}
