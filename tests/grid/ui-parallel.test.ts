// A parallel suite on the Grid from the IDE page (CONTRACT section 16): the host as
// `npm start -- --workers 2 --webdriver-url GRID` runs it, the page driven by Playwright in
// headless Chromium. The run panel lists the suite's tests as they play, two at once, each with
// its result; a click shows that test's commands, and the page panel shows its page.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Host } from "../../apps/host/host.ts";
import { launchChromium } from "../../drivers/host/chromium.ts";
import type { ExampleSite } from "../../drivers/host/site.ts";
import { gridHost } from "./support.ts";
import type { GridHost } from "./support.ts";
import { pickSuite } from "../support/idePage.ts";

const WAIT = { timeout: 90_000, interval: 50 };
const command = (id: string, name: string, target = "", value = "") => ({ id, comment: "", command: name, target, targets: [], value });
const slowTest = (id: string, name: string) => ({
  id,
  name,
  commands: [command(`${id}-1`, "open", "/shop"), command(`${id}-2`, "pause", "3000"), command(`${id}-3`, "click", "linkText=Add to cart"), command(`${id}-4`, "assertText", "css=.cart-count", "1")],
});
const PROJECT = {
  id: "p-ui-grid",
  name: "UI on the Grid",
  url: "http://127.0.0.1:1",
  tests: [slowTest("u1", "first"), slowTest("u2", "second"), slowTest("u3", "third")],
  suites: [{ id: "s-ui", name: "Parallel in the page", persistSession: false, parallel: true, timeout: 300, tests: ["u1", "u2", "u3"] }],
};

let fixture: GridHost;
let site: ExampleSite;
let host: Host;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  fixture = await gridHost(PROJECT, 2);
  ({ site, host } = fixture);
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await fixture?.close();
}, 60_000);

describe("a parallel suite in the IDE page, on the Grid", () => {
  it("lists the suite's tests as two play at once, then each result, and shows the test the user clicks", async () => {
    await page.goto(host.urls.ui);
    await page.waitForSelector('[data-testid="connection"]:text-is("connected")');
    await pickSuite(page, "Parallel in the page");
    await page.getByRole("button", { name: "Play suite", exact: true }).click();

    // Two tests of the suite play at the same time, each listed as running.
    await page.waitForSelector('[data-testid="suite-run"][data-status="running"] + [data-testid="suite-run"][data-status="running"]', { timeout: WAIT.timeout });
    await page.waitForSelector('[data-testid="run-state"]:text-is("ended")', { timeout: WAIT.timeout });
    await vi.waitFor(() => expect(host.ide.getSnapshot().playback?.status).toBe("ended"), WAIT);
    await page.waitForSelector('[data-testid="run-result"]:text-is("passed")');
    const runs = page.locator('[data-testid="suite-run"]');
    expect(await runs.count()).toBe(3);
    expect(await runs.evaluateAll((items) => items.map((li) => li.textContent?.replace(/\s+/g, " ").trim()))).toEqual([
      expect.stringMatching(/^first ended passed$/),
      expect.stringMatching(/^second ended passed$/),
      expect.stringMatching(/^third ended passed$/),
    ]);

    // The last test to end is shown; a click on "third" shows its commands and its page.
    await runs.nth(2).getByRole("button").click();
    await page.waitForSelector('[data-testid="suite-run"]:nth-child(3) button[aria-pressed="true"]');
    await vi.waitFor(() => expect(host.ide.getSnapshot().playback?.testId).toBe("u3"), WAIT);
    await page.waitForSelector('[data-testid="command-row"][data-command-id="u3-1"]');
    expect(await page.locator('[data-testid="command-row"][data-command-id="u1-1"]').count()).toBe(0);
    await vi.waitFor(async () => expect(await page.locator('[data-testid="page-url"]').textContent()).toBe(`${site.url}/shop`), WAIT);
  }, 180_000);
});
