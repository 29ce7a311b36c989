// Pointing at the page in the built browser extension (CONTRACT section 21), end to end: the IDE
// window in headless Chromium, the tab under test on a site served on 127.0.0.1.
// - The checks in the tab's context menu: Playwright cannot click Chrome's own menu, so the test
//   right-clicks the element in the tab for real (the `contextmenu` event reaches the content
//   script, as a person's does) and then clicks the item the way Chrome does, by calling the
//   window's onClicked handler with the item's id and the tab (ideCoreContextMenu.clicked). The
//   items are read from the same place: there while recording, gone after.
// - Select target in page: the form's button arms the pick in the tab; the next click there sets
//   the command's target (Undo gives it back); Esc cancels and leaves the page's clicks alone.
import type { Page } from "playwright-core";
import { beforeEach, describe, expect, it } from "vitest";
import { serveTestSite } from "../support/extensions.ts";
import { useIdeExtension } from "../support/ideExtension.ts";

const WAIT = { timeout: 15_000 };
const ide = useIdeExtension({ plugins: ["pointing-opener"], site: serveTestSite, start: "/form" });

interface Recorded {
  command: string;
  target: string;
  targets: Array<[string, string]>;
  value: string;
}

const commandsNow = () =>
  ide.window.evaluate(
    () => (globalThis as unknown as { ideCore: { getProject(): { tests: Array<{ commands: Recorded[] }> } } }).ideCore.getProject().tests[0]!.commands,
  ) as Promise<Recorded[]>;
const menuItems = () => ide.window.evaluate(() => (globalThis as unknown as { ideCoreContextMenu: { items(): string[] } }).ideCoreContextMenu.items());

/** Chrome's click on one of the menu's items, in the tab under test's frame whose path and query are `framePath` (the top frame unless told). */
async function chooseInMenu(item: string, framePath?: string) {
  await ide.window.evaluate(
    async ({ item, url, framePath }) => {
      const tabs = await chrome.tabs.query({});
      const tab = tabs.find((t) => t.url?.startsWith(url));
      let frameId = 0;
      if (framePath && tab?.id !== undefined) {
        // Chrome's click names the frame right-clicked: its id, found here by its document's path.
        const frames = await chrome.scripting.executeScript({ target: { tabId: tab.id, allFrames: true }, func: () => location.pathname + location.search });
        frameId = frames.find((f) => f.result === framePath)?.frameId ?? -1;
      }
      const menu = (globalThis as unknown as { ideCoreContextMenu: { clicked(info: unknown, tab: unknown): Promise<void> } }).ideCoreContextMenu;
      await menu.clicked({ menuItemId: item, frameId, editable: false, pageUrl: tab?.url }, tab);
    },
    { item, url: ide.site.origin, framePath },
  );
}

const button = (ui: Page, name: string) => ui.getByRole("button", { name, exact: true });

beforeEach(async () => {
  await button(ide.window, "New test").click();
  const name = ide.window.locator('[data-testid="test-name"]');
  await name.fill("pointed");
  await name.press("Enter");
  await button(ide.window, "Record").waitFor();
});

