import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  emptyRegistry,
  findPlugin,
  isRegistered,
  parseRegistration,
  pluginSummaries,
  registerPlugin,
  registrationSchema,
  removePlugin,
} from "../../services/plugins/index.ts";
import type { PluginRegistry, Registration } from "../../services/plugins/index.ts";
import { describeZodIssue } from "../../services/validation.ts";

const reg = (name: string, ...ids: string[]): Registration => ({ name, version: "1.0.0", commands: ids.map((id) => ({ id, name: id })) });

function problemOf(input: unknown): string {
  const result = parseRegistration(input);
  if (result.ok) throw new Error("expected a problem");
  return result.problem;
}

function registered(registry: PluginRegistry, id: string, registration: Registration): PluginRegistry {
  const result = registerPlugin(registry, id, registration);
  if (!result.ok) throw new Error(`conflict on ${result.conflict.commandId}`);
  return result.registry;
}

describe("registration validation", () => {
  it("accepts a full registration and keeps fields it does not name as sent", () => {
    const input = {
      name: "Eyes",
      version: "3.1.0",
      commands: [{ id: "eyesCheckWindow", name: "check window", type: "region", docs: { description: "d" }, extra: 1 }],
      dependencies: { "selenium-webdriver": "^4" },
      jest: { extraGlobals: ["x"] },
      exports: { vendor: [] },
      homepage: "https://example.com",
    };
    const result = parseRegistration(input);
    expect(result).toEqual({ ok: true, registration: input });
  });

  it("accepts the least a registration needs", () => {
    expect(parseRegistration({ name: "x", version: "" })).toEqual({ ok: true, registration: { name: "x", version: "" } });
  });

  it.each<[string, unknown, string]>([
    ["not an object", "plugin", "registration must be an object"],
    ["missing", undefined, "registration is missing (it must be an object)"],
    ["without name", { version: "1" }, "name is missing (it must be a non-empty string)"],
    ["with an empty name", { name: "", version: "1" }, "name must be a non-empty string"],
    ["with a numeric name", { name: 1, version: "1" }, "name must be a non-empty string"],
    ["without version", { name: "n" }, "version is missing (it must be a string)"],
    ["with commands not an array", { name: "n", version: "1", commands: {} }, "commands must be an array"],
    ["with a command without id", { name: "n", version: "1", commands: [{ name: "c" }] }, "commands[0].id is missing (it must be a non-empty string)"],
    ["with an empty command id", { name: "n", version: "1", commands: [{ id: "", name: "c" }] }, "commands[0].id must be a non-empty string"],
    ["with a command without name", { name: "n", version: "1", commands: [{ id: "c" }] }, "commands[0].name is missing (it must be a string)"],
    ["with an unknown command type", { name: "n", version: "1", commands: [{ id: "c", name: "c", type: "button" }] }, 'commands[0].type must be one of "locator", "region"'],
    ["with dependencies an array", { name: "n", version: "1", dependencies: ["a"] }, "dependencies must be an object"],
    ["with a numeric dependency", { name: "n", version: "1", dependencies: { a: 1 } }, "dependencies.a must be a string"],
    ["with an odd dependency name", { name: "n", version: "1", dependencies: { "@x/y": 1 } }, 'dependencies["@x/y"] must be a string'],
  ])("names the field for a registration %s", (_, input, problem) => {
    expect(problemOf(input)).toBe(problem);
  });

  it("names a duplicated command id within one registration", () => {
    const input = { name: "n", version: "1", commands: [{ id: "x", name: "a" }, { id: "y", name: "b" }, { id: "x", name: "c" }] };
    expect(problemOf(input)).toBe('commands[2].id is duplicated: "x"');
  });

  it("never throws on a hostile registration", () => {
    const getter = Object.defineProperty({ version: "1" }, "name", { enumerable: true, get: () => { throw new Error("boom"); } });
    expect(problemOf(getter)).toBe("registration could not be read");
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withNullPrototype: true, withObjectString: true }), (input) => {
        expect(typeof parseRegistration(input).ok).toBe("boolean");
      }),
    );
  });

  it("describes zod issues the protocol adapter raises with the same wording", () => {
    const schema = z.object({ type: z.enum(["error", "warn"]).nullish(), message: z.string() });
    const problem = (input: unknown, root?: string) => {
      const result = schema.safeParse(input);
      if (result.success) throw new Error("expected an issue");
      return describeZodIssue(result.error, root);
    };
    expect(problem({ type: "info", message: "m" })).toBe('type must be one of "error", "warn"');
    expect(problem({ message: 1 })).toBe("message must be a string");
    expect(problem(5)).toBe("value must be an object");
    expect(problem(5, "request")).toBe("request must be an object");
    const registration = registrationSchema.safeParse({ name: "n", version: "1", commands: [{ id: "x", name: "a" }, { id: "x", name: "b" }] });
    expect(registration.success || describeZodIssue(registration.error)).toBe('commands[1].id is duplicated: "x"');
  });
});

