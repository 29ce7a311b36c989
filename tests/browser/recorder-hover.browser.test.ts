// mouseOver before a click on an item a CSS :hover menu revealed (drivers/recorder/hover.ts),
// in real headless Chromium: Playwright's mouse goes through DevTools input, so hovering the
// menu applies :hover and the click is trusted, as from a person.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { launchChromium } from "../../drivers/host/chromium.ts";
import type { RecordedAction, RecorderReport } from "../../drivers/recorder/recorder.ts";
import { bundleForPage, servePages } from "../support/browserPages.ts";
import { HOVER_MENU_PAGE } from "../support/hoverMenu.ts";

let site: Awaited<ReturnType<typeof servePages>>;
let browser: Browser;
let page: Page;
let bundle: string;

beforeAll(async () => {
  bundle = await bundleForPage(`import { attachRecorder } from "./drivers/recorder/recorder.ts";
    const seen = (globalThis.__recorded = []);
    attachRecorder(window, (action) => seen.push(action));`);
  site = await servePages({ "/menu": HOVER_MENU_PAGE });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

beforeEach(async () => {
  await page?.close();
  page = await browser.newPage();
  await page.goto(`${site.origin}/menu`);
  await page.evaluate(`${bundle}; void 0`);
});

async function recorded(): Promise<string[]> {
  await page.waitForTimeout(50);
  const reports = await page.evaluate(() => (globalThis as unknown as { __recorded: RecorderReport[] }).__recorded);
  return reports.filter((a): a is RecordedAction => !("pending" in a)).map((a) => `${a.command} | ${a.target}`);
}

describe("recording a click in a menu that opens on CSS :hover", () => {
  it("records mouseOver on the menu, then the click on the item it revealed", async () => {
    await page.hover("#menu .label");
    await page.click("#save");
    expect(await page.textContent("#out")).toBe("saved");
    expect(await recorded()).toEqual(["mouseOver | id=menu", "click | id=save"]);
  });

  it("records mouseOver on the menu and then on the submenu's item, outermost first, before a click in the submenu", async () => {
    await page.hover("#menu .label");
    await page.hover("#more");
    await page.click("#export");
    expect(await page.textContent("#out")).toBe("exported");
    expect(await recorded()).toEqual(["mouseOver | id=menu", "mouseOver | id=more", "click | id=export"]);
  });

  it("records no mouseOver for a plain click on a visible button, nor for the menu's label that a :hover only colours", async () => {
    await page.click("#plain");
    await page.click("#menu .label");
    expect(await recorded()).toEqual(["click | id=plain", "click | css=.label"]);
  });
});
