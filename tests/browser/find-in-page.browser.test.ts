// "Find target in page" and "Alternative locators" (CONTRACT section 21) in the host's IDE page
// for real: the host (startHost, as npm start runs it) plays a test in headless Chromium
// through chromedriver against the example site, and the IDE page, in another headless
// Chromium driven by Playwright, finds the selected command's target in that page: the form
// says how many match, the first is outlined in the page under test (the overlay is read in
// that page itself) and the outline is gone again; the alternatives show their counts, and
// choosing one makes it the target, which Undo gives back.
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { launchChromium } from "../../drivers/host/chromium.ts";
import { startHost } from "../../apps/host/host.ts";
import type { Host } from "../../apps/host/host.ts";
import { startExampleSite } from "../../drivers/host/site.ts";
import type { ExampleSite } from "../../drivers/host/site.ts";
import { browserPage } from "../../drivers/host/browserPage.ts";
import type { BrowserPage } from "../../drivers/host/browserPage.ts";
import { OUTLINE_TAG } from "../../drivers/findInPage/index.ts";
import { playAndWait } from "../support/runs.ts";
import { findProject, FIND_TARGETS } from "../support/findPages.ts";

const WAIT = { timeout: 45_000, interval: 50 };

let site: ExampleSite;
let driven: BrowserPage;
let browser: Browser;
let host: Host;
let ui: Page;
let pageErrors: string[];

beforeAll(async () => {
  site = await startExampleSite();
  driven = browserPage({ baseUrl: site.url });
  browser = await launchChromium();
  host = await startHost({ port: 0, tokenFile: null, project: findProject(), executor: driven });
}, 60_000);

afterAll(async () => {
  await host?.close();
  await browser?.close();
  await driven?.close();
  await site?.close();
});

beforeEach(async () => {
  pageErrors = [];
  ui = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  ui.on("pageerror", (error) => pageErrors.push(error.message));
  await ui.goto(host.urls.ui);
  await ui.waitForSelector('[data-testid="connection"]:text-is("connected")');
}, 60_000);

afterEach(async () => {
  await ui?.close();
  expect(pageErrors).toEqual([]);
});

const alternatives = () => ui.getByRole("list", { name: "Alternative locators", exact: true });
const matches = () => ui.getByTestId("locator-matches");
const targetField = () => ui.getByTestId("editor-target-field");
const clickRow = () => ui.getByTestId("commands").getByTestId("command-row").nth(1);
const targetNow = () => host.ide.getProject().tests[0].commands[1].target;

/** Types a target and commits it (Enter), once the IDE has it: the form then holds what the IDE holds. */
async function typeTarget(target: string) {
  await targetField().fill(target);
  await targetField().press("Enter");
  await expect.poll(targetNow, WAIT).toBe(target);
}

/** The outline in the page under test, and the box of the element it should cover. */
async function outlineInPage() {
  const { driver } = await driven.sideRuntime();
  return (await driver.executeScript(`
    const box = document.querySelector(${JSON.stringify(OUTLINE_TAG)});
    const link = document.querySelector(".product a").getBoundingClientRect();
    if (!box) return null;
    const drawn = box.getBoundingClientRect();
    return { drawn: [drawn.left, drawn.top, drawn.width, drawn.height].map(Math.round), link: [link.left, link.top, link.width, link.height].map(Math.round),
             pointerEvents: getComputedStyle(box).pointerEvents };
  `)) as { drawn: number[]; link: number[]; pointerEvents: string } | null;
}

/** Each alternative's locator and its count as the list shows them. */
const counts = () =>
  alternatives()
    .locator("li")
    .evaluateAll((items) => items.map((li) => [li.getAttribute("data-locator"), li.querySelector('[data-testid="alternative-count"]')?.textContent ?? null]));

describe("Find target in page and the alternative locators in the host's IDE page", () => {
  it("says no page is open before any run, counting nothing and outlining nothing", async () => {
    await clickRow().click();
    await expect.poll(() => ui.getByTestId("alternatives-note").textContent(), WAIT).toMatch(/^No page is open/);
    expect(await counts()).toEqual(FIND_TARGETS.map((t) => [t, null]));
    await ui.getByRole("button", { name: "Find", exact: true }).click();
    await expect.poll(() => matches().textContent(), WAIT).toMatch(/^Nothing was outlined: No page is open/);
    expect(await matches().getAttribute("data-code")).toBe("NoPage");
  });

  it("outlines the first match in the page under test for a while and says how many match; an invalid locator says why", async () => {
    const played = await playAndWait(host.ide, { type: "user.startPlayback" }, WAIT.timeout);
    expect(played.result).toBe("passed");
    await clickRow().click();
    await ui.getByRole("button", { name: "Find", exact: true }).click();
    await expect.poll(() => matches().textContent(), WAIT).toBe("2 elements match; the first is outlined");
    const seen = await outlineInPage();
    expect(seen).not.toBeNull();
    expect(seen!.drawn).toEqual(seen!.link);
    // A click on the outline reaches the link under it: the recorder never sees the outline.
    expect(seen!.pointerEvents).toBe("none");
    // Gone after its 2 s, without anyone asking.
    await vi.waitFor(async () => expect(await outlineInPage()).toBeNull(), WAIT);

    await typeTarget("css=.nothing-here");
    await ui.getByRole("button", { name: "Find", exact: true }).click();
    await expect.poll(() => matches().textContent(), WAIT).toBe("No element matches");
    await typeTarget("css=a[");
    await ui.getByRole("button", { name: "Find", exact: true }).click();
    await expect.poll(() => matches().textContent(), WAIT).toMatch(/^Not a locator: /);
    expect(await matches().getAttribute("data-code")).toBe("InvalidLocator");
    expect(await outlineInPage()).toBeNull();
    await typeTarget(FIND_TARGETS[0]);
  });

  it("counts each alternative in the page under test, and choosing one makes it the target, which Undo gives back", async () => {
    if (!driven.hasPage()) await playAndWait(host.ide, { type: "user.startPlayback" }, WAIT.timeout);
    await clickRow().click();
    await expect.poll(counts, WAIT).toEqual([
      ["linkText=Add to cart", "2 matches"],
      ["css=.product a", "2 matches"],
      ["xpath=//a[@href='/cart/add/2']", "1 match"],
      ["css=.missing", "0 matches"],
    ]);
    expect(await alternatives().locator("li.current").getAttribute("data-locator")).toBe("linkText=Add to cart");

    await alternatives().getByRole("button", { name: "Use xpath=//a[@href='/cart/add/2'] as the target", exact: true }).click();
    await expect.poll(() => targetField().inputValue(), WAIT).toBe("xpath=//a[@href='/cart/add/2']");
    expect(targetNow()).toBe("xpath=//a[@href='/cart/add/2']");
    // The old target stays among the alternatives, and the new one is marked the target.
    await expect.poll(() => alternatives().locator("li.current").getAttribute("data-locator"), WAIT).toBe("xpath=//a[@href='/cart/add/2']");
    expect(await alternatives().getByRole("button", { name: "Use linkText=Add to cart as the target", exact: true }).count()).toBe(1);

    await ui.getByRole("button", { name: "Undo", exact: true }).click();
    await expect.poll(() => targetField().inputValue(), WAIT).toBe("linkText=Add to cart");
    expect(targetNow()).toBe("linkText=Add to cart");
  });
});
