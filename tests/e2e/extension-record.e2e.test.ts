// Recording in the browser extension, end to end (CONTRACT section 14): the built extension in
// headless Chromium, a test site on 127.0.0.1 in the tab under test. The test plays the user:
// it presses Record in the IDE window, acts in the tab with playwright's mouse and keyboard
// (DevTools input: trusted events, as a person's), presses Stop recording, compares the
// recorded commands, and plays the recorded test back green. Closing the tab mid-recording
// stops it, keeping what was recorded.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { launchWithExtensions } from "../../drivers/host/chromium.ts";
import { buildExtension } from "../../apps/extension/build.ts";
import { IDE_EXTENSION_ID } from "../../drivers/webextension/identity.ts";
import { WINDOW_PAGE } from "../../drivers/webextension/messages.ts";
import { makePluginExtension, profileDir, sendFrom, serveTestSite, workerOf } from "../support/extensions.ts";
import type { MadeExtension } from "../support/extensions.ts";

const IDE_PAGE_URL = `chrome-extension://${IDE_EXTENSION_ID}/${WINDOW_PAGE}`;

let ideDir: string;
let pluginExt: MadeExtension;
let site: Awaited<ReturnType<typeof serveTestSite>>;
let context: BrowserContext;
let tab: Page;
let window: Page;
let windowErrors: string[];

beforeAll(async () => {
  ideDir = (await buildExtension({ outDir: join(mkdtempSync(join(tmpdir(), "ide-core-ext-")), "extension") })).outDir;
  pluginExt = makePluginExtension("opener");
  site = await serveTestSite();
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
  await tab.goto(`${site.origin}/order`);
  const appeared = context.waitForEvent("page", { predicate: (p) => p.url() === IDE_PAGE_URL });
  const opened = sendFrom(opener, IDE_EXTENSION_ID, { openIDEIfClosed: true });
  window = await appeared;
  window.on("pageerror", (error) => windowErrors.push(error.message));
  window.on("console", (message) => {
    if (message.type() === "error") windowErrors.push(message.text());
  });
  await window.waitForSelector('[data-testid="project-name"]');
  expect(await opened).toEqual({ reply: true });
  // A new project has no test: the user adds one to record into.
  await window.getByRole("button", { name: "New test" }).click();
  const name = window.locator('[data-testid="test-name"]');
  await name.fill("recorded");
  await name.press("Enter");
  await window.getByRole("button", { name: "Record", exact: true }).waitFor();
});

afterEach(async () => {
  await context?.close();
  expect(windowErrors).toEqual([]);
});

/** The displayed test's commands, as the IDE window's core holds them. */
async function recordedCommands(): Promise<string[]> {
  const rows = window.locator('[data-testid="editor-row"]');
  const texts = await rows.allTextContents();
  return texts.map((t) => t.replace(/\s+/g, " ").trim());
}

/** The user brings the tab under test to the front, as a person clicks into it. */
async function inTheTab() {
  await tab.bringToFront();
}

describe("recording in the browser extension", () => {
  it("records clicks, typing and a select in the tab under test, and the recorded test plays back green", async () => {
    await inTheTab();
    await window.getByRole("button", { name: "Record", exact: true }).click();
    await window.getByRole("button", { name: "Stop recording" }).waitFor();
    await expect.poll(async () => (await recordedCommands()).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);

    await tab.click("#name");
    await tab.keyboard.type("Ada");
    await tab.keyboard.press("Tab"); // to the select, which the arrow key changes as a person's would
    await tab.keyboard.press("ArrowDown");
    await tab.click("#go");
    await expect.poll(async () => (await recordedCommands()).length, { timeout: 10_000 }).toBe(6);
    await window.getByRole("button", { name: "Stop recording" }).click();
    await window.getByRole("button", { name: "Record", exact: true }).waitFor();

    const commands = await recordedCommands();
    expect(commands[0]).toMatch(/open.*\/order/);
    expect(commands[1]).toMatch(/setWindowSize.*\d+x\d+/);
    expect(commands[2]).toMatch(/click.*id=name/);
    expect(commands[3]).toMatch(/type.*id=name.*Ada/);
    expect(commands[4]).toMatch(/select.*id=size.*label=Medium/);
    expect(commands[5]).toMatch(/click.*id=go/);

    // Played back: the page takes the order typed and chosen.
    await tab.goto(`${site.origin}/second`);
    await inTheTab();
    await window.getByRole("button", { name: "Play", exact: true }).click();
    await expect.poll(() => window.locator('[data-testid="run-status"]').getAttribute("data-status"), { timeout: 20_000 }).toBe("ended");
    expect(await window.locator('[data-testid="run-result"]').textContent()).toContain("passed");
    expect(await tab.locator("#result").textContent()).toBe("Ada orders Medium");
  });

  it("stops when the tab under test is closed, keeping what was recorded, and says so", async () => {
    await inTheTab();
    await window.getByRole("button", { name: "Record", exact: true }).click();
    await expect.poll(async () => (await recordedCommands()).length, { timeout: 10_000 }).toBe(2);
    await tab.click("#go");
    await expect.poll(async () => (await recordedCommands()).length, { timeout: 10_000 }).toBe(3);
    await tab.close();
    await window.getByRole("button", { name: "Record", exact: true }).waitFor();
    expect((await recordedCommands())[2]).toMatch(/click.*id=go/);
    await expect.poll(() => window.locator("body").textContent()).toMatch(/tab under test was closed/);
  });
});
