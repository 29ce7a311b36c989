// npm test's pretest (bin/ensure-test-tools.ts) as it runs before the tests: silent when every
// tool is there, and when one is missing where it may not install (here: a path set by the
// user), one message naming each missing tool, the apt packages and the variable to set, exit 1.
import { afterEach, describe, expect, it } from "vitest";
import { killLeftovers, runScript } from "../support/processes.ts";

const SCRIPT = "bin/ensure-test-tools.ts";

afterEach(killLeftovers);

describe("npm test's pretest", () => {
  it("says nothing and exits 0 when Chromium, chromedriver, Java and Python's selenium and pytest are there", async () => {
    const run = runScript(SCRIPT, []);
    expect(await run.exited).toBe(0);
    expect(run.output()).toBe("");
  });

  it("names a missing Python with selenium and pytest, its packages and DEBIAN_PYTHON, and exits 1", async () => {
    const run = runScript(SCRIPT, [], { DEBIAN_PYTHON: "/nowhere/python3" });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain("Python's selenium and pytest at /nowhere/python3");
    expect(run.output()).toContain('"apt-get install -y python3-selenium python3-pytest"');
    expect(run.output()).toContain("set DEBIAN_PYTHON");
  });

  it("names every missing tool in one message with the packages of all of them", async () => {
    const run = runScript(SCRIPT, [], { CHROMIUM_PATH: "/nowhere/chromium", JAVA_PATH: "/nowhere/java" });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain("Chromium at /nowhere/chromium and Java at /nowhere/java");
    expect(run.output()).toContain('"apt-get install -y chromium chromium-driver default-jre-headless"');
    expect(run.output()).toContain("set CHROMIUM_PATH and JAVA_PATH to executables elsewhere");
    expect(run.output().trim().split("\n")).toHaveLength(1);
  });
});
