// `npm run export` as a user runs it: files written under the packages' names, one line and
// exit 2 for a bad file, language or name, exit 1 when the packages refuse a test.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { exportCode } from "../../services/export/index.ts";
import { shopProject } from "../export/support.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SHOP = join(ROOT, "examples", "shop.side");
const scratch = () => mkdtempSync(join(tmpdir(), "ide-core-export-"));

function exportCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "bin/export.ts", ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env, ...env } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("npm run export", () => {
  it("writes a test's file under the package's filename, as the service writes it", async () => {
    const out = scratch();
    const run = exportCli([SHOP, "--language", "python-pytest", "--test", "adds to cart", "--out", out]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const written = join(out, "test_addstocart.py");
    expect(run.stdout.trim()).toBe(written);
    const expected = await exportCode("python-pytest", shopProject(), { testId: "t-cart" });
    expect(readFileSync(written, "utf8")).toBe("body" in expected ? expected.body : "");
  });

  it("reads a relative project path and --out from the folder npm was run in, as npm run play does", () => {
    const folder = scratch();
    writeFileSync(join(folder, "shop.side"), readFileSync(SHOP, "utf8"));
    const run = exportCli(["shop.side", "--language", "python-pytest", "--test", "adds to cart", "--out", "out"], { INIT_CWD: folder });
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe(join(folder, "out", "test_addstocart.py"));
  });

  it("exits 1 with one line naming the test and the command when the packages refuse it (no plugins here)", () => {
    const run = exportCli([SHOP, "--language", "java-junit", "--suite", "Needs plugins", "--out", scratch()]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toEqual(["export: Test 'logs in' has a problem: Invalid command 'eyesCheckWindow'"]);
  });

  it("writes a declared strategy's locator as the By of its filled template, and exits 1 naming an undeclared one", () => {
    const folder = scratch();
    const project = {
      id: "p", name: "qa", version: "2.0", url: "http://127.0.0.1", urls: [], plugins: [], suites: [],
      locatorStrategies: [{ name: "qa", css: '[data-qa="{value}"]' }],
      tests: [{ id: "t", name: "adds", commands: [{ id: "c", command: "click", target: "qa=add", value: "" }] }],
    };
    writeFileSync(join(folder, "qa.side"), JSON.stringify(project));
    const run = exportCli(["qa.side", "--language", "javascript-mocha", "--out", "out"], { INIT_CWD: folder });
    expect(run.stderr).toBe("");
    expect(readFileSync(run.stdout.trim(), "utf8")).toContain(`By.css("[data-qa=\\"add\\"]")`);
    writeFileSync(join(folder, "bare.side"), JSON.stringify({ ...project, locatorStrategies: [] }));
    const refused = exportCli(["bare.side", "--language", "javascript-mocha", "--out", "out2"], { INIT_CWD: folder });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/strategy "qa"/);
  });

  it.each([
    ["an unknown language", [SHOP, "--language", "cobol"], /unknown language "cobol"/],
    ["no language", [SHOP], /--language is needed/],
    ["an unknown test", [SHOP, "--language", "ruby-rspec", "--test", "nope"], /no test named "nope"/],
    ["an unknown suite", [SHOP, "--language", "ruby-rspec", "--suite", "nope"], /no suite named "nope"/],
    ["a missing file", [join(scratch(), "missing.side"), "--language", "ruby-rspec"], /cannot read .*missing\.side/],
    ["an unknown option", [SHOP, "--language", "ruby-rspec", "--bogus"], /bogus/],
  ])("exits 2 with one line for %s", (_, args, message) => {
    const run = exportCli(args as string[]);
    expect(run.code).toBe(2);
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("exits 2 for a file that is not a usable .side project", () => {
    const file = join(scratch(), "bad.side");
    writeFileSync(file, JSON.stringify({ name: "no id" }));
    const run = exportCli([file, "--language", "ruby-rspec"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/not a usable \.side project/);
  });
});
