// Exported code runs: shop.side's suite, exported through ide.exportCode with a stand-in
// plugin writing its commands, passes against the example site with the language's own test
// runner (mocha with selenium-webdriver; Debian's pytest with python3-selenium), and a copy
// whose assertion cannot hold fails. The exported files are run exactly as written; the
// runners are pointed at Debian's headless Chromium from outside (tests/export/runners/).
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIde } from "../../index.ts";
import { startExampleSite } from "../../drivers/host/site.ts";
import type { ExampleSite } from "../../drivers/host/site.ts";
import { shopProject } from "../export/support.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const RUNNERS = join(ROOT, "tests", "export", "runners");
const PYTHON = process.env.DEBIAN_PYTHON ?? "/usr/bin/python3";

// The stand-in plugin's code for its commands, per language: exampleCheck stores what the
// example plugin puts when a run starts (the suite's echo reads it); eyesCheckWindow writes none.
const PLUGIN_CODE: Record<string, string> = {
  "javascript-mocha": 'vars["examplePlugin"] = "Example plugin"',
  "python-pytest": 'self.vars["examplePlugin"] = "Example plugin"',
};

let site: ExampleSite;

beforeAll(async () => {
  site = await startExampleSite();
});

afterAll(async () => {
  await site?.close();
});

async function exportShop(language: "javascript-mocha" | "python-pytest", cartCount = "1") {
  const project = shopProject();
  project.url = site.url;
  // Every test of the example in one suite: the plain one and those whose plugin commands the stand-in writes.
  project.suites = [{ ...(project.suites[0] as Record<string, unknown>), tests: project.tests.map((test) => test.id) }];
  for (const command of project.tests.flatMap((test) => test.commands)) if (command.command === "assertText") command.value = cartCount;
  const ide = createIde({
    project,
    deliver: async (_to, message) => {
      const m = message as unknown as { action: string; entity: string; command?: { command: string } };
      if (m.action !== "export" || m.entity !== "command") return undefined;
      return m.command?.command === "exampleCheck" ? PLUGIN_CODE[language] : false;
    },
  });
  const registration = { name: "Shop checks", version: "1", commands: [{ id: "eyesCheckWindow", name: "check" }, { id: "exampleCheck", name: "check" }], exports: { languages: [language] } };
  expect(await ide.handle({ uri: "/register", verb: "post", ...registration }, { id: "checks" })).toBe(true);
  const reply = await ide.exportCode({ language, suiteId: "s-default" });
  ide.stop();
  if ("error" in reply) throw new Error(reply.error);
  const dir = mkdtempSync(join(tmpdir(), "exported-"));
  writeFileSync(join(dir, reply.filename), reply.body);
  return { dir, file: join(dir, reply.filename) };
}

/** Runs a test runner without blocking this process, which serves the example site. */
function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

function runMocha(file: string) {
  return run(join(ROOT, "node_modules", ".bin", "mocha"), ["--require", join(RUNNERS, "headless-chromium.cjs"), file], {
    env: { ...process.env, NODE_PATH: join(ROOT, "node_modules") },
  });
}

function runPytest(dir: string, file: string) {
  copyFileSync(join(RUNNERS, "conftest.py"), join(dir, "conftest.py"));
  return run(PYTHON, ["-m", "pytest", "-q", "-p", "no:cacheprovider", file], { cwd: dir });
}

describe("an exported test runs with its language's test runner", () => {
  it("passes shop.side's suite exported as javascript-mocha with mocha and selenium-webdriver", async () => {
    const { file } = await exportShop("javascript-mocha");
    const run = await runMocha(file);
    expect(run.stdout + run.stderr).toMatch(/3 passing/);
    expect(run.status).toBe(0);
  });

  it("fails the mocha run when an exported assertion does not hold", async () => {
    const { file } = await exportShop("javascript-mocha", "2");
    const run = await runMocha(file);
    expect(run.stdout + run.stderr).toMatch(/2 passing[\s\S]*1 failing/);
    expect(run.status).not.toBe(0);
  });

  it("passes shop.side's suite exported as python-pytest with Debian's pytest and python3-selenium", async () => {
    const { dir, file } = await exportShop("python-pytest");
    const run = await runPytest(dir, file);
    expect(run.stdout + run.stderr).toMatch(/3 passed/);
    expect(run.status).toBe(0);
  });

  it("fails the pytest run when an exported assertion does not hold", async () => {
    const { dir, file } = await exportShop("python-pytest", "2");
    const run = await runPytest(dir, file);
    expect(run.stdout + run.stderr).toMatch(/1 failed, 2 passed/);
    expect(run.status).not.toBe(0);
  });
});
