// npm run play's side-runner parts as pure functions: the key=value form, the proxy, the config
// file, the options merged (the command line over the file), the globs, the filter, the
// progress line and the jest JSON.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_TIMEOUT_MS, projectFiles, readPlayOptions } from "../../apps/play/args.ts";
import { parseConfig } from "../../apps/play/config.ts";
import { capabilitiesOf, paramsOf, parseKeyValues, proxyOf } from "../../apps/play/keyValues.ts";
import { jestJson } from "../../apps/play/outputs.ts";
import { targetsOf } from "../../apps/play/play.ts";
import { liveLine, progressLine } from "../../apps/play/progress.ts";
import { playedOnce } from "../../apps/play/report.ts";
import type { TestEnded } from "../../core/testEnds.ts";
import { parseSideProject } from "../../services/side/index.ts";

describe("side-runner's key=value form", () => {
  it("reads dotted keys as nested objects, brackets as lists, quotes with their spaces, and JSON values", () => {
    expect(parseKeyValues("browserName=chrome goog:chromeOptions.args=[headless, disable-gpu] a.b='x y' a.c=\"q r\" n=3 t=true", "-c")).toEqual({
      browserName: "chrome",
      "goog:chromeOptions": { args: ["headless", "disable-gpu"] },
      a: { b: "x y", c: "q r" },
      n: 3,
      t: true,
    });
  });

  it("refuses a piece that is not a pair, naming it", () => {
    expect(() => parseKeyValues("browserName=chrome headless", "--capabilities")).toThrow('--capabilities: "headless" is not a key=value pair');
    expect(() => parseKeyValues("a..b=1", "-c")).toThrow("empty part");
  });

  it("lays the form over the default capabilities, and takes JSON as it always did", () => {
    const caps = capabilitiesOf("acceptInsecureCerts=true");
    expect(caps.acceptInsecureCerts).toBe(true);
    expect((caps["goog:chromeOptions"] as { args: string[] }).args).toContain("--headless=new");
    expect(capabilitiesOf('{"browserName":"firefox"}')).toEqual({ browserName: "firefox" });
  });

  it("gives every param as a string variable", () => {
    expect(paramsOf("user=ann count=3 words='a b'")).toEqual({ user: "ann", count: "3", words: "a b" });
  });
});

describe("the proxy options", () => {
  it("give the capabilities' proxy as side-runner does for each type", () => {
    expect(proxyOf("direct", undefined)).toEqual({ proxyType: "direct" });
    expect(proxyOf("pac", "http://127.0.0.1/p.pac")).toEqual({ proxyType: "pac", proxyAutoconfigUrl: "http://127.0.0.1/p.pac" });
    expect(proxyOf("manual", "httpProxy=127.0.0.1:3128 sslProxy=127.0.0.1:3129")).toEqual({ proxyType: "manual", httpProxy: "127.0.0.1:3128", sslProxy: "127.0.0.1:3129" });
    expect(proxyOf("socks", "socksProxy=127.0.0.1:1080 socksVersion=5")).toEqual({ proxyType: "manual", socksProxy: "127.0.0.1:1080", socksVersion: 5 });
  });

  it("refuses an unknown type, a pac without its URL and a socks proxy without its host", () => {
    expect(() => proxyOf("vpn", undefined)).toThrow("--proxy-type must be one of direct, system, manual, pac, socks");
    expect(() => proxyOf("pac", undefined)).toThrow("autoconfig URL");
    expect(() => proxyOf("socks", "socksVersion=5")).toThrow("socksProxy=HOST:PORT");
  });
});

describe("the config file", () => {
  it("reads v4's keys", () => {
    expect(parseConfig("baseUrl: http://127.0.0.1:9\ntimeout: 500\ncapabilities:\n  browserName: chrome\nparams: a=1\n", "c.yml")).toEqual({
      baseUrl: "http://127.0.0.1:9",
      timeout: 500,
      capabilities: { browserName: "chrome" },
      params: "a=1",
    });
    expect(parseConfig("", "c.yml")).toEqual({});
  });

  it("names the file and the line of broken YAML, of an unknown key and of a value of the wrong kind", () => {
    expect(() => parseConfig("baseUrl: x\nparams:\n  a: [1\nretries: 1\n", "c.yml")).toThrow(/^the config file c\.yml is not YAML: line \d+: /);
    expect(() => parseConfig("baseUrl: x\nworkers: 2\n", "c.yml")).toThrow('the config file c.yml, line 2: "workers" is not a key side-runner\'s config has');
    expect(() => parseConfig("filter: a\n\ntimeout: soon\n", "c.yml")).toThrow("the config file c.yml, line 3: timeout:");
    expect(() => parseConfig("- a\n- b\n", "c.yml")).toThrow("must be a mapping");
  });
});

