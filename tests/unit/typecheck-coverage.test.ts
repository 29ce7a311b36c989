// `npm test` starts with `tsc --noEmit`; a source file outside tsconfig.json's include is checked
// only if something checked happens to import it, and a bundle entry (the extension's window, its
// worker, its content scripts, the host's recorder) is imported by nothing. Every .ts/.tsx file of
// the checkout, outside node_modules and dist, must be one that tsc lists.
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SKIPPED_FOLDERS = new Set(["node_modules", "dist", ".git"]);

/** Every TypeScript source file under the checkout, as a path relative to it. */
function sourceFiles(folder = ROOT): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [relative(ROOT, path)] : [];
  });
}

/** The files `tsc --listFiles` checks under tsconfig.json, relative to the checkout. */
function filesTscChecks(): Set<string> {
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const out = execFileSync(process.execPath, [tsc, "--noEmit", "--listFiles", "-p", join(ROOT, "tsconfig.json")], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return new Set(
    out
      .split("\n")
      .filter((line) => line.startsWith(ROOT))
      .map((line) => relative(ROOT, line.trim())),
  );
}

describe("the type check", () => {
  it("covers every .ts and .tsx file outside node_modules and dist", () => {
    const checked = filesTscChecks();
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((file) => !checked.has(file))).toEqual([]);
  }, 120_000);
});
