// A suite's settings in the browser extension (CONTRACT section 22), end to end: the built
// extension in headless Chromium, a site on 127.0.0.1 in the tab under test. The extension
// plays a suite's tests in its one tab, as Selenium IDE v3 did; persistSession decides the
// variables: the tests of a persistSession suite share theirs (the second uses what the first
// stored), any other suite's test starts with none. A suite's timeout ends a test still playing
// that long `failed`, and the next test goes on.
import { describe, expect, it } from "vitest";
import { cmd, loadProjectFile, useIdeExtension } from "../support/ideExtension.ts";
import { pickSuite } from "../support/idePage.ts";

const ide = useIdeExtension({ plugins: ["opener"], pages: { "/form": '<!doctype html><title>Form</title><input id="name">' }, once: true });

function project(origin: string) {
  const sets = { id: "t-sets", name: "sets", commands: [cmd("s1", "open", "/form"), cmd("s2", "store", "alice", "name")] };
  // Plays far longer than the suite's timeout of 10 s: the timeout ends it.
  const slow = { id: "t-slow", name: "slow", commands: [cmd("w1", "open", "/form"), cmd("w2", "pause", "600000"), cmd("w3", "store", "late", "name")] };
  const uses = { id: "t-uses", name: "uses", commands: [cmd("u1", "open", "/form"), cmd("u2", "type", "id=name", "${name}"), cmd("u3", "assertValue", "id=name", "alice")] };
  const suite = (id: string, name: string, persistSession: boolean, tests: string[]) => ({ id, name, persistSession, parallel: false, timeout: 10, tests });
  return {
    id: "suite-settings",
    name: "Suite settings",
    version: "2.0",
    url: origin,
    tests: [sets, slow, uses],
    suites: [suite("s-shared", "Shared", true, ["t-sets", "t-slow", "t-uses"]), suite("s-fresh", "Fresh", false, ["t-sets", "t-uses"])],
    urls: [origin],
    plugins: [],
  };
}

describe("a suite's settings in the extension", () => {
  it("shares the variables of a persistSession suite's tests, ends a test that outlasts its timeout failed and goes on, and starts another suite's tests with none", async () => {
    const { window } = ide;
    await loadProjectFile(window, project(ide.site.origin));
    const runs = async () => (await window.getByTestId("suite-run").allTextContents()).map((text) => text.replace(/\s+/g, " ").trim());

    await pickSuite(window, "Shared");
    await window.getByRole("button", { name: "Play suite", exact: true }).click();
    await expect.poll(() => window.getByTestId("run-result").textContent().catch(() => null), { timeout: 60_000 }).toBe("failed");
    expect(await runs()).toEqual(["sets ended passed", "slow ended failed", "uses ended passed"]);
    // Nothing in "slow" fails but its suite's timeout: its pause alone would pass.

    await pickSuite(window, "Fresh");
    await window.getByRole("button", { name: "Play suite", exact: true }).click();
    // The result line still says the first suite's "failed" until this run starts: wait for this suite's tests.
    await expect.poll(runs, { timeout: 60_000 }).toEqual(["sets ended passed", "uses ended failed"]);
    await expect.poll(() => window.getByTestId("run-result").textContent().catch(() => null), { timeout: 10_000 }).toBe("failed");
    // The second test had no name to type: `${name}` stayed as written.
    expect(await window.getByTestId("command-message").allTextContents()).toContainEqual(expect.stringContaining("${name}"));
  }, 180_000);
});