describe("npm run play's options with a config file", () => {
  const folder = () => mkdtempSync(join(tmpdir(), "ide-core-play-args-"));

  it("take .side.yml from the run directory, with the command line winning", () => {
    const run = folder();
    writeFileSync(join(run, ".side.yml"), "baseUrl: http://127.0.0.1:9\ntimeout: 500\nretries: 2\nmaxWorkers: 3\nserver: http://127.0.0.1:4444\nparams:\n  a: '1'\n  b: '2'\n");
    const options = readPlayOptions(["x.side", "-t", "700", "-p", "b=3", "--base-url", "http://127.0.0.1:8"], run)!;
    expect(options).toMatchObject({ files: [join(run, "x.side")], timeoutMs: 700, retries: 2, workers: 3, webdriverUrl: "http://127.0.0.1:4444", baseUrl: "http://127.0.0.1:8", params: { a: "1", b: "3" }, configFile: join(run, ".side.yml") });
  });

  it("default to side-runner's timeout and no config file when there is none", () => {
    expect(readPlayOptions(["x.side"], folder())).toMatchObject({ timeoutMs: DEFAULT_TIMEOUT_MS, configFile: null, params: {}, filter: null, output: null });
  });

  it("take v3's and v4's short names, and refuse the two names of one option given different values", () => {
    const options = readPlayOptions(["x.side", "-s", "http://127.0.0.1:4444", "-w", "2", "-r", "1", "-f", "^a", "-z", "shots", "--output-directory", "out"], "/run")!;
    expect(options).toMatchObject({ webdriverUrl: "http://127.0.0.1:4444", workers: 2, retries: 1, screenshotDir: "/run/shots", output: { dir: "/run/out", format: "jest" } });
    expect(options.filter!.test("abc")).toBe(true);
    expect(() => readPlayOptions(["x.side", "-w", "2", "--workers", "3"], "/run")).toThrow("--workers and --max-workers are the same option");
    expect(() => readPlayOptions(["x.side", "-f", "("], "/run")).toThrow("--filter is not a regular expression");
    expect(() => readPlayOptions(["x.side", "--proxy-options", "a=1"], "/run")).toThrow("--proxy-options needs --proxy-type");
  });

  it("put the proxy into the capabilities", () => {
    expect(readPlayOptions(["x.side", "--proxy-type", "manual", "--proxy-options", "httpProxy=127.0.0.1:3128"], "/run")!.capabilities!.proxy).toEqual({ proxyType: "manual", httpProxy: "127.0.0.1:3128" });
  });
});

describe("the projects named", () => {
  it("expand globs in order, each file once, and refuse a glob that matches nothing", () => {
    const run = mkdtempSync(join(tmpdir(), "ide-core-globs-"));
    mkdirSync(join(run, "t"));
    for (const f of ["t/b.side", "t/a.side", "c.side"]) writeFileSync(join(run, f), "{}");
    expect(projectFiles(["c.side", "t/*.side", "t/a.side"], run)).toEqual([join(run, "c.side"), join(run, "t/a.side"), join(run, "t/b.side")]);
    expect(() => projectFiles(["none/**/*.side"], run)).toThrow('the glob "none/**/*.side" matches no file');
  });
});

