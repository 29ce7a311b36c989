// A production file one person holds in mind: none is over 400 lines. Past that, split it by
// meaning (DESIGN.md's style); tests and benchmarks are not held to it.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PRODUCTION = ["apps", "bin", "client", "core", "drivers", "examples", "machines", "services", "ui"];
const MAX_LINES = 400;

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Lines as `wc -l` counts them: a final newline ends the last line, it starts none. */
const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

describe("the production source", () => {
  it(`has no file over ${MAX_LINES} lines`, () => {
    const files = [join(ROOT, "index.ts"), ...PRODUCTION.flatMap((folder) => sources(join(ROOT, folder)))];
    expect(files.length).toBeGreaterThan(100);
    const long = files
      .map((file) => ({ file: relative(ROOT, file), lines: lineCount(readFileSync(file, "utf8")) }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
