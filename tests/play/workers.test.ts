// `npm run play -- -w N` (CONTRACT section 22): suites of several projects play at once, each
// project against its own base URL, and a parallel suite's tests on the same workers, never more
// than N at once. Seen from the pages, served here on 127.0.0.1 (two ports, one per project): a
// test enters a room and waits until another test has entered it too, so a test passes only if
// its partner played while it waited; the server counts the tests inside at once. No time is
// asserted. The run is on a terminal (util-linux's `script` gives it one), so its live progress
// line is checked too, and the files a CI reads.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Who entered which room, through which port, in order; who is inside now, and the most inside at once. */
const visits: Array<{ who: string; room: string; port: number }> = [];
const inside = new Set<string>();
let mostInside = 0;

// /enter records the visitor and asks /room until two have entered its room, then shows #met.
const ENTER = (room: string) => `<!doctype html><title>room ${room}</title><p id="wait">waiting</p><script>
const ask = async () => {
  const { entered } = await (await fetch("/room?room=${encodeURIComponent(room)}")).json();
  if (entered >= 2) { const p = document.createElement("p"); p.id = "met"; p.textContent = "met"; document.body.append(p); }
  else setTimeout(ask, 100);
};
ask();
</script>`;

function serve(request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  const who = url.searchParams.get("who") ?? "";
  const room = url.searchParams.get("room") ?? "";
  const html = (body: string) => response.writeHead(200, { "content-type": "text/html" }).end(body);
  if (url.pathname === "/enter") {
    visits.push({ who, room, port: request.socket.localPort ?? 0 });
    inside.add(who);
    mostInside = Math.max(mostInside, inside.size);
    return html(ENTER(room));
  }
  if (url.pathname === "/leave") {
    inside.delete(who);
    return html(`<!doctype html><title>left</title><p id="left">${who} left</p>`);
  }
  if (url.pathname === "/room") return response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ entered: visits.filter((v) => v.room === room).length }));
  response.writeHead(404).end();
}

let servers: Server[] = [];
let sites: string[] = [];
let dir: string;

