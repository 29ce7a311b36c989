// Code export in the browser extension (CONTRACT section 15), end to end: the built extension in
// headless Chromium, the example project loaded in the IDE window, and the user exporting with
// the window's Export dialog. Each of the six languages' files is downloaded under the
// packages' filename, with the lines a core in this process writes for the same project; a
// plugin extension registered for the languages answers the export of its commands, and its
// code lands in their place; without it, the export fails naming the command.
import { readFileSync } from "node:fs";
import type { BrowserContext, Page, Worker } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IDE_EXTENSION_ID } from "../../drivers/webextension/identity.ts";
import { createIde } from "../../index.ts";
import { EXPORT_LANGUAGES } from "../../services/export/index.ts";
import type { OutboundMessage } from "../../index.ts";
import { buildIdeExtension, launchIde, makePluginExtension, PLUGIN_EXPORT_ANSWER, sendFrom } from "../support/extensions.ts";
import { shopProject } from "../export/support.ts";

const SHOP_SIDE = new URL("../../examples/shop.side", import.meta.url);
const REGISTRATION = {
  name: "Eyes",
  version: "1.0.0",
  commands: [
    { id: "eyesCheckWindow", name: "check window" },
    { id: "exampleCheck", name: "example check" },
  ],
  exports: { languages: [...EXPORT_LANGUAGES] },
};

let context: BrowserContext;
let window: Page;
let plugin: Worker;
let pluginId: string;

beforeAll(async () => {
  const made = makePluginExtension("eyes");
  pluginId = made.id;
  const launched = await launchIde(await buildIdeExtension(), [made]);
  ({ context } = launched);
  [plugin] = launched.workers;
  window = launched.window!;
  await window.locator('[data-testid="load-file"]').setInputFiles({ name: "shop.side", mimeType: "application/json", buffer: readFileSync(SHOP_SIDE) });
  await window.waitForSelector('[data-testid="project-name"]:has-text("Shop checkout")');
}, 60_000);

afterAll(async () => {
  await context?.close();
});

/** The user exports the example's suite of plugin tests in `language` with the window's dialog; the download, or the dialog's error. */
async function exportSuite(language: string): Promise<{ filename: string; body: string } | { error: string }> {
  await window.click('[data-testid="export-suite"]:has-text("Needs plugins")');
  await window.selectOption('[data-testid="export-language"]', language);
  const downloaded = window.waitForEvent("download", { timeout: 20_000 }).catch(() => null);
  const failed = window.waitForSelector('[data-testid="export-error"]', { timeout: 20_000 }).catch(() => null);
  await window.click('[data-testid="export-run"]');
  const first = await Promise.race([downloaded, failed]);
  if (first && "suggestedFilename" in first) {
    return { filename: first.suggestedFilename(), body: readFileSync((await first.path())!, "utf8") };
  }
  const error = (await (await failed)?.textContent()) ?? "neither a download nor an error";
  await window.keyboard.press("Escape");
  return { error };
}

/** The same export in a core in this process, with a plugin that answers as the extension's does. */
async function expectedSuite(language: string) {
  const answer = new Function(`return (${PLUGIN_EXPORT_ANSWER})`)() as (message: unknown) => unknown;
  const ide = createIde({ project: shopProject(), deliver: async (_id: string, message: OutboundMessage) => answer(message) });
  expect(await ide.handle({ uri: "/register", verb: "post", ...REGISTRATION }, { id: pluginId })).toBe(true);
  const reply = await ide.exportCode({ language, suiteId: "s-plugins" });
  ide.stop();
  if ("error" in reply) throw new Error(`the reference export failed: ${reply.error}`);
  return reply;
}

describe("code export in the browser extension's window", () => {
  it("fails the example project's suite with the command no plugin and no package knows", async () => {
    const result = await exportSuite("javascript-mocha");
    expect(result).toEqual({ error: expect.stringContaining("Invalid command 'eyesCheckWindow'") });
  });

  it("downloads the example project's suite in each of the six languages, the plugin's code in its commands' places", async () => {
    expect(await sendFrom(plugin, IDE_EXTENSION_ID, { uri: "/register", verb: "post", payload: REGISTRATION })).toEqual({ reply: true });
    await plugin.evaluate("plugin.setExportsCode(true)");
    for (const language of EXPORT_LANGUAGES) {
      const result = await exportSuite(language);
      const expected = await expectedSuite(language);
      expect(result, language).toEqual(expected);
      const comment = /^(python|ruby)/.test(language) ? "#" : "//";
      expect((result as { body: string }).body, language).toContain(`${comment} eyesCheckWindow  by the plugin`);
      expect((result as { body: string }).body, language).toContain(`${comment} exampleCheck \${title} by the plugin`);
      await window.waitForSelector(`[data-testid="export-done"]:has-text("${expected.filename}")`);
    }
  }, 120_000);
});
