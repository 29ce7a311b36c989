// A day's work in the IDE page (CONTRACT section 20), as a tester does it on a fresh `npm start`:
// real clicks and keys in headless Chromium on the example project. Tests and suites in the side
// lists (duplicate, delete, rename in place with F2, a new suite with its tests and settings),
// undo and redo from the header and from the keys, the project's name and base URL, Save as with
// its recent list, New project; the one command table: multi-select, copy, cut and paste (the
// system clipboard's .side commands too), disable, a description, dragging a row, Delete; and a
// row's Play from here, Play to here and Execute this command; the Reference tab. What counts is
// what the page shows and what the saved files hold.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshNpmStart } from "../support/freshHost.ts";
import type { FreshHost } from "../support/freshHost.ts";
import { openTab, pickSuite, pickTest, shownTestId, suitesList, testNames, testsList } from "../support/idePage.ts";
import { killLeftovers } from "../support/processes.ts";

const WAIT = { timeout: 30_000 };

let fresh: FreshHost;
let ui: Page;

beforeAll(async () => {
  fresh = await freshNpmStart();
  ui = fresh.ui;
}, 120_000);
afterAll(async () => {
  await fresh?.stop();
  killLeftovers();
});

const button = (name: string) => ui.getByRole("button", { name, exact: true });
const rows = () => ui.getByTestId("commands").getByTestId("command-row");
const row = (index: number) => rows().nth(index);
const commandsShown = () => rows().evaluateAll((trs) => trs.map((tr) => tr.querySelector('[data-testid="editor-command"]')!.textContent));
const targetsShown = () => rows().evaluateAll((trs) => trs.map((tr) => tr.querySelector('[data-testid="editor-target"]')!.textContent));
const selectedRows = () => rows().evaluateAll((trs) => trs.map((tr, i) => (tr.getAttribute("aria-selected") === "true" ? i : -1)).filter((i) => i >= 0));
const titleOf = (name: string) => button(name).getAttribute("title");
/** The saved file as JSON. */
const readSide = (path: string) => JSON.parse(readFileSync(path, "utf8")) as {
  name: string;
  url: string;
  tests: Array<{ id: string; name: string; commands: Array<{ id: string; command: string; target: string; value: string; comment?: string }> }>;
  suites: Array<{ id: string; name: string; tests: string[]; parallel?: boolean; persistSession?: boolean; timeout?: number }>;
};

async function saveAs(path: string) {
  await button("Save as…").click();
  const dialog = ui.getByRole("dialog", { name: "Save the project as…" });
  await dialog.waitFor();
  await dialog.getByRole("textbox", { name: "File (an absolute path)" }).fill(path);
  await dialog.getByRole("button", { name: "Save here", exact: true }).click();
  await dialog.waitFor({ state: "detached" });
}

