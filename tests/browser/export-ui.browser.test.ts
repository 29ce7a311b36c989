// The Export dialog in the host's IDE page (shared with the extension's window): the
// displayed test and each suite, a language picker, the file downloaded under the packages'
// filename, and a failure shown as the IDE wrote it, naming the plugin that failed it.
import { readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectPlugin } from "../../client/index.ts";
import type { PluginClient } from "../../client/index.ts";
import { launchChromium } from "../../drivers/host/chromium.ts";
import { startHost } from "../../apps/host/host.ts";
import type { Host } from "../../apps/host/host.ts";
import { EXPORT_LANGUAGES, exportCode } from "../../services/export/index.ts";
import { shopProject } from "../export/support.ts";
import { pickTest } from "../support/idePage.ts";

let browser: Browser;
let host: Host;
let context: BrowserContext;
let page: Page;
let client: PluginClient | null = null;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  host = await startHost({ port: 0, tokenFile: null, project: shopProject() });
  context = await browser.newContext({ acceptDownloads: true });
  page = await context.newPage();
  await page.goto(host.urls.ui);
  await page.waitForSelector('[data-testid="connection"]:text-is("connected")');
}, 30_000); // the first bundles the page, which a loaded machine may take more than vitest's 10 s for
afterEach(async () => {
  await context?.close();
  await client?.disconnect().catch(() => {});
  client = null;
  await host?.close();
});

async function exportWith(button: string, language: string) {
  await page.click(button);
  await page.selectOption('[data-testid="export-language"]', language);
  await page.click('[data-testid="export-run"]');
}

describe("the Export dialog", () => {
  it("downloads the displayed test in each of the six languages under the packages' filename", async () => {
    await pickTest(page, "adds to cart");
    await page.waitForSelector('[data-testid="export-test"]:text-is("Export test \\"adds to cart\\"…")');
    for (const language of EXPORT_LANGUAGES) {
      const downloaded = page.waitForEvent("download");
      await exportWith('[data-testid="export-test"]', language);
      const download = await downloaded;
      const expected = await exportCode(language, shopProject(), { testId: "t-cart" });
      if ("errorCode" in expected) throw new Error(expected.error);
      expect(download.suggestedFilename(), language).toBe(expected.filename);
      expect(readFileSync((await download.path())!, "utf8"), language).toBe(expected.body);
      await page.waitForSelector(`[data-testid="export-done"]:has-text("${expected.filename}")`);
      expect(await page.$('[data-testid="export-dialog"]')).toBeNull();
    }
  });

  it("shows the IDE's sentence, naming the plugin, when a plugin's answer fails a suite's export", async () => {
    client = await connectPlugin({ url: host.urls.plugins, id: "eyes", token: host.token });
    const registration = {
      name: "Eyes",
      version: "1",
      commands: [{ id: "eyesCheckWindow", name: "check" }, { id: "exampleCheck", name: "check" }],
      exports: { languages: ["java-junit"] },
    };
    expect(await client.register(registration as never)).toBe(true);
    client.onMessage((message) => ((message as { action?: string }).action === "export" ? { error: "no API key" } : true));
    await exportWith('[data-testid="export-suite"]:has-text("Needs plugins")', "java-junit");
    const alert = await page.waitForSelector('[data-testid="export-error"]');
    const text = await alert.textContent();
    expect(text).toContain("Test 'logs in' has a problem: no API key");
    expect(text).toContain("Eyes");
  });
});
