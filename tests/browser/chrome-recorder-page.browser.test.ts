// Chrome Recorder's flows in the IDE page (CONTRACT section 23): the ProjectBar's Load takes a
// .json flow as a project of one test, shown with its commands and the warnings of the steps
// that do not play; the Export dialog's "Chrome Recorder (JSON)" downloads the test as a flow
// that @puppeteer/replay's parse reads as the flow that was loaded.
import { readFileSync } from "node:fs";
import { parse } from "@puppeteer/replay";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { launchChromium } from "../../drivers/host/chromium.ts";
import { startHost } from "../../apps/host/host.ts";
import type { Host } from "../../apps/host/host.ts";
import { shopProject } from "../export/support.ts";
import { pickTest, testNames } from "../support/idePage.ts";

const FLOW = {
  title: "Checkout flow",
  steps: [
    { type: "setViewport", width: 1000, height: 700, deviceScaleFactor: 1, isMobile: false, hasTouch: false, isLandscape: false },
    { type: "navigate", url: "http://127.0.0.1:9/shop.html", assertedEvents: [{ type: "navigation", url: "http://127.0.0.1:9/shop.html", title: "Shop" }] },
    { type: "click", target: "main", selectors: [["aria/Add to cart"], ["#add"], ['xpath///*[@id="add"]'], ["pierce/#add"]], offsetX: 9, offsetY: 4 },
    { type: "change", target: "main", selectors: [["#qty"]], value: "2" },
    { type: "keyDown", target: "main", key: "Enter" },
    { type: "keyUp", target: "main", key: "Enter" },
    { type: "click", target: "main", selectors: [["my-cart", "#pay"]], offsetX: 1, offsetY: 1, button: "secondary" },
  ],
};

let browser: Browser;
let host: Host;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  host = await startHost({ port: 0, tokenFile: null, project: shopProject() });
  context = await browser.newContext({ acceptDownloads: true });
  page = await context.newPage();
  await page.goto(host.urls.ui);
  await page.waitForSelector('[data-testid="connection"]:text-is("connected")');
}, 60_000); // the first bundles the page, which a loaded machine may take more than vitest's 10 s for
afterEach(async () => {
  await context?.close();
  await host?.close();
});

const cells = (testId: string) => page.locator(`[data-testid="command-row"] [data-testid="${testId}"]`).allTextContents();

describe("a Chrome Recorder flow in the IDE page", () => {
  it("loads through Load as one test with its commands, and names the step that does not play", async () => {
    await page.locator('[data-testid="load-file"]').setInputFiles({ name: "checkout.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(FLOW)) });
    await expect.poll(() => testNames(page)).toEqual(["Checkout flow"]);
    await pickTest(page, "Checkout flow");
    await expect.poll(() => cells("editor-command")).toEqual(["setWindowSize", "open", "assertTitle", "click", "type", "sendKeys", "//click"]);
    expect(await cells("editor-target")).toEqual(expect.arrayContaining(["1000x700", "http://127.0.0.1:9/shop.html", "Shop", "id=qty", "css=my-cart >>> #pay"]));
    expect((await cells("editor-target"))[3]).toMatch(/^xpath=\/\/body\/\/\*\[@aria-label='Add to cart'/);
    expect(await cells("editor-value")).toContain("${KEY_ENTER}");
    const warnings = await page.locator('[data-testid="load-warnings"] li').allTextContents();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^step 7 \(click\): a click with the secondary button has no Selenium command/);
    expect(await page.locator('[data-testid="load-error"]').count()).toBe(0);
  }, 60_000);

  it("exports the loaded test through the Export dialog as the flow @puppeteer/replay reads as the one loaded", async () => {
    await page.locator('[data-testid="load-file"]').setInputFiles({ name: "checkout.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(FLOW)) });
    await expect.poll(() => testNames(page)).toEqual(["Checkout flow"]);
    await pickTest(page, "Checkout flow");
    await page.waitForSelector('[data-testid="export-test"]:text-is("Export test \\"Checkout flow\\"…")');
    const downloaded = page.waitForEvent("download");
    await page.click('[data-testid="export-test"]');
    await page.selectOption('[data-testid="export-language"]', "chrome-recorder");
    await page.click('[data-testid="export-run"]');
    const download = await downloaded;
    expect(download.suggestedFilename()).toBe("Checkout flow.json");
    const flow = parse(JSON.parse(readFileSync((await download.path())!, "utf8")));
    expect(flow).toEqual(parse(FLOW));
    await page.waitForSelector('[data-testid="export-done"]:has-text("Checkout flow.json")');
  }, 60_000);
});
