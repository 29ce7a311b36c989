// POST and GET /locator/strategy (CONTRACT section 23): a registered plugin declares NAME=VALUE
// as a CSS or XPath template; bad fields are InvalidRequest naming them, another plugin's name
// is StrategyTaken, and GET /playback/location reads a declared locator through its template.
import { describe, expect, it } from "vitest";
import { createIde, expectError, fixtureDocument, FORMS, register, request, takeControl } from "./support.ts";

const QA = { name: "qa", css: '[data-qa="{value}"]', attribute: "data-qa" };
const SKU = { name: "sku", xpath: "//*[@data-sku='{value}']" };

const declare = (fields: Record<string, unknown>, form: "flat" | "payload" = "flat") => request("/locator/strategy", "post", fields, form);
const listed = { uri: "/locator/strategy", verb: "get" };

describe("POST /locator/strategy", () => {
  it.each(FORMS)("declares a strategy for a registered plugin and lists it with the plugin's id (%s form)", async (form) => {
    const ide = createIde();
    await register(ide, "qa-plugin");
    expect(await ide.handle(declare(QA, form), { id: "qa-plugin" })).toBe(true);
    expect(await ide.handle(listed, { id: "anyone" })).toEqual({ strategies: [{ ...QA, plugin: "qa-plugin" }] });
  });

  it("answers MissingPlugin to a sender that has not registered, and declares nothing", async () => {
    const ide = createIde();
    expect(expectError(await ide.handle(declare(QA), { id: "stranger" }), "MissingPlugin")).toContain("stranger");
    expect(await ide.handle(listed, { id: "stranger" })).toEqual({ strategies: [] });
  });

  it.each([
    ["no name", { css: QA.css }, "name"],
    ["a name in capitals", { ...QA, name: "QA" }, "lowercase"],
    ["a built-in name", { ...QA, name: "css" }, "built-in"],
    ["a name that is not a string", { ...QA, name: 7 }, "name"],
    ["both templates", { ...QA, xpath: SKU.xpath }, "exactly one of css and xpath"],
    ["no template", { name: "qa" }, "exactly one of css and xpath"],
    ["a template without {value}", { name: "qa", css: "[data-qa]" }, "{value}"],
    ["a CSS template that is not CSS once filled", { name: "qa", css: "[data-qa='{value}'" }, "not valid once filled"],
    ["an XPath template that is not XPath once filled", { name: "qa", xpath: "//*[@data-qa='{value}'" }, "not valid once filled"],
    ["an attribute that is no attribute name", { ...QA, attribute: "data qa" }, "attribute"],
  ])("answers InvalidRequest for %s, naming the problem, and declares nothing", async (_, fields, named) => {
    const ide = createIde();
    await register(ide, "p");
    expect(expectError(await ide.handle(declare(fields), { id: "p" }), "InvalidRequest")).toContain(named);
    expect(await ide.handle(listed, { id: "p" })).toEqual({ strategies: [] });
  });

  it("ignores fields the route does not name", async () => {
    const ide = createIde();
    await register(ide, "p");
    expect(await ide.handle(declare({ ...QA, colour: "blue", sender: "someone-else" }), { id: "p" })).toBe(true);
    expect(await ide.handle(listed, { id: "p" })).toEqual({ strategies: [{ ...QA, plugin: "p" }] });
  });

  it("answers StrategyTaken naming the owner when another plugin declared the name, and keeps the owner's", async () => {
    const ide = createIde();
    await register(ide, "first");
    await register(ide, "second");
    expect(await ide.handle(declare(QA), { id: "first" })).toBe(true);
    const error = expectError(await ide.handle(declare({ name: "qa", xpath: "//*[@id='{value}']" }), { id: "second" }), "StrategyTaken");
    expect(error).toContain('"qa"');
    expect(error).toContain("first");
    expect(await ide.handle(listed, { id: "second" })).toEqual({ strategies: [{ ...QA, plugin: "first" }] });
  });

  it("replaces a plugin's own declaration of the same name in place", async () => {
    const ide = createIde();
    await register(ide, "p");
    expect(await ide.handle(declare(QA), { id: "p" })).toBe(true);
    expect(await ide.handle(declare(SKU), { id: "p" })).toBe(true);
    const again = { name: "qa", xpath: "//*[@data-qa='{value}']" };
    expect(await ide.handle(declare(again), { id: "p" })).toBe(true);
    expect(await ide.handle(listed, { id: "p" })).toEqual({ strategies: [{ ...again, plugin: "p" }, { ...SKU, plugin: "p" }] });
  });

  it("keeps a plugin's strategies when it registers again", async () => {
    const ide = createIde();
    await register(ide, "p");
    await ide.handle(declare(QA), { id: "p" });
    await register(ide, "p", { version: "2.0.0" });
    expect(await ide.handle(listed, { id: "p" })).toEqual({ strategies: [{ ...QA, plugin: "p" }] });
  });

  it("keeps the controller's own strategies when its control is granted, and drops the other plugins'", async () => {
    const ide = createIde();
    await register(ide, "boss");
    await register(ide, "other");
    await ide.handle(declare(QA), { id: "boss" });
    await ide.handle(declare(SKU), { id: "other" });
    await takeControl(ide, "boss");
    expect(await ide.handle(listed, { id: "boss" })).toEqual({ strategies: [{ ...QA, plugin: "boss" }] });
  });

  it("forgets the strategies with the plugins when the window closes and opens again", async () => {
    const ide = createIde();
    await register(ide, "p");
    await ide.handle(declare(QA), { id: "p" });
    ide.send({ type: "user.closeWindow" });
    expectError(await ide.handle(listed, { id: "p" }), "IdeNotActive");
    ide.send({ type: "user.openWindow" });
    expect(await ide.handle(listed, { id: "p" })).toEqual({ strategies: [] });
  });

  it("takes the controller's declaration, and refuses a plugin the controlled IDE has not registered", async () => {
    const ide = createIde();
    await takeControl(ide, "boss");
    await register(ide, "boss");
    expect(await ide.handle(declare(QA), { id: "boss" })).toBe(true);
    expectError(await ide.handle(request("/register", "post", { name: "Other", version: "1" }), { id: "other" }), "CannotAccessInControlMode");
    expectError(await ide.handle(declare(SKU), { id: "other" }), "MissingPlugin");
  });
});

