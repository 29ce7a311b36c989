// Nothing lost on a crash, in the browser extension (CONTRACT round 4): the built extension
// and a plugin extension in Chromium; the plugin edits the project with /record/command, the
// browser closes the IDE window right after the last edit was answered, and the window opened
// again offers "Restore unsaved changes" from chrome.storage.local.
import { readFileSync } from "node:fs";
import type { BrowserContext, Page, Worker } from "playwright-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { IDE_EXTENSION_ID } from "../../drivers/webextension/identity.ts";
import type { SideProject } from "../../index.ts";
import { buildIdeExtension, launchIde, makePluginExtension, openIdeWindow, sendFrom } from "../support/extensions.ts";
import type { MadeExtension } from "../support/extensions.ts";

const SHOP = JSON.parse(readFileSync(new URL("../../examples/shop.side", import.meta.url), "utf8")) as SideProject;

interface Command {
  command: string;
  target: string;
  value: string;
}

let ideDir: string;
let pluginExt: MadeExtension;
let context: BrowserContext | null = null;

beforeAll(async () => {
  ideDir = await buildIdeExtension();
  pluginExt = makePluginExtension("journal-plugin");
});

afterEach(async () => {
  await context?.close();
  context = null;
});

async function browser(): Promise<Worker> {
  const launched = await launchIde(ideDir, [pluginExt], { openWindow: false });
  context = launched.context;
  return launched.workers[0];
}

async function ask(plugin: Worker, message: unknown): Promise<unknown> {
  const result = await sendFrom(plugin, IDE_EXTENSION_ID, message);
  if ("rejected" in result) throw new Error(`rejected: ${result.rejected}`);
  return result.reply;
}

/** The IDE window with the shop loaded (saved) by the plugin, which is registered. */
async function windowWithShop(plugin: Worker): Promise<Page> {
  const window = await openIdeWindow(context!, plugin);
  expect(await ask(plugin, { uri: "/register", verb: "post", name: "Journal plugin", version: "1.0.0" })).toBe(true);
  expect(await ask(plugin, { uri: "/project", verb: "post", project: SHOP })).toBe(true);
  return window;
}

const commandsOf = (project: SideProject): Command[] => project.tests[0].commands.map(({ command, target, value }) => ({ command, target, value }));
const projectIn = (window: Page) => window.evaluate(() => (globalThis as unknown as { ideCore: { getProject(): unknown } }).ideCore.getProject()) as Promise<SideProject>;

/** N random edits of the displayed test (adds and changes), each answered true; what the test is then. */
async function randomEdits(plugin: Worker, n: number): Promise<Command[]> {
  const expected = commandsOf(SHOP);
  const ids = SHOP.tests[0].commands.map((c) => c.id);
  for (let i = 0; i < n; i++) {
    if (Math.random() < 0.8) {
      const command = { command: "echo", target: `edit ${i}`, value: String(Math.random()) };
      expect(await ask(plugin, { uri: "/record/command", verb: "post", ...command })).toBe(true);
      expected.push(command);
    } else {
      const at = Math.floor(Math.random() * ids.length);
      const value = `changed by edit ${i}`;
      expect(await ask(plugin, { uri: "/record/command", verb: "put", id: ids[at], value })).toBe(true);
      expected[at] = { ...expected[at], value };
    }
  }
  return expected;
}

const restoreDialog = (window: Page) => window.getByRole("dialog", { name: "Restore unsaved changes" });

describe("the extension after its window closed with unsaved changes", () => {
  it("restores every edit answered before the browser closed the window, over several rounds of up to 200 random edits", { timeout: 240_000 }, async () => {
    for (let round = 1; round <= 3; round++) {
      const plugin = await browser();
      const window = await windowWithShop(plugin);
      const n = 1 + Math.floor(Math.random() * 200);
      const expected = await randomEdits(plugin, n);
      await window.close();

      const again = await openIdeWindow(context!, plugin);
      await restoreDialog(again).waitFor();
      expect(commandsOf(await projectIn(again))).toEqual(commandsOf(SHOP));
      await again.getByRole("button", { name: "Restore my changes" }).click();
      await again.waitForSelector('[data-testid="unsaved"]');
      expect(await restoreDialog(again).count()).toBe(0);
      expect(commandsOf(await projectIn(again)), `round ${round}, ${n} edits`).toEqual(expected);
      await context!.close();
      context = null;
    }
  });

  it("drops the journal when the user declines, and offers nothing when the window opens again", { timeout: 60_000 }, async () => {
    const plugin = await browser();
    const window = await windowWithShop(plugin);
    await randomEdits(plugin, 5);
    await window.close();

    const again = await openIdeWindow(context!, plugin);
    await restoreDialog(again).waitFor();
    await again.getByRole("button", { name: "Drop them" }).click();
    expect(commandsOf(await projectIn(again))).toEqual(commandsOf(SHOP));
    expect(await again.locator('[data-testid="unsaved"]').count()).toBe(0);
    await again.close();

    const third = await openIdeWindow(context!, plugin);
    expect(await third.locator('[data-testid="dialog"]').count()).toBe(0);
    expect((await projectIn(third)).id).toBe(SHOP.id);
  });

  it("clears the journal when the user says yes to loading another project over the changes", { timeout: 60_000 }, async () => {
    const plugin = await browser();
    const window = await windowWithShop(plugin);
    await randomEdits(plugin, 3);
    const loading = ask(plugin, { uri: "/project", verb: "post", project: { ...SHOP, id: "another", name: "Another" } });
    await window.waitForSelector('[data-testid="dialog"][data-kind="loadProject"]');
    await window.getByRole("button", { name: "Load and lose unsaved changes" }).click();
    expect(await loading).toBe(true);
    await window.close();

    const again = await openIdeWindow(context!, plugin);
    expect(await again.locator('[data-testid="dialog"]').count()).toBe(0);
    expect((await projectIn(again)).name).toBe("Another");
  });

  it("moves an unreadable journal aside, names it in an error log and applies nothing of it", { timeout: 60_000 }, async () => {
    const plugin = await browser();
    const window = await windowWithShop(plugin);
    await window.evaluate(() => chrome.storage.local.set({ journal: { format: "ide-core.journal", version: 1, writtenAt: 1, project: { id: "cut" } } }));
    await window.close();

    const again = await openIdeWindow(context!, plugin);
    expect(await again.locator('[data-testid="dialog"]').count()).toBe(0);
    const logs = (await again.evaluate(() => (globalThis as unknown as { ideCore: { getSnapshot(): { logs: unknown } } }).ideCore.getSnapshot().logs)) as Array<{ level: string; message: string }>;
    const error = logs.find((l) => l.level === "error");
    expect(error?.message).toMatch(/moved aside to the key "journal\.unreadable-\d+"/);
    const key = /"(journal\.unreadable-\d+)"/.exec(error!.message)![1];
    const kept = (await again.evaluate((k) => chrome.storage.local.get(k), key)) as Record<string, unknown>;
    expect(kept[key]).toMatchObject({ project: { id: "cut" } });
    expect((await projectIn(again)).id).toBe(SHOP.id);
    expect(await again.locator('[data-testid="unsaved"]').count()).toBe(0);
  });
});
