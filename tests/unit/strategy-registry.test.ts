// The registry's locator strategies (services/plugins/registry.ts) and what a project takes of
// them (services/side/carryStrategies.ts): pure functions, no IDE.
import { describe, expect, it } from "vitest";
import { declareStrategy, MAX_STRATEGIES_PER_PLUGIN, pluginStrategies, registerPlugin } from "../../services/plugins/index.ts";
import type { PluginRegistry } from "../../services/plugins/index.ts";
import { carryingStrategies, MAX_CARRIED_STRATEGIES, strategiesToCarry } from "../../services/side/index.ts";
import { parseSideProject } from "../../services/side/index.ts";

const QA = { name: "qa", css: '[data-qa="{value}"]' };
const TAG = { name: "tag", xpath: "//*[@data-tag='{value}']" };

function registryOf(...ids: string[]): PluginRegistry {
  let registry: PluginRegistry = [];
  for (const id of ids) {
    const result = registerPlugin(registry, id, { name: id, version: "1" });
    if (!result.ok) throw new Error("registration failed");
    registry = result.registry;
  }
  return registry;
}

function declared(registry: PluginRegistry, id: string, declaration: typeof QA | typeof TAG): PluginRegistry {
  const result = declareStrategy(registry, id, declaration);
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.refusal)}`);
  return result.registry;
}

describe("declareStrategy", () => {
  it("adds a declaration to its plugin's entry and leaves the registry it was given as it was", () => {
    const before = registryOf("a", "b");
    const after = declared(before, "b", QA);
    expect(pluginStrategies(after)).toEqual([{ ...QA, plugin: "b" }]);
    expect(pluginStrategies(before)).toEqual([]);
    expect(after[0]).toBe(before[0]);
  });

  it("refuses a name another plugin declared, naming the owner", () => {
    const registry = declared(registryOf("a", "b"), "a", QA);
    expect(declareStrategy(registry, "b", { name: "qa", css: "#{value}" })).toEqual({ ok: false, refusal: { kind: "taken", owner: "a" } });
  });

  it("replaces the plugin's own declaration of the name where it stood", () => {
    let registry = declared(declared(registryOf("a"), "a", QA), "a", TAG);
    registry = declared(registry, "a", { name: "qa", css: "[data-qa-new='{value}']" });
    expect(pluginStrategies(registry).map((d) => d.css ?? d.xpath)).toEqual(["[data-qa-new='{value}']", TAG.xpath]);
  });

  it("refuses a sender that is not registered", () => {
    expect(declareStrategy(registryOf("a"), "ghost", QA)).toEqual({ ok: false, refusal: { kind: "notRegistered" } });
  });

  it("refuses a new name past the plugin's limit, and still takes a new version of one it has", () => {
    let registry = registryOf("a");
    for (let i = 0; i < MAX_STRATEGIES_PER_PLUGIN; i++) registry = declared(registry, "a", { name: `s${i}`, css: "#{value}" });
    expect(declareStrategy(registry, "a", QA)).toMatchObject({ ok: false, refusal: { kind: "tooMany" } });
    expect(declareStrategy(registry, "a", { name: "s0", css: ".{value}" }).ok).toBe(true);
  });
});

describe("what a project carries", () => {
  const project = (commands: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) => {
    const parsed = parseSideProject({ id: "p", name: "P", tests: [{ id: "t", name: "T", commands }], ...extra });
    if (!parsed.ok) throw new Error(parsed.problem);
    return parsed.project;
  };

  it("takes the declarations its targets and alternatives use, without who declared them", () => {
    const used = project([
      { id: "1", command: "click", target: "tag=x", targets: [["tag=x", "tag"], ["qa=y", "qa"]] },
      { id: "2", command: "click", target: "css=#a", targets: "not a list" },
    ]);
    const available = [{ ...QA, plugin: "a" }, { ...TAG, plugin: "b" }, { name: "other", css: "#{value}", plugin: "a" }];
    expect(strategiesToCarry(used, available)).toEqual([TAG, QA]);
    const carried = carryingStrategies(used, available);
    expect(carried.locatorStrategies).toEqual([TAG, QA]);
    // What it carries loads back as a .side project.
    expect(parseSideProject(carried).ok).toBe(true);
  });

  it("loads back a project that carries more declarations than one plugin may make, once two plugins' strategies are in it", () => {
    const count = MAX_STRATEGIES_PER_PLUGIN + 50;
    const available = Array.from({ length: count }, (_, i) => ({ name: `s${i}`, css: `[data-s${i}="{value}"]`, plugin: i % 2 === 0 ? "a" : "b" }));
    const used = project(available.map((d, i) => ({ id: `c${i}`, command: "click", target: `${d.name}=x` })));
    const carried = carryingStrategies(used, available);
    expect(carried.locatorStrategies).toHaveLength(count);
    const reloaded = parseSideProject(JSON.parse(JSON.stringify(carried)));
    expect(reloaded.ok && reloaded.project.locatorStrategies?.length).toBe(count);
  });

  it("carries no more declarations than a project may load, the first its commands use, and loads back", () => {
    const count = MAX_CARRIED_STRATEGIES + 5;
    const available = Array.from({ length: count }, (_, i) => ({ name: `s${i}`, css: `[data-s${i}="{value}"]` }));
    const used = project(available.map((d, i) => ({ id: `c${i}`, command: "click", target: `${d.name}=x` })), { locatorStrategies: [available[3]] });
    const carried = carryingStrategies(used, available);
    expect(carried.locatorStrategies).toHaveLength(MAX_CARRIED_STRATEGIES);
    expect(carried.locatorStrategies?.slice(0, 3).map((d) => d.name)).toEqual(["s3", "s0", "s1"]);
    expect(parseSideProject(JSON.parse(JSON.stringify(carried))).ok).toBe(true);
    expect(parseSideProject({ ...carried, locatorStrategies: available }).ok).toBe(false);
  });

  it("gives back the very project when it needs nothing", () => {
    const plain = project([{ id: "1", command: "click", target: "id=go" }]);
    expect(carryingStrategies(plain, [QA])).toBe(plain);
    const carriesIt = project([{ id: "1", command: "click", target: "qa=go" }], { locatorStrategies: [QA] });
    expect(carryingStrategies(carriesIt, [{ name: "qa", css: ".{value}" }])).toBe(carriesIt);
  });
});