describe("a day's work in the IDE page", () => {
  it("duplicates, renames in place, deletes a test and undoes and redoes each from the header, whose buttons say what they would do", async () => {
    expect(await testNames(ui)).toEqual(["adds to cart", "logs in", "checked by the example plugin"]);
    expect(await button("Undo").isDisabled()).toBe(true);
    expect(await button("Redo").isDisabled()).toBe(true);

    await button("Duplicate test").click();
    await expect.poll(() => testNames(ui), WAIT).toEqual(["adds to cart", "adds to cart (copy)", "logs in", "checked by the example plugin"]);
    // The copy is displayed, with the original's commands under new ids.
    await expect.poll(() => testsList(ui).locator('[aria-current="true"]').textContent()).toBe("adds to cart (copy)");
    expect(await commandsShown()).toEqual(["open", "click", "assertText"]);
    await expect.poll(() => titleOf("Undo")).toBe('Undo: Duplicate test "adds to cart"');

    // F2 on a test in the list renames it in place.
    await testsList(ui).getByRole("button", { name: "adds to cart (copy)", exact: true }).focus();
    await ui.keyboard.press("F2");
    await ui.getByRole("textbox", { name: 'New name for "adds to cart (copy)"' }).fill("adds two to cart");
    await ui.keyboard.press("Enter");
    await expect.poll(() => testNames(ui), WAIT).toContain("adds two to cart");
    // A taken name is refused next to the field, and nothing changes.
    await testsList(ui).getByRole("button", { name: "adds two to cart", exact: true }).press("F2");
    await ui.getByRole("textbox", { name: 'New name for "adds two to cart"' }).fill("logs in");
    await ui.keyboard.press("Enter");
    expect(await ui.getByTestId("test-name-problem").textContent()).toBe('The project already has a test named "logs in"; choose another name.');
    await ui.keyboard.press("Escape");

    await pickTest(ui, "logs in");
    await button("Delete test").click();
    await expect.poll(() => testNames(ui), WAIT).toEqual(["adds to cart", "adds two to cart", "checked by the example plugin"]);
    await expect.poll(() => titleOf("Undo")).toBe('Undo: Delete test "logs in"');

    await button("Undo").click();
    await expect.poll(() => testNames(ui), WAIT).toEqual(["adds to cart", "adds two to cart", "logs in", "checked by the example plugin"]);
    await expect.poll(() => titleOf("Redo")).toBe('Redo: Delete test "logs in"');
    await button("Redo").click();
    await expect.poll(() => testNames(ui), WAIT).toEqual(["adds to cart", "adds two to cart", "checked by the example plugin"]);
    await button("Undo").click();
    await expect.poll(() => testNames(ui), WAIT).toContain("logs in");
  });

  it("makes a new suite with chosen tests in order and its settings, renames it in place, and Save as writes them where the user says", async () => {
    await button("New suite").click();
    await ui.getByRole("textbox", { name: "Name of the new suite" }).fill("Smoke");
    await ui.keyboard.press("Enter");
    await expect.poll(() => suitesList(ui).locator('[data-testid="suite-item"]').allTextContents(), WAIT).toEqual(expect.arrayContaining([expect.stringContaining("Smoke")]));
    await pickSuite(ui, "Smoke");
    const suite = ui.getByRole("group", { name: 'The suite "Smoke"' });
    await suite.waitFor();

    // Its tests: "logs in", then "adds to cart", then "adds to cart" moved first.
    await suite.getByRole("combobox", { name: "Test to add" }).selectOption({ label: "logs in" });
    await suite.getByRole("button", { name: "Add to the suite", exact: true }).click();
    await suite.getByRole("combobox", { name: "Test to add" }).selectOption({ label: "adds to cart" });
    await suite.getByRole("button", { name: "Add to the suite", exact: true }).click();
    await expect.poll(() => suite.getByTestId("suite-test").allTextContents(), WAIT).toEqual([expect.stringContaining("logs in"), expect.stringContaining("adds to cart")]);
    await suite.getByRole("button", { name: 'Move "adds to cart" up in the suite' }).click();
    await expect.poll(() => suite.locator(".suite-test-name").allTextContents(), WAIT).toEqual(["adds to cart", "logs in"]);

    // Its settings.
    await suite.getByRole("checkbox", { name: "Persist session" }).check();
    await expect.poll(() => suite.getByRole("checkbox", { name: "Persist session" }).isChecked(), WAIT).toBe(true);
    await suite.getByRole("spinbutton", { name: "Timeout (seconds)" }).fill("0");
    await suite.getByRole("spinbutton", { name: "Timeout (seconds)" }).press("Enter");
    expect(await ui.getByTestId("suite-timeout-problem").textContent()).toContain("from 1 to 86,400");
    await suite.getByRole("spinbutton", { name: "Timeout (seconds)" }).fill("45");
    await suite.getByRole("spinbutton", { name: "Timeout (seconds)" }).press("Enter");
    await suite.getByRole("checkbox", { name: "Run in parallel" }).check();
    await expect.poll(() => suite.getByRole("checkbox", { name: "Run in parallel" }).isChecked(), WAIT).toBe(true);

    // F2 renames the suite in place.
    await suitesList(ui).locator('[data-testid="suite-item"] button', { hasText: "Smoke" }).press("F2");
    await ui.getByRole("textbox", { name: 'New name for the suite "Smoke"' }).fill("Smoke checks");
    await ui.keyboard.press("Enter");
    await ui.getByRole("group", { name: 'The suite "Smoke checks"' }).waitFor(WAIT);

    // Save as: a folder that is missing writes nothing and says so; then the user's own file.
    const folder = join(fresh.home, "my-tests");
    mkdirSync(folder, { recursive: true });
    const missing = join(fresh.home, "no-such-folder", "shop.side");
    await saveAs(missing);
    await openTab(ui, "Log");
    await ui.locator('[data-testid="log-entry"][data-level="error"]').first().waitFor(WAIT);
    expect(existsSync(missing)).toBe(false);
    expect(await ui.getByTestId("unsaved").count()).toBe(1);

    const file = join(folder, "shop.side");
    await saveAs(file);
    await ui.getByTestId("saved").waitFor(WAIT);
    expect(await ui.getByTestId("project-file").textContent()).toBe(file);
    const saved = readSide(file);
    const smoke = saved.suites.find((s) => s.name === "Smoke checks")!;
    const idOf = (name: string) => saved.tests.find((t) => t.name === name)!.id;
    expect(smoke).toMatchObject({ tests: [idOf("adds to cart"), idOf("logs in")], parallel: true, persistSession: true, timeout: 45 });

    // The dialog offers the path it saved to, and the file among the recent projects.
    await button("Save as…").click();
    const dialog = ui.getByRole("dialog", { name: "Save the project as…" });
    expect(await dialog.getByRole("textbox", { name: "File (an absolute path)" }).inputValue()).toBe(file);
    expect(await dialog.getByRole("list", { name: "Recent projects" }).getByRole("button").allTextContents()).toContain(file);
    await dialog.getByRole("button", { name: "Cancel", exact: true }).click();

    // Delete suite, then Ctrl+Z in the table brings it back.
    await pickSuite(ui, "Smoke checks");
    await button("Delete suite").click();
    await expect.poll(() => suitesList(ui).locator('[data-testid="suite-item"]').count(), WAIT).toBe(2);
    await row(0).click();
    await ui.keyboard.press("Control+z");
    await expect.poll(() => suitesList(ui).locator('[data-testid="suite-item"]').count(), WAIT).toBe(3);
  });

  it("selects commands with Shift, Ctrl and the arrows, copies, cuts and pastes them with the keys and the buttons, and undoes with Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y", async () => {
    await pickTest(ui, "adds to cart");
    await expect.poll(() => commandsShown(), WAIT).toEqual(["open", "click", "assertText"]);
    await row(0).click();
    await row(2).click({ modifiers: ["Shift"] });
    await expect.poll(selectedRows).toEqual([0, 1, 2]);
    await row(1).click({ modifiers: ["Control"] });
    await expect.poll(selectedRows).toEqual([0, 2]);
    await row(0).click();
    await ui.keyboard.press("Shift+ArrowDown");
    await expect.poll(selectedRows).toEqual([0, 1]);

    // Ctrl+C, then Ctrl+V in another test: the copies go after its selected command.
    await ui.keyboard.press("Control+c");
    await pickTest(ui, "adds two to cart");
    await row(2).click();
    await ui.keyboard.press("Control+v");
    await expect.poll(() => commandsShown(), WAIT).toEqual(["open", "click", "assertText", "open", "click"]);
    await ui.getByTestId("unsaved").waitFor();

    // Ctrl+X takes them out again; Ctrl+Z gives them back; Ctrl+Shift+Z and Ctrl+Y do it again.
    await row(3).click();
    await row(4).click({ modifiers: ["Shift"] });
    await ui.keyboard.press("Control+x");
    await expect.poll(() => commandsShown(), WAIT).toEqual(["open", "click", "assertText"]);
    await row(0).click();
    await ui.keyboard.press("Control+z");
    await expect.poll(() => commandsShown(), WAIT).toEqual(["open", "click", "assertText", "open", "click"]);
    await row(0).click();
    await ui.keyboard.press("Control+Shift+Z");
    await expect.poll(() => commandsShown(), WAIT).toEqual(["open", "click", "assertText"]);
    await row(0).click();
    await ui.keyboard.press("Control+z");
    await expect.poll(() => commandsShown(), WAIT).toHaveLength(5);
    await row(0).click();
    await ui.keyboard.press("Control+y");
    await expect.poll(() => commandsShown(), WAIT).toEqual(["open", "click", "assertText"]);

    // The buttons: Copy the click, Paste it after the last command; Cut it; Paste brings it back.
    await row(1).click();
    await button("Copy").click();
    await row(2).click();
    await button("Paste").click();
    await expect.poll(() => commandsShown(), WAIT).toEqual(["open", "click", "assertText", "click"]);
    await row(3).click();
    await button("Cut").click();
    await expect.poll(() => commandsShown(), WAIT).toEqual(["open", "click", "assertText"]);

    // .side commands copied elsewhere (another project, a file's text) paste from the system clipboard.
    const fromElsewhere = [{ id: "x1", comment: "", command: "echo", target: "pasted from a .side file", targets: [], value: "" }];
    await row(2).click();
    await ui.evaluate((text) => {
      const transfer = new DataTransfer();
      transfer.setData("text/plain", text);
      document.activeElement!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }));
    }, JSON.stringify(fromElsewhere));
    await expect.poll(() => targetsShown(), WAIT).toEqual(["/shop", "linkText=Add to cart", "css=.cart-count", "pasted from a .side file"]);

    // Delete removes the selected commands.
    await row(3).click();
    await ui.keyboard.press("Delete");
    await expect.poll(() => commandsShown(), WAIT).toEqual(["open", "click", "assertText"]);
  });

  it("disables and enables a command, writes its description, drags a row to its place, and saves with Ctrl+S", async () => {
    await pickTest(ui, "adds two to cart");
    await row(1).click();
    await button("Disable command").click();
    await expect.poll(() => commandsShown(), WAIT).toEqual(["open", "//click", "assertText"]);
    await button("Enable command").waitFor();
    await button("Enable command").click();
    await expect.poll(() => commandsShown(), WAIT).toEqual(["open", "click", "assertText"]);

    await ui.getByRole("textbox", { name: "Description" }).fill("the shop's only product");
    await ui.getByRole("textbox", { name: "Description" }).press("Enter");
    await expect.poll(() => row(1).getByTestId("editor-comment").textContent(), WAIT).toBe("the shop's only product");

    await row(2).dragTo(row(0));
    await expect.poll(() => commandsShown(), WAIT).toEqual(["assertText", "open", "click"]);
    await button("Undo").click();
    await expect.poll(() => commandsShown(), WAIT).toEqual(["open", "click", "assertText"]);

    await row(0).click();
    await ui.keyboard.press("Control+s");
    await ui.getByTestId("saved").waitFor(WAIT);
    const file = (await ui.getByTestId("project-file").textContent())!;
    const saved = readSide(file).tests.find((t) => t.name === "adds two to cart")!;
    expect(saved.commands.map((c) => [c.command, c.comment ?? ""])).toEqual([
      ["open", ""],
      ["click", "the shop's only product"],
      ["assertText", ""],
    ]);
  });

  it("plays to a command, from a command, and one command alone, each from the selected row, and the Reference tab says what it does", async () => {
    await pickTest(ui, "adds to cart");
    await row(2).click();
    await button("Play to here").click();
    await expect.poll(() => ui.getByTestId("paused-at").textContent().catch(() => null), { timeout: 60_000 }).toContain("before command 3, assertText");
    expect(await row(0).getByTestId("command-state").textContent()).toBe("passed");
    await button("Stop").click();
    await expect.poll(() => ui.getByTestId("run-state").textContent(), WAIT).toBe("ended");

    await row(0).click();
    await button("Execute this command").click();
    await expect.poll(() => ui.getByTestId("run-result").textContent().catch(() => null), { timeout: 60_000 }).toBe("passed");
    expect(await rows().getByTestId("command-state").allTextContents()).toEqual(["passed", "not run", "not run"]);

    await row(1).click();
    await button("Play from here").click();
    await expect.poll(() => ui.getByTestId("run-result").textContent().catch(() => null), { timeout: 60_000 }).toBe("passed");
    await expect.poll(() => rows().getByTestId("command-state").allTextContents(), WAIT).toEqual(["not run", "passed", "passed"]);
    expect(await shownTestId(ui)).not.toBeNull();

    await openTab(ui, "Reference");
    await row(2).click();
    await expect.poll(() => ui.getByTestId("command-reference").textContent(), WAIT).toContain("assertText");
    expect(await ui.getByTestId("command-reference").textContent()).toMatch(/Target.*locator/s);
  });

  it("changes the project's name and base URL in the page, refusing a URL that is not absolute, and starts a new project after asking", async () => {
    const name = ui.getByRole("textbox", { name: "Project name" });
    await name.fill("Shop, reviewed");
    await name.press("Enter");
    await expect.poll(() => ui.getByTestId("project-name").textContent(), WAIT).toBe("Shop, reviewed");
    const url = ui.getByRole("textbox", { name: "Base URL" });
    await url.fill("not a url");
    await url.press("Enter");
    await openTab(ui, "Log");
    await ui.locator('[data-testid="log-entry"][data-level="warn"]').last().waitFor(WAIT);
    await url.blur();
    expect(await url.inputValue()).toBe("http://127.0.0.1:8080");

    await button("New project").click();
    const dialog = ui.getByTestId("dialog");
    await dialog.waitFor(WAIT);
    await ui.getByTestId("dialog-accept").click();
    await expect.poll(() => ui.getByTestId("project-name").textContent(), WAIT).toBe("Untitled project");
    expect(await testNames(ui)).toEqual(["Untitled"]);
    expect(await suitesList(ui).locator('[data-testid="suite-item"] button').first().textContent()).toContain("Default Suite");
    expect(await button("Undo").isDisabled()).toBe(true);

    // The recent list opens the file saved before.
    await button("Save as…").click();
    const recent = ui.getByRole("dialog", { name: "Save the project as…" }).getByRole("list", { name: "Recent projects" }).getByRole("button").first();
    await recent.click();
    // Over unsaved changes it asks first.
    if (await ui.getByTestId("dialog").isVisible()) await ui.getByTestId("dialog-accept").click();
    await expect.poll(() => ui.getByTestId("project-name").textContent(), WAIT).not.toBe("Untitled project");
    expect(await testNames(ui)).toContain("adds two to cart");
  });
});
