// Recording in a Grid's browser (CONTRACT section 14): the recorder reaches the node's Chromium
// through the Grid's `se:cdp` DevTools endpoint, as `npm start -- --webdriver-url GRID` records,
// and follows a tab a recorded click opens there (CONTRACT section 19).
import { readFileSync } from "node:fs";
import { By } from "selenium-webdriver";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { recordInPage } from "../../drivers/host/recording.ts";
import { createIde } from "../../index.ts";
import { servePages } from "../support/browserPages.ts";
import { AFTER_HELP_CLICK, WINDOWS_HELP, WINDOWS_SHOP } from "../support/windowsShop.ts";
import { gridHost } from "./support.ts";
import type { GridHost } from "./support.ts";

const SHOP = JSON.parse(readFileSync(new URL("../../examples/shop.side", import.meta.url), "utf8")) as unknown;
let fixture: GridHost;

beforeAll(async () => {
  fixture = await gridHost(SHOP, 1);
}, 120_000);
afterAll(() => fixture?.close(), 60_000);

describe("recording in a Grid's browser", () => {
  it("records a trusted click through the Grid's se:cdp endpoint", async () => {
    const { host, pool, site } = fixture;
    const { driver } = await pool.sideRuntime();
    expect(String((await driver.getCapabilities()).get("se:cdp"))).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/session\/.+\/se\/cdp$/);
    const recorder = await recordInPage(driver, (report) => host.ide.record(report));
    try {
      await driver.get(`${site.url}/shop`);
      host.ide.send({ type: "user.addTest", name: "recorded on the Grid" });
      const testId = host.ide.getSnapshot().displayedTestId!;
      host.ide.send({ type: "user.startRecording" });
      await vi.waitFor(() => expect(host.ide.getSnapshot().recording).not.toBeNull());
      const rect = await driver.findElement(By.linkText("Help and support")).getRect();
      await recorder.click(rect.x + rect.width / 2, rect.y + rect.height / 2);
      await vi.waitFor(
        () => expect(host.ide.getProject().tests.find((t) => t.id === testId)!.commands.map((c) => [c.command, c.target])).toContainEqual(["click", "linkText=Help and support"]),
        { timeout: 30_000, interval: 50 },
      );
    } finally {
      recorder.close();
    }
  }, 120_000);

  it("follows a tab a recorded click opened through the Grid's se:cdp endpoint: the click in it comes after selectWindow", async () => {
    const { host, pool } = fixture;
    const ide = createIde();
    const { driver } = await pool.sideRuntime();
    const pages = await servePages({ "/shop": WINDOWS_SHOP, "/help": WINDOWS_HELP });
    const recorder = await recordInPage(driver, (report) => void ide.record(report));
    try {
      await driver.get(`${pages.origin}/shop`);
      const shop = await driver.getWindowHandle();
      // The host's own recorder is in the page too (the test before recorded through it): its recording stops.
      host.ide.send({ type: "user.stopRecording" });
      await vi.waitFor(() => expect(host.ide.getSnapshot().recording).toBeNull());
      ide.send({ type: "user.addTest", name: "windows on the Grid" });
      const testId = ide.getSnapshot().displayedTestId!;
      const lines = () => ide.getProject().tests.find((t) => t.id === testId)!.commands.map((c) => `${c.command} ${c.target}`.trim());
      ide.send({ type: "user.startRecording" });
      await vi.waitFor(() => expect(ide.getSnapshot().recording).not.toBeNull());
      const centre = async (id: string) => {
        const rect = await driver.findElement(By.id(id)).getRect();
        return [rect.x + rect.width / 2, rect.y + rect.height / 2] as const;
      };
      await recorder.click(...(await centre("help")));
      await vi.waitFor(async () => expect(await driver.getWindowHandle()).not.toBe(shop), { timeout: 30_000, interval: 50 });
      await vi.waitFor(async () => expect(await driver.getCurrentUrl()).toBe(`${pages.origin}/help`), { timeout: 30_000, interval: 50 });
      await recorder.click(...(await centre("faq")));
      await vi.waitFor(() => expect(lines()).toEqual(["click id=help", ...AFTER_HELP_CLICK.slice(0, 3)]), { timeout: 30_000, interval: 50 });
      ide.send({ type: "user.stopRecording" });
    } finally {
      recorder.close();
      ide.stop();
      await driver.close().catch(() => {});
      await driver.switchTo().window((await driver.getAllWindowHandles())[0]!);
      await pages.close();
    }
  }, 120_000);
});
