// The editor of CONTRACT section 20 in the browser extension's IDE window, end to end: the built
// extension in headless Chromium, the example project loaded from a file as a user does, and
// real clicks and keys in the window. Each test checks what the window shows and what the
// window's core holds (`ideCore.getProject()`); a disabled command is also played in the tab
// under test, on a page served on 127.0.0.1, to show the run skips it. "Save as…" there is the browser's save dialog
// (chrome.downloads, saveAs: true), which headless Chromium cannot show: a spy on
// chrome.downloads.download in the window records what the IDE asked the browser for, and the
// browser, driven by playwright, writes the file without asking, which the test reads back; a
// browser told to refuse downloads (Chromium reports it as the user's cancel) shows a save that
// writes nothing.
import { readFileSync } from "node:fs";
import type { Download, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { SideProject } from "../../index.ts";
import type { SideSuite } from "../../services/side/index.ts";
import { pickTest, testNames, testsList, suitesList } from "../support/idePage.ts";
import { cmd, loadProjectFile, oneTestProject, useIdeExtension } from "../support/ideExtension.ts";

const SHOP = JSON.parse(readFileSync(new URL("../../examples/shop.side", import.meta.url), "utf8")) as SideProject;
const WAIT = { timeout: 20_000 };

// A page on 127.0.0.1 for the run that shows a disabled command skipped.
const COUNTER = `<!doctype html><title>Counter</title><button id="more" type="button" onclick="this.textContent = String(Number(this.textContent) + 1)">0</button>`;
const ide = useIdeExtension({ plugins: ["editor-opener"], pages: { "/counter": COUNTER } });

/** The IDE window with the example project loaded from its file, as the user does. */
async function windowWithShop(): Promise<Page> {
  await loadProjectFile(ide.window, SHOP);
  return ide.window;
}

const button = (ui: Page, name: string) => ui.getByRole("button", { name, exact: true });
const rows = (ui: Page) => ui.getByTestId("commands").getByTestId("command-row");
const commandsShown = (ui: Page) => rows(ui).evaluateAll((trs) => trs.map((tr) => tr.querySelector('[data-testid="editor-command"]')!.textContent));
const targetsShown = (ui: Page) => rows(ui).evaluateAll((trs) => trs.map((tr) => tr.querySelector('[data-testid="editor-target"]')!.textContent));
/** Clicks a row and waits until the IDE has it selected: the window's selection is the IDE's, a message away. */
async function selectRow(ui: Page, index: number): Promise<void> {
  await rows(ui).nth(index).click();
  await expect.poll(() => rows(ui).nth(index).getAttribute("aria-selected"), WAIT).toBe("true");
}
const titleOf = (ui: Page, name: string) => button(ui, name).getAttribute("title");
const displayedName = (ui: Page) => testsList(ui).locator('[data-testid="test-item"] button.shown').evaluate((b) => b.firstChild?.textContent ?? "");
const suiteNames = (ui: Page) => suitesList(ui).locator('[data-testid="suite-item"] button').allTextContents();

/** The project the window's core holds. */
const projectIn = (ui: Page) => ui.evaluate(() => (globalThis as unknown as { ideCore: { getProject(): unknown } }).ideCore.getProject()) as Promise<SideProject>;
const testIn = async (ui: Page, name: string) => (await projectIn(ui)).tests.find((t) => t.name === name);
const suitesIn = async (ui: Page) => (await projectIn(ui)).suites as SideSuite[];
const suiteIn = async (ui: Page, name: string) => (await suitesIn(ui)).find((s) => s.name === name);
const commandsIn = async (ui: Page, name: string) => (await testIn(ui, name))?.commands.map((c) => c.command);

describe("the editor in the extension's IDE window", () => {
  it("duplicates and deletes a test in the Tests list, and Undo and Redo, titled by the step, take each back and do it again", async () => {
    const ui = await windowWithShop();
    expect(await testNames(ui)).toEqual(["adds to cart", "logs in", "checked by the example plugin"]);
    expect(await button(ui, "Undo").isDisabled()).toBe(true);
    expect(await button(ui, "Redo").isDisabled()).toBe(true);

    await pickTest(ui, "logs in");
    await button(ui, "Duplicate test").click();
    await expect.poll(() => testNames(ui), WAIT).toEqual(["adds to cart", "logs in", "logs in (copy)", "checked by the example plugin"]);
    await expect.poll(() => displayedName(ui), WAIT).toBe("logs in (copy)");
    expect(await commandsShown(ui)).toEqual(["open", "type", "type", "click", "eyesCheckWindow"]);
    await expect.poll(() => titleOf(ui, "Undo"), WAIT).toBe('Undo: Duplicate test "logs in"');
    await ui.getByTestId("unsaved").waitFor(WAIT);
    // The copy holds the original's commands under new ids, right after it in the suite that holds it.
    const original = (await testIn(ui, "logs in"))!;
    const copy = (await testIn(ui, "logs in (copy)"))!;
    expect(copy.id).not.toBe(original.id);
    expect(copy.commands.map((c) => [c.command, c.target, c.value])).toEqual(original.commands.map((c) => [c.command, c.target, c.value]));
    expect(copy.commands.some((c) => original.commands.some((o) => o.id === c.id))).toBe(false);
    expect((await suiteIn(ui, "Needs plugins"))!.tests).toEqual([original.id, copy.id, "t-example"]);

    await pickTest(ui, "adds to cart");
    await button(ui, "Delete test").click();
    await expect.poll(() => testNames(ui), WAIT).toEqual(["logs in", "logs in (copy)", "checked by the example plugin"]);
    await expect.poll(() => titleOf(ui, "Undo"), WAIT).toBe('Undo: Delete test "adds to cart"');
    expect(await button(ui, "Redo").isDisabled()).toBe(true);
    expect((await suiteIn(ui, "Default Suite"))!.tests).toEqual([]);

    await button(ui, "Undo").click();
    await expect.poll(() => testNames(ui), WAIT).toEqual(["adds to cart", "logs in", "logs in (copy)", "checked by the example plugin"]);
    await expect.poll(() => titleOf(ui, "Redo"), WAIT).toBe('Redo: Delete test "adds to cart"');
    expect(await titleOf(ui, "Undo")).toBe('Undo: Duplicate test "logs in"');
    const restored = await projectIn(ui);
    expect(restored.tests.find((t) => t.name === "adds to cart")).toEqual(SHOP.tests[0]);
    expect((restored.suites as SideSuite[]).find((s) => s.name === "Default Suite")!.tests).toEqual(["t-cart"]);

    await button(ui, "Redo").click();
    await expect.poll(() => testNames(ui), WAIT).toEqual(["logs in", "logs in (copy)", "checked by the example plugin"]);
    expect(await testIn(ui, "adds to cart")).toBeUndefined();

    // Undone twice, the project is the one loaded, and nothing is left to undo.
    await button(ui, "Undo").click();
    await expect.poll(() => titleOf(ui, "Undo"), WAIT).toBe('Undo: Duplicate test "logs in"');
    await button(ui, "Undo").click();
    await expect.poll(() => testNames(ui), WAIT).toEqual(["adds to cart", "logs in", "checked by the example plugin"]);
    await expect.poll(() => button(ui, "Undo").isDisabled(), WAIT).toBe(true);
    expect(await titleOf(ui, "Redo")).toBe('Redo: Duplicate test "logs in"');
    const back = await projectIn(ui);
    expect({ tests: back.tests, suites: back.suites }).toEqual({ tests: SHOP.tests, suites: SHOP.suites });
  });

  it("makes a new suite with the name the user types, refuses a name already taken next to the field, and Undo takes the suite away", async () => {
    const ui = await windowWithShop();
    await button(ui, "New suite").click();
    await ui.getByRole("textbox", { name: "Name of the new suite" }).fill("Smoke");
    await ui.keyboard.press("Enter");
    await expect.poll(() => suiteNames(ui), WAIT).toEqual([expect.stringContaining("Default Suite"), expect.stringContaining("Needs plugins"), expect.stringContaining("Smoke")]);
    const smoke = await suiteIn(ui, "Smoke");
    expect(smoke).toMatchObject({ name: "Smoke", tests: [] });
    await expect.poll(() => titleOf(ui, "Undo"), WAIT).toBe('Undo: Add suite "Smoke"');

    await button(ui, "New suite").click();
    await ui.getByRole("textbox", { name: "Name of the new suite" }).fill("Default Suite");
    await ui.keyboard.press("Enter");
    // The page says why next to the field, and nothing reaches the project.
    expect(await ui.getByTestId("suite-name-problem").textContent()).toBe('The project already has a suite named "Default Suite"; choose another name.');
    await ui.keyboard.press("Escape");
    await ui.getByRole("textbox", { name: "Name of the new suite" }).waitFor({ state: "detached", ...WAIT });
    expect((await suitesIn(ui)).map((s) => s.name)).toEqual(["Default Suite", "Needs plugins", "Smoke"]);
    expect(await suiteNames(ui)).toHaveLength(3);

    await button(ui, "Undo").click();
    await expect.poll(() => suiteNames(ui), WAIT).toHaveLength(2);
    expect(await suitesIn(ui)).toEqual(SHOP.suites);
  });

  it("copies a command with Ctrl+C in the command table and pastes it with Ctrl+V into another test, after the selected command", async () => {
    const ui = await windowWithShop();
    await pickTest(ui, "adds to cart");
    await expect.poll(() => commandsShown(ui), WAIT).toEqual(["open", "click", "assertText"]);
    await selectRow(ui, 1);
    await ui.keyboard.press("Control+c");

    await pickTest(ui, "logs in");
    await expect.poll(() => commandsShown(ui), WAIT).toEqual(["open", "type", "type", "click", "eyesCheckWindow"]);
    await selectRow(ui, 0);
    await ui.keyboard.press("Control+v");
    await expect.poll(() => commandsShown(ui), WAIT).toEqual(["open", "click", "type", "type", "click", "eyesCheckWindow"]);
    expect((await targetsShown(ui))[1]).toBe("linkText=Add to cart");
    await ui.getByTestId("unsaved").waitFor(WAIT);

    const pasted = (await testIn(ui, "logs in"))!.commands[1];
    expect(pasted).toMatchObject({ command: "click", target: "linkText=Add to cart", value: "" });
    expect(pasted.id).not.toBe("c2-add");
    expect(await commandsIn(ui, "adds to cart")).toEqual(["open", "click", "assertText"]);
    await expect.poll(() => titleOf(ui, "Undo"), WAIT).not.toBe("Nothing to undo");

    // Ctrl+Z in the table takes the paste back.
    await selectRow(ui, 0);
    await ui.keyboard.press("Control+z");
    await expect.poll(() => commandsShown(ui), WAIT).toEqual(["open", "type", "type", "click", "eyesCheckWindow"]);
    expect(await commandsIn(ui, "logs in")).toEqual(["open", "type", "type", "click", "eyesCheckWindow"]);
    // Ctrl+Y does it again.
    await selectRow(ui, 0);
    await ui.keyboard.press("Control+y");
    await expect.poll(() => commandsShown(ui), WAIT).toEqual(["open", "click", "type", "type", "click", "eyesCheckWindow"]);
    expect(await commandsIn(ui, "logs in")).toEqual(["open", "click", "type", "type", "click", "eyesCheckWindow"]);
  });

  it("disables a command with Disable command, v3's //, which a run skips, and enables it again", async () => {
    const project = oneTestProject(ide.site.origin, "counting", "Counting", {
      name: "counts clicks",
      commands: [cmd("c1", "open", "/counter"), cmd("c2", "click", "id=more"), cmd("c3", "click", "id=more"), cmd("c4", "assertText", "id=more", "1")],
    });
    await loadProjectFile(ide.window, project);
    const ui = ide.window;
    await pickTest(ui, "counts clicks");
    await selectRow(ui, 2);
    await button(ui, "Disable command").click();
    await expect.poll(() => commandsShown(ui), WAIT).toEqual(["open", "click", "//click", "assertText"]);
    expect(await commandsIn(ui, "counts clicks")).toEqual(["open", "click", "//click", "assertText"]);
    await ui.getByTestId("unsaved").waitFor(WAIT);
    await expect.poll(() => titleOf(ui, "Undo"), WAIT).not.toBe("Nothing to undo");

    // The run in the tab under test skips it: one click, so the assertion of 1 passes, and its row
    // keeps no state (the badge says "disabled").
    await button(ui, "Play").click();
    await expect.poll(() => ui.getByTestId("run-result").textContent().catch(() => null), { timeout: 60_000 }).toBe("passed");
    expect(await rows(ui).getByTestId("command-state").allTextContents()).toEqual(["passed", "passed", "disabled", "passed"]);
    const played = await ui.evaluate(() =>
      (globalThis as unknown as { ideCore: { getSnapshot(): { playback: { commands: Array<{ id: string; state: string | null }> } | null } } }).ideCore
        .getSnapshot()
        .playback!.commands.map((c) => [c.id, c.state]),
    );
    expect(played).toEqual([["c1", "passed"], ["c2", "passed"], ["c3", null], ["c4", "passed"]]);
    expect(await ide.tab.locator("#more").textContent()).toBe("1");

    await selectRow(ui, 2);
    await button(ui, "Enable command").click();
    await expect.poll(() => commandsShown(ui), WAIT).toEqual(["open", "click", "click", "assertText"]);
    expect(await commandsIn(ui, "counts clicks")).toEqual(["open", "click", "click", "assertText"]);
    await button(ui, "Disable command").waitFor(WAIT);
  });

  it("Save as… asks the browser where to save NAME.side, and once written the project is saved with the edit in the file", async () => {
    const ui = await windowWithShop();
    await pickTest(ui, "adds to cart");
    await button(ui, "Delete test").click();
    await ui.getByTestId("unsaved").waitFor(WAIT);

    // What the IDE asks the browser for, seen from inside the window.
    await ui.evaluate(() => {
      const asked: unknown[] = [];
      const download = chrome.downloads.download.bind(chrome.downloads);
      Object.assign(globalThis, { downloadsAsked: asked });
      chrome.downloads.download = ((options: chrome.downloads.DownloadOptions) => {
        asked.push({ filename: options.filename, saveAs: options.saveAs, url: options.url });
        return download(options);
      }) as typeof chrome.downloads.download;
    });
    const downloaded = ui.context().waitForEvent("download", WAIT) as Promise<Download>;
    await button(ui, "Save as…").click();
    const download = await downloaded;

    const asked = (await ui.evaluate(() => (globalThis as unknown as { downloadsAsked: unknown[] }).downloadsAsked)) as Array<{ filename: string; saveAs: boolean; url: string }>;
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ filename: "Shop-checkout.side", saveAs: true });
    expect(asked[0].url).toMatch(/^blob:chrome-extension:/);

    const written = JSON.parse(readFileSync((await download.path())!, "utf8")) as SideProject;
    expect(written.tests.map((t) => t.name)).toEqual(["logs in", "checked by the example plugin"]);
    expect(written).toEqual(await projectIn(ui));
    // Saved once written: the marker, and the log saying where the browser put the file.
    await ui.getByTestId("saved").waitFor(WAIT);
    await ui.getByRole("tab", { name: "Log", exact: true }).click();
    await expect.poll(() => ui.getByTestId("log-entry").allTextContents(), WAIT).toContainEqual(expect.stringMatching(/Saved "Shop checkout" to \S/));
    expect(await button(ui, "Undo").isDisabled()).toBe(false);
  });

  it("keeps the changes unsaved and says why in the log when the browser does not write the file", async () => {
    const ui = await windowWithShop();
    await pickTest(ui, "adds to cart");
    await button(ui, "Delete test").click();
    await ui.getByTestId("unsaved").waitFor(WAIT);
    // The browser refuses every download, which Chromium reports as a cancel (USER_CANCELED), as when the user cancels its save dialog.
    const cdp = await ui.context().newCDPSession(ui);
    await cdp.send("Browser.setDownloadBehavior", { behavior: "deny" });
    await button(ui, "Save as…").click();
    await ui.getByRole("tab", { name: "Log", exact: true }).click();
    await expect.poll(() => ui.locator('[data-testid="log-entry"][data-level="error"]').allTextContents(), WAIT).toEqual([
      expect.stringMatching(/Saving the project to the computer failed: the save was cancelled\. Your changes are kept and still unsaved\.$/),
    ]);
    expect(await ui.getByTestId("unsaved").count()).toBe(1);
    expect(await testIn(ui, "adds to cart")).toBeUndefined();
    const saved = (await ui.evaluate(() => (globalThis as unknown as { ideCore: { getSavedProject(): unknown } }).ideCore.getSavedProject())) as SideProject;
    expect(saved.tests.map((t) => t.name)).toEqual(["adds to cart", "logs in", "checked by the example plugin"]);
    expect(await button(ui, "Undo").getAttribute("title")).toBe('Undo: Delete test "adds to cart"');
  });
});