describe("pointing at the page in the extension", () => {
  it("records the check chosen in the tab's context menu for the element right-clicked, and the right-click itself records nothing", async () => {
    await ide.tab.bringToFront();
    await button(ide.window, "Record").click();
    await expect.poll(async () => (await commandsNow()).length, WAIT).toBe(2);
    await expect.poll(menuItems, WAIT).toEqual([
      "ide-core-check-assertText",
      "ide-core-check-assertValue",
      "ide-core-check-assertTitle",
      "ide-core-check-assertElementPresent",
      "ide-core-check-assertChecked",
      "ide-core-check-storeText",
      "ide-core-check-storeValue",
      "ide-core-check-waitForElementVisible",
    ]);

    await ide.tab.click("#name");
    await ide.tab.keyboard.type("Ada");
    await ide.tab.click("#go");
    await expect.poll(async () => (await commandsNow()).length, WAIT).toBe(5);
    expect(await ide.tab.locator("#result").textContent()).toBe("Hello Ada");

    await ide.tab.click("#result", { button: "right" });
    await chooseInMenu("ide-core-check-assertText");
    await expect.poll(async () => (await commandsNow()).length, WAIT).toBe(6);
    await ide.tab.click("#go", { button: "right" });
    await chooseInMenu("ide-core-check-storeText");
    await expect.poll(async () => (await commandsNow()).length, WAIT).toBe(7);

    // A check from the menu passes through the pick's path, but arms no pick in the tab.
    expect(await armedInTab()).toBe(false);
    const [, , , , , assertText, storeText] = await commandsNow();
    expect(assertText).toMatchObject({ command: "assertText", target: "id=result", value: "Hello Ada" });
    expect(assertText!.targets.map(([locator]) => locator)).toContain("id=result");
    expect(storeText).toMatchObject({ command: "storeText", target: "id=go", value: "text1" });
    // Nothing but the checks came of the two right-clicks: the commands before them are the clicks and the typing.
    expect((await commandsNow()).map((c) => c.command)).toEqual(["open", "setWindowSize", "click", "type", "click", "assertText", "storeText"]);

    await ide.window.bringToFront();
    await button(ide.window, "Stop recording").click();
    await button(ide.window, "Record").waitFor();
    await expect.poll(menuItems, WAIT).toEqual([]);
  });

  it("records a check chosen for an element right-clicked in a frame, in that frame", async () => {
    await ide.tab.goto(`${ide.site.origin}/framed`);
    await ide.tab.bringToFront();
    await button(ide.window, "Record").click();
    await expect.poll(async () => (await commandsNow()).length, WAIT).toBe(2);
    const deep = ide.tab.frameLocator("#inner").locator("#deep");
    await deep.click();
    await ide.tab.keyboard.type("Bo");
    await ide.tab.locator("#outer").click();
    await expect.poll(async () => (await commandsNow()).some((c) => c.command === "type" && c.value === "Bo"), WAIT).toBe(true);
    const before = (await commandsNow()).length;

    await deep.click({ button: "right" });
    await chooseInMenu("ide-core-check-assertValue", "/inner");
    await expect.poll(async () => (await commandsNow()).at(-1)?.command, WAIT).toBe("assertValue");
    const commands = await commandsNow();
    expect(commands.at(-1)).toMatchObject({ target: "id=deep", value: "Bo" });
    // Into the frame again (the click on #outer left it), then the check: nothing of the right-click.
    expect(commands.slice(before).map((c) => c.command)).toEqual(["selectFrame", "assertValue"]);
  });

  it("records nothing from the context menu once the recording has stopped", async () => {
    await button(ide.window, "Record").click();
    await expect.poll(async () => (await commandsNow()).length, WAIT).toBe(2);
    await button(ide.window, "Stop recording").click();
    await button(ide.window, "Record").waitFor();
    await ide.tab.click("#go", { button: "right" });
    await chooseInMenu("ide-core-check-assertText");
    expect((await commandsNow()).map((c) => c.command)).toEqual(["open", "setWindowSize"]);
  });

  it("sets the selected command's target from the next click in the tab with Select target in page, which Undo gives back, and Esc cancels", async () => {
    await ide.tab.bringToFront();
    await button(ide.window, "Record").click();
    await expect.poll(async () => (await commandsNow()).length, WAIT).toBe(2);
    await ide.tab.click("#go");
    await expect.poll(async () => (await commandsNow()).length, WAIT).toBe(3);
    await button(ide.window, "Stop recording").click();
    await button(ide.window, "Record").waitFor();

    await ide.window.getByTestId("commands").getByTestId("command-row").nth(2).click();
    await expect.poll(() => ide.window.getByTestId("editor-target-field").inputValue(), WAIT).toBe("id=go");
    await button(ide.window, "Select target in page").click();
    await clickWhenArmed("#name");
    await expect.poll(async () => (await commandsNow())[2]?.target, WAIT).toBe("id=name");
    expect((await commandsNow())[2]!.targets.map(([locator]) => locator)).toContain("id=name");
    expect((await commandsNow()).length).toBe(3);

    await ide.window.bringToFront();
    await button(ide.window, "Undo").click();
    await expect.poll(async () => (await commandsNow())[2]?.target, WAIT).toBe("id=go");

    await button(ide.window, "Select target in page").click();
    await waitArmed();
    await ide.tab.bringToFront();
    await ide.tab.keyboard.press("Escape");
    await expect.poll(armedInTab, WAIT).toBe(false);
    // Once cancelled, a click is the page's again and the target stays.
    await ide.tab.click("#go");
    expect(await ide.tab.locator("#result").textContent()).toBe("Hello ");
    expect((await commandsNow())[2]!.target).toBe("id=go");
  });
});

/** Whether the pick's outline is armed in the tab's top frame (its listeners' overlay appears on the first pointer move). */
const armedInTab = async () => {
  await ide.tab.mouse.move(5, 5);
  await ide.tab.mouse.move(40, 20);
  return ide.tab.evaluate(() => [...document.querySelectorAll("div[aria-hidden=true]")].some((d) => (d as HTMLElement).style.position === "fixed" && (d as HTMLElement).style.display === "block"));
};
const waitArmed = () => expect.poll(armedInTab, WAIT).toBe(true);

async function clickWhenArmed(selector: string) {
  await waitArmed();
  await ide.tab.bringToFront();
  await ide.tab.click(selector);
}
