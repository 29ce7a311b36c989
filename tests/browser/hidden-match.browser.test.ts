// A target whose first match is hidden (issue 34, CONTRACT section 18), played by the host's one
// player in headless Chromium: a click or typing acts on the locator's first visible match (a
// closed suggestions box's copy of the button, a template's copy of the form passed over); a
// locator whose matches are all hidden does not count once the wait is over, so the next locator
// or relocation finds the element, and the command says it healed; a hidden match shown during
// the wait is used, not healed past. Commands that need no visible element keep the first match.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPage } from "../../drivers/host/browserPage.ts";
import type { BrowserPage } from "../../drivers/host/browserPage.ts";
import { servePages } from "../support/browserPages.ts";

const mark = (what: string) => `document.getElementById('done').textContent='${what}'`;

/** A search page whose closed suggestions box holds a second copy of the search button, before the shown one. */
const SEARCH = `<!doctype html><html><body>
<form onsubmit="return false"><input name="q" aria-label="Search">
<div class="suggestions" style="display:none"><ul><li>hiking boots</li></ul><input type="submit" name="btnK" value="Search" class="btn" onclick="${mark("hidden copy")}"></div>
<div class="buttons"><input type="submit" name="btnK" value="Search" class="btn" onclick="${mark("search")}"><button type="button" id="lucky" onclick="${mark("lucky")}">Lucky</button></div>
</form><p id="done"></p></body></html>`;

/** A page whose only "Menu" link is in a hidden mobile menu; the shown nav calls it "Products". */
const MENU = `<!doctype html><html><body>
<div class="mobile" hidden><a href="#" class="m-products" onclick="${mark("hidden copy")}; return false">Products</a></div>
<nav><a href="#" id="products" class="products" onclick="${mark("products")}; return false">Our products</a> <a href="#" id="blog" onclick="${mark("blog")}; return false">Blog</a></nav>
<p id="done"></p></body></html>`;

/** A newsletter form with a display:none template copy of itself before it. */
const FORM = `<!doctype html><html><body>
<div class="template" style="display:none"><form><input name="email" class="email"></form></div>
<form><input name="email" class="email" id="email"></form><p id="done"></p></body></html>`;

/** A link hidden until 300 ms after load, while another link matches the alternative locator at once. */
const LATE = `<!doctype html><html><body>
<a href="#" id="late" class="go" style="display:none" onclick="${mark("late")}; return false">Go</a>
<a href="#" id="early" class="go-now" onclick="${mark("early")}; return false">Go now</a><p id="done"></p>
<script>setTimeout(() => { document.getElementById('late').style.display = 'inline'; }, 300);</script></body></html>`;

/** Two shown "Go" links, the first first; a hidden one after them. */
const SHOWN_FIRST = `<!doctype html><html><body>
<a href="#" class="go" onclick="${mark("first")}; return false">Go</a> <a href="#" class="go" onclick="${mark("second")}; return false">Go</a>
<span style="display:none"><a href="#" class="go" data-where="hidden" onclick="${mark("hidden copy")}; return false">Go</a></span><p id="done"></p></body></html>`;

/** A button hidden first, a shown one second, each with where it is in an attribute. */
const PRESENT = `<!doctype html><html><body>
<span style="display:none"><button class="b" data-where="hidden">Save</button></span><button class="b" data-where="shown">Save</button></body></html>`;

let site: Awaited<ReturnType<typeof servePages>>;
let page: BrowserPage;
let count = 0;

beforeAll(async () => {
  site = await servePages({ "/search": SEARCH, "/menu": MENU, "/form": FORM, "/late": LATE, "/shown": SHOWN_FIRST, "/present": PRESENT });
  page = browserPage({ baseUrl: site.origin, implicitWaitMs: 1_000 });
}, 60_000);

afterAll(async () => {
  await page?.close();
  await site?.close();
});

interface Step {
  command: string;
  target?: string;
  value?: string;
  targets?: string[];
  fingerprint?: unknown;
}

/** Plays one command in the open page: its state, message and how it healed. */
async function play({ command, target = "", value = "", targets = [], fingerprint }: Step) {
  const outcome = await page.execute(
    { command: { id: `h${++count}`, command, target, targets, value, ...(fingerprint === undefined ? {} : { fingerprint }) }, variables: {}, baseUrl: site.origin, runId: "hidden" },
    new AbortController().signal,
  );
  return { state: outcome.state, message: outcome.message, healed: outcome.healed, variables: outcome.variables };
}

