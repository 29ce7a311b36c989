// Recording across windows in the host (CONTRACT sections 14 and 19): real Chromium under
// chromedriver, the real recorder put in over DevTools (drivers/host/recording.ts,
// recorderWindows.ts) and trusted input sent where the page panel sends the user's clicks. A
// click that opens a tab, a click in that tab, closing it and a click back are recorded as the
// extension records them (v3's opensWindow, storeWindowHandle win_ser_local, selectWindow
// handle=${win_ser_1}, close, selectWindow handle=${win_ser_local}); WebDriver, the picture and
// the clicks follow the recording into the new tab and back; the test then plays back green.
import { By } from "selenium-webdriver";
import type { Browser } from "playwright-core";
import type { WebDriver } from "selenium-webdriver";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startHost } from "../../apps/host/host.ts";
import { launchChromium } from "../../drivers/host/chromium.ts";
import { createIde } from "../../index.ts";
import type { Ide } from "../../index.ts";
import { pageCamera } from "../../drivers/host/devtools.ts";
import { PAGE_INTERVAL_MS } from "../../drivers/view/pageFeed.ts";
import { pagePanelRecorder } from "../../drivers/host/recording.ts";
import { browserPage } from "../../drivers/host/browserPage.ts";
import type { BrowserPage } from "../../drivers/host/browserPage.ts";
import { servePages } from "../support/browserPages.ts";
import { playAndWait } from "../support/runs.ts";
import { AFTER_HELP_CLICK, WINDOWS_ELSEWHERE, WINDOWS_HELP, WINDOWS_SHOP } from "../support/windowsShop.ts";

const WAIT = { timeout: 20_000, interval: 50 };

let site: Awaited<ReturnType<typeof servePages>>;
let page: BrowserPage;
let driver: WebDriver;
let ide: Ide;

beforeAll(async () => {
  site = await servePages({
    "/shop": WINDOWS_SHOP,
    "/help": WINDOWS_HELP,
    "/elsewhere": WINDOWS_ELSEWHERE,
    // A shop whose help tab goes on to the help page a while after it opened.
    "/slow-shop": WINDOWS_SHOP.replace('href="/help"', 'href="/on-the-way"'),
    "/on-the-way": `<!doctype html><title>On the way</title><script>setTimeout(() => location.replace("/help"), ${PAGE_INTERVAL_MS + 300});</script>`,
  });
  page = browserPage({ baseUrl: site.origin });
  ({ driver } = await page.sideRuntime());
  ide = createIde({ executor: page });
}, 60_000);

afterAll(async () => {
  ide?.stop();
  await page?.close();
  await site?.close();
});

/** The centre of the element in the window WebDriver drives, in CSS pixels of its viewport. */
async function centreOf(locator: By) {
  const rect = await driver.findElement(locator).getRect();
  const scroll = (await driver.executeScript("return [window.scrollX, window.scrollY]")) as [number, number];
  return { x: rect.x - scroll[0] + rect.width / 2, y: rect.y - scroll[1] + rect.height / 2 };
}

