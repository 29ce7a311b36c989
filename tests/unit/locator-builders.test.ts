// The locator builders of a recorded command (services/locators/builders.ts) in jsdom: v3's
// order and forms, the slips CONTRACT section 14 corrects, and the rule that a builder whose
// locator does not find the element first gives no pair. Real Chromium (innerText, the
// browser's own engines, frames and shadow hosts) is tests/browser/recorder.browser.test.ts.
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILDER_ORDER, buildTargets, findsFirst } from "../../services/locators/builders.ts";
import { findElement, parseLocator } from "../../services/locators/index.ts";

// @medv/finder reads the globals a page has (Node, document, CSS.escape); jsdom's window has
// the first two and no CSS, so the test gives it the spec's escape for identifiers.
const saved: Record<string, unknown> = {};
beforeAll(() => {
  const { window } = new JSDOM("<!doctype html><body></body>");
  const cssEscape = (value: string) =>
    value.replace(/^-?\d|[^\w-]/g, (c) => (/\d/.test(c.at(-1)!) ? `\\${c.codePointAt(c.length - 1)!.toString(16)} ` : `\\${c}`));
  for (const [key, value] of Object.entries({ Node: window.Node, document: window.document, CSS: { escape: cssEscape } })) {
    saved[key] = (globalThis as Record<string, unknown>)[key];
    (globalThis as Record<string, unknown>)[key] = value;
  }
});
afterAll(() => {
  for (const [key, value] of Object.entries(saved)) (globalThis as Record<string, unknown>)[key] = value;
});

function page(body: string): Document {
  return new JSDOM(`<!doctype html><html><body>${body}</body></html>`, { url: "http://shop.test/" }).window.document;
}

const the = (doc: Document, css: string) => doc.querySelector(css)!;

describe("locator builders", () => {
  it("gives v3's builders in v3's order, each locator with its builder's name", () => {
    const doc = page(`<main id="main"><form><a id="help" name="help" data-test="help-link" href="/help" class="nav">Help me</a></form></main>`);
    const targets = buildTargets(the(doc, "a"));
    expect(targets.map(([, name]) => name)).toEqual([
      "css:data-attr", "id", "linkText", "name", "css:finder", "xpath:link",
      "xpath:attributes", "xpath:idRelative", "xpath:href", "xpath:position",
    ]);
    expect(Object.fromEntries(targets.map(([locator, name]) => [name, locator]))).toEqual({
      "css:data-attr": 'css=*[data-test="help-link"]',
      id: "id=help",
      linkText: "linkText=Help me",
      name: "name=help",
      "css:finder": "css=#help",
      "xpath:link": "xpath=//a[contains(text(),'Help me')]",
      "xpath:attributes": "xpath=//a[@id='help']",
      "xpath:idRelative": "xpath=//main[@id='main']/form/a",
      "xpath:href": "xpath=//a[contains(@href, '/help')]",
      "xpath:position": "xpath=//a",
    });
    expect(BUILDER_ORDER).toHaveLength(12);
  });

  it("gives css=*[data-test-id=...] when there is no data-test, where v3 never did", () => {
    const doc = page(`<button data-test-id="buy">Buy</button>`);
    expect(buildTargets(the(doc, "button"))[0]).toEqual(['css=*[data-test-id="buy"]', "css:data-attr"]);
  });

  it("gives no pair for a builder whose locator finds another element first", () => {
    const doc = page(`<p><input id="dup" name="q"></p><p><input id="dup" name="q" value="second"></p>`);
    const second = doc.querySelectorAll("input")[1];
    const targets = buildTargets(second);
    expect(targets.map(([, name]) => name)).not.toContain("id");
    expect(targets.map(([, name]) => name)).not.toContain("name");
    for (const [locator] of targets) expect(findElement(doc, parseLocator(locator))).toBe(second);
    expect(targets.find(([, name]) => name === "xpath:attributes")?.[0]).toBe("xpath=(//input[@id='dup'])[2]");
  });

  it("makes an xpath precise with its position among the matches when several elements match it", () => {
    const doc = page(`<a href="/cart">Add</a><a href="/cart">Add</a>`);
    const targets = Object.fromEntries(buildTargets(doc.querySelectorAll("a")[1]).map(([l, n]) => [n, l]));
    expect(targets["xpath:link"]).toBe("xpath=(//a[contains(text(),'Add')])[2]");
    expect(targets["xpath:href"]).toBe("xpath=(//a[contains(@href, '/cart')])[2]");
    expect(targets.linkText).toBeUndefined();
  });

  it("writes a text with an apostrophe as an XPath concat, so the locator still finds it", () => {
    const doc = page(`<a href="https://example.org/x">Don't "stop"</a>`);
    const targets = Object.fromEntries(buildTargets(the(doc, "a")).map(([l, n]) => [n, l]));
    expect(targets["xpath:link"]).toBe(`xpath=//a[contains(text(),concat('Don',"'",'t "stop"'))]`);
    expect(targets["xpath:href"]).toBe("xpath=//a[@href='https://example.org/x']");
  });

  it("names an image by its alt, else its title, else its src as written", () => {
    const doc = page(`<img alt="Logo" src="a.png"><img title="Cart" src="b.png"><img src="img/c.png">`);
    const imgs = doc.querySelectorAll("img");
    const img = (i: number) => buildTargets(imgs[i]).find(([, n]) => n === "xpath:img")?.[0];
    expect([img(0), img(1), img(2)]).toEqual(["xpath=//img[@alt='Logo']", "xpath=//img[@title='Cart']", "xpath=//img[contains(@src,'img/c.png')]"]);
  });

  it("makes xpath:attributes precise by position at its first attribute, as v3 does", () => {
    const doc = page(`<input name="size" type="radio" value="s"><input name="size" type="radio" value="m">`);
    const attributes = buildTargets(doc.querySelectorAll("input")[1]).find(([, n]) => n === "xpath:attributes")?.[0];
    expect(attributes).toBe("xpath=(//input[@name='size'])[2]");
  });

  it("tells whether a locator finds the element first, an invalid one never", () => {
    const doc = page(`<b id="x">1</b><b id="x">2</b>`);
    const [one, two] = Array.from(doc.querySelectorAll("b"));
    expect(findsFirst(one, "id=x")).toBe(true);
    expect(findsFirst(two, "id=x")).toBe(false);
    expect(findsFirst(one, "css=[[")).toBe(false);
  });
});
