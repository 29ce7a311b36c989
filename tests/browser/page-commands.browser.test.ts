// The in-page commands (drivers/player/) in real headless Chromium, where they run
// for the extension: bundled by esbuild for the browser as the content script bundles them (so
// nothing Node-only can creep in), evaluated in an isolated world beside the page's own scripts,
// as a content script is, and driven through a realistic sequence on a page whose scripts react
// as a shop's would. What the page did is then read from its DOM.
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Browser, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../drivers/host/chromium.ts";
import type { InPageAnswer, InPageRequest } from "../../drivers/player/index.ts";
import { KEY_VARIABLES } from "../../drivers/player/index.ts";

const ENTRY = fileURLToPath(new URL("../../drivers/player/index.ts", import.meta.url));
const GLOBAL = "__ideCorePage";

const SHOP = `<!doctype html>
<html><head><title>Shop</title>
<style>
  #panel { display: none; }
  #ghost { opacity: 0; }
  .cover { position: fixed; inset: 0; background: rgba(0, 0, 0, 0.3); }
</style></head>
<body>
  <form id="signup">
    <input id="user" name="user">
    <select id="size"><option value="s">Small</option><option value="m">Medium</option><option value="l">Large</option></select>
    <label><input id="terms" type="checkbox"> I agree</label>
  </form>
  <button id="reveal">Show the welcome</button>
  <section id="panel"><h2>Welcome</h2><p>Glad  to see you</p></section>
  <p id="ghost">invisible ink</p>
  <input id="controlled">
  <form id="search" action="/results" method="get"><input id="q" name="q"><button id="go">Search</button></form>
  <a id="all-results" href="/results?q=all">All results</a>
  <button id="covered">Under the cover</button>
  <div id="cover" class="cover" hidden></div>
  <div id="editor" contenteditable="true">Hello</div>
  <ul id="todo"><li id="task" draggable="true">Buy milk</li></ul>
  <ul id="done"></ul>
  <div id="scroller" style="height: 60px; overflow: auto"><div style="height: 400px"></div><button id="deep">Deep inside</button></div>
  <fancy-button id="fancy"><span id="fancy-label">Fancy</span></fancy-button>
  <ol id="log"></ol>
  <script>
    const log = (text) => { const li = document.createElement("li"); li.textContent = text; document.getElementById("log").append(li); };
    document.getElementById("reveal").addEventListener("click", () => {
      log("reveal clicked");
      setTimeout(() => { document.getElementById("panel").style.display = "block"; }, 300);
    });
    document.getElementById("user").addEventListener("change", (e) => log("user changed to " + e.target.value));
    document.getElementById("size").addEventListener("change", (e) => log("size " + e.target.value));
    document.getElementById("terms").addEventListener("change", (e) => log("terms " + e.target.checked));
    document.getElementById("q").addEventListener("keydown", (e) => { if (e.key === "Enter") log("enter " + e.keyCode); });
    document.getElementById("deep").addEventListener("click", () => log("deep clicked"));
    customElements.define("fancy-button", class extends HTMLElement {
      constructor() {
        super();
        // The shadow tree's button covers the slotted label: the document sees the host there.
        this.attachShadow({ mode: "open" }).innerHTML =
          '<button style="position: relative; padding: 10px"><slot></slot><span style="position: absolute; inset: 0"></span></button>';
        this.shadowRoot.querySelector("button").addEventListener("click", () => log("fancy clicked"));
      }
    });
    // HTML drag and drop: the task is moved when dropped on the done list.
    document.getElementById("task").addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", e.target.id));
    const done = document.getElementById("done");
    done.addEventListener("dragover", (e) => e.preventDefault());
    done.addEventListener("drop", (e) => { e.preventDefault(); done.append(document.getElementById(e.dataTransfer.getData("text/plain"))); log("dropped"); });
    // A framework's value tracker (React keeps one like it): it sees a change only when the
    // input event finds a value it was not told of through the element's own setter.
    const controlled = document.getElementById("controlled");
    const native = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value");
    let tracked = controlled.value;
    Object.defineProperty(controlled, "value", {
      configurable: true,
      get() { return native.get.call(this); },
      set(v) { tracked = String(v); native.set.call(this, v); },
    });
    controlled.addEventListener("input", () => {
      const now = native.get.call(controlled);
      if (now !== tracked) { tracked = now; log("framework saw " + now); }
    });
  </script>
</body></html>`;

