// The locator builders (services/locators/builders.ts) in real headless Chromium, bundled for the
// browser as the recorder bundles them, on a page of tricky cases: duplicate ids, quotes in
// text, an iframe, a shadow host, selects, a contenteditable. Every locator of every element's
// list must find that element as its first match, checked by the project's own resolver
// (services/locators/, bundled beside them) in the element's own document.
import type { Browser, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../drivers/host/chromium.ts";
import { V3_BUILDER_ORDER } from "../../services/locators/builders.ts";
import { bundleForPage, servePages } from "../support/browserPages.ts";

const GLOBAL = "__ideCoreBuilders";

const TRICKY = `<!doctype html>
<html><head><title>Tricky</title></head>
<body>
  <main id="main">
    <p><input id="dup" name="q" value="first"></p>
    <p><input id="dup" name="q" value="second"></p>
    <a href="/help" data-test="help">Help</a>
    <a href="https://example.org/a">Don't "quote" me</a>
    <a href="/cart">Add to cart</a><a href="/cart">Add to cart</a>
    <button data-test-id="buy">Buy now</button>
    <img src="img/logo.png"><img alt="It's a cat" src="cat.png">
    <select id="size"><option>Small</option><option>Large</option></select>
    <select name="toppings" multiple><option>Cheese</option><option>Ham</option></select>
    <div contenteditable="true" class="editor">Write here</div>
    <fancy-box id="fancy"></fancy-box><fancy-box></fancy-box>
    <textarea>notes</textarea>
    <span>plain text</span>
    <div class="editor-lines"><p>First line</p>
      <p>Second line</p></div>
  </main>
  <iframe id="inner" src="/frame"></iframe>
  <script>
    customElements.define("fancy-box", class extends HTMLElement {
      constructor() { super(); this.attachShadow({ mode: "open" }).innerHTML = "<button>Inside</button>"; }
    });
  </script>
</body></html>`;

const FRAME = `<!doctype html><html><body>
  <form><input id="dup" name="q"><button type="submit">Go</button></form>
  <a href="/top">Back</a>
</body></html>`;

/** CSS selectors for the elements recorded in each document. */
const TOP_ELEMENTS = [
  "#dup", "input[value=second]", "a[data-test]", "a[href^=https]", "main > a:nth-of-type(3)",
  "main > a:nth-of-type(4)", "button", "img[src^=img]", "img[alt]", "#size", "select[multiple]",
  "select[multiple] option:nth-child(2)", ".editor", "#fancy", "fancy-box:not([id])", "textarea", "span", "#inner",
];
const FRAME_ELEMENTS = ["input", "button", "a"];

let site: Awaited<ReturnType<typeof servePages>>;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const bundle = await bundleForPage(
    `export { buildTargets } from "./services/locators/builders.ts";
     export { findElement, parseLocator } from "./services/locators/index.ts";`,
    GLOBAL,
  );
  site = await servePages({ "/": TRICKY, "/frame": FRAME });
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(`${site.origin}/`);
  await page.frame({ url: /\/frame$/ })!.waitForLoadState();
  for (const frame of page.frames()) await frame.evaluate(`${bundle}; void 0`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

type Checked = { targets: Array<[string, string]>; wrong: string[] };

/** The element's targets, and those of them the resolver does not find it first with. */
function targetsIn(frame: Frame, css: string, options: { locatorOrder?: readonly string[] } = {}): Promise<Checked> {
  return frame.evaluate(
    ([css, name, options]) => {
      const lib = (globalThis as unknown as Record<string, any>)[name];
      const el = document.querySelector(css)!;
      const targets = lib.buildTargets(el, options) as Array<[string, string]>;
      const wrong = targets
        .map(([locator]) => locator)
        .filter((locator) => {
          try {
            return lib.findElement(document, lib.parseLocator(locator)) !== el;
          } catch {
            return true;
          }
        });
      return { targets, wrong };
    },
    [css, GLOBAL, options] as const,
  );
}

describe("locator builders in Chromium", () => {
  it("finds every recorded element of the page first with every locator of its list", async () => {
    for (const css of TOP_ELEMENTS) {
      const { targets, wrong } = await targetsIn(page.mainFrame(), css);
      expect(targets.length, `${css} has locators`).toBeGreaterThan(0);
      expect(wrong, `${css}: ${JSON.stringify(targets)}`).toEqual([]);
    }
  });

  it("finds every element of an iframe first in the iframe's own document", async () => {
    const frame = page.frame({ url: /\/frame$/ })!;
    for (const css of FRAME_ELEMENTS) {
      const { targets, wrong } = await targetsIn(frame, css);
      expect(targets.length, `${css} has locators`).toBeGreaterThan(0);
      expect(wrong, `${css}: ${JSON.stringify(targets)}`).toEqual([]);
    }
    expect((await targetsIn(frame, "input")).targets[0]).toEqual(["id=dup", "id"]);
  });

  it("gives no id locator to the second of two elements with the same id", async () => {
    const { targets } = await targetsIn(page.mainFrame(), "input[value=second]");
    expect(targets.map(([, name]) => name)).not.toContain("id");
    expect(targets.find(([, name]) => name === "css:finder")).toBeDefined();
  });

  it("keeps quotes in a link's text and still finds the link", async () => {
    const { targets } = await targetsIn(page.mainFrame(), "a[href^=https]");
    expect(targets).toContainEqual([`linkText=Don't "quote" me`, "linkText"]);
    expect(targets).toContainEqual([`xpath=//a[contains(text(),concat('Don',"'",'t "quote" me'))]`, "xpath:link"]);
    expect(targets).toContainEqual(["xpath=//a[@href='https://example.org/a']", "xpath:href"]);
  });

  it("gives the v3 forms of the data attributes and of the inner text in v3's order", async () => {
    const v3 = { locatorOrder: V3_BUILDER_ORDER };
    expect((await targetsIn(page.mainFrame(), "a[data-test]", v3)).targets[0]).toEqual(['css=*[data-test="help"]', "css:data-attr"]);
    expect((await targetsIn(page.mainFrame(), "button", v3)).targets[0]).toEqual(['css=*[data-test-id="buy"]', "css:data-attr"]);
    expect((await targetsIn(page.mainFrame(), "span")).targets).toContainEqual(["xpath=//span[contains(.,'plain text')]", "xpath:innerText"]);
  });

  it("names the second of two identical links by its position", async () => {
    const { targets } = await targetsIn(page.mainFrame(), "main > a:nth-of-type(4)");
    expect(targets).toContainEqual(["xpath=(//a[contains(text(),'Add to cart')])[2]", "xpath:link"]);
  });

  it("puts the test id first by default and gives no positional xpath before a stable locator", async () => {
    const { targets } = await targetsIn(page.mainFrame(), "button");
    expect(targets[0]).toEqual(['css=[data-test-id="buy"]', "css:testId"]);
    const names = targets.map(([, name]) => name);
    expect(names.indexOf("xpath:text")).toBeLessThan(names.indexOf("css:finder"));
    expect(names.at(-1)).toBe("xpath:position");
  });

  it("normalises a multi-line inner text, so the locator has no line break and still finds the element", async () => {
    const { targets, wrong } = await targetsIn(page.mainFrame(), ".editor-lines");
    expect(wrong).toEqual([]);
    expect(targets).toContainEqual(["xpath=//div[contains(normalize-space(.),'First line Second line')]", "xpath:innerText"]);
    for (const [locator] of targets) expect(locator).not.toMatch(/[^\S ]| {2}/);
  });
});

