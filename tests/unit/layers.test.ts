// The layers read top-down: apps/ and bin/ assemble programs from index.ts, drivers/ and ui/;
// index.ts re-exports core/; core/ sits over machines/ and services/. A file imports only
// from its own layer or below, so nothing under the core knows a transport or a page exists.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourcesUnder(path));
    else if (/\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** Every relative module a file imports (static, dynamic, type-only), as a path from the root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]);
  return specifiers.map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)));
}

/**
 * The relative modules a file loads at run time: every import and re-export but those that
 * bring types only (`import type`, `export type ... from`), which cost a plugin nothing.
 */
function runtimeImportsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const statements = [...text.matchAll(/^(import|export)\b([^;]*?)\bfrom\s*["'](\.{1,2}\/[^"']+)["']/gms)];
  const dynamic = [...text.matchAll(/import\s*\(\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]);
  const loaded = statements.filter((m) => !/^\s*type\b/.test(m[2])).map((m) => m[3]);
  return [...loaded, ...dynamic].map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)));
}

const top = (path: string) => (path.includes("/") ? path.slice(0, path.indexOf("/")) : path);

/** What each layer may not import: anything above it. */
const FORBIDDEN: Record<string, readonly string[]> = {
  services: ["index.ts", "apps", "ui", "drivers", "core", "machines", "client"],
  machines: ["index.ts", "apps", "ui", "drivers", "core", "client"],
  core: ["index.ts", "apps", "ui", "drivers", "client"],
  drivers: ["index.ts", "apps", "ui", "client"],
  client: ["index.ts", "apps", "ui"],
  ui: ["index.ts", "apps", "core", "machines"],
};

describe("the layers of the tree", () => {
  for (const [layer, forbidden] of Object.entries(FORBIDDEN)) {
    it(`keeps ${layer}/ from importing ${forbidden.join(", ")}`, () => {
      const offending = sourcesUnder(layer).flatMap((file) =>
        importsOf(file)
          .filter((target) => forbidden.includes(top(target)))
          .map((target) => `${file} imports ${target}`),
      );
      expect(offending).toEqual([]);
    });
  }

  it("keeps the plugins' client from loading the core: client/ takes core, machines, services and drivers as types only", () => {
    const core = ["core", "machines", "services", "drivers"];
    const offending = sourcesUnder("client").flatMap((file) =>
      runtimeImportsOf(file)
        .filter((target) => core.includes(top(target)))
        .map((target) => `${file} loads ${target}`),
    );
    expect(offending).toEqual([]);
    // The client does take its types from the core: one owner for the contract's types.
    expect(sourcesUnder("client").flatMap(importsOf)).toContain("core/contract.ts");
  });

  it("tells a type-only import from one that loads code", () => {
    expect(runtimeImportsOf("client/index.ts")).toContain("client/connect.ts");
    expect(runtimeImportsOf("client/types.ts")).not.toContain("core/contract.ts");
    expect(runtimeImportsOf("bin/demo.ts")).toContain("index.ts");
  });

  it("finds the imports it checks: a file that imports index.ts is seen doing so", () => {
    expect(importsOf("bin/demo.ts")).toContain("index.ts");
  });
});
