// The locator builders of a recorded command (services/locators/builders.ts) in jsdom: v3's
// order and forms, the slips CONTRACT section 14 corrects, and the rule that a builder whose
// locator does not find the element first gives no pair. Real Chromium (innerText, the
// browser's own engines, frames and shadow hosts) is tests/browser/recorder.browser.test.ts.
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTargets, DEFAULT_LOCATOR_ORDER, findsFirst, orderedBuilders, V3_BUILDER_ORDER } from "../../services/locators/builders.ts";
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
  it("gives v3's builders in v3's order when the project orders them so, each locator with its builder's name", () => {
    const doc = page(`<main id="main"><form><a id="help" name="help" data-test="help-link" href="/help" class="nav">Help me</a></form></main>`);
    const targets = buildTargets(the(doc, "a"), { locatorOrder: V3_BUILDER_ORDER });
    expect(targets.map(([, name]) => name)).toEqual([
      "css:data-attr", "id", "linkText", "name", "css:finder", "xpath:link",
      "xpath:attributes", "xpath:idRelative", "xpath:href", "xpath:position", "xpath:text",
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
      "xpath:text": "xpath=//a[normalize-space()='Help me']",
    });
    expect(V3_BUILDER_ORDER).toHaveLength(12);
  });

  it("gives css=*[data-test-id=...] when there is no data-test, where v3 never did", () => {
    const doc = page(`<button data-test-id="buy">Buy</button>`);
    expect(buildTargets(the(doc, "button"), { locatorOrder: V3_BUILDER_ORDER })[0]).toEqual(['css=*[data-test-id="buy"]', "css:data-attr"]);
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

const byName = (targets: Array<[string, string]>) => Object.fromEntries(targets.map(([locator, name]) => [name, locator]));

describe("the builders beyond v3's", () => {
  it("puts a test id first by default, as css=[data-testid=...]", () => {
    const doc = page(`<button id="save" data-testid="save-button" class="primary">Save</button>`);
    const targets = buildTargets(the(doc, "button"));
    expect(targets[0]).toEqual(['css=[data-testid="save-button"]', "css:testId"]);
    expect(targets.map(([, name]) => name).slice(0, 2)).toEqual(["css:testId", "id"]);
  });

  it("tries the project's test-id attributes in its order, and only those", () => {
    const doc = page(`<span data-qa="total" data-cy="sum">9</span>`);
    const span = the(doc, "span");
    expect(byName(buildTargets(span))["css:testId"]).toBe('css=[data-qa="total"]');
    expect(byName(buildTargets(span, { testIdAttributes: ["data-cy"] }))["css:testId"]).toBe('css=[data-cy="sum"]');
    expect(byName(buildTargets(span, { testIdAttributes: ["data-e2e"] }))["css:testId"]).toBeUndefined();
  });

  it("passes over a test id another element has first, for the next attribute that names it alone", () => {
    const doc = page(`<i data-testid="row"></i><b data-testid="row" data-cy="second-row">x</b>`);
    expect(byName(buildTargets(the(doc, "b")))["css:testId"]).toBe('css=[data-cy="second-row"]');
  });

  it("gives one pair where v3's css:data-attr and the test id are the same locator", () => {
    const doc = page(`<a href="/help" data-test="help">Help</a>`);
    const targets = buildTargets(the(doc, "a"));
    expect(targets[0]).toEqual(['css=[data-test="help"]', "css:testId"]);
    expect(targets.map(([, name]) => name)).not.toContain("css:data-attr");
  });

  it("names an element by its aria-label, with its tag when another element has the label first", () => {
    const doc = page(`<button aria-label="Close dialog">×</button><div aria-label="Cart"></div><a aria-label="Cart" href="/cart">🛒</a>`);
    expect(byName(buildTargets(the(doc, "button")))["css:aria-label"]).toBe('css=[aria-label="Close dialog"]');
    expect(byName(buildTargets(the(doc, "a")))["css:aria-label"]).toBe('css=a[aria-label="Cart"]');
  });

  it("finds an input by the text of the label whose for names it", () => {
    const doc = page(`<label for="mail">  Email
      address </label><input id="mail" type="email">`);
    const locator = byName(buildTargets(the(doc, "input")))["xpath:label"];
    expect(locator).toBe("xpath=//input[@id=//label[normalize-space()='Email address']/@for]");
    expect(findElement(doc, parseLocator(locator))).toBe(the(doc, "input"));
  });

  it("finds a control inside its label by the label's own text, not its options'", () => {
    const doc = page(`<label>Name <input name="n"></label><label>Size <select><option>Small</option><option>Large</option></select></label>`);
    expect(byName(buildTargets(the(doc, "input")))["xpath:label"]).toBe("xpath=//label[normalize-space()='Name']//input");
    const select = the(doc, "select");
    const locator = byName(buildTargets(select))["xpath:label"];
    expect(locator).toBe("xpath=//label[contains(normalize-space(),'Size')]//select");
    expect(findElement(doc, parseLocator(locator))).toBe(select);
  });

  it("names a button and a link by their own text, whitespace normalised", () => {
    const doc = page(`<button type="button">
        Save   changes
      </button><a href="/help">Help &amp;
      Contact</a>`);
    expect(byName(buildTargets(the(doc, "button")))["xpath:text"]).toBe("xpath=//button[normalize-space()='Save changes']");
    const link = byName(buildTargets(the(doc, "a")));
    expect(link["xpath:text"]).toBe("xpath=//a[normalize-space()='Help & Contact']");
    expect(link.linkText).toBe("linkText=Help & Contact");
    expect(link["xpath:link"]).toBe("xpath=//a[contains(normalize-space(text()),'Help & Contact')]");
  });

  it("records no locator with a line break or a run of spaces in it", () => {
    const doc = page(`<div id="box"><p>First
      line</p><a href="/x" title="a
      b" onclick="go(
      )">Two  words</a></div>`);
    for (const el of [the(doc, "p"), the(doc, "a")]) {
      const targets = buildTargets(el);
      expect(targets.length).toBeGreaterThan(0);
      for (const [locator] of targets) expect(locator).not.toMatch(/[^\S ]| {2}/);
    }
  });

  it("names a link to the page's own origin by its path, never the origin", () => {
    const doc = page(`<a href="http://shop.test/help?q=1">Help</a><a href="https://example.org/a">Away</a><img src="http://shop.test/logo.png">`);
    const own = buildTargets(the(doc, "a"));
    expect(byName(own)["xpath:href"]).toBe("xpath=//a[contains(@href, '/help?q=1')]");
    for (const [locator] of own) expect(locator).not.toContain("http://shop.test");
    expect(byName(buildTargets(doc.querySelectorAll("a")[1]))["xpath:href"]).toBe("xpath=//a[@href='https://example.org/a']");
    expect(byName(buildTargets(the(doc, "img")))["xpath:img"]).toBe("xpath=//img[contains(@src,'/logo.png')]");
  });

  it("orders the targets by the project's locatorOrder, the builders it leaves out after it in the default order", () => {
    const doc = page(`<form id="f"><label for="q">Search</label><input id="q" name="query" data-testid="search" aria-label="Search the shop"></form>`);
    const input = the(doc, "input");
    const names = (order?: string[]) => buildTargets(input, order ? { locatorOrder: order } : {}).map(([, name]) => name);
    expect(names().slice(0, 5)).toEqual(["css:testId", "id", "css:aria-label", "xpath:label", "name"]);
    const reordered = names(["xpath:label", "name", "no-such-builder"]);
    expect(reordered.slice(0, 4)).toEqual(["xpath:label", "name", "css:testId", "id"]);
    expect(buildTargets(input, { locatorOrder: ["name"] })[0]).toEqual(["name=query", "name"]);
    expect(orderedBuilders(["id"])).toHaveLength(DEFAULT_LOCATOR_ORDER.length);
  });

  it("lists positional xpaths last by default", () => {
    const doc = page(`<main id="m"><div><button class="go">Go</button></div></main>`);
    const names = buildTargets(the(doc, "button")).map(([, name]) => name);
    expect(names.slice(-2)).toEqual(["xpath:idRelative", "xpath:position"]);
    expect(names[0]).toBe("xpath:text");
  });
});

