// `npm run play` with side-runner's command line and config file (CONTRACT section 22), as CI runs
// it: a real process run from a folder of its own (npm's INIT_CWD), headless Chromium through
// chromedriver against a page served on 127.0.0.1 whose `#late` element appears 6 s after load
// (long enough that a busy machine still plays the commands before it).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PAGE = `<!doctype html><title>late</title><p id="now">hello</p>
<script>setTimeout(() => { const p = document.createElement("p"); p.id = "late"; p.textContent = "late"; document.body.append(p); }, 6000);</script>`;

let server: Server;
let site: string;
let dir: string;

beforeAll(async () => {
  server = createServer((_, res) => res.writeHead(200, { "content-type": "text/html" }).end(PAGE));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), "ide-core-side-runner-"));
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

interface Played {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run play -- ARGS` run from `runDir` (npm gives it as INIT_CWD; the script itself runs from the package's folder). */
function play(args: string[], runDir: string): Promise<Played> {
  const child = spawn(process.execPath, ["--import", "tsx", "bin/play.ts", ...args, "--port", "0", "--token-file", join(dir, "token")], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, INIT_CWD: runDir },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
}

const command = (id: string, name: string, target = "", value = "") => ({ id, comment: "", command: name, target, targets: [], value });

/** A project whose suite "Checks" has `greets` (asserts ${greeting} is the page's text) and `late` (waits for #late). */
function project(folder: string, file: string, name: string, url = "http://127.0.0.1:1") {
  const tests = [
    { id: "t-greets", name: "greets", commands: [command("g1", "open", "/"), command("g2", "assertText", "id=now", "${greeting}")] },
    { id: "t-late", name: "late", commands: [command("l1", "open", "/"), command("l2", "assertText", "id=late", "late")] },
  ];
  const side = { id: `p-${name}`, name, url, version: "2.0", tests, suites: [{ id: "s-1", name: "Checks", persistSession: false, parallel: false, timeout: 300, tests: ["t-greets", "t-late"] }], urls: [], plugins: [] };
  mkdirSync(folder, { recursive: true });
  const path = join(folder, file);
  writeFileSync(path, JSON.stringify(side));
  return path;
}

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" });
const asList = <T,>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

// Each run starts a process and a browser or more, which on a busy machine takes a while.
describe("npm run play with side-runner's command line", { timeout: 300_000 }, () => {
  it("plays several projects and a glob in one run with -p, -t and -z, into one JUnit file that keeps same-named suites apart, and side-runner's jest JSON", async () => {
    const run = join(dir, "several");
    project(run, "first.side", "First");
    project(join(run, "more"), "second.side", "Second");
    project(join(run, "more"), "third.side", "Third");
    const played = await play(
      ["first.side", "more/*.side", "--base-url", site, "-p", "greeting=hello", "-t", "300", "-z", "shots", "--junit", "all.xml", "--output-directory", "out", "--output-format", "jest"],
      run,
    );
    expect(played.stderr).toBe("");
    expect(played.code).toBe(1);
    // In a pipe, no live line: only the tests' lines and the summary.
    expect(played.stdout).not.toMatch(/\d+\/\d+ played/);
    expect(played.stdout).toContain("6 tests: 3 passed, 3 failed, 0 fatal");

    const junit = xml.parse(readFileSync(join(run, "all.xml"), "utf8"));
    const suites = asList(junit.testsuites.testsuite) as Array<{ name: string; testcase: unknown }>;
    expect(suites.map((s) => s.name)).toEqual(["First / Checks", "Second / Checks", "Third / Checks"]);
    for (const suite of suites) {
      const cases = asList(suite.testcase) as Array<{ name: string; classname: string; failure?: { message: string } }>;
      expect(cases.map((c) => [c.name, c.classname, c.failure === undefined])).toEqual([
        ["greets", suite.name, true],
        ["late", suite.name, false],
      ]);
      // -t 300: the element that comes after 6 s is not waited for (side-runner's 15 s would have found it).
      expect(cases[1].failure!.message).toContain("assertText id=late");
    }

    const results = readdirSync(join(run, "out"));
    expect(results).toHaveLength(1);
    expect(results[0]).toMatch(/^results-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z\.json$/);
    const jest = JSON.parse(readFileSync(join(run, "out", results[0]), "utf8"));
    expect(jest).toMatchObject({ numTotalTests: 6, numPassedTests: 3, numFailedTests: 3, numTotalTestSuites: 3, success: false });
    expect(jest.testResults.map((r: { name: string }) => r.name)).toEqual([join(run, "first.side"), join(run, "more", "second.side"), join(run, "more", "third.side")]);
    expect(jest.testResults[1].assertionResults[1]).toMatchObject({
      ancestorTitles: ["Running project Second", "Running suite Checks"],
      title: "Running test late",
      fullName: "Running project Second Running suite Checks Running test late",
      status: "failed",
    });
    expect(jest.testResults[1].assertionResults[1].failureMessages[0]).toContain("assertText id=late");

    const shots = readdirSync(join(run, "shots"));
    expect(shots).toHaveLength(3);
    for (const shot of shots) {
      expect(shot).toMatch(/^late_\d+(-\d+)?\.png$/);
      // A real PNG (its signature), not a JPEG named .png.
      expect(readFileSync(join(run, "shots", shot)).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    }
  });

  it("reads .side.yml from the folder it was run in, and lets the command line win over it", async () => {
    const run = join(dir, "configured");
    project(run, "suite.side", "Configured");
    // The file gives the base URL (the project's own is unreachable), the params, a filter and a
    // timeout; the command line's filter and timeout win: `late` alone, waited for long enough.
    writeFileSync(join(run, ".side.yml"), `baseUrl: ${site}\nfilter: greets\ntimeout: 300\nparams:\n  greeting: hello\n`);
    const played = await play(["suite.side", "-f", "^late$", "-t", "12000", "-c", "browserName=chrome acceptInsecureCerts=true", "--debug"], run);
    expect(played.stderr).toBe("");
    expect(played.code).toBe(0);
    expect(played.stdout).toContain(`plays against  ${site}`);
    expect(played.stdout).toContain("1 test: 1 passed");
    expect(played.stdout).toMatch(/passed +late /);
    expect(played.stdout).not.toMatch(/passed +greets /);
    const configuration = JSON.parse(/^configuration +(.*)$/m.exec(played.stdout)![1]);
    expect(configuration).toMatchObject({ configFile: join(run, ".side.yml"), timeoutMs: 12000, filter: "^late$", params: { greeting: "hello" } });
    // side-runner's key=value form, laid over the default capabilities (still headless).
    expect(configuration.capabilities).toMatchObject({ browserName: "chrome", acceptInsecureCerts: true });
    expect(configuration.capabilities["goog:chromeOptions"].args).toContain("--headless=new");
  });

  it("plays the suites -f names, and where none matches, the tests it names, each alone", async () => {
    const run = join(dir, "filtered");
    project(run, "filtered.side", "Filtered");
    const played = await play(["filtered.side", "--base-url", site, "-f", "eets$", "-p", "greeting=hello other='x y'", "--output-directory", "junit", "--output-format", "junit"], run);
    expect(played.stderr).toBe("");
    expect(played.code).toBe(0);
    expect(played.stdout).toContain("1 test: 1 passed");
    expect(played.stdout).toMatch(/^playing Filtered: test "greets"$/m);
    const junit = xml.parse(readFileSync(join(run, "junit", "Filtered.xml"), "utf8"));
    expect(asList(junit.testsuites.testsuite).map((s: { name: string }) => s.name)).toEqual(["Filtered"]);
  });
});

describe("npm run play's bad side-runner input", { timeout: 300_000 }, () => {
  const run = () => {
    const folder = mkdtempSync(join(dir, "bad-"));
    project(folder, "ok.side", "Ok");
    return folder;
  };

  it.each([
    ["an unknown option", ["ok.side", "--jest-timeout", "5"], /Unknown option '--jest-timeout'/],
    ["a glob that matches no file", ["ok.side", "nothing/*.side"], /the glob "nothing\/\*\.side" matches no file/],
    ["a -c that is not key=value", ["ok.side", "-c", "browserName=chrome headless"], /--capabilities: "headless" is not a key=value pair/],
    ["a -c of broken JSON", ["ok.side", "-c", '{"browserName":'], /--capabilities is not JSON/],
    ["a --config-file that is not there", ["ok.side", "-n", "missing.yml"], /cannot read the config file .*missing\.yml: there is no such file/],
    ["a filter that matches nothing", ["ok.side", "-f", "^nothing$"], /no suite or test matches the filter \/\^nothing\$\//],
    ["a bad --output-format", ["ok.side", "--output-directory", "o", "--output-format", "xml"], /--output-format must be jest or junit, not "xml"/],
  ])("exits 2 naming %s, and plays nothing", async (_, args, message) => {
    const folder = run();
    const played = await play(args, folder);
    expect(played.code).toBe(2);
    expect(played.stderr).toMatch(message);
    expect(played.stdout).not.toContain("plugin bridge");
  });

  it("exits 2 for a broken .side.yml, naming the file and its line", async () => {
    const folder = run();
    writeFileSync(join(folder, ".side.yml"), "baseUrl: http://127.0.0.1:1\ncapabilities:\n  browserName: [chrome\ntimeout: 5\n");
    const played = await play(["ok.side"], folder);
    expect(played.code).toBe(2);
    expect(played.stderr).toMatch(new RegExp(`the config file ${join(folder, ".side.yml").replace(/[.]/g, "\\.")} is not YAML: line \\d`));
    expect(existsSync(join(folder, "out"))).toBe(false);
  });

  it("exits 2 for a key side-runner's config does not have, naming it and its line", async () => {
    const folder = run();
    writeFileSync(join(folder, "ci.yml"), "baseUrl: http://127.0.0.1:1\nbaseURL: http://127.0.0.1:2\n");
    const played = await play(["ok.side", "--config-file", "ci.yml"], folder);
    expect(played.code).toBe(2);
    expect(played.stderr).toContain(`the config file ${join(folder, "ci.yml")}, line 2: "baseURL" is not a key side-runner's config has`);
  });
});
