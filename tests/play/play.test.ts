// `npm run play` as CI runs it: a real process, headless Chromium through chromedriver against
// the example site, its lines, its exit codes and its JUnit report parsed with an XML parser;
// bad arguments; an unreachable WebDriver URL; and a plugin over the bridge in a CLI run.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectPlugin } from "../../client/index.ts";
import { startExampleSite } from "../../drivers/host/site.ts";
import type { ExampleSite } from "../../drivers/host/site.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SHOP = join(ROOT, "examples", "shop.side");
let site: ExampleSite;
let dir: string;

beforeAll(async () => {
  site = await startExampleSite();
  dir = mkdtempSync(join(tmpdir(), "ide-core-play-"));
});
afterAll(async () => {
  await site?.close();
});

interface Played {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run play -- ARGS`, as npm runs it (node bin/run.mjs bin/play.ts), on a free port with a token file of its own. */
function play(args: string[], options: { env?: Record<string, string>; onStdout?: (text: string) => void } = {}): Promise<Played> {
  const child = spawn(process.execPath, ["bin/run.mjs", "bin/play.ts", ...args, "--port", "0", "--token-file", join(dir, "token")], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...options.env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    options.onStdout?.(stdout);
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
}

const command = (id: string, name: string, target = "", value = "") => ({ id, comment: "", command: name, target, targets: [], value });
/** A project of the example site's shop: `cart` passes; `bad cart` expects two items and fails. */
function shopProject(file: string, suite: { parallel?: boolean; tests?: string[] } = {}, extra: object[] = []) {
  const tests = [
    { id: "t-cart", name: "cart", commands: [command("c1", "open", "/shop"), command("c2", "click", "linkText=Add to cart"), command("c3", "assertText", "css=.cart-count", "1")] },
    { id: "t-bad", name: "bad cart", commands: [command("b1", "open", "/shop"), command("b2", "assertText", "css=.cart-count", "2")] },
    { id: "t-cart2", name: "cart again", commands: [command("d1", "open", "/shop"), command("d2", "click", "linkText=Add to cart"), command("d3", "assertText", "css=.cart-count", "1")] },
    ...extra,
  ];
  const project = {
    id: "p-play",
    name: "Play project",
    url: "http://127.0.0.1:1",
    version: "2.0",
    tests,
    suites: [{ id: "s-1", name: "Shop suite", persistSession: false, parallel: suite.parallel ?? false, timeout: 300, tests: suite.tests ?? ["t-cart", "t-bad"] }],
    urls: [],
    plugins: [],
  };
  const path = join(dir, file);
  writeFileSync(path, JSON.stringify(project));
  return path;
}

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" });
const asList = <T,>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

describe("npm run play", () => {
  it("plays a passing test, prints its line and the bridge's, exits 0, and writes a JUnit report", async () => {
    const junit = join(dir, "pass.xml");
    const run = await play([SHOP, "--test", "adds to cart", "--base-url", site.url, "--junit", junit]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^plugin bridge {2}ws:\/\/127\.0\.0\.1:\d+\/plugins\?id=YOUR_PLUGIN_ID&token=\S+$/m);
    expect(run.stdout).toMatch(/^passed {2}adds to cart {2}\d+\.\d\d s$/m);
    expect(run.stdout).toMatch(/^1 test: 1 passed, 0 failed, 0 fatal in \d+\.\d\d s$/m);
    const report = xml.parse(readFileSync(junit, "utf8"));
    expect(report.testsuites).toMatchObject({ name: "Shop checkout", tests: "1", failures: "0", errors: "0" });
    const suite = report.testsuites.testsuite;
    expect(suite).toMatchObject({ name: "Shop checkout", tests: "1" });
    expect(suite.testcase).toMatchObject({ name: "adds to cart", classname: "Shop checkout" });
    expect(suite.testcase.failure).toBeUndefined();
  });

  it("plays the shipped example as docs/play.md shows it, against the example site it serves, and exits 0", async () => {
    const documented = readFileSync(join(ROOT, "docs", "play.md"), "utf8").match(/^npm run play -- (examples\/shop\.side.*?)\s+#/m)![1];
    const args = documented.match(/"[^"]*"|\S+/g)!.map((arg) => arg.replace(/^"|"$/g, ""));
    const run = await play(args);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^plays against {2}http:\/\/127\.0\.0\.1:\d+ \(the example site, served for the shipped example\)$/m);
    expect(run.stdout).toMatch(/^passed {2}adds to cart {2}\(suite Default Suite\) {2}\d+\.\d\d s$/m);
    expect(run.stdout).toMatch(/^1 test: 1 passed, 0 failed, 0 fatal in \d+\.\d\d s$/m);
  });

  it("names the plugin commands no plugin registered when the example's suite that needs plugins plays alone", async () => {
    const run = await play([SHOP, "--suite", "Needs plugins"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "failed at eyesCheckWindow: Unknown command eyesCheckWindow: no registered plugin has it, and it is none of Selenium IDE's commands, which the page under test plays.",
    );
    // After the summary, once: what to do about it.
    expect(run.stdout).toMatch(
      /^2 tests: 0 passed, 2 failed, 0 fatal in \d+\.\d\d s\nhint {11}eyesCheckWindow, exampleCheck are plugins' commands: start the plugin against the plugin bridge above and pass --wait-for-plugins N, or play a suite without it \(docs\/play\.md#plugins-in-ci\)$/m,
    );
    // With --base-url, the site is the user's: nothing is served.
    const given = await play([SHOP, "--test", "adds to cart", "--base-url", site.url]);
    expect(given.stdout).toContain(`plays against  ${site.url} (--base-url)`);
    expect(given.code).toBe(0);
  });

  it("passes over disabled commands (//), a plugin's among them, with no unknown-command failure or hint, and exits 0", async () => {
    const withDisabled = {
      id: "t-off",
      name: "with disabled",
      commands: [
        command("o1", "open", "/shop"),
        command("o2", "//eyesCheckWindow", "cart"),
        command("o3", "click", "linkText=Add to cart"),
        command("o4", "//click", "linkText=Add to cart"),
        command("o5", "assertText", "css=.cart-count", "1"),
      ],
    };
    const path = shopProject("disabled.side", {}, [withDisabled]);
    const run = await play([path, "--test", "with disabled", "--base-url", site.url]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^passed {2}with disabled {2}\d+\.\d\d s$/m);
    expect(run.stdout).not.toMatch(/Unknown command|^hint/m);
  });

  it("plays a suite with a failing test on, names the failed command, exits 1, and reports the failure", async () => {
    const junit = join(dir, "fail.xml");
    const run = await play([shopProject("fail.side"), "--base-url", site.url, "--junit", junit]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^passed {2}cart {2}\(suite Shop suite\)/m);
    expect(run.stdout).toMatch(/^failed {2}bad cart {2}\(suite Shop suite\)/m);
    expect(run.stdout).toMatch(/^ {8}failed at assertText "css=\.cart-count": .+$/m);
    expect(run.stdout).toMatch(/^2 tests: 1 passed, 1 failed, 0 fatal/m);
    const report = xml.parse(readFileSync(junit, "utf8"));
    expect(report.testsuites).toMatchObject({ tests: "2", failures: "1", errors: "0" });
    const cases = asList(report.testsuites.testsuite.testcase);
    expect(cases.map((c: { name: string }) => c.name)).toEqual(["cart", "bad cart"]);
    // CONTRACT section 17: the message begins #N COMMAND TARGET:.
    expect(cases[1].failure.message).toMatch(/^#2 assertText css=\.cart-count: /);
    expect(cases[0].failure).toBeUndefined();
  });

  it("plays a parallel suite with two workers, every test in its own session", async () => {
    const junit = join(dir, "parallel.xml");
    const run = await play([shopProject("parallel.side", { parallel: true, tests: ["t-cart", "t-cart2"] }), "--base-url", site.url, "--workers", "2", "--junit", junit]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("with 2 workers");
    expect(run.stdout).toMatch(/^2 tests: 2 passed/m);
    const cases = asList(xml.parse(readFileSync(junit, "utf8")).testsuites.testsuite.testcase);
    expect(cases.map((c: { name: string }) => c.name).sort()).toEqual(["cart", "cart again"]);
  });

  it("ends the tests fatal naming an unreachable WebDriver URL, exit 1", async () => {
    const junit = join(dir, "unreachable.xml");
    const run = await play([SHOP, "--test", "adds to cart", "--webdriver-url", "http://127.0.0.1:9", "--junit", junit]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^fatal {3}adds to cart/m);
    expect(run.stdout).toContain("http://127.0.0.1:9");
    const report = xml.parse(readFileSync(junit, "utf8"));
    expect(report.testsuites).toMatchObject({ tests: "1", failures: "0", errors: "1" });
    expect(report.testsuites.testsuite.testcase.error.message).toContain("http://127.0.0.1:9");
  });

  it("runs a bridge plugin's command in the run once the plugin registered (--wait-for-plugins)", async () => {
    const file = shopProject("plugin.side", { tests: ["t-plugin"] }, [
      { id: "t-plugin", name: "checked by a plugin", commands: [command("e1", "open", "/shop"), command("e2", "shopCheck", "the shop")] },
    ]);
    const executed: string[] = [];
    let connecting: Promise<void> | null = null;
    const run = await play([file, "--base-url", site.url, "--wait-for-plugins", "1"], {
      onStdout(text) {
        const line = text.match(/^plugin bridge {2}(\S+)$/m);
        if (!line || connecting) return;
        const url = line[1].replace("YOUR_PLUGIN_ID", "shop-checker");
        connecting = (async () => {
          const client = await connectPlugin({ url, id: "shop-checker" });
          client.onCommand("shopCheck", (cmd) => {
            executed.push(cmd.target);
            return true;
          });
          expect(await client.register({ name: "Shop checker", version: "1.0.0", commands: [{ id: "shopCheck", name: "shop check" }] })).toBe(true);
        })();
      },
    });
    await connecting;
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(executed).toEqual(["the shop"]);
    expect(run.stdout).toMatch(/^passed {2}checked by a plugin/m);
  });

  it("exits 2 saying so when no plugin registers in time", async () => {
    const run = await play([SHOP, "--test", "adds to cart", "--wait-for-plugins", "1"], { env: { PLAY_PLUGIN_WAIT_MS: "1500" } });
    expect(run.code).toBe(2);
    expect(run.stderr.split("\n")[0]).toBe("npm run play: 0 of 1 plugins registered within 1.5 s; nothing was played");
    expect(run.stdout).not.toMatch(/^passed/m);
  });
});

describe("npm run play refuses bad input in one line, exit 2", () => {
  it.each([
    ["no file", [], "npm run play: name the .side file to play, e.g. npm run play -- tests.side"],
    ["a missing file", ["nowhere.side"], /^npm run play: cannot read the project file .*nowhere\.side: there is no such file$/],
    ["a file that is not JSON", ["@notjson"], /^npm run play: the project file .*notjson\.side is not JSON: /],
    ["an unknown suite", [SHOP, "--suite", "Nope"], 'npm run play: the project has no suite named "Nope"; its suites: "Default Suite", "Needs plugins"'],
    ["an unknown test", [SHOP, "--test", "Nope"], /^npm run play: the project has no test named "Nope"; its tests: "adds to cart", "logs in"/],
    ["--workers 0", [SHOP, "--workers", "0"], 'npm run play: --workers must be a whole number of at least 1, not "0"'],
    ["--suite with --test", [SHOP, "--suite", "a", "--test", "b"], "npm run play: give --suite or --test, not both"],
    ["capabilities that are not an object", [SHOP, "--capabilities", "[1]"], /^npm run play: --capabilities must be a JSON object/],
    ["an unknown option", [SHOP, "--fast"], /^npm run play: Unknown option '--fast'/],
  ])("%s", async (_, args, first) => {
    const notJson = join(dir, "notjson.side");
    writeFileSync(notJson, "{ not json");
    const run = await play((args as string[]).map((a) => (a === "@notjson" ? notJson : a)));
    expect(run.code).toBe(2);
    const line = run.stderr.split("\n")[0];
    if (typeof first === "string") expect(line).toBe(first);
    else expect(line).toMatch(first);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stdout).not.toContain("plugin bridge");
  });
});

describe("npm run play and healed commands (CONTRACT section 18)", () => {
  /** A test whose click's target is gone from the page while one of its targets still finds the link. */
  const healingProject = () =>
    shopProject("heal.side", { tests: ["t-heal"] }, [
      {
        id: "t-heal",
        name: "heals",
        commands: [
          command("h1", "open", "/shop"),
          { ...command("h2", "click", "id=renamed-add"), targets: [["css=#renamed-add", "css:finder"], ["linkText=Add to cart", "linkText"]] },
          command("h3", "assertText", "css=.cart-count", "1"),
        ],
      },
    ]);

  it("passes a test whose command healed, prints the healed command under it, and counts it in the summary", async () => {
    const run = await play([healingProject(), "--base-url", site.url]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^passed {2}heals/m);
    expect(run.stdout).toContain("        healed  #2 click: id=renamed-add -> linkText=Add to cart (score 1.00)");
    expect(run.stdout).toMatch(/^1 test: 1 passed, 0 failed, 0 fatal, 1 healed in /m);
  });

  it("fails the same test with --no-heal, naming the locator that would have worked", async () => {
    const run = await play([healingProject(), "--base-url", site.url, "--no-heal"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/failed at click "id=renamed-add": click: id=renamed-add found nothing; linkText=Add to cart would have found the element \(score 1\.00\), but healing is off\./);
    expect(run.stdout).not.toContain("healed  #");
  });
});
