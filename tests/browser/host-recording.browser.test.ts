// Recording in the host's page under test (CONTRACT section 14): the recorder put into the
// browser WebDriver drives over DevTools (drivers/host/recording.ts), in an isolated world
// reporting through a binding, with trusted input dispatched at a point of the page; and a
// person recording in `npm start`'s IDE page, clicking and typing on the page panel's picture,
// then playing the recorded test back green.
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { By } from "selenium-webdriver";
import type { WebDriver } from "selenium-webdriver";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startHost } from "../../apps/host/host.ts";
import { launchChromium } from "../../drivers/host/chromium.ts";
import { createIde } from "../../index.ts";
import type { Ide } from "../../index.ts";
import { recordInPage } from "../../drivers/host/recording.ts";
import type { HostRecorder } from "../../drivers/host/recording.ts";
import { startExampleSite } from "../../drivers/host/site.ts";
import type { ExampleSite } from "../../drivers/host/site.ts";
import { browserPage } from "../../drivers/host/browserPage.ts";
import { playAndWait } from "../support/runs.ts";
import { freshNpmStart } from "../support/freshHost.ts";
import type { FreshHost } from "../support/freshHost.ts";
import { killLeftovers } from "../support/processes.ts";
import type { BrowserPage } from "../../drivers/host/browserPage.ts";

const SHOP = JSON.parse(readFileSync(new URL("../../examples/shop.side", import.meta.url), "utf8")) as unknown;
const WAIT = { timeout: 30_000, interval: 50 };
// Every run takes the picture; `npm run screenshot` keeps it as the README's docs/recording.png.
const SCREENSHOT = process.env.UPDATE_SCREENSHOT
  ? fileURLToPath(new URL("../../docs/recording.png", import.meta.url))
  : join(mkdtempSync(join(tmpdir(), "ide-core-recording-")), "recording.png");

let site: ExampleSite;
let page: BrowserPage;
let driver: WebDriver;
let ide: Ide;
let recorder: HostRecorder;
const reports: unknown[] = [];

beforeAll(async () => {
  site = await startExampleSite();
  page = browserPage({ baseUrl: site.url });
  ({ driver } = await page.sideRuntime());
  ide = createIde({ project: SHOP });
  recorder = await recordInPage(driver, (report) => {
    reports.push(report);
    ide.record(report);
  });
  await driver.get(`${site.url}/shop`);
}, 60_000);

afterAll(async () => {
  recorder?.close();
  ide?.stop();
  await page?.close();
  await site?.close();
});

/** The centre of the element, in CSS pixels of the viewport. */
async function centreOf(locator: By) {
  const rect = await driver.findElement(locator).getRect();
  const scroll = (await driver.executeScript("return [window.scrollX, window.scrollY]")) as [number, number];
  return { x: rect.x - scroll[0] + rect.width / 2, y: rect.y - scroll[1] + rect.height / 2 };
}

const recordedIn = (testId: string) => ide.getProject().tests.find((t) => t.id === testId)!.commands.map((c) => [c.command, c.target, c.value]);

describe("recording in the host's page under test", () => {
  it("records a trusted click and typing as Selenium IDE's commands while a recording is under way", async () => {
    ide.send({ type: "user.addTest", name: "recorded here" });
    const testId = ide.getSnapshot().displayedTestId!;
    ide.send({ type: "user.startRecording" });
    await vi.waitFor(() => expect(ide.getSnapshot().recording).not.toBeNull(), WAIT);

    const link = await centreOf(By.linkText("Help and support"));
    await recorder.click(link.x, link.y);
    await vi.waitFor(() => expect(recordedIn(testId)).toContainEqual(["click", "linkText=Help and support", ""]), WAIT);

    await driver.get(`${site.url}/shop`);
    const user = await centreOf(By.id("user"));
    await recorder.click(user.x, user.y);
    await recorder.type("alice");
    await recorder.press("Enter");
    await vi.waitFor(() => expect(recordedIn(testId)).toContainEqual(["type", "id=user", "alice"]), WAIT);
    await vi.waitFor(() => expect(recordedIn(testId)).toContainEqual(["sendKeys", "id=user", "${KEY_ENTER}"]), WAIT);
  }, 60_000);

  it("gives the page's own scripts no way to report: the binding is in the recorder's world only", async () => {
    const seen = (await driver.executeScript("return typeof window.__ideCoreRecorded")) as string;
    expect(seen).toBe("undefined");
    const before = reports.length;
    // A synthetic click from the page's script is not the user's: nothing is recorded.
    await driver.executeScript("document.querySelector('a[href=\"/shop\"]').click()");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(reports.length).toBe(before);
  });
});

