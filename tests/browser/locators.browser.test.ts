// Locators resolved inside a live page in real headless Chromium (drivers/host/pages.ts):
// the in-page resolver must answer as the built-in one does in jsdom, and its xpaths must hold
// in the browser's own engine, including the absolute-position fallback jsdom cannot evaluate.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIde } from "../../index.ts";
import { EXAMPLE_PAGE_PATH, exampleDocument, openLivePage, PageLoadError } from "../../drivers/host/pages.ts";
import type { LivePage } from "../../drivers/host/pages.ts";
import { buildXPath, LocatorError, resolveInDocument } from "../../services/locators/index.ts";
import type { LocatorErrorCode } from "../../services/locators/index.ts";

const SHOP = readFileSync(EXAMPLE_PAGE_PATH, "utf8");
const CATALOGUE = `<!doctype html><html><head><title>Catalogue</title></head><body>
  <h1 id="catalogue">All products</h1><a href="/">Back to the shop</a></body></html>`;
// Tag names with a colon: no name test can match them, none has an attribute, and no ancestor
// has an id, so no readable form is unique and only the absolute position is left.
const POSITIONAL = `<!doctype html><html><head></head><body><x:item>one</x:item><x:item>two</x:item><x:item>three</x:item></body></html>`;

// Open shadow roots (CONTRACT section 19): a host whose tree holds a field and a nested host.
const SHADOW = `<!doctype html><html><head></head><body><x-form id="form"></x-form><x-form></x-form>
  <script>
    for (const host of document.querySelectorAll("x-form")) {
      const root = host.attachShadow({ mode: "open" });
      root.innerHTML = '<p>Name</p><p><input name="q"></p><x-badge></x-badge>';
      root.querySelector("x-badge").attachShadow({ mode: "open" }).innerHTML = "<span>1</span><span>2</span>";
    }
  </script></body></html>`;

const PAGES: Record<string, string> = { "/": SHOP, "/shop": CATALOGUE, "/positional": POSITIONAL, "/shadow": SHADOW };

/**
 * Every strategy of CONTRACT section 6 against the example page, with a CSS selector that picks
 * the element the locator should match, so the browser can check the xpath on its own.
 */
const TABLE: Array<{ location: string; element: string }> = [
  { location: "id=user", element: "#user" },
  { location: "name=password", element: "input[name=password]" },
  { location: "css=button[type=submit]", element: "form button" },
  { location: "xpath=//form/input[2]", element: "input[name=password]" },
  { location: "//header/a[3]", element: "header a:nth-of-type(3)" },
  { location: "(//a[text()='Add to cart'])[2]", element: ".product:nth-child(2) a" },
  { location: "xpath=//header/text() | //header/a", element: "header a:nth-of-type(1)" },
  { location: "linkText=Help and support", element: "header a:nth-of-type(3)" },
  { location: "link=Shop", element: "header a:nth-of-type(2)" },
  { location: "partialLinkText=cart", element: ".product:nth-child(1) a" },
  { location: "partialLinkText=example.org", element: "footer a" },
  { location: "css=.product a", element: ".product:nth-child(1) a" },
  { location: "css=button[data-sku='hat-3']", element: "button[data-sku]" },
  { location: "css=.cart-count", element: ".cart-count" },
  { location: "css=footer p", element: "footer p" },
  { location: "css=title", element: "title" },
  { location: "id=main", element: "main" },
];

let server: Server;
let origin: string;
let live: LivePage;

