import { readFileSync } from "node:fs";
import { JSDOM } from "jsdom";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildXPath,
  findElement,
  LocatorError,
  parseLocator,
  resolveInDocument,
  xpathLiteral,
  type LocatorErrorCode,
} from "../../services/locators/index.ts";

const pageHtml = readFileSync(new URL("../../../shared/fixtures/page.html", import.meta.url), "utf8");
const page = new JSDOM(pageHtml).window.document;

function html(body: string): Document {
  return new JSDOM(`<!doctype html><html><body>${body}</body></html>`).window.document;
}

/** The xpath must select exactly `el` (one node, this one) in el's own document. */
function expectSelectsOnly(xpath: string, el: Element): void {
  const result = el.ownerDocument.evaluate(xpath, el.ownerDocument, null, 7 /* ORDERED_NODE_SNAPSHOT_TYPE */, null);
  expect(result.snapshotLength, `${xpath} selects ${result.snapshotLength} nodes`).toBe(1);
  expect(result.snapshotItem(0) === el, `${xpath} selects another node`).toBe(true);
}

/** Resolves `location` in `doc`, checks the reply selects exactly the found element, and returns it. */
function resolve(doc: Document, location: string): string {
  const xpath = resolveInDocument(doc, location);
  expectSelectsOnly(xpath, findElement(doc, parseLocator(location)));
  return xpath;
}

