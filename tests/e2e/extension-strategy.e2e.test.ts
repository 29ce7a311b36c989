// A plugin's locator strategy (CONTRACT section 23) in the built browser extension: a plugin
// extension registers and declares `sku=VALUE` with chrome.runtime.sendMessage, as real plugins
// do; GET /playback/location then finds `sku=hat-3` in the tab under test (the content script
// gets the filled template), Find counts it there, and the plugin extension's own example
// (examples/plugin-extension) declares its strategy the same way. Recording in the tab then
// builds `sku=VALUE` for a click on an element carrying data-sku, and the test plays back green.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { IDE_EXTENSION_ID } from "../../drivers/webextension/identity.ts";
import { sendFrom } from "../support/extensions.ts";
import { playToTheEnd, useIdeExtension } from "../support/ideExtension.ts";

const SHOP_PAGE = readFileSync(new URL("../../examples/shop-page.html", import.meta.url), "utf8");
const SKU = { name: "sku", css: '[data-sku="{value}"]', attribute: "data-sku" };
const ide = useIdeExtension({ plugins: ["sku-plugin", "other-plugin"], pages: { "/shop": SHOP_PAGE }, start: "/shop", once: true });

async function ask(plugin: 0 | 1, message: unknown): Promise<unknown> {
  const result = await sendFrom(ide.workers[plugin], IDE_EXTENSION_ID, message);
  if ("rejected" in result) throw new Error(`The request was rejected by Chromium: ${result.rejected}`);
  return result.reply;
}
const codeOf = (reply: unknown) => (reply as { errorCode?: string }).errorCode;
const locate = (location: string) => ask(0, { uri: "/playback/location", verb: "get", location });

describe("a plugin extension's locator strategy in the extension", () => {
  it("resolves sku=VALUE in the tab under test once a registered plugin declared it, and refuses the name to another plugin", async () => {
    expect(codeOf(await ask(0, { uri: "/locator/strategy", verb: "post", payload: SKU }))).toBe("MissingPlugin");
    expect(codeOf(await locate("sku=hat-3"))).toBe("InvalidLocator");
    expect(await ask(0, { uri: "/register", verb: "post", payload: { name: "Sku plugin", version: "1.0.0" } })).toBe(true);
    expect(await ask(0, { uri: "/locator/strategy", verb: "post", payload: SKU })).toBe(true);
    expect(await ask(1, { uri: "/locator/strategy", verb: "get" })).toEqual({ strategies: [{ ...SKU, plugin: ide.extensions[0].id }] });

    const xpath = await locate("sku=hat-3");
    expect(typeof xpath, JSON.stringify(xpath)).toBe("string");
    // The xpath selects the very element in the tab: the button whose data-sku is hat-3.
    const found = await ide.tab.evaluate((path) => (document.evaluate(path, document, null, 9, null).singleNodeValue as Element | null)?.getAttribute("data-sku"), xpath as string);
    expect(found).toBe("hat-3");
    expect(codeOf(await locate("sku=no-such-hat"))).toBe("ElementNotFound");

    // Find in the IDE window asks the tab with the same template.
    const counted = await ide.window.evaluate((location) => (globalThis as unknown as { ideCore: { findInPage(q: unknown): Promise<unknown> } }).ideCore.findInPage({ location }), "sku=hat-3");
    expect(counted).toEqual({ count: 1, shown: true });

    expect(await ask(1, { uri: "/register", verb: "post", payload: { name: "Other plugin", version: "1.0.0" } })).toBe(true);
    const taken = await ask(1, { uri: "/locator/strategy", verb: "post", payload: { name: "sku", xpath: "//*[@id='{value}']" } });
    expect(codeOf(taken)).toBe("StrategyTaken");
    expect((taken as { error: string }).error).toContain(ide.extensions[0].id);
  });

  it("records sku=VALUE among a click's targets in the tab under test, and the recorded test plays back green", async () => {
    // The declaration of the test before stands: the window is shared (once: true).
    await ide.window.getByRole("button", { name: "New test" }).click();
    const name = ide.window.locator('[data-testid="test-name"]');
    await name.fill("buys a hat");
    await name.press("Enter");
    const rows = () => ide.window.locator('[data-testid="command-row"]').count();
    await ide.tab.bringToFront();
    await ide.window.getByRole("button", { name: "Record", exact: true }).click();
    await ide.window.getByRole("button", { name: "Stop recording" }).waitFor();
    await expect.poll(rows, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    const before = await rows();
    await ide.tab.locator('[data-sku="hat-3"]').click();
    await expect.poll(rows, { timeout: 10_000 }).toBe(before + 1);
    await ide.window.getByRole("button", { name: "Stop recording" }).click();
    await ide.window.getByRole("button", { name: "Record", exact: true }).waitFor();

    const recorded = (await ask(0, { uri: "/record/command", verb: "get" })) as { commands: Array<{ command: string; target: string; targets: Array<[string, string]> }> };
    const click = recorded.commands.at(-1)!;
    expect(click.command).toBe("click");
    expect(click.targets.map(([locator]) => locator)).toContain("sku=hat-3");

    await playToTheEnd(ide.window);
    expect(await ide.window.locator('[data-testid="run-result"]').textContent()).toContain("passed");
  });
});
