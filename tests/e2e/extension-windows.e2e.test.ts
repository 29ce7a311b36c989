// Windows in the browser extension, end to end (CONTRACT section 19): the built extension in
// headless Chromium, a shop on 127.0.0.1 whose link opens a new tab. The test plays the user:
// it records a click that opens a tab, a click in that tab, closing it and a click back in the
// first tab, compares the commands with v3's (opensWindow, storeWindowHandle win_ser_local,
// selectWindow handle=${win_ser_1}, close, selectWindow handle=${win_ser_local}), and plays
// the recorded test back green in the tabs.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { launchWithExtensions } from "../../drivers/host/chromium.ts";
import { buildExtension } from "../../apps/extension/build.ts";
import { IDE_EXTENSION_ID } from "../../drivers/webextension/identity.ts";
import { servePages } from "../support/browserPages.ts";
import { makePluginExtension, openIdeWindow, profileDir, workerOf } from "../support/extensions.ts";
import type { MadeExtension } from "../support/extensions.ts";
import { AFTER_HELP_CLICK, WINDOWS_ELSEWHERE, WINDOWS_HELP, WINDOWS_SHOP } from "../support/windowsShop.ts";


let ideDir: string;
let pluginExt: MadeExtension;
let site: Awaited<ReturnType<typeof servePages>>;
let context: BrowserContext;
let tab: Page;
let window: Page;
let windowErrors: string[];

beforeAll(async () => {
  ideDir = (await buildExtension({ outDir: join(mkdtempSync(join(tmpdir(), "ide-core-ext-")), "extension") })).outDir;
  pluginExt = makePluginExtension("opener");
  site = await servePages({ "/shop": WINDOWS_SHOP, "/help": WINDOWS_HELP, "/elsewhere": WINDOWS_ELSEWHERE });
});

afterAll(async () => {
  await site?.close();
});

beforeEach(async () => {
  windowErrors = [];
  context = await launchWithExtensions(profileDir(), [ideDir, pluginExt.dir]);
  const opener = await workerOf(context, pluginExt.id);
  await workerOf(context, IDE_EXTENSION_ID);
  tab = context.pages()[0] ?? (await context.newPage());
  await tab.goto(`${site.origin}/shop`);
  window = await openIdeWindow(context, opener, windowErrors);
  await window.getByRole("button", { name: "New test" }).click();
  const name = window.locator('[data-testid="test-name"]');
  await name.fill("windows");
  await name.press("Enter");
  await window.getByRole("button", { name: "Record", exact: true }).waitFor();
});

afterEach(async () => {
  await context?.close();
  expect(windowErrors).toEqual([]);
});

async function recordedCommands(): Promise<string[]> {
  const texts = await window.locator('[data-testid="editor-row"]').allTextContents();
  return texts.map((t) => t.replace(/\s+/g, " ").trim());
}
const count = async () => (await recordedCommands()).length;

describe("windows in the browser extension", () => {
  it("records a click that opens a tab, work in it, its close and the way back as v3 does, and plays them back green", async () => {
    await tab.bringToFront();
    await window.getByRole("button", { name: "Record", exact: true }).click();
    await expect.poll(count, { timeout: 10_000 }).toBe(2);
    const help = context.waitForEvent("page", { predicate: (p) => p.url().endsWith("/help") });
    await tab.click("#help");
    const helpTab = await help;
    await helpTab.waitForLoadState();
    // The click, then storeWindowHandle once the tab it opened is known.
    await expect.poll(count, { timeout: 10_000 }).toBe(4);
    await helpTab.bringToFront();
    await helpTab.click("#faq");
    await expect.poll(count, { timeout: 10_000 }).toBe(6);
    await helpTab.close();
    await expect.poll(count, { timeout: 10_000 }).toBe(7);
    await tab.bringToFront();
    await tab.click("#buy");
    await expect.poll(count, { timeout: 10_000 }).toBe(9);
    await window.getByRole("button", { name: "Stop recording" }).click();
    await window.getByRole("button", { name: "Record", exact: true }).waitFor();
    const commands = await recordedCommands();
    expect(commands[2]).toMatch(/click.*id=help/);
    // A row reads as its number, command and target.
    const escape = (text: string) => text.replace(/[$.*+?^(){}[\]|\\]/g, "\\$&");
    expect(commands.slice(3)).toEqual(
      AFTER_HELP_CLICK.map((line) => {
        const [command, target = ""] = line.split(" ");
        return expect.stringMatching(new RegExp(`^\\d+${command}${target ? `.*${escape(target)}` : "$"}`));
      }),
    );

    // Played back from another page: the help tab opens, is used and closed, and the shop is bought from.
    await tab.goto(`${site.origin}/elsewhere`);
    await tab.bringToFront();
    await window.getByRole("button", { name: "Play", exact: true }).click();
    await expect.poll(() => window.locator('[data-testid="run-status"]').getAttribute("data-status"), { timeout: 30_000 }).toBe("ended");
    expect(await window.locator('[data-testid="run-result"]').textContent()).toContain("passed");
    expect(await tab.locator("#result").textContent()).toBe("bought");
    expect(context.pages().filter((p) => p.url().endsWith("/help"))).toEqual([]);
  });
});