function expectLocatorError(run: () => unknown, code: LocatorErrorCode, text?: string): void {
  let caught: unknown;
  try {
    run();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(LocatorError);
  expect((caught as LocatorError).errorCode).toBe(code);
  if (text) expect((caught as LocatorError).message).toContain(text);
}

describe("parseLocator", () => {
  it("splits strategy=value at the first =", () => {
    expect(parseLocator("css=a[href='/x?a=b']")).toEqual({ strategy: "css", value: "a[href='/x?a=b']" });
  });

  it("treats link as an alias of linkText", () => {
    expect(parseLocator("link=Home")).toEqual({ strategy: "linkText", value: "Home" });
  });

  it("reads a value starting with // or ( and no strategy as an xpath, even when it holds =", () => {
    expect(parseLocator("//a[@href='/shop']")).toEqual({ strategy: "xpath", value: "//a[@href='/shop']" });
    expect(parseLocator("(//a)[2]")).toEqual({ strategy: "xpath", value: "(//a)[2]" });
  });

  it("rejects an unknown strategy as InvalidLocator, naming it", () => {
    expectLocatorError(() => parseLocator("bogus=thing"), "InvalidLocator", '"bogus"');
    expectLocatorError(() => parseLocator("constructor=x"), "InvalidLocator");
    expectLocatorError(() => parseLocator("ID=user"), "InvalidLocator");
  });

  it("rejects a locator with no = as InvalidLocator, naming the locator", () => {
    expectLocatorError(() => parseLocator("user"), "InvalidLocator", '"user"');
    expectLocatorError(() => parseLocator(""), "InvalidLocator");
  });

  it("rejects an empty or blank value as InvalidLocator", () => {
    expectLocatorError(() => parseLocator("id="), "InvalidLocator", '"id="');
    expectLocatorError(() => parseLocator("linkText=   "), "InvalidLocator");
  });

  it("rejects a CSS selector that does not parse as InvalidLocator", () => {
    expectLocatorError(() => parseLocator("css=div[["), "InvalidLocator", '"css=div[["');
    expectLocatorError(() => parseLocator("css=a,"), "InvalidLocator");
  });

  it("rejects an xpath that does not parse as InvalidLocator, with or without xpath=", () => {
    expectLocatorError(() => parseLocator("xpath=//div["), "InvalidLocator", '"xpath=//div["');
    expectLocatorError(() => parseLocator("//a]"), "InvalidLocator");
    expectLocatorError(() => parseLocator("(//a"), "InvalidLocator");
  });
});

describe("resolving each strategy against page.html", () => {
  it("resolves id=user to //input[@id='user']", () => {
    expect(resolve(page, "id=user")).toBe("//input[@id='user']");
  });

  it("resolves name=password to //input[@name='password']", () => {
    expect(resolve(page, "name=password")).toBe("//input[@name='password']");
  });

  it("resolves css=button[type=submit] by its unique type", () => {
    expect(resolve(page, "css=button[type=submit]")).toBe("//button[@type='submit']");
  });

  it("resolves xpath=, bare // and bare ( xpaths to the element they select", () => {
    expect(resolve(page, "xpath=//form/input[2]")).toBe("//input[@name='password']");
    expect(resolve(page, "//header/a[3]")).toBe("//a[contains(text(),'Help and support')]");
    expect(resolve(page, "(//a[text()='Add to cart'])[2]")).toBe("//main[@id='main']/section/div[2]/a");
  });

  it("resolves an xpath to its first element, skipping nodes that are not elements", () => {
    expect(resolve(page, "xpath=//header/text() | //header/a")).toBe("//a[contains(text(),'Home')]");
  });

  it("resolves linkText=Help and support to //a[contains(text(),'Help and support')]", () => {
    expect(resolve(page, "linkText=Help and support")).toBe("//a[contains(text(),'Help and support')]");
  });

  it("resolves link= like linkText=", () => {
    expect(resolve(page, "link=Shop")).toBe("//a[contains(text(),'Shop')]");
  });

  it("resolves partialLinkText to the first link whose text contains the value", () => {
    expect(resolve(page, "partialLinkText=cart")).toBe("//main[@id='main']/section/div[1]/a");
    expect(resolve(page, "partialLinkText=example.org")).toBe("//a[contains(text(),'shop@example.org')]");
  });

  it("resolves a strategy that matches several elements to the first", () => {
    expect(resolve(page, "css=.product a")).toBe("//main[@id='main']/section/div[1]/a");
    expect(resolve(page, "linkText=Add to cart")).toBe("//main[@id='main']/section/div[1]/a");
  });

  it("matches link text with surrounding and repeated whitespace collapsed", () => {
    const doc = html(`<a href="#">\n  Read   more\n</a>`);
    expect(findElement(doc, parseLocator("linkText=Read more"))).toBe(doc.querySelector("a"));
  });

  it("finds by id and name in an XML document too", () => {
    const doc = new JSDOM(`<root><item id="a" name="first"/><item name="second"/></root>`, {
      contentType: "application/xml",
    }).window.document;
    expect(resolve(doc, "id=a")).toBe("//item[@id='a']");
    expect(resolve(doc, "name=second")).toBe("//item[@name='second']");
  });
});

describe("the xpath form buildXPath prefers", () => {
  it("uses the position from the nearest ancestor with a unique id for the Buy button", () => {
    expect(resolve(page, "css=button[data-sku='hat-3']")).toBe("//main[@id='main']/section/div[3]/button");
  });

  it("adds a position only where siblings share the tag name", () => {
    expect(resolve(page, "css=.cart-count")).toBe("//main[@id='main']/div");
    expect(resolve(page, "css=.product:nth-child(2) .title")).toBe("//main[@id='main']/section/div[2]/span");
  });

  it("uses the absolute position for an element with no id ancestor, like the footer p", () => {
    expect(resolve(page, "css=footer p")).toBe("/html/body/footer/p");
    expect(resolve(page, "css=title")).toBe("/html/head/title");
  });

  it("skips an ancestor whose id is not unique and anchors on a farther one", () => {
    const doc = html(`<div id="app"><p id="dup"><b>x</b></p><p id="dup"><b>y</b></p></div>`);
    expect(resolve(doc, "xpath=//p[2]/b")).toBe("//div[@id='app']/p[2]/b");
  });

  it("skips an id that is not unique", () => {
    const doc = html(`<input id="q" name="first"><input id="q" name="second">`);
    expect(resolve(doc, "name=second")).toBe("//input[@name='second']");
  });

  it("prefers id over name, and name over data-testid", () => {
    const doc = html(`<input id="i" name="n1" data-testid="t1"><input name="n2" data-testid="t2">`);
    expect(resolve(doc, "name=n1")).toBe("//input[@id='i']");
    expect(resolve(doc, "css=[data-testid=t2]")).toBe("//input[@name='n2']");
  });

  it("tries the other attributes in the contract's order, each only when unique", () => {
    const order = ["name", "data-testid", "data-test", "data-qa", "data-cy", "aria-label", "placeholder", "title", "alt", "value", "type"];
    for (const [i, attr] of order.entries()) {
      // Both inputs share every earlier attribute's value, so only `attr` tells them apart.
      const shared = order.slice(0, i).map((a) => `${a}="same"`).join(" ");
      const doc = html(`<input ${shared} ${attr}="one"><input ${shared} ${attr}="two">`);
      expect(resolve(doc, `css=input[${attr}=two]`)).toBe(`//input[@${attr}='two']`);
    }
  });

  it("uses aria-label and placeholder when they are unique", () => {
    const doc = html(`<button aria-label="Close">x</button><button>y</button><input placeholder="Search">`);
    expect(resolve(doc, "css=button")).toBe("//button[@aria-label='Close']");
    expect(resolve(doc, "css=input")).toBe("//input[@placeholder='Search']");
  });

  it("counts an attribute as unique for its tag name even when another tag shares it", () => {
    const doc = html(`<label title="Email"><input title="Email"></label>`);
    expect(resolve(doc, "css=input")).toBe("//input[@title='Email']");
  });

  it("uses link text only for a link whose text is unique", () => {
    const doc = html(`<a href="/a">Next</a><a href="/b">Next page</a><a href="/c">Back</a>`);
    expect(resolve(doc, "linkText=Back")).toBe("//a[contains(text(),'Back')]");
    expect(resolve(doc, "linkText=Next page")).toBe("//a[contains(text(),'Next page')]");
    expect(resolve(doc, "linkText=Next")).toBe("/html/body/a[1]");
  });

  it("puts a value holding a single quote in concat()", () => {
    const doc = html(`<input id="it's"><a href="#">Don't "stop"</a>`);
    expect(resolve(doc, "id=it's")).toBe(`//input[@id=concat('it',"'",'s')]`);
    expect(resolve(doc, "partialLinkText=Don't")).toBe(`//a[contains(text(),concat('Don',"'",'t "stop"'))]`);
  });

  it("matches an SVG element, which a bare name does not match in a browser, by local-name(.)", () => {
    const doc = html(`<svg><circle r="1"></circle><circle r="2"></circle></svg>`);
    const xpath = resolve(doc, "css=circle + circle");
    expect(xpath).toBe("/html/body/*[local-name(.)='svg']/*[local-name(.)='circle'][2]");
  });

  it("matches XHTML elements of an XML document by local-name(.), since XPath 1.0 has no default namespace", () => {
    const doc = new JSDOM(`<html xmlns="http://www.w3.org/1999/xhtml"><body><p id="x"/><p/></body></html>`, {
      contentType: "application/xhtml+xml",
    }).window.document;
    expect(resolve(doc, "id=x")).toBe("//*[local-name(.)='p'][@id='x']");
  });

  it("builds an xpath that selects exactly each element of page.html", () => {
    const all = Array.from(page.getElementsByTagName("*"));
    fc.assert(
      fc.property(fc.constantFrom(...all), (el) => {
        expectSelectsOnly(buildXPath(el), el);
      }),
      { numRuns: all.length * 3 },
    );
  });

  it("builds an xpath that selects exactly each element of random link and id soups", () => {
    const word = fc.constantFrom("a", "b", "it's", 'say "hi"', "");
    const tag = fc.constantFrom("div", "a", "span", "input");
    const node = fc.record({ tag, id: word, name: word, text: word });
    fc.assert(
      fc.property(fc.array(node, { minLength: 1, maxLength: 8 }), (nodes) => {
        const attr = (k: string, v: string) => (v ? ` ${k}="${v.replace(/"/g, "&quot;")}"` : "");
        const body = nodes
          .map((n) => `<${n.tag}${attr("id", n.id)}${attr("name", n.name)}>${n.tag === "input" ? "" : n.text.replace(/"/g, "&quot;")}${n.tag === "input" ? "" : `</${n.tag}>`}`)
          .join("");
        const doc = html(`<main id="m">${body}</main>`);
        for (const el of Array.from(doc.getElementsByTagName("*"))) expectSelectsOnly(buildXPath(el), el);
      }),
      { numRuns: 100 },
    );
  });
});

describe("xpathLiteral", () => {
  it("puts a value with no single quote in single quotes", () => {
    expect(xpathLiteral("user")).toBe("'user'");
    expect(xpathLiteral('say "hi"')).toBe(`'say "hi"'`);
  });

  it("uses concat() for values with single quotes, alone or with double quotes", () => {
    expect(xpathLiteral("it's")).toBe(`concat('it',"'",'s')`);
    expect(xpathLiteral(`it's "x"`)).toBe(`concat('it',"'",'s "x"')`);
    expect(xpathLiteral("'")).toBe(`concat("'",'')`);
  });

  it("evaluates back to the very value for any mix of quotes", () => {
    const doc = html("");
    const unit = fc.constantFrom("'", '"', "a", " ", "=", "]");
    fc.assert(
      fc.property(fc.string({ unit }), (value) => {
        const result = doc.evaluate(xpathLiteral(value), doc, null, 2 /* STRING_TYPE */, null);
        expect(result.stringValue).toBe(value);
      }),
    );
  });
});

describe("errors from resolveInDocument", () => {
  it("gives ElementNotFound naming the locator when nothing matches", () => {
    expectLocatorError(() => resolveInDocument(page, "css=.nothing-here"), "ElementNotFound", 'No element matches the locator "css=.nothing-here".');
    for (const location of ["id=nope", "name=nope", "link=Nope", "partialLinkText=Nope", "xpath=//table"]) {
      expectLocatorError(() => resolveInDocument(page, location), "ElementNotFound");
    }
  });

  it("gives ElementNotFound for an xpath that selects only non-element nodes", () => {
    expectLocatorError(() => resolveInDocument(page, "xpath=//a/@href"), "ElementNotFound");
  });

  it("gives InvalidLocator for a selector the page's CSS engine rejects", () => {
    expectLocatorError(() => resolveInDocument(page, "css=#1"), "InvalidLocator", '"css=#1"');
  });

  it("gives InvalidLocator for an xpath that does not evaluate to nodes", () => {
    expectLocatorError(() => resolveInDocument(page, "xpath=count(//a)"), "InvalidLocator");
  });

  it("gives InvalidLocator for the contract's bad locators", () => {
    for (const location of ["bogus=thing", "user", "id=", "css=div[[", "xpath=//div["]) {
      expectLocatorError(() => resolveInDocument(page, location), "InvalidLocator");
    }
  });

  it("gives NoPage when there is no document", () => {
    expectLocatorError(() => resolveInDocument(undefined, "id=user"), "NoPage", '"id=user"');
  });

  it("gives InvalidLocator before NoPage", () => {
    expectLocatorError(() => resolveInDocument(undefined, "css=div[["), "InvalidLocator");
    expectLocatorError(() => resolveInDocument(undefined, "bogus=thing"), "InvalidLocator");
  });

  it("refuses to build an xpath for an element outside its document", () => {
    const detached = page.createElement("div");
    expectLocatorError(() => buildXPath(detached), "ElementNotFound");
  });
});