// Nested open shadow roots (CONTRACT section 19): a checkout whose tree holds a field, a button
// and a summary with a shadow tree of its own; the page logs what its shadow trees see.
const SHADOW = `<!doctype html>
<html><head><title>Checkout</title></head>
<body>
  <x-checkout id="checkout"></x-checkout>
  <ol id="log"></ol>
  <script>
    const log = (text) => { const li = document.createElement("li"); li.textContent = text; document.getElementById("log").append(li); };
    customElements.define("x-summary", class extends HTMLElement {
      constructor() {
        super();
        this.attachShadow({ mode: "open" }).innerHTML = '<p>Total: <span class="total">0</span></p>';
      }
    });
    customElements.define("x-checkout", class extends HTMLElement {
      constructor() {
        super();
        const root = this.attachShadow({ mode: "open" });
        root.innerHTML = '<label>Card <input id="card"></label><button id="pay" style="padding: 8px">Pay</button><x-summary></x-summary>';
        const card = root.getElementById("card");
        card.addEventListener("change", () => log("card " + card.value));
        root.getElementById("pay").addEventListener("click", () => {
          log("paid");
          root.querySelector("x-summary").shadowRoot.querySelector(".total").textContent = String(card.value.length);
        });
      }
    });
  </script>
</body></html>`;

const RESULTS = `<!doctype html><html><head><title>Results</title></head><body><h1 id="heading">Results</h1></body></html>`;

let server: Server;
let origin: string;
let browser: Browser;
let page: Page;
let bundle: string;

