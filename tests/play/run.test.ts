// bin/run.mjs, what `npm run play` starts: a TypeScript program run as the one module esbuild
// made of it, kept between starts and made again when a source changed. Each test runs a small
// program of its own, with its builds in a folder of its own, in a real process.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
let dir: string;
let cache: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ide-core-run-"));
  // Kept where npm run play keeps its own, so the build's package imports resolve as they do there.
  mkdirSync(join(ROOT, "node_modules", ".cache"), { recursive: true });
  cache = mkdtempSync(join(ROOT, "node_modules", ".cache", "ide-core-run-test-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  // The program reads a file beside it through its own import.meta.url, and imports a package.
  writeFileSync(
    join(dir, "program.ts"),
    [
      'import { readFileSync } from "node:fs";',
      'import { z } from "zod";',
      'import { word } from "./word.ts";',
      'const beside: string = readFileSync(new URL("./beside.txt", import.meta.url), "utf8").trim();',
      "console.log(JSON.stringify({ word, beside, args: process.argv.slice(2), parsed: z.number().parse(7) }));",
    ].join("\n"),
  );
  writeFileSync(join(dir, "word.ts"), 'export const word: string = "first";\n');
  writeFileSync(join(dir, "beside.txt"), "next to the source\n");
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
});

function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["bin/run.mjs", join(dir, "program.ts"), ...args], { cwd: ROOT, env: { ...process.env, IDE_CORE_BUILD_CACHE: cache } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("bin/run.mjs", () => {
  it("runs the program with its arguments, its own import.meta.url and its packages, from a build it keeps", async () => {
    const first = await run("a", "--b", "c d");
    expect(first.stderr).toBe("");
    expect(JSON.parse(first.stdout)).toEqual({ word: "first", beside: "next to the source", args: ["a", "--b", "c d"], parsed: 7 });
    const kept = readdirSync(cache);
    expect(kept.filter((f) => f.endsWith(".mjs"))).toHaveLength(1);
    const again = await run("e");
    expect(JSON.parse(again.stdout)).toMatchObject({ word: "first", args: ["e"] });
    expect(readdirSync(cache)).toEqual(kept);
  });

  it("runs the changed code once a source the program imports changed", async () => {
    await run();
    writeFileSync(join(dir, "word.ts"), 'export const word: string = "second";\n');
    const changed = await run();
    expect(JSON.parse(changed.stdout)).toMatchObject({ word: "second" });
  });

  it("says which source does not compile, where, and runs nothing", async () => {
    writeFileSync(join(dir, "word.ts"), "export const word = ;\n");
    const broken = await run();
    expect(broken.code).toBe(1);
    expect(broken.stdout).toBe("");
    expect(broken.stderr).toMatch(/word\.ts:1:20: ERROR: Unexpected ";"/);
  });
});