beforeAll(async () => {
  server = createServer((req, res) => {
    const body = PAGES[new URL(req.url ?? "/", "http://127.0.0.1").pathname];
    res.writeHead(body === undefined ? 404 : 200, { "content-type": "text/html; charset=utf-8" });
    res.end(body ?? "<!doctype html><title>Not found</title>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  live = await openLivePage(`${origin}/`);
}, 60_000);

afterAll(async () => {
  await live?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** True when `xpath` selects exactly one node in the live page and it is the element `css` picks. */
function selectsExactly(xpath: string, css: string): Promise<boolean> {
  return live.page.evaluate(
    ([x, c]) => {
      const result = document.evaluate(x, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
      const wanted = document.querySelector(c);
      return wanted !== null && result.snapshotLength === 1 && result.snapshotItem(0) === wanted;
    },
    [xpath, css] as const,
  );
}

async function rejection(promise: Promise<unknown>): Promise<Error & { errorCode?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { errorCode?: string };
  }
  throw new Error("expected a rejection");
}

async function expectLocatorError(location: string, code: LocatorErrorCode): Promise<void> {
  const error = await rejection(live.resolveLocator(location));
  expect(error).toBeInstanceOf(LocatorError);
  expect(error.errorCode).toBe(code);
  expect(error.message).toContain(JSON.stringify(location));
}

describe("a live page in Chromium", () => {
  it.each(TABLE)("resolves $location as the built-in resolver does in jsdom", async ({ location }) => {
    expect(await live.resolveLocator(location)).toBe(resolveInDocument(exampleDocument(), location));
  });

  it.each(TABLE)("gives for $location an xpath that selects exactly that element in Chromium", async ({ location, element }) => {
    expect(await selectsExactly(await live.resolveLocator(location), element)).toBe(true);
  });

  it("builds for every element of the page an xpath that selects only it, the same one jsdom builds", async () => {
    const count = await live.page.evaluate(() => document.getElementsByTagName("*").length);
    const jsdomElements = Array.from(exampleDocument().getElementsByTagName("*"));
    expect(count).toBe(jsdomElements.length);
    for (let n = 1; n <= count; n++) {
      const xpath = await live.resolveLocator(`xpath=(//*)[${n}]`);
      const selectsNth = await live.page.evaluate(
        ([x, i]) => {
          const result = document.evaluate(x, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
          return result.snapshotLength === 1 && result.snapshotItem(0) === document.getElementsByTagName("*")[i];
        },
        [xpath, n - 1] as const,
      );
      expect(selectsNth, `${xpath} for element ${n}`).toBe(true);
      expect(xpath).toBe(buildXPath(jsdomElements[n - 1]));
    }
  });

  it("falls back to the absolute position (//*)[n] where no readable form is unique, and Chromium selects the element with it", async () => {
    const positional = await openLivePage(`${origin}/positional`);
    try {
      const xpath = await positional.resolveLocator("xpath=//body/*[2]");
      expect(xpath).toMatch(/^\(\/\/\*\)\[\d+\]$/);
      const selected = await positional.page.evaluate((x) => {
        const result = document.evaluate(x, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
        return result.snapshotLength === 1 && result.snapshotItem(0) === document.body.children[1] ? result.snapshotItem(0)?.textContent : null;
      }, xpath);
      expect(selected).toBe("two");
    } finally {
      await positional.close();
    }
  });

  it("answers InvalidLocator for a locator that does not parse, before the page is asked", async () => {
    for (const location of ["bogus=thing", "user", "id=", "css=div[[", "xpath=//div["]) {
      await expectLocatorError(location, "InvalidLocator");
    }
  });

  it("answers InvalidLocator for a selector only the page's own engine rejects", async () => {
    await expectLocatorError("css=#1", "InvalidLocator");
    await expectLocatorError("xpath=count(//a)", "InvalidLocator");
  });

  it("answers ElementNotFound for a valid locator that matches nothing", async () => {
    for (const location of ["id=nope", "name=nope", "css=.nothing-here", "linkText=Nope", "partialLinkText=Nope", "xpath=//table"]) {
      await expectLocatorError(location, "ElementNotFound");
    }
  });

  it("answers GET /playback/location through createIde({ resolveLocator }) with the page's xpath and error codes", async () => {
    const ide = createIde({ resolveLocator: live.resolveLocator });
    try {
      const locate = (location: string) => ide.handle({ uri: "/playback/location", verb: "get", location }, { id: "p" });
      expect(await locate("id=user")).toBe("//input[@id='user']");
      expect(await locate("linkText=Help and support")).toBe("//a[contains(text(),'Help and support')]");
      expect(await locate("id=nope")).toMatchObject({ errorCode: "ElementNotFound" });
      expect(await locate("css=#1")).toMatchObject({ errorCode: "InvalidLocator" });
      expect(await locate("bogus=thing")).toMatchObject({ errorCode: "InvalidLocator" });
    } finally {
      ide.stop();
    }
  });

  it("resolves css=A >>> B inside open shadow roots to the host's xpath and a CSS step per root, each finding the next element alone", async () => {
    const shadow = await openLivePage(`${origin}/shadow`);
    try {
      const chain = await shadow.resolveLocator("css=#form >>> x-badge >>> span:last-child");
      const [host, ...steps] = chain.split(" >>> ");
      expect(host).toBe("//x-form[@id='form']");
      expect(steps).toHaveLength(2);
      // The first part is an xpath of the document; each next part finds one element in the shadow root it steps into.
      const text = await shadow.page.evaluate(
        ([xpath, parts]) => {
          const result = document.evaluate(xpath, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
          if (result.snapshotLength !== 1) return `the host xpath selects ${result.snapshotLength}`;
          let found = result.snapshotItem(0) as Element;
          for (const part of parts) {
            const matches = found.shadowRoot!.querySelectorAll(part);
            if (matches.length !== 1) return `"${part}" finds ${matches.length}`;
            found = matches[0];
          }
          return found.textContent;
        },
        [host, steps] as const,
      );
      expect(text).toBe("2");
      expect(await shadow.resolveLocator("css=x-form >>> input")).toMatch(/^\/\/x-form\[@id='form'\] >>> \S+$/);
      await expect(rejection(shadow.resolveLocator("css=#form >>> p >>> span"))).resolves.toMatchObject({
        errorCode: "ElementNotFound",
        message: expect.stringContaining('"p" found has an open shadow root'),
      });
      await expect(rejection(shadow.resolveLocator("css=#form >>>"))).resolves.toMatchObject({ errorCode: "InvalidLocator" });
    } finally {
      await shadow.close();
    }
  });

  it("keeps resolving after the page follows a link, reloads and goes back", async () => {
    await live.page.click("header a[href='/shop']");
    await live.page.waitForURL(`${origin}/shop`);
    expect(await live.resolveLocator("id=catalogue")).toBe("//h1[@id='catalogue']");
    await expectLocatorError("id=user", "ElementNotFound");

    await live.page.reload();
    expect(await live.resolveLocator("link=Back to the shop")).toBe("//a[contains(text(),'Back to the shop')]");

    await live.page.goBack();
    await live.page.waitForURL(`${origin}/`);
    expect(await live.resolveLocator("id=user")).toBe("//input[@id='user']");
  });

  it("keeps resolving after the page replaces its own document from a script", async () => {
    await live.page.evaluate(() => {
      document.open();
      document.write("<!doctype html><body><p id='rewritten'>new</p></body>");
      document.close();
    });
    expect(await live.resolveLocator("id=rewritten")).toBe("//p[@id='rewritten']");
    await live.page.goto(`${origin}/`);
    expect(await live.resolveLocator("id=user")).toBe("//input[@id='user']");
  });
});

describe("opening a live page", () => {
  it("refuses a page that cannot be loaded, naming the URL and the reason", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise((resolve) => closed.close(resolve));

    const error = await rejection(openLivePage(url));
    expect(error).toBeInstanceOf(PageLoadError);
    expect(error.message).toContain(url);
    expect(error.message).toContain("ERR_CONNECTION_REFUSED");
  });

  it("refuses a page that answers with an HTTP error, naming the status", async () => {
    const error = await rejection(openLivePage(`${origin}/missing`));
    expect(error).toBeInstanceOf(PageLoadError);
    expect(error.message).toContain(`${origin}/missing`);
    expect(error.message).toContain("404");
  });

  it("answers NoPage once the page is closed", async () => {
    const page = await openLivePage(`${origin}/`);
    expect(await page.resolveLocator("id=user")).toBe("//input[@id='user']");
    await page.close();
    const error = await rejection(page.resolveLocator("id=user"));
    expect(error.errorCode).toBe("NoPage");
    const ide = createIde({ resolveLocator: page.resolveLocator });
    expect(await ide.handle({ uri: "/playback/location", verb: "get", location: "id=user" }, { id: "p" })).toMatchObject({
      errorCode: "NoPage",
    });
    ide.stop();
  });
});