describe("recording in npm start's IDE page", () => {
  let browser: Browser;
  let hostPage: BrowserPage;
  afterAll(async () => {
    await browser?.close();
    await hostPage?.close();
  });

  it("records the user's click and typing on the page panel's picture into the displayed test, which then plays back green (the README's recording picture)", async () => {
    hostPage = browserPage({ baseUrl: site.url });
    const host = await startHost({ port: 0, tokenFile: null, project: SHOP, executor: hostPage });
    try {
      const { driver: driven } = await hostPage.sideRuntime();
      await driven.get(`${site.url}/shop`);
      host.ide.send({ type: "user.addTest", name: "recorded in the page" });
      const testId = host.ide.getSnapshot().displayedTestId!;
      const recorded = () => host.ide.getProject().tests.find((t) => t.id === testId)!.commands.map((c) => [c.command, c.target, c.value]);

      browser = await launchChromium();
      const ui = await (await browser.newContext({ viewport: { width: 1400, height: 1250 } })).newPage();
      await ui.goto(host.urls.ui);
      await ui.waitForSelector('[data-testid="connection"]:text-is("connected")');
      await ui.getByRole("button", { name: "Record", exact: true }).click();
      await ui.waitForSelector('button:text-is("Stop recording")');
      const image = ui.locator('[data-testid="page-image"]');
      await image.waitFor();
      // The recording starts on the page as it is: open and setWindowSize first. The page is at the
      // base URL that stands in for the project's url, so `open` is its path, as the project plays it.
      await vi.waitFor(() => expect(recorded()[0]).toEqual(["open", "/shop", ""]), WAIT);

      /** Where an element of the page under test is on its picture in the IDE page. */
      const onPicture = async (locator: By) => {
        const point = await (async () => {
          const rect = await driven.findElement(locator).getRect();
          const [sx, sy, w, h] = (await driven.executeScript("return [scrollX, scrollY, innerWidth, innerHeight]")) as number[];
          return { x: rect.x - sx + rect.width / 2, y: rect.y - sy + rect.height / 2, w, h };
        })();
        const box = (await image.boundingBox())!;
        return { x: (point.x / point.w) * box.width, y: (point.y / point.h) * box.height };
      };

      await image.click({ position: await onPicture(By.linkText("Help and support")) });
      await vi.waitFor(() => expect(recorded()).toContainEqual(["click", "linkText=Help and support", ""]), WAIT);
      await vi.waitFor(async () => expect(await driven.getCurrentUrl()).toBe(`${site.url}/help`), WAIT);

      await image.click({ position: await onPicture(By.id("user")) });
      await image.focus();
      await ui.keyboard.type("bob");
      await ui.keyboard.press("Enter");
      await vi.waitFor(() => expect(recorded()).toContainEqual(["type", "id=user", "bob"]), WAIT);
      // Enter comes as its own message after the typing, so it may land a moment later.
      await vi.waitFor(() => expect(recorded()).toContainEqual(["sendKeys", "id=user", "${KEY_ENTER}"]), WAIT);
      await ui.waitForSelector('[data-testid="command-row"] >> text=sendKeys');
      await ui.mouse.move(0, 0);
      mkdirSync(dirname(SCREENSHOT), { recursive: true });
      const png = await ui.screenshot({ path: SCREENSHOT, clip: { x: 0, y: 0, width: 1400, height: 1250 } });
      expect(png.subarray(1, 4).toString()).toBe("PNG");

      await ui.getByRole("button", { name: "Stop recording", exact: true }).click();
      await vi.waitFor(() => expect(host.ide.getSnapshot().recording).toBeNull(), WAIT);

      // The recorded test played back in the same browser: every command passes.
      const played = await playAndWait(host.ide, { type: "user.startPlayback", testId });
      expect(played.commands.map((c) => [c.state, c.message ?? ""])).toEqual(recorded().map(() => ["passed", ""]));
      expect(played.result).toBe("passed");
    } finally {
      await host.close();
    }
  }, 120_000);
});

