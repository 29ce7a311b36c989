// `npm run build:extension` as a user runs it: a real process, what it prints, what it
// writes, and a clear refusal with exit code 1 for a bad option or a folder it must not empty.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { IDE_EXTENSION_ID } from "../../drivers/webextension/identity.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

async function build(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--import", "tsx", "bin/build-extension.ts", ...args], {
      cwd: ROOT,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe("npm run build:extension", () => {
  it("writes the extension to --out and prints its files, its id and how to load it", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "ide-core-cli-build-")), "ext");
    const { code, output } = await build(["--out", out]);
    expect(code).toBe(0);
    expect(output).toContain("manifest.json");
    expect(output).toContain(`Extension id: ${IDE_EXTENSION_ID}`);
    expect(output).toContain(`Load unpacked → ${out}`);
    expect(JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")).manifest_version).toBe(3);
  });

  it("refuses an unknown option with exit code 1 and the usage", async () => {
    const { code, output } = await build(["--outdir", "x"]);
    expect(code).toBe(1);
    expect(output).toContain("Unknown option '--outdir'");
    expect(output).toContain("usage: npm run build:extension");
  });

  it("refuses --out without a folder", async () => {
    const { code, output } = await build(["--out"]);
    expect(code).toBe(1);
    expect(output).toContain("--out needs a value");
    const empty = await build(["--out="]);
    expect(empty.code).toBe(1);
    expect(empty.output).toContain("--out needs a folder");
  });

  it("refuses to write over a folder that is not an earlier build, and leaves it alone", async () => {
    const out = mkdtempSync(join(tmpdir(), "ide-core-cli-build-"));
    writeFileSync(join(out, "thesis.txt"), "years of work");
    const { code, output } = await build(["--out", out]);
    expect(code).toBe(1);
    expect(output).toContain("is not an earlier build");
    expect(readFileSync(join(out, "thesis.txt"), "utf8")).toBe("years of work");
    expect(existsSync(join(out, "manifest.json"))).toBe(false);
  });
});
