// The torture page in the browser extension, end to end (CONTRACT section 19, issue 26): the
// built extension in headless Chromium, the torture cases of tests/support/torturePage.ts as
// the tests of one .side project the user loads in the IDE window, each played in the tab
// under test with the in-page player: every command passes. The upload case is the host's
// alone: the extension refuses to type into a file input, saying to play it in the host.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchWithExtensions } from "../../drivers/host/chromium.ts";
import { buildExtension } from "../../apps/extension/build.ts";
import { IDE_EXTENSION_ID } from "../../drivers/webextension/identity.ts";
import { servePages } from "../support/browserPages.ts";
import { makePluginExtension, openIdeWindow, profileDir, workerOf } from "../support/extensions.ts";
import { TORTURE_CASES, TORTURE_PAGES } from "../support/torturePage.ts";
import { tortureProject } from "../support/torturePlay.ts";
import { ACTIONABILITY_CASES, ACTIONABILITY_PAGES } from "../support/actionabilityPages.ts";

const CASES = [...TORTURE_CASES, ...ACTIONABILITY_CASES];

let site: Awaited<ReturnType<typeof servePages>>;
let context: BrowserContext;
let tab: Page;
let window: Page;
const windowErrors: string[] = [];

beforeAll(async () => {
  const ideDir = (await buildExtension({ outDir: join(mkdtempSync(join(tmpdir(), "ide-core-ext-")), "extension") })).outDir;
  const opener = makePluginExtension("opener");
  site = await servePages({ ...TORTURE_PAGES, ...ACTIONABILITY_PAGES, "/start": "<!doctype html><title>Start</title><p>Start</p>" });
  context = await launchWithExtensions(profileDir(), [ideDir, opener.dir]);
  const worker = await workerOf(context, opener.id);
  await workerOf(context, IDE_EXTENSION_ID);
  tab = context.pages()[0] ?? (await context.newPage());
  await tab.goto(`${site.origin}/start`);
  window = await openIdeWindow(context, worker, windowErrors);
  const project = tortureProject(site.origin, CASES);
  await window.locator('[data-testid="load-file"]').setInputFiles({
    name: "torture.side",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(project)),
  });
  await window.waitForSelector(`[data-testid="project-name"]:has-text("${project.name}")`);
}, 120_000);

afterAll(async () => {
  await context?.close();
  await site?.close();
  expect(windowErrors).toEqual([]);
});

/** The run the window shows: its test's name and its status. */
const shownRun = async () => ({
  name: await window.locator('[data-testid="run-status"] strong').textContent().catch(() => null),
  status: await window.locator('[data-testid="run-status"]').getAttribute("data-status").catch(() => null),
});

/** Plays case `index` (test t<index>) from the IDE window and gives each command's state, and message if any, as shown. */
async function play(index: number): Promise<string[]> {
  await window.locator('[data-testid="test-picker"]').selectOption(`t${index}`);
  await tab.bringToFront();
  await window.getByRole("button", { name: "Play", exact: true }).click();
  // Each case is played once, and its name is its own: the run shown with it is this one.
  await expect.poll(shownRun, { timeout: 30_000 }).toEqual({ name: CASES[index].name, status: "ended" });
  const rows = window.locator('[data-testid="command-row"]');
  const played: string[] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    const state = ((await row.locator('[data-testid="command-state"]').textContent()) ?? "").trim();
    const message = (await row.locator('[data-testid="command-message"]').count()) ? await row.locator('[data-testid="command-message"]').textContent() : null;
    played.push(message ? `${state}: ${message}` : state);
  }
  return played;
}

describe("the torture page in the browser extension", () => {
  CASES.forEach((tcase, index) => {
    if (tcase.hostOnly) {
      it(`${tcase.name}: the extension refuses it at the file input, naming the host that uploads`, async () => {
        const played = await play(index);
        expect(played[0]).toBe("passed");
        expect(played[1]).toMatch(/^failed: The browser extension cannot play type: Element id=file is a file input: the extension cannot read .* play this test with npm start or npm run play/);
        expect(played.slice(2)).toEqual(["not run"]);
      });
      return;
    }
    it(`${tcase.name}: every command passes in the tab`, async () => {
      expect(await play(index)).toEqual(tcase.commands.map(() => "passed"));
    });
  });
});
