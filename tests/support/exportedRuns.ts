// Exported code run with its language's own test runner against headless Chromium: mocha with
// selenium-webdriver, and Debian's pytest with python3-selenium (tests/export/runners holds the
// runners' set-up). The export-*-runs browser tests share these.
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runToEnd } from "./processes.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const RUNNERS = join(ROOT, "tests", "export", "runners");
const PYTHON = process.env.DEBIAN_PYTHON ?? "/usr/bin/python3";

/** Writes an exported file into a fresh folder: its folder and its path. */
export function writeExported(prefix: string, result: { filename: string; body: string }): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, result.filename), result.body);
  return { dir, file: join(dir, result.filename) };
}

export function runMocha(file: string, env: NodeJS.ProcessEnv = {}) {
  return runToEnd(join(ROOT, "node_modules", ".bin", "mocha"), ["--require", join(RUNNERS, "headless-chromium.cjs"), file], {
    env: { ...process.env, NODE_PATH: join(ROOT, "node_modules"), ...env },
  });
}

/** `-s`: what the test prints reaches the output a test can read. */
export function runPytest(file: string, env: NodeJS.ProcessEnv = {}) {
  copyFileSync(join(RUNNERS, "conftest.py"), join(dirname(file), "conftest.py"));
  return runToEnd(PYTHON, ["-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", file], { cwd: dirname(file), env: { ...process.env, ...env } });
}