describe("recording across windows in the host", () => {
  it("records a click that opens a tab, a click in it, its close and a click back as the extension does, follows them with WebDriver and the picture, and plays them back green", async () => {
    await driver.get(`${site.origin}/shop`);
    const shop = await driver.getWindowHandle();
    let switches = 0;
    const tabIds = new Set<unknown>();
    // As npm start wires it (apps/host/host.ts): new windows are followed while a recording is under way.
    const panel = pagePanelRecorder(
      async () => driver,
      (report) => {
        tabIds.add((report as { tabId?: unknown }).tabId);
        ide.record(report);
      },
      () => ({ project: "" }),
      { following: () => ide.getSnapshot().recording !== null, switched: () => (switches += 1) },
    );
    const camera = await pageCamera(driver);
    const click = async (locator: By) => panel.input({ kind: "click", ...(await centreOf(locator)) });
    try {
      ide.send({ type: "user.addTest", name: "windows" });
      const testId = ide.getSnapshot().displayedTestId!;
      const recorded = () => ide.getProject().tests.find((t) => t.id === testId)!.commands;
      const lines = () => recorded().map((c) => `${c.command} ${c.target}`.trim());
      ide.send({ type: "user.startRecording" });
      await vi.waitFor(() => expect(ide.getSnapshot().recording).not.toBeNull(), WAIT);
      await panel.recordingStarted();
      await vi.waitFor(() => expect(lines()).toEqual(["open /shop", expect.stringMatching(/^setWindowSize \d+x\d+$/)]), WAIT);

      await click(By.id("help"));
      // WebDriver follows the recording into the tab the click opened, and the picture with it.
      await vi.waitFor(async () => expect(await driver.getWindowHandle()).not.toBe(shop), WAIT);
      await vi.waitFor(() => expect(switches).toBeGreaterThanOrEqual(1), WAIT);
      await vi.waitFor(async () => expect((await camera.capture()).url).toBe(`${site.origin}/help`), WAIT);
      await vi.waitFor(() => expect(lines()).toEqual(["open /shop", expect.any(String), "click id=help", AFTER_HELP_CLICK[0]]), WAIT);
      expect(recorded()[2]).toMatchObject({ opensWindow: true, windowHandleName: "win_ser_1" });

      await vi.waitFor(async () => expect(await driver.getCurrentUrl()).toBe(`${site.origin}/help`), WAIT);
      await click(By.id("faq"));
      await vi.waitFor(() => expect(lines().slice(3)).toEqual(AFTER_HELP_CLICK.slice(0, 3)), WAIT);
      expect(await driver.findElement(By.id("answer")).getText()).toBe("answered");

      // The help tab is closed (as the person at the browser would): `close`, and WebDriver is back in the shop.
      await driver.close();
      await vi.waitFor(() => expect(lines().slice(3)).toEqual(AFTER_HELP_CLICK.slice(0, 4)), WAIT);
      await vi.waitFor(async () => expect(await driver.getWindowHandle()).toBe(shop), WAIT);
      expect((await camera.capture()).url).toBe(`${site.origin}/shop`);
      await click(By.id("buy"));
      await vi.waitFor(() => expect(lines().slice(3)).toEqual(AFTER_HELP_CLICK), WAIT);
      expect(await driver.findElement(By.id("result")).getText()).toBe("bought");

      ide.send({ type: "user.stopRecording" });
      await vi.waitFor(() => expect(ide.getSnapshot().recording).toBeNull(), WAIT);
      // The host's pages have no browser tab id: numbered below 0, which plugins are told as null.
      expect(tabIds).toEqual(new Set([-1, -2]));
      const switchesWhenStopped = switches;

      // Played back from another page: the help tab opens, is used and closed, and the shop is bought from.
      await driver.get(`${site.origin}/elsewhere`);
      const played = await playAndWait(ide, { type: "user.startPlayback", testId });
      expect(played.commands.map((c) => [c.state, c.message ?? ""])).toEqual(recorded().map(() => ["passed", ""]));
      expect(played.result).toBe("passed");
      expect(await driver.getWindowHandle()).toBe(shop);
      expect(await driver.findElement(By.id("result")).getText()).toBe("bought");
      // Outside a recording the run's windows are the run's: the recorder moved WebDriver nowhere.
      expect(await driver.getAllWindowHandles()).toEqual([shop]);
      expect(switches).toBe(switchesWhenStopped);
    } finally {
      camera.close();
    }
  }, 120_000);

  it("in npm start's IDE page, shows the tab a click on the picture opened, and the page it goes on to, and records the next click on the picture there, after selectWindow", async () => {
    const hostPage = browserPage({ baseUrl: site.origin });
    const host = await startHost({ port: 0, tokenFile: null, executor: hostPage });
    let browser: Browser | undefined;
    try {
      const { driver: driven } = await hostPage.sideRuntime();
      await driven.get(`${site.origin}/slow-shop`);
      host.ide.send({ type: "user.addTest", name: "windows on the picture" });
      const testId = host.ide.getSnapshot().displayedTestId!;
      const lines = () => host.ide.getProject().tests.find((t) => t.id === testId)!.commands.map((c) => `${c.command} ${c.target}`.trim());

      browser = await launchChromium();
      const ui = await (await browser.newContext({ viewport: { width: 1400, height: 1250 } })).newPage();
      await ui.goto(host.urls.ui);
      await ui.waitForSelector('[data-testid="connection"]:text-is("connected")');
      await ui.getByRole("button", { name: "Record", exact: true }).click();
      await ui.waitForSelector('button:text-is("Stop recording")');
      const image = ui.locator('[data-testid="page-image"]');
      await image.waitFor();
      await vi.waitFor(() => expect(lines()[0]).toBe("open /slow-shop"), WAIT);

      /** Where an element of the window WebDriver drives is on the picture. */
      const onPicture = async (locator: By) => {
        const rect = await driven.findElement(locator).getRect();
        const [sx, sy, w, h] = (await driven.executeScript("return [scrollX, scrollY, innerWidth, innerHeight]")) as number[];
        const box = (await image.boundingBox())!;
        return { x: ((rect.x - sx + rect.width / 2) / w!) * box.width, y: ((rect.y - sy + rect.height / 2) / h!) * box.height };
      };
      const help = await onPicture(By.id("help"));
      // Past the feed's interval, the click's own picture is taken at once, before the tab opens:
      // only the one taken when WebDriver followed the tab can show it.
      await new Promise((resolve) => setTimeout(resolve, PAGE_INTERVAL_MS + 100));
      await image.click({ position: help });
      // The panel shows the new tab, and its next page once it loaded, without anything else done:
      // the picture followed WebDriver there.
      await ui.waitForSelector(`[data-testid="page-url"]:text-is("${site.origin}/help")`, { timeout: 20_000 });
      await vi.waitFor(() => expect(lines().slice(2)).toEqual(["click id=help", AFTER_HELP_CLICK[0]]), WAIT);

      await image.click({ position: await onPicture(By.id("faq")) });
      await vi.waitFor(() => expect(lines().slice(3)).toEqual(AFTER_HELP_CLICK.slice(0, 3)), WAIT);
      expect(await driven.findElement(By.id("answer")).getText()).toBe("answered");
      await ui.getByRole("button", { name: "Stop recording", exact: true }).click();
      await vi.waitFor(() => expect(host.ide.getSnapshot().recording).toBeNull(), WAIT);
    } finally {
      await browser?.close();
      await host.close();
      await hostPage.close();
    }
  }, 120_000);
});