describe("GET /playback/location with a declared strategy", () => {
  it("finds the element the filled template finds", async () => {
    const ide = createIde({ document: fixtureDocument() });
    await register(ide, "p");
    await ide.handle(declare(SKU), { id: "p" });
    const byTemplate = await ide.handle(request("/playback/location", "get", { location: "xpath=//*[@data-sku='hat-3']" }), { id: "p" });
    expect(typeof byTemplate).toBe("string");
    expect(await ide.handle(request("/playback/location", "get", { location: "sku=hat-3" }), { id: "anyone" })).toBe(byTemplate);
  });

  it("answers InvalidLocator naming the strategy nobody declared", async () => {
    const ide = createIde({ document: fixtureDocument() });
    const error = expectError(await ide.handle(request("/playback/location", "get", { location: "sku=hat-3" }), { id: "p" }), "InvalidLocator");
    expect(error).toContain('"sku"');
  });

  it("answers ElementNotFound for a declared locator whose element is not on the page", async () => {
    const ide = createIde({ document: fixtureDocument() });
    await register(ide, "p");
    await ide.handle(declare(SKU), { id: "p" });
    expectError(await ide.handle(request("/playback/location", "get", { location: "sku=no-such" }), { id: "p" }), "ElementNotFound");
  });

  it("hands the resolver port the filled template, its value escaped", async () => {
    const asked: string[] = [];
    const ide = createIde({ resolveLocator: async (location) => (asked.push(location), "//found") });
    await register(ide, "p");
    await ide.handle(declare(QA), { id: "p" });
    expect(await ide.handle(request("/playback/location", "get", { location: 'qa=say "hi"' }), { id: "p" })).toBe("//found");
    expect(asked).toEqual(['css=[data-qa="say \\"hi\\""]']);
  });

  it("reads the strategies the project carries once the plugin is gone", async () => {
    const project = { id: "p", name: "P", tests: [], locatorStrategies: [SKU] };
    const ide = createIde({ document: fixtureDocument(), project });
    expect(typeof (await ide.handle(request("/playback/location", "get", { location: "sku=hat-3" }), { id: "x" }))).toBe("string");
  });
});

describe("GET /export/location with a declared strategy", () => {
  it("writes a declared locator as the By of its filled template, and refuses it once no one declares it", async () => {
    const ide = createIde();
    await register(ide, "qa-plugin");
    const ask = (language?: string) => ide.handle({ uri: "/export/location", verb: "get", location: 'qa=say "hi"', ...(language ? { language } : {}) }, { id: "anyone" });
    expect(expectError(await ask(), "InvalidLocator")).toContain('"qa"');
    expect(await ide.handle(declare(QA), { id: "qa-plugin" })).toBe(true);
    expect(await ask()).toBe(`By.css(${JSON.stringify('[data-qa="say \\"hi\\""]')})`);
    expect(await ask("python-pytest")).toContain("By.CSS_SELECTOR");
  });
});
