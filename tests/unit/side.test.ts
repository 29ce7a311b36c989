import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSideProject, untitledProject } from "../../services/side/index.ts";
import type { SideProject } from "../../services/side/index.ts";

const fixture = (name: string): unknown => JSON.parse(readFileSync(`/work/shared/fixtures/${name}`, "utf8"));

function minimal(): Record<string, unknown> {
  return {
    id: "p",
    name: "P",
    tests: [{ id: "t", name: "T", commands: [{ id: "c", command: "open" }] }],
  };
}

function problemOf(input: unknown): string {
  const result = parseSideProject(input);
  if (result.ok) throw new Error("expected a problem, got a project");
  return result.problem;
}

function projectOf(input: unknown): SideProject {
  const result = parseSideProject(input);
  if (!result.ok) throw new Error(result.problem);
  return result.project;
}

describe("parseSideProject", () => {
  it("accepts both fixtures and gives them back unchanged when saved", () => {
    for (const name of ["shop.side", "other.side"]) {
      const raw = fixture(name);
      expect(projectOf(raw)).toEqual(raw);
    }
    expect(projectOf(fixture("shop.side")).tests.map((t) => t.id)).toEqual(["t-login", "t-cart"]);
  });

  it("fills target, value, version, url, suites, urls and plugins with their empty forms", () => {
    const project = projectOf(minimal());
    expect(project).toMatchObject({ version: "", url: "", suites: [], urls: [], plugins: [] });
    expect(project.tests[0].commands[0]).toEqual({ id: "c", command: "open", target: "", value: "" });
  });

  it("gives each project its own default arrays", () => {
    const a = projectOf(minimal());
    const b = projectOf(minimal());
    expect(a.suites).not.toBe(b.suites);
  });

  it("keeps unknown fields of the project, its tests and its commands through a JSON round trip", () => {
    const input = minimal() as Record<string, any>;
    input.extra = { nested: [1, "two", null] };
    input.tests[0].flaky = true;
    input.tests[0].commands[0].targets = [["id=x", "id"]];
    input.tests[0].commands[0].comment = "why";
    const project = projectOf(input);
    const saved = JSON.parse(JSON.stringify(project));
    expect(saved.extra).toEqual({ nested: [1, "two", null] });
    expect(saved.tests[0].flaky).toBe(true);
    expect(saved.tests[0].commands[0]).toMatchObject({ targets: [["id=x", "id"]], comment: "why" });
    expect(projectOf(saved)).toEqual(project);
  });

  it("returns data detached from the caller's objects", () => {
    const input = minimal() as Record<string, any>;
    const project = projectOf(input);
    input.tests[0].commands[0].command = "changed";
    expect(project.tests[0].commands[0].command).toBe("open");
  });

  it.each<[string, (p: Record<string, any>) => void, string]>([
    ["project id missing", (p) => delete p.id, "id is missing (it must be a non-empty string)"],
    ["project id a number", (p) => (p.id = 7), "id must be a non-empty string"],
    ["project id empty", (p) => (p.id = ""), "id must be a non-empty string"],
    ["project name missing", (p) => delete p.name, "name is missing (it must be a string)"],
    ["project name null", (p) => (p.name = null), "name must be a string"],
    ["tests missing", (p) => delete p.tests, "tests is missing (it must be an array)"],
    ["tests an object", (p) => (p.tests = {}), "tests must be an array"],
    ["a test not an object", (p) => (p.tests = ["t"]), "tests[0] must be an object"],
    ["test id missing", (p) => delete p.tests[0].id, "tests[0].id is missing (it must be a non-empty string)"],
    ["test name a number", (p) => (p.tests[0].name = 1), "tests[0].name must be a string"],
    ["test commands missing", (p) => delete p.tests[0].commands, "tests[0].commands is missing (it must be an array)"],
    ["command id a number", (p) => (p.tests[0].commands[0].id = 3), "tests[0].commands[0].id must be a non-empty string"],
    ["command missing", (p) => delete p.tests[0].commands[0].command, "tests[0].commands[0].command is missing (it must be a string)"],
    ["target null", (p) => (p.tests[0].commands[0].target = null), "tests[0].commands[0].target must be a string"],
    ["value a number", (p) => (p.tests[0].commands[0].value = 1), "tests[0].commands[0].value must be a string"],
    ["version a number", (p) => (p.version = 2), "version must be a string"],
    ["url an object", (p) => (p.url = {}), "url must be a string"],
    ["suites a string", (p) => (p.suites = "s"), "suites must be an array"],
    ["urls an object", (p) => (p.urls = {}), "urls must be an array"],
    ["plugins null", (p) => (p.plugins = null), "plugins must be an array"],
  ])("names the field when %s", (_, change, problem) => {
    const input = minimal();
    change(input);
    expect(problemOf(input)).toBe(problem);
  });

  it("names the deepest path of the first problem", () => {
    const input = minimal() as Record<string, any>;
    input.tests[0].commands.push({ id: "c2", command: "click" }, { id: 5, command: "x" });
    expect(problemOf(input)).toBe("tests[0].commands[2].id must be a non-empty string");
  });

  it("refuses a repeated test id, naming the repeat", () => {
    const input = minimal() as Record<string, any>;
    input.tests.push({ id: "u", name: "U", commands: [] }, { id: "t", name: "again", commands: [] });
    expect(problemOf(input)).toBe('tests[2].id is duplicated: "t"');
  });

  it("refuses a repeated command id within a test but allows it across tests", () => {
    const input = minimal() as Record<string, any>;
    input.tests[0].commands.push({ id: "c", command: "click" });
    expect(problemOf(input)).toBe('tests[0].commands[1].id is duplicated: "c"');
    const across = minimal() as Record<string, any>;
    across.tests.push({ id: "t2", name: "T2", commands: [{ id: "c", command: "open" }] });
    expect(parseSideProject(across).ok).toBe(true);
  });

  it.each([undefined, null, 0, "project", true, [], () => 1, Symbol("s"), 10n])(
    "says the project must be an object for %s",
    (input) => {
      expect(problemOf(input)).toMatch(/^project (must be an object|is missing)/);
    },
  );

  it("refuses cycles, throwing getters and deep nesting without throwing", () => {
    const cyclic = minimal() as Record<string, any>;
    cyclic.self = cyclic;
    const getter = minimal();
    Object.defineProperty(getter, "name", { enumerable: true, get: () => { throw new Error("boom"); } });
    let deep: Record<string, unknown> = {};
    const deepProject = { ...minimal(), extra: deep };
    for (let i = 0; i < 200_000; i++) deep = (deep.a = {}) as Record<string, unknown>;
    const proxy = new Proxy({}, { ownKeys: () => { throw new Error("trap"); }, get: () => { throw new Error("trap"); } });
    for (const input of [cyclic, getter, deepProject, proxy]) {
      expect(() => parseSideProject(input)).not.toThrow();
      expect(problemOf(input)).toMatch(/^project must be plain JSON data/);
    }
  });

  it("does not pollute Object.prototype with __proto__ or constructor keys", () => {
    const inputs = [
      JSON.parse('{"__proto__":{"x":1}}'),
      JSON.parse('{"id":"p","name":"n","tests":[],"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}'),
      JSON.parse('{"id":"p","name":"n","tests":[{"id":"t","name":"t","commands":[{"id":"c","command":"x","__proto__":{"polluted":1}}],"__proto__":{"polluted":1}}]}'),
    ];
    for (const input of inputs) parseSideProject(input);
    const project = projectOf(inputs[1]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(project)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(projectOf(inputs[2]).tests[0].commands[0])).toBe(Object.prototype);
    expect(problemOf(inputs[0])).toBe("id is missing (it must be a non-empty string)");
  });

  it("never throws and never pollutes Object.prototype, whatever the input", () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withMap: true, withSet: true, withNullPrototype: true, withObjectString: true }), (input) => {
        const result = parseSideProject(input);
        expect(typeof result.ok).toBe("boolean");
        if (!result.ok) expect(result.problem.length).toBeGreaterThan(0);
        expect(Object.keys(Object.prototype)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it("accepts any well-formed project and keeps its extra fields", () => {
    const key = fc.string({ minLength: 1 }).filter((k) => !["id", "name", "command", "target", "value", "tests", "commands", "version", "url", "suites", "urls", "plugins", "__proto__"].includes(k));
    const extras = fc.dictionary(key, fc.jsonValue(), { maxKeys: 3 });
    const command = fc.record({ command: fc.string(), target: fc.string(), value: fc.string(), extra: extras });
    const test = fc.record({ name: fc.string(), commands: fc.array(command, { maxLength: 5 }), extra: extras });
    const project = fc.record({ name: fc.string(), tests: fc.array(test, { maxLength: 4 }), extra: extras });
    fc.assert(
      fc.property(project, (p) => {
        const input = {
          ...p.extra,
          id: "p",
          name: p.name,
          tests: p.tests.map((t, i) => ({
            ...t.extra,
            id: `t${i}`,
            name: t.name,
            commands: t.commands.map((c, j) => ({ ...c.extra, id: `c${j}`, command: c.command, target: c.target, value: c.value })),
          })),
        };
        const parsed = projectOf(JSON.parse(JSON.stringify(input)));
        expect(JSON.parse(JSON.stringify(parsed))).toEqual({ version: "", url: "", suites: [], urls: [], plugins: [], ...JSON.parse(JSON.stringify(input)) });
      }),
      { numRuns: 200 },
    );
  });
});

describe("untitledProject", () => {
  it("is a usable project with a fresh uuid, the untitled name and no tests", () => {
    const a = untitledProject();
    const b = untitledProject();
    expect(parseSideProject(a)).toEqual({ ok: true, project: a });
    expect(a.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.id).not.toBe(b.id);
    expect(a.name).toBe("Untitled project");
    expect(a.tests).toEqual([]);
  });
});