beforeAll(async () => {
  const built = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: "iife",
    globalName: GLOBAL,
    platform: "browser",
    target: "chrome116",
    logLevel: "silent",
  });
  bundle = built.outputFiles[0].text;
  server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const body = path === "/" ? SHOP : path === "/results" ? RESULTS : path === "/shadow" ? SHADOW : undefined;
    res.writeHead(body === undefined ? 404 : 200, { "content-type": "text/html; charset=utf-8" });
    res.end(body ?? "<!doctype html><title>Not found</title>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** An isolated world in the page's main frame with the bundle in it, as a content script has. */
class ContentWorld {
  private constructor(
    private readonly cdp: CDPSession,
    private readonly contextId: number,
  ) {}

  static async open(target: Page): Promise<ContentWorld> {
    const cdp = await target.context().newCDPSession(target);
    const { frameTree } = await cdp.send("Page.getFrameTree");
    const { executionContextId } = await cdp.send("Page.createIsolatedWorld", { frameId: frameTree.frame.id, worldName: "ide-core content script" });
    const world = new ContentWorld(cdp, executionContextId);
    await world.evaluate(`${bundle}; void 0`);
    return world;
  }

  async evaluate(expression: string): Promise<unknown> {
    const { result, exceptionDetails } = await this.cdp.send("Runtime.evaluate", {
      expression,
      contextId: this.contextId,
      awaitPromise: true,
      returnByValue: true,
    });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    return result.value;
  }

  run(command: string, target = "", value = "", more: Partial<InPageRequest> = {}): Promise<InPageAnswer> {
    const request: InPageRequest = { command, target, value, targets: [], implicitWaitMs: 1_000, ...more };
    return this.evaluate(`${GLOBAL}.runInPage(window, ${JSON.stringify(request)})`) as Promise<InPageAnswer>;
  }

  close(): Promise<void> {
    return this.cdp.detach();
  }
}

const passed = { state: "passed" };
const pageLog = () => page.locator("#log li").allTextContents();

describe("the in-page commands in Chromium", () => {
  it("play a sign-up as a user would, and the page's own scripts see it", async () => {
    await page.goto(`${origin}/`);
    const world = await ContentWorld.open(page);
    try {
      // The page's own globals are not the content script's, nor the other way round.
      expect(await page.evaluate((name) => name in window, GLOBAL)).toBe(false);

      expect(await world.run("type", "id=user", "alice")).toEqual(passed);
      expect(await world.run("select", "id=size", "label=Large")).toEqual(passed);
      expect(await world.run("check", "id=terms")).toEqual(passed);
      expect(await world.run("assertChecked", "id=terms")).toEqual(passed);
      expect(await world.run("assertSelectedLabel", "id=size", "Large")).toEqual(passed);
      expect(await world.run("type", "id=controlled", "42")).toEqual(passed);

      expect(await world.run("click", "id=reveal")).toEqual(passed);
      expect(await world.run("assertElementPresent", "id=panel")).toEqual(passed);
      expect(await world.run("waitForElementVisible", "id=panel", "5000")).toEqual(passed);
      // innerText's lines, each trimmed, white space collapsed, as WebDriver reads text.
      expect(await world.run("assertText", "id=panel", "Welcome\nGlad to see you")).toEqual(passed);
      expect(await world.run("verifyText", "css=#panel h2", "Goodbye")).toEqual({ state: "failed", message: "Actual value 'Welcome' did not match 'Goodbye'" });
      expect(await world.run("storeText", "css=#panel h2", "greeting")).toEqual({ state: "passed", stored: { name: "greeting", value: "Welcome" } });
      expect(await world.run("storeElementCount", "css=#signup input", "fields")).toEqual({ state: "passed", stored: { name: "fields", value: 2 } });

      expect(
        await page.evaluate(() => ({
          user: (document.getElementById("user") as HTMLInputElement).value,
          size: (document.getElementById("size") as HTMLSelectElement).value,
          terms: (document.getElementById("terms") as HTMLInputElement).checked,
          panel: getComputedStyle(document.getElementById("panel")!).display,
        })),
      ).toEqual({ user: "alice", size: "l", terms: true, panel: "block" });
      expect(await pageLog()).toEqual([
        "user changed to alice",
        "size l",
        "terms true",
        "framework saw 4",
        "framework saw 42",
        "reveal clicked",
      ]);
    } finally {
      await world.close();
    }
  });

  it("submit a search form with ENTER typed into its field, and the browser follows the form", async () => {
    await page.goto(`${origin}/`);
    const world = await ContentWorld.open(page);
    try {
      const navigated = page.waitForURL(/\/results\?q=red\+shoes$/, { timeout: 10_000 });
      // The answer says the page is on its way to the next one, so the next command waits for it.
      expect(await world.run("sendKeys", "id=q", `red shoes${KEY_VARIABLES.KEY_ENTER}`)).toEqual({ ...passed, navigating: true });
      await navigated;
      expect(await page.title()).toBe("Results");
    } finally {
      await world.close().catch(() => {});
    }
  });

  it("drag an item onto a drop zone with HTML's drag and drop events", async () => {
    await page.goto(`${origin}/`);
    const world = await ContentWorld.open(page);
    try {
      expect(await world.run("dragAndDropToObject", "id=task", "id=done")).toEqual(passed);
      expect(await page.locator("#done li").allTextContents()).toEqual(["Buy milk"]);
      expect(await pageLog()).toEqual(["dropped"]);
    } finally {
      await world.close();
    }
  });

  it("click an element clipped by a scrolled container, and a label a shadow tree renders over", async () => {
    await page.goto(`${origin}/`);
    const world = await ContentWorld.open(page);
    try {
      expect(await world.run("click", "id=deep", "", { implicitWaitMs: 0 })).toEqual(passed);
      expect(await world.run("click", "id=fancy-label", "", { implicitWaitMs: 0 })).toEqual(passed);
      expect(await pageLog()).toEqual(["deep clicked", "fancy clicked"]);
    } finally {
      await world.close();
    }
  });

  it("follow a link a click lands on, from the content script's world", async () => {
    await page.goto(`${origin}/`);
    const world = await ContentWorld.open(page);
    try {
      const navigated = page.waitForURL(/\/results\?q=all$/, { timeout: 10_000 });
      expect(await world.run("click", "linkText=All results")).toEqual({ ...passed, navigating: true });
      await navigated;
      expect(await page.locator("#heading").textContent()).toBe("Results");
    } finally {
      await world.close().catch(() => {});
    }
  });

  it("tell a hidden or covered element from one a user can reach, as WebDriver does", async () => {
    await page.goto(`${origin}/`);
    const world = await ContentWorld.open(page);
    try {
      expect(await world.run("waitForElementVisible", "id=panel", "100")).toEqual({
        state: "failed",
        message: "Waiting for element id=panel to be visible: wait timed out after 100ms",
      });
      expect(await world.run("waitForElementNotVisible", "id=ghost", "100")).toEqual(passed);
      expect(await world.run("assertText", "id=ghost", "")).toEqual(passed);

      await page.evaluate(() => document.getElementById("cover")!.removeAttribute("hidden"));
      const covered = await world.run("click", "id=covered", "", { implicitWaitMs: 200 });
      expect(covered.state).toBe("failed");
      expect(covered).toHaveProperty(
        "message",
        expect.stringMatching(/^Element id=covered is not clickable at point \(\d+, \d+\)\. Other element would receive the click: <div id="cover" class="cover">$/),
      );
      // Uncovered while the command waits, the button is clicked.
      setTimeout(() => void page.evaluate(() => document.getElementById("cover")!.setAttribute("hidden", "")), 150);
      const clicks = page.evaluate(
        () => new Promise<string>((resolve) => document.getElementById("covered")!.addEventListener("click", (e) => resolve(`${e.type} ${e.isTrusted}`), { once: true })),
      );
      expect(await world.run("click", "id=covered", "", { implicitWaitMs: 5_000 })).toEqual(passed);
      expect(await clicks).toBe("click false");
    } finally {
      await world.close();
    }
  });

  it("give the page's key handlers WebDriver's ENTER and keep the caret where a user's would be", async () => {
    await page.goto(`${origin}/`);
    await page.evaluate(() => document.getElementById("search")!.addEventListener("submit", (e) => e.preventDefault()));
    const world = await ContentWorld.open(page);
    try {
      await world.run("type", "id=q", "shoe");
      await world.run("sendKeys", "id=q", `${KEY_VARIABLES.KEY_ARROW_LEFT}${KEY_VARIABLES.KEY_ARROW_LEFT}X${KEY_VARIABLES.KEY_END}s${KEY_VARIABLES.KEY_ENTER}`);
      expect(await page.inputValue("#q")).toBe("shXoes");
      expect(await pageLog()).toEqual(["enter 13"]);
    } finally {
      await world.close();
    }
  });

  it("set a value past a framework's tracker on the element even in the page's own world, where the tracker is visible", async () => {
    await page.goto(`${origin}/`);
    await page.addScriptTag({ content: bundle });
    const answer = await page.evaluate(
      ([name, request]) => (window as unknown as Record<string, { runInPage(w: Window, r: unknown): Promise<unknown> }>)[name].runInPage(window, request),
      [GLOBAL, { command: "type", target: "id=controlled", value: "7", targets: [], implicitWaitMs: 0 }] as const,
    );
    expect(answer).toEqual(passed);
    expect(await pageLog()).toEqual(["framework saw 7"]);
  });

  it("give a tab without focus (the IDE window has it) the focus and blur events a user's typing and clicking make", async () => {
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      await tab.goto(`${origin}/`);
      // Playwright tells every page it has focus; a real tab under test in a background window has none.
      const cdp = await context.newCDPSession(tab);
      await cdp.send("Emulation.setFocusEmulationEnabled", { enabled: false });
      await (await context.newPage()).bringToFront();
      await tab.evaluate(() => {
        const log = (text: string) => document.getElementById("log")!.append(Object.assign(document.createElement("li"), { textContent: text }));
        for (const id of ["user", "reveal"]) for (const type of ["focus", "blur"]) document.getElementById(id)!.addEventListener(type, () => log(`${type} ${id}`));
      });
      const world = await ContentWorld.open(tab);
      try {
        expect(await world.run("type", "id=user", "bo")).toEqual(passed);
        expect(await world.run("click", "id=reveal")).toEqual(passed);
        expect(await world.run("sendKeys", "id=editor", `, world${KEY_VARIABLES.KEY_BACK_SPACE}d!`)).toEqual(passed);
      } finally {
        await world.close();
      }
      expect(await tab.evaluate(() => document.hasFocus())).toBe(false);
      expect(await tab.locator("#editor").textContent()).toBe("Hello, world!");
      expect(await tab.locator("#log li").allTextContents()).toEqual(["focus user", "user changed to bo", "blur user", "focus reveal", "reveal clicked", "blur reveal"]);
    } finally {
      await context.close();
    }
  });

  it("play commands on elements inside nested open shadow roots with css=A >>> B targets", async () => {
    await page.goto(`${origin}/shadow`);
    const world = await ContentWorld.open(page);
    try {
      expect(await world.run("type", "css=#checkout >>> #card", "4242")).toEqual(passed);
      expect(await world.run("assertValue", "css=x-checkout >>> input", "4242")).toEqual(passed);
      expect(await world.run("click", "css=#checkout >>> #pay")).toEqual(passed);
      expect(await world.run("assertText", "css=#checkout >>> x-summary >>> .total", "4")).toEqual(passed);
      expect(await world.run("verifyText", "css=#checkout >>> x-summary >>> p", "Total: 5")).toEqual({
        state: "failed",
        message: "Actual value 'Total: 4' did not match 'Total: 5'",
      });
      expect(await world.run("waitForElementVisible", "css=#checkout >>> x-summary >>> .total", "1000")).toEqual(passed);
      expect(await world.run("click", "css=#checkout >>> #pay >>> span", "", { implicitWaitMs: 0 })).toEqual({
        state: "failed",
        message: "Element css=#checkout >>> #pay >>> span not found",
      });
    } finally {
      await world.close();
    }
    // The page's own listeners inside its shadow tree saw the typing's change and the click.
    expect(await pageLog()).toEqual(["card 4242", "paid"]);
  });
});