beforeAll(async () => {
  servers = [createServer(serve), createServer(serve)];
  await Promise.all(servers.map((s) => new Promise<void>((done) => s.listen(0, "127.0.0.1", done))));
  sites = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`);
  dir = mkdtempSync(join(tmpdir(), "ide-core-workers-"));
});
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((done) => s.close(() => done())))));

const command = (id: string, name: string, target = "", value = "") => ({ id, comment: "", command: name, target, targets: [], value });
/** A test that enters its room, waits (up to 60 s) for a second visitor of that room, and leaves. */
const visitor = (who: string, room: string) => ({
  id: `t-${who}`,
  name: who,
  commands: [command(`${who}-1`, "open", `/enter?who=${who}&room=${room}`), command(`${who}-2`, "waitForElementPresent", "id=met", "60000"), command(`${who}-3`, "open", `/leave?who=${who}`)],
});

function project(file: string, name: string, url: string, tests: ReturnType<typeof visitor>[], suites: Array<{ name: string; tests: string[]; parallel?: boolean }>) {
  const side = {
    id: `p-${name}`,
    name,
    url,
    version: "2.0",
    tests,
    suites: suites.map((s, i) => ({ id: `s-${i}`, name: s.name, persistSession: false, parallel: s.parallel ?? false, timeout: 300, tests: s.tests.map((t) => `t-${t}`) })),
    urls: [],
    plugins: [],
  };
  writeFileSync(join(dir, file), JSON.stringify(side));
  return file;
}

/** `npm run play -- ARGS` from `dir`, its stdout a terminal: everything it wrote, and its exit code. */
function playOnTerminal(args: string[]): Promise<{ code: number | null; output: string }> {
  const quoted = ["node", "--import", "tsx", "bin/play.ts", ...args, "--port", "0", "--token-file", join(dir, "token")].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
  const child = spawn("script", ["-qefc", quoted, "/dev/null"], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, INIT_CWD: dir } });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, output })));
}

const PROGRESS = /(\d+)\/(\d+) played, (\d+) failed(?:, about \d+ (?:s|min) left)?/g;
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" });
const asList = <T,>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

describe("npm run play -w 2", { timeout: 300_000 }, () => {
  it("plays two suites of one project at once, then a parallel suite of another project's two tests at once, never more than two, each against its project's URL", async () => {
    const alpha = project("alpha.side", "Alpha", sites[0], [visitor("a1", "A"), visitor("a2", "A")], [
      { name: "First", tests: ["a1"] },
      { name: "Second", tests: ["a2"] },
    ]);
    const beta = project("beta.side", "Beta", sites[1], [visitor("b1", "B"), visitor("b2", "B")], [{ name: "Both", tests: ["b1", "b2"], parallel: true }]);
    const run = await playOnTerminal([alpha, beta, "-w", "2", "--junit", "all.xml", "--output-directory", "out"]);
    const raw = run.output.replace(/\r\n/g, "\n");

    // The live line, drawn and cleared on the terminal, counted each test once: 0 to 4 of 4, no failure.
    const counts = [...raw.matchAll(PROGRESS)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3])]);
    expect(counts[0]).toEqual([0, 4, 0]);
    expect(counts.at(-1)).toEqual([4, 4, 0]);
    expect(counts.every(([played], i) => i === 0 || played >= counts[i - 1][0])).toBe(true);
    // Once the live line is taken out, every line is whole: each test's line, one summary.
    const lines = raw.replace(/\r\x1b\[2K/g, "").replace(PROGRESS, "").split("\n");
    const testLines = lines.filter((l) => /^(passed|failed|fatal) /.test(l));
    expect(testLines.sort()).toEqual(
      ["a1  (suite First)", "a2  (suite Second)", "b1  (suite Both)", "b2  (suite Both)"].map((t) => expect.stringMatching(new RegExp(`^passed  ${t.replace(/[()]/g, "\\$&")}  \\d+\\.\\d\\d s$`))),
    );
    expect(lines.filter((l) => / tests?: /.test(l))).toEqual([expect.stringMatching(/^4 tests: 4 passed, 0 failed, 0 fatal in \d+\.\d\d s$/)]);
    expect(lines).toContain('playing Beta: suite "Both" with 2 workers');
    expect(run.code).toBe(0);

    // Each test passed only because its partner entered while it waited; never three inside at once.
    expect(mostInside).toBe(2);
    const port = (site: string) => Number(new URL(site).port);
    expect(visits.map((v) => [v.who, v.port]).sort()).toEqual([
      ["a1", port(sites[0])],
      ["a2", port(sites[0])],
      ["b1", port(sites[1])],
      ["b2", port(sites[1])],
    ]);
    // The parallel suite waited for both workers: its tests entered after Alpha's two.
    expect(visits.slice(0, 2).map((v) => v.room)).toEqual(["A", "A"]);

    // One JUnit file, a testsuite per suite per project in the order named; one jest JSON.
    const junit = xml.parse(readFileSync(join(dir, "all.xml"), "utf8"));
    expect(junit.testsuites).toMatchObject({ tests: "4", failures: "0", errors: "0" });
    const suites = asList(junit.testsuites.testsuite) as Array<{ name: string; testcase: unknown }>;
    expect(suites.map((s) => [s.name, asList(s.testcase).map((c) => (c as { name: string }).name).sort()])).toEqual([
      ["Alpha / First", ["a1"]],
      ["Alpha / Second", ["a2"]],
      ["Beta / Both", ["b1", "b2"]],
    ]);
    const results = readdirSync(join(dir, "out"));
    expect(results).toHaveLength(1);
    const jest = JSON.parse(readFileSync(join(dir, "out", results[0]), "utf8"));
    expect(jest).toMatchObject({ numTotalTests: 4, numPassedTests: 4, numTotalTestSuites: 2, success: true });
    expect(jest.testResults.map((r: { name: string; assertionResults: unknown[] }) => [r.name, r.assertionResults.length])).toEqual([
      [join(dir, "alpha.side"), 2],
      [join(dir, "beta.side"), 2],
    ]);
  });
});
