// The UI's "Page under test" panel for real: the host (startHost, as npm start runs it) plays
// the example project in headless Chromium through chromedriver (drivers/host/browserPage.ts)
// against the example site, and the IDE page, in another headless Chromium driven by
// Playwright, shows what that browser shows, live (DevTools' screencast): its title, its URL
// and its picture, fitted or at its actual size; and says when the browser is gone. Never
// skipped: `npm test` installs Chromium and chromedriver first (bin/ensure-test-tools.ts).
import { readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { launchChromium } from "../../drivers/host/chromium.ts";
import { startHost } from "../../apps/host/host.ts";
import type { Host } from "../../apps/host/host.ts";
import { startExampleSite } from "../../drivers/host/site.ts";
import type { ExampleSite } from "../../drivers/host/site.ts";
import { IMAGE_WIDTH, pageCamera, webdriverCamera } from "../../drivers/host/devtools.ts";
import { browserPage } from "../../drivers/host/browserPage.ts";
import { playAndWait as play } from "../support/runs.ts";
import type { BrowserPage } from "../../drivers/host/browserPage.ts";
import { By } from "selenium-webdriver";
import { framesAnimatingThenQuiet } from "../support/liveFrames.ts";
import { pickTest } from "../support/idePage.ts";

const SHOP = JSON.parse(readFileSync(new URL("../../examples/shop.side", import.meta.url), "utf8")) as unknown;
const WAIT = { timeout: 45_000, interval: 50 };

let site: ExampleSite;
let driven: BrowserPage;
let browser: Browser;
let host: Host;
let context: BrowserContext;
let ui: Page;
let pageErrors: string[];
/** How many still pictures the host asked the page under test for. */
let captures = 0;
/** How many times the host asked for the page live (to start or follow it). */
let follows = 0;

beforeAll(async () => {
  site = await startExampleSite();
  driven = browserPage({ baseUrl: site.url });
  browser = await launchChromium();
  // The browser page as the host gets it, counting the pictures it is asked for.
  const counted = {
    execute: driven.execute.bind(driven),
    evaluate: driven.evaluate.bind(driven),
    hasPage: driven.hasPage.bind(driven),
    resolveLocator: driven.resolveLocator.bind(driven),
    capturePage: () => {
      captures += 1;
      return driven.capturePage();
    },
    livePage: (sink: Parameters<BrowserPage["livePage"]>[0]) => {
      follows += 1;
      return driven.livePage(sink);
    },
    stopLivePage: () => driven.stopLivePage(),
    sideRuntime: driven.sideRuntime.bind(driven),
  };
  host = await startHost({ port: 0, tokenFile: null, project: SHOP, executor: counted });
});

afterAll(async () => {
  await host?.close();
  await browser?.close();
  await driven?.close();
  await site?.close();
});

beforeEach(async () => {
  pageErrors = [];
  context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  ui = await context.newPage();
  ui.on("pageerror", (error) => pageErrors.push(error.message));
});

afterEach(async () => {
  await context?.close();
  expect(pageErrors).toEqual([]);
});

async function openUi() {
  await ui.goto(host.urls.ui);
  await ui.waitForSelector('[data-testid="connection"]:text-is("connected")');
  await ui.waitForSelector('[data-testid="project-name"]');
}

async function playAndWait(testId: string) {
  const playback = await play(host.ide, { type: "user.startPlayback", testId }, WAIT.timeout);
  return playback.commands.map((c) => [c.command, c.state]);
}

const panel = '[data-testid="page-under-test"]';
const text = (selector: string) => ui.locator(selector).textContent();

describe("the page under test in the IDE page", () => {
  it("takes no picture while no IDE page is connected, though a run plays in the browser", async () => {
    // The login test's page commands run in the browser (its plugin command has no plugin here).
    expect((await playAndWait("t-login")).slice(0, 4)).toEqual([
      ["open", "passed"],
      ["type", "passed"],
      ["type", "passed"],
      ["click", "passed"],
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(captures).toBe(0);
    expect(follows).toBe(0);
  });

  it("shows the example page's title, URL and its live picture after the user plays a test", async () => {
    await openUi();
    await ui.waitForSelector(panel);
    await pickTest(ui, "adds to cart");
    await ui.getByRole("button", { name: "Play", exact: true }).click();
    // The run-state still says "ended" from the login test until the new run's first view
    // arrives, so wait for the cart test's own result (the login test's plugin command fails).
    await vi.waitFor(() => expect(host.ide.getSnapshot().playback?.result).toBe("passed"), WAIT);
    await ui.waitForSelector('[data-testid="run-state"]:text-is("ended")', { timeout: WAIT.timeout });

    // The page the login test left first, then the shop the cart test ends on.
    await vi.waitFor(async () => expect(await text('[data-testid="page-url"]')).toBe(`${site.url}/shop`), WAIT);
    expect(await text('[data-testid="page-title"]')).toBe("Fixture shop");
    // An http page's URL is a link that opens apart from the IDE.
    const link = ui.locator('a[data-testid="page-url"]');
    expect(await link.getAttribute("href")).toBe(`${site.url}/shop`);
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
    const image = ui.locator('[data-testid="page-image"]');
    expect(await image.getAttribute("src")).toMatch(/^data:image\/jpeg;base64,[A-Za-z0-9+/=]+$/);
    await vi.waitFor(async () => expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0), WAIT);
    const size = await image.evaluate((img: HTMLImageElement) => ({ width: img.naturalWidth, height: img.naturalHeight }));
    expect(size.width).toBeLessThanOrEqual(IMAGE_WIDTH);
    expect(size.height).toBeGreaterThan(0);
    // Live through DevTools: no still picture was taken.
    expect(follows).toBeGreaterThan(0);
    expect(captures).toBe(0);
    expect(await text('[data-testid="page-status"]')).toBe("Live: the page as it is now.");
    expect(await ui.locator('[data-testid="page-empty"]').count()).toBe(0);
  });

  it("gives an IDE page that connects later the latest picture at once, and keeps none of it in the IDE's view", async () => {
    await openUi();
    await ui.waitForSelector(`${panel} [data-testid="page-title"]:text-is("Fixture shop")`, { timeout: WAIT.timeout });
    const shown = await ui.locator('[data-testid="page-image"]').getAttribute("src");
    expect(shown).toMatch(/^data:image\/jpeg;base64,/);
    const before = follows;

    // A second IDE page while the first watches: it is sent the latest picture, no new capture.
    const second = await context.newPage();
    second.on("pageerror", (error) => pageErrors.push(error.message));
    await second.goto(host.urls.ui);
    await second.waitForSelector(`${panel} [data-testid="page-title"]:text-is("Fixture shop")`, { timeout: WAIT.timeout });
    expect(await second.locator('[data-testid="page-url"]').textContent()).toBe(`${site.url}/shop`);
    expect(await second.locator('[data-testid="page-image"]').getAttribute("src")).toBe(shown);
    expect(follows).toBe(before);

    const view = JSON.stringify(host.ide.getSnapshot());
    expect(view).not.toContain("data:image");
  });

  it("streams frames to the IDE page's socket while the page animates, and none while it is still", async () => {
    // Every `page` message the IDE page's socket receives that is a live frame.
    let frames = 0;
    ui.on("websocket", (socket) =>
      socket.on("framereceived", ({ payload }) => {
        if (typeof payload === "string" && payload.startsWith('{"type":"page"') && payload.includes('"live":true')) frames += 1;
      }),
    );
    await openUi();
    await ui.waitForSelector('[data-testid="page-status"]:text-is("Live: the page as it is now.")', { timeout: WAIT.timeout });
    const { driver } = await driven.sideRuntime();
    const before = captures;
    const { animating, quiet } = await framesAnimatingThenQuiet(driver, { live: () => frames }, WAIT.timeout);
    expect(animating).toBeGreaterThan(5);
    expect(quiet).toBe(0);
    expect(captures).toBe(before);
    // The panel shows the page as it is now: the box the animation left.
    expect(await ui.locator('[data-testid="page-image"]').getAttribute("src")).toMatch(/^data:image\/jpeg;base64,/);
  });

  it("shows the picture at the page's own size at once, readable (the view scrolls), fits it to the panel on \"Fit\" and back on \"Actual size\"; a click lands on the same spot of the page either way", async () => {
    await openUi();
    const image = ui.getByRole("img", { name: /^The page under test/ });
    await image.waitFor({ timeout: WAIT.timeout });
    const view = ui.getByTestId("page-view");
    const sizes = () =>
      image.evaluate((img: HTMLImageElement) => {
        const box = img.parentElement!;
        return { shown: img.getBoundingClientRect().width, page: Number(img.getAttribute("width")), view: box.clientWidth, scrolls: box.scrollWidth > box.clientWidth };
      });
    const fitButton = ui.getByRole("button", { name: "Fit", exact: true });
    await fitButton.waitFor();
    const actual = await sizes();
    expect(actual.page).toBe(1280);
    expect(actual.shown).toBe(1280);
    expect(actual.scrolls).toBe(true);
    expect(await view.evaluate((el) => getComputedStyle(el).overflow)).toBe("auto");

    // A click on the picture at the page's own size is a click on the same spot of the page.
    const { driver } = await driven.sideRuntime();
    await driver.get(`${site.url}/shop`);
    const link = await driver.findElement(By.linkText("Help and support")).getRect();
    const [scrollX, scrollY] = (await driver.executeScript("return [scrollX, scrollY]")) as number[];
    await image.click({ position: { x: link.x - scrollX + link.width / 2, y: link.y - scrollY + link.height / 2 } });
    await vi.waitFor(async () => expect(await driver.getCurrentUrl()).toBe(`${site.url}/help`), WAIT);

    await fitButton.click();
    await ui.getByRole("button", { name: "Actual size", exact: true }).waitFor();
    const fitted = await sizes();
    expect(fitted.shown).toBeLessThan(1280);
    expect(fitted.shown).toBeLessThanOrEqual(fitted.view);
    expect(fitted.scrolls).toBe(false);
    await ui.getByRole("button", { name: "Actual size", exact: true }).click();
    await fitButton.waitFor();
    expect((await sizes()).shown).toBe(1280);
  });

  it("takes the same picture through WebDriver when the browser's DevTools endpoint is out of reach (a Grid's node)", async () => {
    const { driver } = await driven.sideRuntime();
    const direct = await pageCamera(driver);
    const through = webdriverCamera(driver);
    try {
      const [a, b] = [await direct.capture(), await through.capture()];
      expect(b.url).toBe(a.url);
      expect(b.title).toBe(a.title);
      expect(b.title).toBe("Fixture shop");
      expect(b.image).toMatch(/^data:image\/jpeg;base64,[A-Za-z0-9+/=]+$/);
      expect(a.image).toMatch(/^data:image\/jpeg;base64,[A-Za-z0-9+/=]+$/);
    } finally {
      direct.close();
      through.close();
    }
  });

  it("scrolls the page under test with the mouse wheel over the picture, in Fit and at Actual size (the panel's view keeps its place), and shows the new picture", async () => {
    const { driver } = await driven.sideRuntime();
    await driver.get(`${site.url}/shop`);
    await openUi();
    const image = ui.getByRole("img", { name: /^The page under test/ });
    await ui.waitForSelector('[data-testid="page-status"]:text-is("Live: the page as it is now.")', { timeout: WAIT.timeout });
    // A page taller than its window, at its top, with a marker its picture shows once scrolled.
    await driver.executeScript("document.body.appendChild(Object.assign(document.createElement('div'), { style: 'height: 4000px; background: linear-gradient(#fff, #c00)' })); scrollTo(0, 0)");
    const scrollY = async () => Number(await driver.executeScript("return scrollY"));
    const wheelOver = async (box: { x: number; y: number; width: number; height: number }, deltaY: number) => {
      await ui.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await ui.mouse.wheel(0, deltaY);
    };

    // Fit: the wheel over the picture scrolls the page, and the picture that follows shows it.
    await ui.getByRole("button", { name: "Fit", exact: true }).click();
    await vi.waitFor(async () => expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0), WAIT);
    const before = await image.getAttribute("src");
    await wheelOver((await image.boundingBox())!, 600);
    await vi.waitFor(async () => expect(await scrollY()).toBeGreaterThan(0), WAIT);
    await vi.waitFor(async () => expect(await image.getAttribute("src")).not.toBe(before), WAIT);

    // A fast wheel of many turns is a few messages to the host, and scrolls the page as far as its turns add up to.
    let wheels = 0;
    ui.on("websocket", (socket) => socket.on("framesent", ({ payload }) => void (typeof payload === "string" && payload.includes('"kind":"wheel"') && (wheels += 1))));
    await ui.reload();
    await ui.waitForSelector('[data-testid="page-status"]:text-is("Live: the page as it is now.")', { timeout: WAIT.timeout });
    await driver.executeScript("scrollTo(0, 0)");
    await ui.getByRole("button", { name: "Fit", exact: true }).click();
    await vi.waitFor(async () => expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0), WAIT);
    // Twenty turns in one task of the page (as a fast wheel gives them): however slow the machine, they
    // arrive between two sends, so the first goes at once and the other nineteen go as one.
    await image.evaluate((img: HTMLImageElement) => {
      const box = img.getBoundingClientRect();
      const at = { clientX: box.x + box.width / 2, clientY: box.y + box.height / 2, bubbles: true, cancelable: true };
      for (let i = 0; i < 20; i++) img.dispatchEvent(new WheelEvent("wheel", { ...at, deltaY: 50, deltaMode: WheelEvent.DOM_DELTA_PIXEL }));
    });
    await vi.waitFor(async () => expect(await scrollY()).toBe(1000), WAIT);
    expect(wheels).toBeGreaterThan(0);
    expect(wheels).toBeLessThanOrEqual(2);

    // Actual size: the wheel over the picture scrolls the page under test, not the panel's view.
    await driver.executeScript("scrollTo(0, 0)");
    await ui.getByRole("button", { name: "Actual size", exact: true }).click();
    const view = ui.getByTestId("page-view");
    await vi.waitFor(async () => expect(await view.evaluate((el) => el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth)).toBe(true), WAIT);
    // The view's top left corner, in sight: the picture at its own size is there.
    await view.evaluate((el) => el.scrollIntoView({ block: "start" }));
    const corner = (await view.boundingBox())!;
    await wheelOver({ x: corner.x, y: corner.y, width: 200, height: 200 }, 400);
    await vi.waitFor(async () => expect(await scrollY()).toBeGreaterThan(0), WAIT);
    expect(await view.evaluate((el) => [el.scrollTop, el.scrollLeft])).toEqual([0, 0]);
    await ui.getByRole("button", { name: "Fit", exact: true }).click();
  });

  it("says the browser is gone when it quits, keeping its last picture", async () => {
    await openUi();
    await ui.waitForSelector('[data-testid="page-status"]:text-is("Live: the page as it is now.")', { timeout: WAIT.timeout });
    await driven.close();
    await ui.waitForSelector('[data-testid="page-status"]:text-matches("^The browser is gone")', { timeout: WAIT.timeout });
    expect(await ui.locator('[data-testid="page-image"]').getAttribute("src")).toMatch(/^data:image\/jpeg;base64,/);
    expect(await text('[data-testid="page-title"]')).not.toBe("");
  });
});
