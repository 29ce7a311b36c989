// CONTRACT section 23: declared strategies, their templates and how a locator expands.
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { checkDeclaration, expandLocator, findElements, parseLocator, strategiesUsed, strategyTable } from "../../services/locators/index.ts";

const qa = { name: "qa", css: '[data-qa="{value}"]', attribute: "data-qa" };
const label = { name: "aria", xpath: "//*[@aria-label='{value}']" };

describe("a declared locator strategy", () => {
  it("expands NAME=VALUE into the css its template writes, escaping quotes and backslashes", () => {
    const table = strategyTable([qa]);
    expect(expandLocator("qa=buy", table)).toBe('css=[data-qa="buy"]');
    expect(expandLocator('qa=say "hi" \\ now', table)).toBe('css=[data-qa="say \\"hi\\" \\\\ now"]');
  });

  it("finds the element whose attribute holds a value with both quotes", () => {
    const doc = new JSDOM(`<button data-qa="it's &quot;x&quot;">a</button><button data-qa="other">b</button>`).window.document;
    const css = parseLocator(expandLocator(`qa=it's "x"`, strategyTable([qa])));
    expect(findElements(doc, css).map((e) => e.textContent)).toEqual(["a"]);
    const xpath = parseLocator(expandLocator(`aria=it's`, strategyTable([{ name: "aria", xpath: "//*[@data-qa=\"{value}\" or starts-with(@data-qa,'{value}')]" }])));
    expect(findElements(doc, xpath).map((e) => e.textContent)).toEqual(["a"]);
  });

  it("writes a concat() when an xpath value holds the template's quote", () => {
    expect(expandLocator("aria=it's", strategyTable([label]))).toBe(`xpath=//*[@aria-label=concat('it',"'",'s')]`);
    expect(expandLocator("aria=plain", strategyTable([label]))).toBe("xpath=//*[@aria-label='plain']");
  });

  it("leaves built-in and undeclared locators as they are, and parseLocator names the undeclared strategy", () => {
    const table = strategyTable([qa]);
    for (const built of ["id=a", "css=[x='1']", "//a[@b='c']", "linkText=go"]) expect(expandLocator(built, table)).toBe(built);
    expect(expandLocator("nope=x", table)).toBe("nope=x");
    expect(() => parseLocator("nope=x")).toThrow(/strategy "nope".*no plugin has declared it/);
  });

  it("lets the later list win, as a plugin's declaration over the project's", () => {
    const table = strategyTable([qa], [{ name: "qa", css: "[data-test='{value}']" }]);
    expect(expandLocator("qa=x", table)).toBe("css=[data-test='x']");
  });

  it("lists the strategies locations use, in first-use order", () => {
    expect(strategiesUsed(["qa=a", "id=b", "aria=c", "qa=d", "//x"])).toEqual(["qa", "aria"]);
  });
});

describe("checking a declaration", () => {
  it("accepts a css or an xpath template that holds {value}", () => {
    expect(checkDeclaration(qa)).toEqual({ ok: true, declaration: qa });
    expect(checkDeclaration(label)).toEqual({ ok: true, declaration: label });
  });

  it.each([
    [{ name: "QA", css: "[a='{value}']" }, /name must be lowercase/],
    [{ name: "css", css: "[a='{value}']" }, /name is a built-in strategy/],
    [{ name: "linktext", css: "[a='{value}']" }, /built-in/],
    [{ name: "qa" }, /exactly one of css and xpath/],
    [{ name: "qa", css: "[a='{value}']", xpath: "//a" }, /exactly one of css and xpath/],
    [{ name: "qa", css: "[data-qa]" }, /must hold \{value\}/],
    [{ name: "qa", css: "[data-qa='{value}'" }, /CSS selector template of "qa" is not valid once filled/],
    [{ name: "qa", xpath: "//*[@a='{value}'" }, /XPath expression template of "qa" is not valid/],
    [{ name: "qa", css: "[a='{value}']", extra: 1 }, /Unrecognized key/],
    [{ name: "qa", css: "[a='{value}']", attribute: "bad attr" }, /attribute must be an attribute name/],
  ])("refuses %j with a message that says why", (input, message) => {
    const result = checkDeclaration(input);
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.problem).toMatch(message);
  });
});