describe("-f, the filter", () => {
  const parsed = parseSideProject({
    id: "p",
    name: "P",
    url: "http://127.0.0.1:1",
    version: "2.0",
    tests: ["login", "logout", "search"].map((name) => ({ id: name, name, commands: [] })),
    suites: [
      { id: "s1", name: "smoke", persistSession: false, parallel: false, timeout: 300, tests: ["login"] },
      { id: "s2", name: "empty smoke", persistSession: false, parallel: false, timeout: 300, tests: [] },
    ],
    urls: [],
    plugins: [],
  });
  if (!parsed.ok) throw new Error(parsed.problem);
  const all = { target: { kind: "all" } as const };

  it("plays the suites whose name matches, leaving out one without tests", () => {
    expect(targetsOf(parsed.project, { ...all, filter: /smoke/ }).map((t) => `${t.kind} ${t.name}`)).toEqual(["suite smoke"]);
  });

  it("plays the tests whose name matches, each alone, when no suite's does", () => {
    expect(targetsOf(parsed.project, { ...all, filter: /^log/ }).map((t) => `${t.kind} ${t.name}`)).toEqual(["test login", "test logout"]);
    expect(targetsOf(parsed.project, { ...all, filter: /nothing/ })).toEqual([]);
  });
});

describe("the progress line", () => {
  it("says played, total, failures and the time left at the pace so far", () => {
    expect(progressLine({ played: 12, total: 40, failed: 1, elapsedMs: 12_000 })).toBe("12/40 played, 1 failed, about 28 s left");
    expect(progressLine({ played: 1, total: 40, failed: 0, elapsedMs: 60_000 })).toBe("1/40 played, 0 failed, about 39 min left");
  });

  it("gives no estimate before the first test ends, nor once all have", () => {
    expect(progressLine({ played: 0, total: 3, failed: 0, elapsedMs: 5_000 })).toBe("0/3 played, 0 failed");
    expect(progressLine({ played: 3, total: 3, failed: 2, elapsedMs: 5_000 })).toBe("3/3 played, 2 failed");
  });
});

describe("the jest JSON", () => {
  const ended = (testName: string, result: TestEnded["result"]): TestEnded => ({
    runId: "r",
    testId: testName,
    testName,
    suiteName: "S",
    result,
    tryNo: 1,
    durationMs: 10,
    failure: result === "passed" ? null : { commandId: "c", index: 2, command: "click", target: "id=x", value: "", state: "failed", message: "No element" },
    healed: [],
  });

  it("has side-runner's titles, a result per project and the totals", () => {
    const json = jestJson(
      [
        { file: "/a.side", name: "A", groups: [{ name: "S", tests: [playedOnce(ended("one", "passed")), playedOnce(ended("two", "failed"))] }], startedAt: 1, endedAt: 2 },
        { file: "/b.side", name: "B", groups: [{ name: "S", tests: [playedOnce(ended("one", "passed"))] }], startedAt: 2, endedAt: 3 },
      ],
      1,
    ) as { testResults: Array<{ name: string; status: string; assertionResults: Array<Record<string, unknown>> }> };
    expect(json).toMatchObject({ numTotalTests: 3, numPassedTests: 2, numFailedTests: 1, numTotalTestSuites: 2, numFailedTestSuites: 1, success: false });
    expect(json.testResults.map((r) => [r.name, r.status])).toEqual([
      ["/a.side", "failed"],
      ["/b.side", "passed"],
    ]);
    expect(json.testResults[0].assertionResults[1]).toMatchObject({
      ancestorTitles: ["Running project A", "Running suite S"],
      title: "Running test two",
      status: "failed",
      failureMessages: ["#2 click id=x: No element"],
    });
  });
});

describe("the live line", () => {
  it("on a terminal, clears itself before each test's lines and draws itself again below them", () => {
    const written: string[] = [];
    const out: string[] = [];
    const terminal = { write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream;
    const live = liveLine(2, (line) => out.push(line), terminal);
    live.lines(["passed  one"]);
    live.ended(false);
    live.close();
    expect(out).toEqual(["passed  one"]);
    expect(written).toEqual(["0/2 played, 0 failed", "\r\x1b[2K", "0/2 played, 0 failed", "\r\x1b[2K", expect.stringMatching(/^1\/2 played, 0 failed, about \d+ s left$/), "\r\x1b[2K"]);
  });

  it("without a terminal, passes the lines on and writes nothing else", () => {
    const out: string[] = [];
    const live = liveLine(2, (line) => out.push(line), null);
    live.lines(["passed  one"]);
    live.ended(true);
    live.close();
    expect(out).toEqual(["passed  one"]);
  });
});
