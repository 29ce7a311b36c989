// A navigation a command started is waited for before the next command (issue 27), in the
// browser extension, end to end: the built extension in headless Chromium plays a project in the
// tab under test whose server answers the next pages late, and the command right after each
// click (or Enter) reads the new page, never the old one still showing meanwhile.
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
import { NAVIGATION_PAGES, NAVIGATIONS, SLOW_PATHS } from "../support/navigationPages.ts";

const cmd = (id: string, command: string, target = "", value = "") => ({ id, comment: "", command, target, targets: [], value });

let ideDir: string;
let pluginExt: MadeExtension;
let site: Awaited<ReturnType<typeof servePages>>;
let context: BrowserContext;
let tab: Page;
let window: Page;
let windowErrors: string[];

beforeAll(async () => {
  ideDir = (await buildExtension({ outDir: join(mkdtempSync(join(tmpdir(), "ide-core-ext-")), "extension") })).outDir;
  pluginExt = makePluginExtension("navigating");
  site = await servePages({ ...NAVIGATION_PAGES, "/start": "<!doctype html><title>Start</title><p>start</p>" }, SLOW_PATHS);
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
  await tab.goto(`${site.origin}/start`);
  window = await openIdeWindow(context, opener, windowErrors);
});

afterEach(async () => {
  await context?.close();
  expect(windowErrors).toEqual([]);
});

describe("navigations in the browser extension", () => {
  it("waits for the slow page a form post, a link, a script's location change and Enter go to before the next command reads it", async () => {
    const commands = NAVIGATIONS.flatMap((navigation, i) => [
      cmd(`o${i}`, "open", "/checkout"),
      cmd(`n${i}`, navigation.command, navigation.target, navigation.value),
      cmd(`a${i}`, "assertText", "css=h1", navigation.heading),
    ]);
    const project = {
      id: "navigating",
      version: "2.0",
      name: "Slow navigations",
      url: site.origin,
      tests: [{ id: "t1", name: "slow pages", commands }],
      suites: [],
      urls: [site.origin],
      plugins: [],
    };
    await window.locator('[data-testid="load-file"]').setInputFiles({ name: "navigating.side", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(project)) });
    await window.waitForSelector(`[data-testid="project-name"]:has-text("Slow navigations")`);
    await tab.bringToFront();
    await window.getByRole("button", { name: "Play", exact: true }).click();
    await expect.poll(() => window.locator('[data-testid="run-status"]').getAttribute("data-status"), { timeout: 60_000 }).toBe("ended");
    const states = await window.locator('[data-testid="command-row"] [data-testid="command-state"]').allTextContents();
    const messages = await window.locator('[data-testid="command-row"] [data-testid="command-message"]').allTextContents();
    expect({ states, messages }).toMatchObject({ states: Array(commands.length).fill("passed") });
    expect(await tab.locator("h1").textContent()).toBe(NAVIGATIONS.at(-1)!.heading);
  });
});