async function open(path: string): Promise<void> {
  expect((await play({ command: "open", target: path })).state).toBe("passed");
}

/** What the page's last click wrote. */
async function done(): Promise<unknown> {
  const stored = await play({ command: "storeText", target: "id=done", value: "done" });
  expect(stored.state).toBe("passed");
  return stored.variables?.done;
}

/** A fingerprint of the shown "Our products" link as it was recorded, before a release renamed its text and id. */
const PRODUCTS_FINGERPRINT = {
  tag: "a",
  id: "products",
  classes: ["products"],
  text: "Products",
  role: "link",
  accessibleName: "Products",
  href: "#",
  xpath: "/html/body/nav/a[1]",
  index: 0,
  box: { x: 8, y: 8, width: 90, height: 18 },
  neighbourText: "Blog",
};

describe("a click or typing whose locator's first match is hidden", () => {
  it("clicks the first visible match of the target, passing over the closed suggestions box's copy, and is not healed", async () => {
    await open("/search");
    const click = await play({ command: "click", target: "name=btnK", targets: ["name=btnK", "id=lucky"] });
    expect(click).toMatchObject({ state: "passed", healed: undefined });
    expect(await done()).toBe("search");
  });

  it("types into the shown field, not the display:none template copy of the form before it", async () => {
    await open("/form");
    expect((await play({ command: "type", target: "name=email", value: "ann@example.com" })).state).toBe("passed");
    expect((await play({ command: "assertValue", target: "id=email", value: "ann@example.com" })).state).toBe("passed");
    expect((await play({ command: "assertValue", target: "css=.template .email", value: "" })).state).toBe("passed");
  });

  it("takes the next locator once the wait shows the target's matches all hidden, and says it healed", async () => {
    await open("/menu");
    const click = await play({ command: "click", target: "linkText=Products", targets: ["linkText=Products", "id=products"] });
    expect(click.state).toBe("passed");
    expect(click.healed).toEqual({ locator: "id=products", score: 1 });
    expect(await done()).toBe("products");
  });

  it("relocates by the fingerprint when every locator finds only the hidden menu's copy, and says it healed", async () => {
    await open("/menu");
    const click = await play({ command: "click", target: "linkText=Products", targets: ["linkText=Products", "css=.m-products"], fingerprint: PRODUCTS_FINGERPRINT });
    expect(click.state).toBe("passed");
    expect(click.healed?.score).toBeGreaterThan(0.6);
    expect(click.healed?.score).toBeLessThan(1);
    expect(await done()).toBe("products");
  });

  it("fails saying the element is not visible when nothing but hidden matches is found", async () => {
    await open("/menu");
    const click = await play({ command: "click", target: "linkText=Products", targets: ["linkText=Products", "css=.m-products"] });
    expect(click).toMatchObject({ state: "failed", message: "Element linkText=Products is not visible, so it cannot be interacted with" });
    expect(await done()).toBe("");
  });

  it("uses the target's match that becomes visible during the wait, not the alternative that matched at once", async () => {
    await open("/late");
    const click = await play({ command: "click", target: "css=.go", targets: ["css=.go", "css=.go-now"] });
    expect(click).toMatchObject({ state: "passed", healed: undefined });
    expect(await done()).toBe("late");
  });

  it("does not heal when the target's first match is visible: it clicks that one", async () => {
    await open("/shown");
    const click = await play({ command: "click", target: "css=.go", targets: ["css=.go", "css=.go:nth-of-type(2)"] });
    expect(click).toMatchObject({ state: "passed", healed: undefined });
    expect(await done()).toBe("first");
  });
});

describe("commands that need no visible element keep the first match", () => {
  it("asserts a hidden first match present, and reads its attribute, not the shown one's", async () => {
    await open("/present");
    expect((await play({ command: "assertElementPresent", target: "css=.b" })).state).toBe("passed");
    expect(await play({ command: "storeAttribute", target: "css=.b@data-where", value: "where" })).toMatchObject({ state: "passed", variables: { where: "hidden" } });
    expect((await play({ command: "assertText", target: "css=.b", value: "" })).state).toBe("passed");
  });

  it("waits for the first match to be not visible, a shown later match notwithstanding", async () => {
    await open("/present");
    expect((await play({ command: "waitForElementNotVisible", target: "css=.b", value: "500" })).state).toBe("passed");
  });
});
