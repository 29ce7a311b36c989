// Trusted input in the browser extension, end to end (CONTRACT section 19): the built extension
// in headless Chromium holds the tab under test through chrome.debugger when a run starts, and
// the in-page commands' clicks and keys reach the page as trusted input: the page sees
// `event.isTrusted`, a menu that opens on CSS :hover opens for mouseOver, and a key's default
// runs in the browser. The page itself reports what it got.
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


const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Trusted</title>
<style>#menu ul { display: none } #menu:hover ul { display: block }</style></head><body>
<button id="b" onclick="document.getElementById('r').textContent = 'trusted ' + event.isTrusted">B</button><p id="r"></p>
<div id="menu">Menu<ul><li><button id="item" onclick="document.getElementById('m').textContent = 'picked ' + event.isTrusted">Item</button></li></ul></div><p id="m"></p>
<input id="f" onkeydown="document.getElementById('k').textContent += event.key + (event.isTrusted ? '!' : '?') + ' '"><p id="k"></p>
</body></html>`;

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
  pluginExt = makePluginExtension("trusting");
  site = await servePages({ "/trusted": PAGE, "/start": "<!doctype html><title>Start</title><p>start</p>" });
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

describe("trusted input in the browser extension", () => {
  it("plays clicks, a :hover menu and keys as trusted input the page sees as a user's", async () => {
    const project = {
      id: "trusted",
      version: "2.0",
      name: "Trusted input",
      url: site.origin,
      tests: [
        {
          id: "t1",
          name: "trusted",
          commands: [
            cmd("c1", "open", "/trusted"),
            cmd("c2", "click", "id=b"),
            cmd("c3", "assertText", "id=r", "trusted true"),
            cmd("c4", "mouseOver", "id=menu"),
            cmd("c5", "click", "id=item"),
            cmd("c6", "assertText", "id=m", "picked true"),
            cmd("c7", "type", "id=f", "ab"),
            cmd("c8", "sendKeys", "id=f", "${KEY_ENTER}"),
            cmd("c9", "assertText", "id=k", "a! b! Enter!"),
          ],
        },
      ],
      suites: [],
      urls: [site.origin],
      plugins: [],
    };
    await window.locator('[data-testid="load-file"]').setInputFiles({ name: "trusted.side", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(project)) });
    await window.waitForSelector(`[data-testid="project-name"]:has-text("Trusted input")`);
    await tab.bringToFront();
    await window.getByRole("button", { name: "Play", exact: true }).click();
    await expect.poll(() => window.locator('[data-testid="run-status"]').getAttribute("data-status"), { timeout: 30_000 }).toBe("ended");
    const states = await window.locator('[data-testid="command-row"] [data-testid="command-state"]').allTextContents();
    const messages = await window.locator('[data-testid="command-row"] [data-testid="command-message"]').allTextContents();
    expect({ states, messages }).toMatchObject({ states: Array(9).fill("passed") });
    expect(await tab.locator("#m").textContent()).toBe("picked true");
  });
});
