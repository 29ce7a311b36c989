// Recording in a Grid's browser (CONTRACT section 14): the recorder reaches the node's Chromium
// through the Grid's `se:cdp` DevTools endpoint, as `npm start -- --webdriver-url GRID` records.
import { readFileSync } from "node:fs";
import { By } from "selenium-webdriver";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { recordInPage } from "../../drivers/host/recording.ts";
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
});