describe("a newcomer recording on a fresh npm start", () => {
  let fresh: FreshHost | null = null;
  afterAll(async () => {
    await fresh?.stop();
    killLeftovers();
  });

  it("opens the page under test when Record is pressed on an empty test with no run before, records a click on the picture and keeps the typing that Stop recording finds in the field", async () => {
    fresh = await freshNpmStart();
    const { ui, browser } = fresh;
    await ui.getByRole("button", { name: "New test", exact: true }).click();
    await ui.getByTestId("test-name").fill("my first test");
    await ui.getByTestId("test-name").press("Enter");
    await ui.getByTestId("editor-no-commands").waitFor();

    await ui.getByRole("button", { name: "Record", exact: true }).click();
    await ui.getByRole("button", { name: "Stop recording", exact: true }).waitFor();
    // The panel shows the page under test at once: no run came before.
    const image = ui.getByRole("img", { name: /^The page under test/ });
    await image.waitFor({ timeout: 30_000 });
    const rows = ui.getByTestId("command-row");
    const shown = async () =>
      rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('[data-testid^="editor-"]')].slice(0, 3).map((td) => td.textContent!.trim())));
    await vi.waitFor(async () => expect((await shown()).map(([command]) => command)).toEqual(["open", "setWindowSize"]), WAIT);
    const pageUrl = (await ui.getByTestId("page-url").textContent())!;
    expect(pageUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);

    // Where the user field is on the picture at the page's actual size: the same page, at the picture's size, in a browser of the test's own.
    // (Actual size is how the panel shows it at first.)
    await ui.getByRole("button", { name: "Fit", exact: true }).waitFor();
    const size = await image.evaluate((img) => ({ width: (img as HTMLImageElement).width, height: (img as HTMLImageElement).height }));
    const twin = await (await browser.newContext({ viewport: size })).newPage();
    await twin.goto(pageUrl);
    const field = (await twin.locator("#user").boundingBox())!;
    await twin.close();
    await image.click({ position: { x: field.x + field.width / 2, y: field.y + field.height / 2 } });
    await vi.waitFor(async () => expect((await shown()).at(-1)).toEqual(["click", "id=user", ""]), WAIT);

    // Typing, then Stop recording at once: the field still has the focus, its change never came.
    await image.focus();
    await ui.keyboard.type("bob");
    await ui.getByRole("button", { name: "Stop recording", exact: true }).click();
    await ui.getByRole("button", { name: "Record", exact: true }).waitFor();
    await vi.waitFor(async () => expect((await shown()).at(-1)).toEqual(["type", "id=user", "bob"]), WAIT);
    const recorded = await shown();
    expect(recorded.map(([command]) => command)).toEqual(["open", "setWindowSize", "click", "type"]);
    // The example site stands in for the project's url: `open` is the path, so the test plays on the next start too.
    expect(recorded[0][1]).toBe(new URL(pageUrl).pathname);
    expect(recorded[1][1]).toMatch(/^\d+x\d+$/);

    // And it plays back green.
    await ui.getByRole("button", { name: "Play", exact: true }).click();
    await vi.waitFor(async () => expect(await ui.getByTestId("run-result").textContent()).toBe("passed"), WAIT);
  }, 180_000);
});
