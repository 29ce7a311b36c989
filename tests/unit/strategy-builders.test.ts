// A declared locator strategy with an `attribute` as a locator builder (CONTRACT section 23), in
// jsdom: it gives `NAME=VALUE` where the filled template finds the element first, right after the
// test-id builders unless the project's locatorOrder places it; and the project's recording
// settings that name it (services/side/settings.ts). Real Chromium: tests/browser/strategy-recording.browser.test.ts.
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTargets, orderedBuilders } from "../../services/locators/builders.ts";
import { DEFAULT_LOCATOR_ORDER } from "../../services/locators/builderNames.ts";
import { expandLocator, findElement, parseLocator, strategyTable } from "../../services/locators/index.ts";
import type { StrategyDeclaration } from "../../services/locators/index.ts";
import { locatorOrderSchema, parseSideProject, recordingSettings } from "../../services/side/index.ts";

// @medv/finder (css:finder) reads the globals a page has; jsdom's window gives them (as in locator-builders.test.ts).
const saved: Record<string, unknown> = {};
beforeAll(() => {
  const { window } = new JSDOM("<!doctype html><body></body>");
  const cssEscape = (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`);
  for (const [key, value] of Object.entries({ Node: window.Node, document: window.document, CSS: { escape: cssEscape } })) {
    saved[key] = (globalThis as Record<string, unknown>)[key];
    (globalThis as Record<string, unknown>)[key] = value;
  }
});
afterAll(() => {
  for (const [key, value] of Object.entries(saved)) (globalThis as Record<string, unknown>)[key] = value;
});

const page = (body: string) => new JSDOM(`<!doctype html><html><body>${body}</body></html>`, { url: "http://shop.test/" }).window.document;
const the = (doc: Document, css: string) => doc.querySelector(css)!;

const QA: StrategyDeclaration = { name: "qa", css: '[data-qa="{value}"]', attribute: "data-qa" };
const ROW: StrategyDeclaration = { name: "row", xpath: "//*[@data-row='{value}']", attribute: "data-row" };
const names = (pairs: Array<[string, string]>) => pairs.map(([, name]) => name);

describe("a declared strategy's builder", () => {
  it("gives NAME=VALUE right after the test-id builders, and the locator finds the element", () => {
    const doc = page(`<button data-qa="save" id="save">Save</button>`);
    const button = the(doc, "button");
    const targets = buildTargets(button, { strategies: [QA] });
    expect(targets.slice(0, 3)).toEqual([
      ['css=[data-qa="save"]', "css:testId"],
      ["qa=save", "qa"],
      ["id=save", "id"],
    ]);
    expect(findElement(doc, parseLocator(expandLocator("qa=save", strategyTable([QA]))))).toBe(button);
  });

  it("comes first where the project's locatorOrder names it first", () => {
    const doc = page(`<button data-qa="save">Save</button>`);
    expect(buildTargets(the(doc, "button"), { locatorOrder: ["qa"], strategies: [QA] })[0]).toEqual(["qa=save", "qa"]);
  });

  it("fills an xpath template, and writes a value with both quotes as it stands", () => {
    const doc = page(`<table><tr data-row="a"><td>1</td></tr><tr data-row='it&apos;s "b"'><td>2</td></tr></table>`);
    const rows = doc.querySelectorAll("tr");
    expect(buildTargets(rows[1], { strategies: [ROW] }).find(([, name]) => name === "row")).toEqual([`row=it's "b"`, "row"]);
    const qa = page(`<i data-qa='say "hi" \\ it&apos;s'></i>`);
    expect(buildTargets(the(qa, "i"), { strategies: [QA] }).find(([, name]) => name === "qa")).toEqual([`qa=say "hi" \\ it's`, "qa"]);
  });

  it("gives no pair where the filled template finds another element first, the attribute is missing or its value is no one line", () => {
    const doc = page(`<a data-qa="item">1</a><a data-qa="item">2</a><b>bold</b><p data-qa="two
lines"></p>`);
    const [first, second] = Array.from(doc.querySelectorAll("a"));
    expect(names(buildTargets(first, { strategies: [QA] }))).toContain("qa");
    expect(names(buildTargets(second, { strategies: [QA] }))).not.toContain("qa");
    expect(names(buildTargets(the(doc, "b"), { strategies: [QA] }))).not.toContain("qa");
    expect(names(buildTargets(the(doc, "p"), { strategies: [QA] }))).not.toContain("qa");
  });

  it("is no builder without an attribute, nor under a builder's name, and an element in a shadow root gets none", () => {
    const doc = page(`<button data-qa="save">Save</button><div id="host"></div>`);
    const button = the(doc, "button");
    expect(names(buildTargets(button, { strategies: [{ name: "qa", css: '[data-qa="{value}"]' }] }))).not.toContain("qa");
    expect(names(buildTargets(button, { strategies: [{ ...QA, name: "id" }] })).filter((name) => name === "id")).toHaveLength(0);
    const root = the(doc, "#host").attachShadow({ mode: "open" });
    root.innerHTML = `<span data-qa="inner">in</span>`;
    expect(names(buildTargets(root.querySelector("span")!, { strategies: [QA] }))).not.toContain("qa");
  });

  it("leaves a name in the order that no strategy declares out of the order", () => {
    expect(orderedBuilders(["qa", "id"], [])).toEqual(["id", ...DEFAULT_LOCATOR_ORDER.filter((name) => name !== "id")]);
    expect(orderedBuilders(["id"], ["qa"]).slice(0, 4)).toEqual(["id", "css:testId", "css:data-attr", "qa"]);
  });
});

describe("the project's locatorOrder", () => {
  it("accepts a strategy's name beside the builders' and refuses what cannot be one, naming it", () => {
    expect(locatorOrderSchema.safeParse(["qa", "css:testId", "my-strategy-2"]).success).toBe(true);
    for (const bad of ["Qa", "css:magic", "xpath", "link", "has space"]) {
      const result = locatorOrderSchema.safeParse([bad]);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0].message).toMatch(/builder name .* or a declared locator strategy's name/);
    }
    expect(locatorOrderSchema.safeParse(["qa", "qa"]).success).toBe(false);
  });

  it("places a strategy the project declares where it names it, else right after the test ids, and leaves an undeclared one out", () => {
    const parsed = parseSideProject({
      id: "p", name: "P", tests: [], locatorOrder: ["name", "qa", "ghost"],
      locatorStrategies: [QA, { name: "plain", css: '[x="{value}"]' }],
    });
    if (!parsed.ok) throw new Error(parsed.problem);
    const settings = recordingSettings(parsed.project);
    expect(settings.locatorOrder.slice(0, 2)).toEqual(["name", "qa"]);
    expect(settings.locatorOrder).not.toContain("ghost");
    expect(settings.locatorOrder).not.toContain("plain");
    expect(settings.strategies).toEqual([QA]);
    const unplaced = recordingSettings({ locatorStrategies: [QA] }, [QA, ROW]);
    expect(unplaced.locatorOrder.slice(0, 4)).toEqual(["css:testId", "css:data-attr", "qa", "row"]);
    expect(unplaced.locatorOrder).toHaveLength(DEFAULT_LOCATOR_ORDER.length + 2);
  });
});
