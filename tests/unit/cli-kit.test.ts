// The command lines' kit (apps/cli/): one usage error that names the bad option, the options
// npm start and npm run play share read by one function, and one choice of what to play or
// export, with `--suite` and `--test` never both.
import { describe, expect, it } from "vitest";
import { readArgs, UsageError } from "../../apps/cli/usage.ts";
import { BROWSER_ARGS, readBrowserOptions } from "../../apps/cli/browser.ts";
import { chooseTargets, targetChoice } from "../../apps/cli/targets.ts";
import { ProjectError } from "../../apps/cli/project.ts";
import { readPlayOptions } from "../../apps/play/args.ts";
import { missingPluginsHint } from "../../apps/play/play.ts";
import { readStartOptions } from "../../apps/host/args.ts";
import { readExportOptions } from "../../apps/export/export.ts";
import type { SideProject } from "../../services/side/index.ts";
import { servesExampleSite } from "../../apps/host/compose.ts";
import { EXAMPLE_PROJECT_PATH } from "../../drivers/host/site.ts";
import { relative } from "node:path";
import { shopProject } from "../support/shared.ts";

const refusal = (read: () => unknown): UsageError => {
  try {
    read();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error("it was not refused");
};

describe("the command lines' usage errors", () => {
  it.each([
    ["an unknown option", ["x.side", "--colour"], "--colour"],
    ["an option without its value", ["x.side", "--junit"], "--junit"],
    ["a port that is not a number", ["x.side", "--port", "http"], "--port"],
    ["a port past 65535", ["x.side", "--port", "70000"], "--port"],
    ["--workers 0", ["x.side", "--workers", "0"], "--workers"],
    ["a base URL that is not http", ["x.side", "--base-url", "ftp://x"], "--base-url"],
    ["a WebDriver URL that is not one", ["x.side", "--webdriver-url", "grid"], "--webdriver-url"],
    ["capabilities that are not an object", ["x.side", "--capabilities", "[1]"], "--capabilities"],
    ["a --files folder that does not exist", ["x.side", "--files", "/no/such/folder"], "--files"],
    ["an executor that is not one", ["x.side", "--executor", "selenium"], "--executor"],
  ])("names the bad option for %s, in one line", (_, argv, option) => {
    const error = refusal(() => readPlayOptions(argv));
    expect(error.message).toContain(option);
    expect(error.message).not.toContain("\n");
  });

  it("refuses the same bad option with the same sentence in npm start and npm run play", () => {
    for (const bad of [["--workers", "1.5"], ["--port", "-1"], ["--base-url", "localhost"], ["--files", "/no/such/folder"], ["--executor", "chrome"]]) {
      const start = refusal(() => readStartOptions(bad));
      const play = refusal(() => readPlayOptions(["x.side", ...bad]));
      expect(start.message, bad.join(" ")).toBe(play.message);
    }
  });

  it("says a missing value in words that name the option", () => {
    expect(refusal(() => readArgs({ args: ["--out"], options: { out: { type: "string" } } })).message).toBe("--out needs a value");
  });
});

describe("the options npm start and npm run play share", () => {
  const argv = ["--webdriver-url", "http://grid:4444", "--capabilities", '{"browserName":"chrome"}', "--workers", "3", "--base-url", "http://site", "--files", ".", "--executor", "webdriver", "--no-heal", "--port", "0", "--token-file", "/tmp/t"];
  const expected = {
    filesDir: process.cwd(),
    player: "webdriver",
    heal: false,
    webdriverUrl: "http://grid:4444",
    capabilities: { browserName: "chrome" },
    workers: 3,
    baseUrl: "http://site",
    port: 0,
    tokenFile: "/tmp/t",
  };

  it("are read by one function into the same options for both commands", () => {
    const shared = readBrowserOptions(readArgs({ args: argv, options: BROWSER_ARGS }).values, "on");
    expect(shared).toEqual({ ...expected, trace: "on", retries: 0 });
    expect(readStartOptions(argv)).toMatchObject(expected);
    expect(readPlayOptions(["x.side", ...argv])).toMatchObject(expected);
  });

  it("have the same defaults in both commands", () => {
    const start = readStartOptions([])!;
    const play = readPlayOptions(["x.side"])!;
    const pick = (o: typeof start | typeof play) => ({ webdriverUrl: o.webdriverUrl, capabilities: o.capabilities, workers: o.workers, baseUrl: o.baseUrl, port: o.port, tokenFile: o.tokenFile });
    expect(pick(start)).toEqual(pick(play));
    expect(pick(play)).toMatchObject({ webdriverUrl: null, capabilities: undefined, workers: 1, baseUrl: null });
    expect([start.filesDir, play.filesDir]).toEqual([null, null]);
    expect([start.player, play.player]).toEqual(["devtools", "devtools"]);
    expect([start.heal, play.heal]).toEqual([true, true]);
  });

  it("keep traces by default in the IDE and only a failed test's in npm run play, and refuse another --trace", () => {
    expect([readStartOptions([])!.trace, readPlayOptions(["x.side"])!.trace]).toEqual(["on", "retain-on-failure"]);
    expect(readPlayOptions(["x.side", "--trace", "off"])!.trace).toBe("off");
    expect(() => readStartOptions(["--trace", "always"])).toThrow("--trace must be on, off or retain-on-failure, not \"always\"");
  });

  it("read --retries in both commands and npm run play's --report, with no retries and no report by default", () => {
    expect(readPlayOptions(["x.side"])).toMatchObject({ retries: 0, report: null });
    expect([readStartOptions([])!.retries, readStartOptions(["--retries", "3"])!.retries]).toEqual([0, 3]);
    expect(() => readStartOptions(["--retries=-1"])).toThrow('--retries must be a whole number of at least 0, not "-1"');
    expect(() => readStartOptions(["--retries", "-1"])).toThrow("--retries needs a value; one that starts with a dash is written --retries=VALUE");
    expect(readPlayOptions(["x.side", "--retries", "2", "--report", "out"], "/run/here")).toMatchObject({ retries: 2, report: "/run/here/out" });
    expect(() => readPlayOptions(["x.side", "--retries", "twice"])).toThrow('--retries must be a whole number of at least 0, not "twice"');
  });
});

describe("what a command line plays or exports", () => {
  const shop = shopProject() as SideProject;
  const withoutSuites = { ...shop, suites: [] } as SideProject;

  it("takes the suite named, else the test named, else every suite, else every test", () => {
    expect(chooseTargets(shop, targetChoice({ suite: "Default Suite" }))).toEqual([{ kind: "suite", id: (shop.suites[0] as { id: string }).id, name: "Default Suite" }]);
    expect(chooseTargets(shop, targetChoice({ test: "adds to cart" }))).toEqual([{ kind: "test", id: "t-cart", name: "adds to cart" }]);
    expect(chooseTargets(shop, targetChoice({})).map((t) => t.kind)).toEqual(shop.suites.map(() => "suite"));
    expect(chooseTargets(withoutSuites, targetChoice({})).map((t) => t.id)).toEqual(shop.tests.map((t) => t.id));
  });

  it("refuses --suite with --test as a usage error naming both, in play and in export alike", () => {
    for (const read of [() => readPlayOptions(["x.side", "--test", "b", "--suite", "a"]), () => readExportOptions(["x.side", "--language", "ruby-rspec", "--test", "b", "--suite", "a"])]) {
      expect(refusal(read).message).toBe("give --suite or --test, not both");
    }
  });

  it("names what the project has when it lacks the suite or test named", () => {
    expect(() => chooseTargets(shop, { kind: "suite", name: "nope" })).toThrow(ProjectError);
    expect(() => chooseTargets(shop, { kind: "suite", name: "nope" })).toThrow(/no suite named "nope"; its suites: "Default Suite"/);
    expect(() => chooseTargets(withoutSuites, { kind: "test", name: "nope" })).toThrow(/no test named "nope"; its tests: "logs in", "adds to cart"/);
  });
});

describe("the example site, for npm start and npm run play alike", () => {
  it("is served when the project played is the shipped example, however its path is written, unless --base-url names another site", () => {
    expect(servesExampleSite(EXAMPLE_PROJECT_PATH, null)).toBe(true);
    expect(servesExampleSite(relative(process.cwd(), EXAMPLE_PROJECT_PATH), null)).toBe(true);
    expect(servesExampleSite(EXAMPLE_PROJECT_PATH, "http://127.0.0.1:8080")).toBe(false);
    expect(servesExampleSite("/tmp/my-tests.side", null)).toBe(false);
  });
});

describe("npm run play's hint after a run", () => {
  const ended = (command: string, message: string) =>
    ({ failure: { commandId: "c", index: 1, command, target: "", value: "", state: "failed", message } }) as unknown as Parameters<typeof missingPluginsHint>[0][number];
  const unknown = (command: string) => ended(command, `Unknown command ${command}: no registered plugin has it, and it is none of Selenium IDE's commands, which the page under test plays.`);

  it("names each plugin command no plugin had once, and says to connect the plugin, or to check it when plugins were waited for", () => {
    const ends = [unknown("eyesCheck"), unknown("eyesCheck"), ended("click", "element not found")];
    expect(missingPluginsHint(ends, 0)).toBe(
      "hint           eyesCheck is a plugin's command: start the plugin against the plugin bridge above and pass --wait-for-plugins N, or play a suite without it (docs/play.md#plugins-in-ci)",
    );
    expect(missingPluginsHint(ends, 1)).toMatch(/^hint {11}no plugin that registered has eyesCheck: /);
  });

  it("says nothing when no test failed for want of a plugin", () => {
    expect(missingPluginsHint([ended("click", "element not found")], 0)).toBeNull();
  });
});
