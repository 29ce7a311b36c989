// The torture page exported (CONTRACT section 19, issue 26): the torture cases of
// tests/support/torturePage.ts as one suite, exported as javascript-mocha and python-pytest by
// Selenium's own language packages, pass with the language's own runner against headless
// Chromium, the files run exactly as written (tests/export/runners points the runners at
// Debian's Chromium). The cases Selenium's packages cannot write so that they run
// (TortureCase.notExported, per language, with the reason) are left out.
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportCode } from "../../services/export/index.ts";
import { parseSideProject } from "../../services/side/index.ts";
import { servePages } from "../support/browserPages.ts";
import { TORTURE_CASES, TORTURE_PAGES } from "../support/torturePage.ts";
import type { ExportLanguage, TortureCase } from "../support/torturePage.ts";
import { tortureProject } from "../support/torturePlay.ts";
import { runToEnd } from "../support/processes.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const RUNNERS = join(ROOT, "tests", "export", "runners");
const PYTHON = process.env.DEBIAN_PYTHON ?? "/usr/bin/python3";
const exported = (language: ExportLanguage) => TORTURE_CASES.filter((tcase) => !tcase.notExported?.[language]);

let site: Awaited<ReturnType<typeof servePages>>;

beforeAll(async () => {
  site = await servePages(TORTURE_PAGES);
});

afterAll(async () => {
  await site?.close();
});

async function exportTorture(language: ExportLanguage, cases: TortureCase[]) {
  const parsed = parseSideProject(tortureProject(site.origin, cases));
  if (!parsed.ok) throw new Error(parsed.problem);
  const result = await exportCode(language, parsed.project, { suiteId: "s-torture" });
  if ("errorCode" in result) throw new Error(result.error);
  const dir = mkdtempSync(join(tmpdir(), "exported-torture-"));
  writeFileSync(join(dir, result.filename), result.body);
  return { dir, file: join(dir, result.filename) };
}

/** Runs a test runner without blocking this process, which serves the pages. */
const run = (command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) => runToEnd(command, args, options, 150_000);

const runMocha = (file: string) =>
  run(join(ROOT, "node_modules", ".bin", "mocha"), ["--require", join(RUNNERS, "headless-chromium.cjs"), file], {
    env: { ...process.env, NODE_PATH: join(ROOT, "node_modules") },
  });

function runPytest(dir: string, file: string) {
  copyFileSync(join(RUNNERS, "conftest.py"), join(dir, "conftest.py"));
  return run(PYTHON, ["-m", "pytest", "-q", "-p", "no:cacheprovider", file], { cwd: dir });
}

// Both runs start at once, while the site serves them; each test reads its own.
let mocha: Promise<{ status: number | null; output: string }>;
let pytest: Promise<{ status: number | null; output: string }>;

beforeAll(async () => {
  const [js, py] = await Promise.all([exportTorture("javascript-mocha", exported("javascript-mocha")), exportTorture("python-pytest", exported("python-pytest"))]);
  mocha = runMocha(js.file);
  pytest = runPytest(py.dir, py.file);
  // Neither rejects (a runner's failure is its output and status), so nothing is left unhandled.
});

describe("the torture page exported runs with its language's test runner", () => {
  it("passes every exportable case as javascript-mocha with mocha and selenium-webdriver", async () => {
    const result = await mocha;
    expect(result.output).toContain(`${exported("javascript-mocha").length} passing`);
    expect(result.status).toBe(0);
  }, 180_000);

  it("passes every exportable case as python-pytest with Debian's pytest and python3-selenium", async () => {
    const result = await pytest;
    expect(result.output).toContain(`${exported("python-pytest").length} passed`);
    expect(result.status).toBe(0);
  }, 180_000);
});
