// Windows in the browser extension, end to end (CONTRACT section 19): the built extension in
// headless Chromium, a shop on 127.0.0.1 whose link opens a new tab. The test plays the user:
// it records a click that opens a tab, a click in that tab, closing it and a click back in the
// first tab, compares the commands with v3's (opensWindow, storeWindowHandle win_ser_local,
// selectWindow handle=${win_ser_1}, close, selectWindow handle=${win_ser_local}), and plays
// the recorded test back green in the tabs.
import { beforeEach, describe, expect, it } from "vitest";
import { useIdeExtension, playToTheEnd } from "../support/ideExtension.ts";
import { AFTER_HELP_CLICK, WINDOWS_ELSEWHERE, WINDOWS_HELP, WINDOWS_SHOP } from "../support/windowsShop.ts";

const ide = useIdeExtension({ plugins: ["opener"], pages: { "/shop": WINDOWS_SHOP, "/help": WINDOWS_HELP, "/elsewhere": WINDOWS_ELSEWHERE }, start: "/shop" });

beforeEach(async () => {
  await ide.window.getByRole("button", { name: "New test" }).click();
  const name = ide.window.locator('[data-testid="test-name"]');
  await name.fill("windows");
  await name.press("Enter");
  await ide.window.getByRole("button", { name: "Record", exact: true }).waitFor();
});

/** Each row of the command table as its number, command and target (its run state is not part of what was recorded). */
async function recordedCommands(): Promise<string[]> {
  return ide.window.locator('[data-testid="command-row"]').evaluateAll((rows) =>
    rows.map((row, i) => {
      const cell = (id: string) => row.querySelector(`[data-testid="${id}"]`)?.textContent ?? "";
      return `${i + 1}${cell("editor-command")}${cell("editor-target")}`.replace(/\s+/g, " ").trim();
    }),
  );
}
const count = async () => (await recordedCommands()).length;

describe("windows in the browser extension", () => {
  it("records a click that opens a tab, work in it, its close and the way back as v3 does, and plays them back green", async () => {
    await ide.tab.bringToFront();
    await ide.window.getByRole("button", { name: "Record", exact: true }).click();
    await expect.poll(count, { timeout: 10_000 }).toBe(2);
    const help = ide.context.waitForEvent("page", { predicate: (p) => p.url().endsWith("/help") });
    await ide.tab.click("#help");
    const helpTab = await help;
    await helpTab.waitForLoadState();
    // The click, then storeWindowHandle once the tab it opened is known.
    await expect.poll(count, { timeout: 10_000 }).toBe(4);
    await helpTab.bringToFront();
    await helpTab.click("#faq");
    await expect.poll(count, { timeout: 10_000 }).toBe(6);
    await helpTab.close();
    await expect.poll(count, { timeout: 10_000 }).toBe(7);
    await ide.tab.bringToFront();
    await ide.tab.click("#buy");
    await expect.poll(count, { timeout: 10_000 }).toBe(9);
    await ide.window.getByRole("button", { name: "Stop recording" }).click();
    await ide.window.getByRole("button", { name: "Record", exact: true }).waitFor();
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
    await ide.tab.goto(`${ide.site.origin}/elsewhere`);
    await ide.tab.bringToFront();
    await playToTheEnd(ide.window, 30_000);
    expect(await ide.window.locator('[data-testid="run-result"]').textContent()).toContain("passed");
    expect(await ide.tab.locator("#result").textContent()).toBe("bought");
    expect(ide.context.pages().filter((p) => p.url().endsWith("/help"))).toEqual([]);
  });
});
