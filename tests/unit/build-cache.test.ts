// The kept builds (drivers/build/cache.mjs) that npm run play and the page bundles start from:
// built once, then read from disk while every file they were made of is unchanged, and built
// again as soon as one changed, so a program or page never runs a stale build. Each test keeps
// its builds in a folder of its own, and bundles a small program of its own.
import { mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

let dir: string;
let cacheDir: string;
let cachedBuild: typeof import("../../drivers/build/cache.mjs").cachedBuild;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "ide-core-build-cache-"));
  cacheDir = join(dir, "cache");
  process.env.IDE_CORE_BUILD_CACHE = cacheDir;
  // The cache folder is read once, when the module loads.
  vi.resetModules();
  ({ cachedBuild } = await import("../../drivers/build/cache.mjs"));
  writeFileSync(join(dir, "entry.ts"), 'import { word } from "./word.ts";\nconsole.log(word satisfies string);\n');
  writeFileSync(join(dir, "word.ts"), 'export const word: string = "first";\n');
});

afterEach(() => {
  delete process.env.IDE_CORE_BUILD_CACHE;
  rmSync(dir, { recursive: true, force: true });
});

const options = () => ({ entryPoints: [join(dir, "entry.ts")], bundle: true, format: "esm" as const, outdir: "out", logLevel: "silent" as const });
const script = (outputs: { path: string; text: string }[]) => outputs.find((o) => o.path.endsWith(".js"))!.text;

describe("a kept build", () => {
  it("is built at the first call and read from disk at the next while its files are unchanged", async () => {
    const first = await cachedBuild("sample", options());
    expect(first.built).toBe(true);
    expect(script(first.outputs)).toContain('"first"');
    const again = await cachedBuild("sample", options());
    expect(again.built).toBe(false);
    expect(script(again.outputs)).toBe(script(first.outputs));
    expect(again.outputs[0].file).toMatch(new RegExp(`^${cacheDir}`));
  });

  it("is built again when a file it imports changed, and gives the new code", async () => {
    await cachedBuild("sample", options());
    writeFileSync(join(dir, "word.ts"), 'export const word: string = "second";\n');
    const changed = await cachedBuild("sample", options());
    expect(changed.built).toBe(true);
    expect(script(changed.outputs)).toContain('"second"');
    expect(script(changed.outputs)).not.toContain('"first"');
  });

  it("is built again when its options or its salt differ, each kept apart", async () => {
    await cachedBuild("sample", options());
    const minified = await cachedBuild("sample", { ...options(), minify: true });
    expect(minified.built).toBe(true);
    const salted = await cachedBuild("sample", options(), "a plugin's new code");
    expect(salted.built).toBe(true);
    expect((await cachedBuild("sample", options())).built).toBe(false);
  });

  it("is built again when its kept output was removed", async () => {
    const first = await cachedBuild("sample", options());
    unlinkSync(first.outputs[0].file!);
    const again = await cachedBuild("sample", options());
    expect(again.built).toBe(true);
    expect(script(again.outputs)).toBe(script(first.outputs));
  });

  it("rejects with esbuild's message for a source that does not compile, keeping nothing", async () => {
    writeFileSync(join(dir, "word.ts"), "export const word = ;\n");
    await expect(cachedBuild("sample", options())).rejects.toThrow(/word\.ts/);
    expect(readdirSync(dir)).not.toContain("cache");
  });
});