describe("plugin registry", () => {
  it("lists plugins in first-registration order and replaces a re-registration in place", () => {
    let registry = registered(emptyRegistry, "a", reg("A", "a1"));
    registry = registered(registry, "b", reg("B", "b1"));
    registry = registered(registry, "a", { ...reg("A2", "a2"), version: "2.0.0" });
    expect(pluginSummaries(registry)).toEqual([
      { id: "a", name: "A2", version: "2.0.0" },
      { id: "b", name: "B", version: "1.0.0" },
    ]);
    expect(findPlugin(registry, "a")?.registration.commands?.map((c) => c.id)).toEqual(["a2"]);
  });

  it("refuses a registration whose command id another plugin owns and changes nothing", () => {
    const before = registered(registered(emptyRegistry, "a", reg("A", "shared", "a1")), "b", reg("B", "b1"));
    const snapshot = JSON.stringify(before);
    const result = registerPlugin(before, "b", reg("B2", "b2", "shared"));
    expect(result).toEqual({ ok: false, conflict: { commandId: "shared", owner: "a" } });
    expect(JSON.stringify(before)).toBe(snapshot);
    expect(findPlugin(before, "b")?.registration.name).toBe("B");
    expect(registerPlugin(before, "c", reg("C", "c1", "b1"))).toEqual({ ok: false, conflict: { commandId: "b1", owner: "b" } });
  });

  it("lets a plugin re-register its own command ids", () => {
    const registry = registered(emptyRegistry, "a", reg("A", "x", "y"));
    expect(registerPlugin(registry, "a", reg("A", "y", "x")).ok).toBe(true);
  });

  it("frees a replaced plugin's old command ids for others", () => {
    let registry = registered(emptyRegistry, "a", reg("A", "x"));
    registry = registered(registry, "a", reg("A", "y"));
    expect(registerPlugin(registry, "b", reg("B", "x")).ok).toBe(true);
  });

  it("never changes the registry it was given", () => {
    const registry = registered(emptyRegistry, "a", reg("A"));
    const next = registered(registry, "b", reg("B"));
    expect(registry).toHaveLength(1);
    expect(next).toHaveLength(2);
    expect(removePlugin(next, "a")).toHaveLength(1);
    expect(next).toHaveLength(2);
    expect(Object.isFrozen(next)).toBe(true);
  });

  it("removes a plugin and keeps the same registry when the id is unknown", () => {
    const registry = registered(registered(emptyRegistry, "a", reg("A")), "b", reg("B"));
    expect(pluginSummaries(removePlugin(registry, "a")).map((p) => p.id)).toEqual(["b"]);
    expect(removePlugin(registry, "zzz")).toBe(registry);
    expect(isRegistered(removePlugin(registry, "a"), "a")).toBe(false);
  });

  it("treats sender ids like __proto__ and constructor as ordinary ids", () => {
    let registry = registered(emptyRegistry, "__proto__", reg("P", "p"));
    registry = registered(registry, "constructor", reg("C", "c"));
    expect(isRegistered(registry, "__proto__")).toBe(true);
    expect(isRegistered(registry, "toString")).toBe(false);
    expect(pluginSummaries(registry).map((p) => p.id)).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).p).toBeUndefined();
  });

  it("never holds a command id twice and keeps first-registration order, whatever the sequence", () => {
    const senders = fc.constantFrom("a", "b", "c", "__proto__");
    const op = fc.oneof(
      fc.record({ kind: fc.constant("register" as const), id: senders, commands: fc.uniqueArray(fc.constantFrom("x", "y", "z", "w"), { maxLength: 3 }) }),
      fc.record({ kind: fc.constant("remove" as const), id: senders }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        let registry: PluginRegistry = emptyRegistry;
        let order: string[] = [];
        for (const o of ops) {
          if (o.kind === "remove") {
            registry = removePlugin(registry, o.id);
            order = order.filter((id) => id !== o.id);
            continue;
          }
          const before = registry;
          const result = registerPlugin(registry, o.id, reg(o.id, ...o.commands));
          if (!result.ok) {
            const owner = findPlugin(before, result.conflict.owner);
            expect(result.conflict.owner).not.toBe(o.id);
            expect(owner?.registration.commands?.some((c) => c.id === result.conflict.commandId)).toBe(true);
            continue;
          }
          registry = result.registry;
          if (!order.includes(o.id)) order.push(o.id);
        }
        const all = registry.flatMap((p) => (p.registration.commands ?? []).map((c) => c.id));
        expect(new Set(all).size).toBe(all.length);
        expect(registry.map((p) => p.id)).toEqual(order);
      }),
    );
  });
});
