// A project keeps the declarations of the plugins' locator strategies its commands use
// (CONTRACT section 23, `locatorStrategies`): a save writes them, and plugins that leave (the
// window closes, a controller restarts the session) leave them in the project, so it still
// finds its elements with them gone. Find (ide.findInPage) reads a declared locator too.
import { describe, expect, it, vi } from "vitest";
import type { SideProject } from "../../index.ts";
import { createIde, register, request, takeControl } from "./support.ts";

const QA = { name: "qa", css: '[data-qa="{value}"]', attribute: "data-qa" };
const SKU = { name: "sku", xpath: "//*[@data-sku='{value}']" };
const UNUSED = { name: "unused", css: '[data-unused="{value}"]' };

/** A project whose commands use qa= in a target and sku= only among a command's alternatives. */
function projectUsingStrategies(extra: Record<string, unknown> = {}) {
  return {
    id: "p-qa",
    name: "Declared locators",
    tests: [
      {
        id: "t",
        name: "buys",
        commands: [
          { id: "c1", command: "open", target: "/shop", value: "" },
          { id: "c2", command: "click", target: "qa=buy", targets: [["qa=buy", "qa"], ["sku=hat-3", "sku"]], value: "" },
          { id: "c3", command: "type", target: "id=user", value: "alice=bob" },
        ],
      },
    ],
    ...extra,
  };
}

const declare = (fields: Record<string, unknown>) => request("/locator/strategy", "post", fields);

async function withDeclarations(options: Parameters<typeof createIde>[0] = {}) {
  const ide = createIde({ project: projectUsingStrategies(), ...options });
  await register(ide, "qa-plugin");
  for (const declaration of [UNUSED, QA, SKU]) expect(await ide.handle(declare(declaration), { id: "qa-plugin" })).toBe(true);
  return ide;
}

describe("saving a project that uses declared strategies", () => {
  it("writes the declarations its commands use, in first-use order, and none it does not use", async () => {
    const saved: SideProject[] = [];
    const ide = await withDeclarations({ save: async (project) => void saved.push(project) });
    ide.send({ type: "user.saveProject" });
    await vi.waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0].locatorStrategies).toEqual([QA, SKU]);
    expect(saved[0].tests).toEqual(ide.getProject().tests);
  });

  it("keeps the project's own declaration of a name over the plugin's", async () => {
    const saved: SideProject[] = [];
    const own = { name: "qa", xpath: "//*[@data-qa='{value}']" };
    const ide = createIde({ project: projectUsingStrategies({ locatorStrategies: [own] }), save: async (project) => void saved.push(project) });
    await register(ide, "p");
    await ide.handle(declare(QA), { id: "p" });
    await ide.handle(declare(SKU), { id: "p" });
    ide.send({ type: "user.saveProject" });
    await vi.waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0].locatorStrategies).toEqual([own, SKU]);
  });

  it("writes no locatorStrategies for a project that uses no declared strategy", async () => {
    const saved: SideProject[] = [];
    const project = { id: "plain", name: "Plain", tests: [{ id: "t", name: "t", commands: [{ id: "c", command: "click", target: "id=go" }] }] };
    const ide = createIde({ project, save: async (p) => void saved.push(p) });
    await register(ide, "p");
    await ide.handle(declare(QA), { id: "p" });
    ide.send({ type: "user.saveProject" });
    await vi.waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).not.toHaveProperty("locatorStrategies");
  });
});

describe("plugins that leave", () => {
  it("leave the project the declarations its commands use when the window closes, as an edit Undo takes back", async () => {
    const ide = await withDeclarations();
    expect(ide.getSnapshot().project.unsaved).toBe(false);
    ide.send({ type: "user.closeWindow" });
    expect(ide.getProject().locatorStrategies).toEqual([QA, SKU]);
    expect(ide.getSnapshot().project.unsaved).toBe(true);
    ide.send({ type: "user.openWindow" });
    expect(ide.getSnapshot().history.undo).toContain('"qa", "sku"');
    ide.send({ type: "user.undo" });
    expect(ide.getProject()).not.toHaveProperty("locatorStrategies");
  });

  it("leave it what a Find needs: the project's declaration answers once the plugin is gone", async () => {
    const asked: string[] = [];
    const ide = await withDeclarations({ findInPage: async (location) => (asked.push(location), { count: 1, shown: false }) });
    ide.send({ type: "user.closeWindow" });
    ide.send({ type: "user.openWindow" });
    expect(await ide.handle({ uri: "/locator/strategy", verb: "get" }, { id: "x" })).toEqual({ strategies: [] });
    expect(await ide.findInPage({ location: "qa=buy" })).toEqual({ count: 1, shown: false });
    expect(asked).toEqual(['css=[data-qa="buy"]']);
  });

  it("leave it the declarations when a controller restarts the plugin session", async () => {
    const ide = await withDeclarations();
    await takeControl(ide, "boss");
    expect(ide.getProject().locatorStrategies).toEqual([QA, SKU]);
  });

  it("change nothing when the project uses none of their strategies", async () => {
    const ide = createIde({ project: projectUsingStrategies({ tests: [] }) });
    await register(ide, "p");
    await ide.handle(declare(QA), { id: "p" });
    ide.send({ type: "user.closeWindow" });
    expect(ide.getProject()).not.toHaveProperty("locatorStrategies");
    expect(ide.getSnapshot().project.unsaved).toBe(false);
    expect(ide.getSnapshot().history.canUndo).toBe(false);
  });
});

describe("Find with a declared strategy", () => {
  it("asks the page for the filled template, a quote in the value written as XPath can hold it", async () => {
    const asked: string[] = [];
    const ide = await withDeclarations({ findInPage: async (location) => (asked.push(location), { count: 2, shown: true }) });
    expect(await ide.findInPage({ location: "sku=it's" })).toEqual({ count: 2, shown: true });
    expect(asked).toEqual([`xpath=//*[@data-sku=concat('it',"'",'s')]`]);
  });

  it("answers InvalidLocator naming a strategy nobody declared, before looking for a page", async () => {
    const ide = createIde();
    const reply = await ide.findInPage({ location: "qa=buy" });
    expect(reply).toMatchObject({ errorCode: "InvalidLocator" });
    expect((reply as { error: string }).error).toContain('"qa"');
  });
});
