// The source reads one way. No file imports itself back through others (a circle makes the
// load order decide what is undefined, and no part of it can be read or moved alone), and
// inside every folder the imports between its direct children (a subfolder counted as one,
// a file as one) run one way too: a room that takes from a sibling never gets taken from by
// it, directly or not. Type-only imports count: they tie the files' meanings as much as
// any other. The graph is read with TypeScript's own pre-processor, so an import the compiler
// sees is an import here.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** Not the product's source: tests hold it, the rest are documents, samples and installs. */
const NOT_SOURCE = new Set(["node_modules", "tests", "docs", "examples", "dist", "coverage", ".git"]);

type Graph = Map<string, Set<string>>;

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return NOT_SOURCE.has(entry.name) || entry.name.startsWith(".") ? [] : sourcesUnder(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The file a relative specifier names, as the bundler resolves it; undefined for a non-source file. */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(ROOT, dirname(from), specifier);
  const stem = base.replace(/\.(js|jsx)$/, "");
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, join(base, "index.ts"), join(base, "index.tsx")];
  const found = candidates.find((path) => /\.tsx?$/.test(path) && existsSync(path) && statSync(path).isFile());
  return found && relative(ROOT, found).split(sep).join("/");
}

/** Every relative import of a file: static, dynamic, type-only, re-exports. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), "utf8"), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith("./") || specifier.startsWith("../"))
    .flatMap((specifier) => resolveImport(file, specifier) ?? []);
}

function importGraph(): Graph {
  const files = sourcesUnder("");
  const known = new Set(files);
  // An import of a test's helper is not the product's: it is left out with the tests.
  return new Map(files.map((file) => [file, new Set(importsOf(file).filter((target) => known.has(target)))]));
}

/** Tarjan's strongly connected components: each circle, as the set of nodes it ties. */
function circlesOf(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== node);
    if (members.length > 1 || graph.get(node)?.has(node)) circles.push(members.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return circles;
}

/** The folder's direct child that holds a file: `drivers/host/a.ts` in `drivers` is `drivers/host`. */
function childOf(folder: string, file: string): string | undefined {
  const prefix = folder ? `${folder}/` : "";
  if (!file.startsWith(prefix)) return undefined;
  const rest = file.slice(prefix.length).split("/");
  return prefix + rest[0];
}

/** Each folder's graph between its direct children, with the file imports behind each arrow. */
function roomGraphs(files: Graph): Map<string, { graph: Graph; why: Map<string, string[]> }> {
  const folders = new Set([""]);
  for (const file of files.keys()) {
    const parts = file.split("/");
    for (let depth = 1; depth < parts.length; depth++) folders.add(parts.slice(0, depth).join("/"));
  }
  const rooms = new Map<string, { graph: Graph; why: Map<string, string[]> }>();
  for (const folder of folders) {
    const graph: Graph = new Map();
    const why = new Map<string, string[]>();
    for (const [file, targets] of files) {
      const from = childOf(folder, file);
      if (!from) continue;
      for (const target of targets) {
        const to = childOf(folder, target);
        if (!to || to === from) continue;
        if (!graph.has(from)) graph.set(from, new Set());
        graph.get(from)!.add(to);
        const key = `${from} -> ${to}`;
        why.set(key, [...(why.get(key) ?? []), `${file} -> ${target}`]);
      }
    }
    rooms.set(folder, { graph, why });
  }
  return rooms;
}

/** A circle in words: each member's arrows to the others, with the imports that draw them. */
function describeCircle(members: string[], graph: Graph, why?: Map<string, string[]>): string {
  const inside = new Set(members);
  const arrows = members.flatMap((from) =>
    [...(graph.get(from) ?? [])]
      .filter((to) => inside.has(to))
      .sort()
      .map((to) => {
        // Between two files the arrow is the import; a folder's arrow names the imports behind it.
        const imports = why?.get(`${from} -> ${to}`)?.filter((line) => line !== `${from} -> ${to}`);
        return imports?.length ? `  ${from} -> ${to} (${imports.join("; ")})` : `  ${from} -> ${to}`;
      }),
  );
  return [`circle of ${members.join(", ")}:`, ...arrows].join("\n");
}

describe("the import graph of the source", () => {
  const files = importGraph();

  it("has no circle of files importing each other, type-only imports included", () => {
    const circles = circlesOf(files).map((members) => describeCircle(members, files));
    expect(circles.join("\n")).toBe("");
  });

  it("has, in every folder, no circle between its direct children (a subfolder is one room, a file one)", () => {
    const climbs = [...roomGraphs(files)]
      .sort(([a], [b]) => a.localeCompare(b))
      .flatMap(([folder, { graph, why }]) =>
        circlesOf(graph).map((members) => `in ${folder || "the root"}, ${describeCircle(members, graph, why)}`),
      );
    expect(climbs.join("\n")).toBe("");
  });

  it("reads the imports it checks: type-only, re-exported, folder index and .tsx files are seen", () => {
    expect(files.size).toBeGreaterThan(200);
    expect(files.get("index.ts")).toContain("core/ide.ts");
    // `import type` only, in the plugins' client.
    expect(files.get("client/types.ts")).toContain("core/contract.ts");
    expect(files.get("ui/main.tsx")).toContain("ui/App.tsx");
    expect([...files.values()].some((targets) => targets.has("services/healing/index.ts"))).toBe(true);
    expect([...files.keys()].some((file) => file.startsWith("tests/") || file.startsWith("node_modules/"))).toBe(false);
  });

  it("finds a circle however long, and names only the files on it", () => {
    const graph: Graph = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a", "d"])],
      ["d", new Set<string>()],
      ["e", new Set(["e"])],
    ]);
    expect(circlesOf(graph)).toEqual([["a", "b", "c"], ["e"]]);
    expect(circlesOf(new Map([["a", new Set(["b"])], ["b", new Set<string>()]]))).toEqual([]);
  });

  it("sees a climb between two rooms of a folder through files that form no circle themselves", () => {
    const graph: Graph = new Map([
      ["drivers/host/a.ts", new Set(["drivers/view/b.ts"])],
      ["drivers/view/b.ts", new Set<string>()],
      ["drivers/view/c.ts", new Set(["drivers/host/d.ts"])],
      ["drivers/host/d.ts", new Set<string>()],
    ]);
    expect(circlesOf(graph)).toEqual([]);
    const { graph: rooms } = roomGraphs(graph).get("drivers")!;
    expect(circlesOf(rooms)).toEqual([["drivers/host", "drivers/view"]]);
    expect(circlesOf(roomGraphs(graph).get("")!.graph)).toEqual([]);
  });
});
