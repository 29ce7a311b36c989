// The test editor in real headless Chromium, against the real host: the test plays the user,
// with the mouse and the keyboard, builds a test from nothing against the example site,
// saves it and plays it in the host's page under test; a plugin, over the bridge, inserts a
// command into the displayed test and asks the user something with its own alert. Every check
// looks at what the page shows and, where it matters, at what the IDE has and what was saved.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectPlugin } from "../../client/index.ts";
import type { PluginClient } from "../../client/index.ts";
import { launchChromium } from "../../drivers/host/chromium.ts";
import { startHost } from "../../apps/host/host.ts";
import type { Host, HostOptions } from "../../apps/host/host.ts";
import { startExampleSite } from "../../drivers/host/site.ts";
import type { ExampleSite } from "../../drivers/host/site.ts";
import { browserPage } from "../../drivers/host/browserPage.ts";
import type { BrowserPage } from "../../drivers/host/browserPage.ts";
import { pickTest, shownTestId, testNames } from "../support/idePage.ts";

const SHOP = JSON.parse(readFileSync(new URL("../../examples/shop.side", import.meta.url), "utf8")) as {
  id: string;
  name: string;
  tests: Array<{ id: string; name: string; commands: Array<{ id: string; command: string; target: string; value: string }> }>;
};

/** The plugin of these tests: it declares one command, with its docs. */
const EYES = {
  name: "Visual checks",
  version: "1.2.0",
  commands: [
    {
      id: "eyesCheckWindow",
      name: "check the window",
      docs: { description: "Compares the window with its baseline", target: "a tag for the check" },
    },
  ],
};

let browser: Browser;
let host: Host;
let context: BrowserContext;
let page: Page;
let plugins: PluginClient[];
let pageErrors: string[];
let site: ExampleSite | null = null;
let driven: BrowserPage | null = null;
let saveDir: string;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  plugins = [];
  pageErrors = [];
  saveDir = mkdtempSync(join(tmpdir(), "ide-core-editor-"));
  context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
});

afterEach(async () => {
  await context?.close();
  await Promise.all(plugins.map((p) => p.disconnect().catch(() => {})));
  await host?.close();
  await driven?.close();
  await site?.close();
  driven = null;
  site = null;
  rmSync(saveDir, { recursive: true, force: true });
  // A script error in the page is a failure even when the test's own checks passed.
  expect(pageErrors).toEqual([]);
});

const savedFile = () => join(saveDir, "saved.side");

async function openUi(options: HostOptions = {}) {
  host = await startHost({ port: 0, tokenFile: null, project: SHOP, saveFile: savedFile, ...options });
  await page.goto(host.urls.ui);
  await page.waitForSelector('[data-testid="connection"]:text-is("connected")');
  await page.waitForSelector('[data-testid="test-editor"]');
}

async function plugin(id: string) {
  const client = await connectPlugin({ url: host.urls.plugins, id, token: host.token });
  plugins.push(client);
  return client;
}

/** A plugin with control: it asks, and the user allows it in the page. */
async function controllingPlugin(id: string) {
  const client = await plugin(id);
  const reply = client.control(EYES);
  await page.waitForSelector('[data-testid="dialog"][data-kind="controlConsent"]');
  await button("Restart and allow access").click();
  expect(await reply).toBe(true);
  await page.waitForSelector('[data-testid="control-banner"]');
  return client;
}

const button = (name: string) => page.getByRole("button", { name, exact: true });
const commandField = () => page.locator('[data-testid="editor-command-field"]');
const targetField = () => page.locator('[data-testid="editor-target-field"]');
const valueField = () => page.locator('[data-testid="editor-value-field"]');
const rows = () => page.locator('[data-testid="command-row"]');
const editorRow = (index: number) => rows().nth(index);
/** The displayed test as the editor shows it: [command, target, value] per row. */
const shownCommands = () =>
  rows().evaluateAll((trs) =>
    trs.map((tr) =>
      ["editor-command", "editor-target", "editor-value"].map((id) => tr.querySelector(`[data-testid="${id}"]`)!.textContent),
    ),
  );

/** Types one command into the form (in its new-command mode) and adds it with Enter. */
async function typeCommand(command: string, target = "", value = "") {
  const before = await rows().count();
  await commandField().fill(command);
  await targetField().fill(target);
  await valueField().fill(value);
  await valueField().press("Enter");
  await expect.poll(() => rows().count()).toBe(before + 1);
  // The form is ready for the next one, and the field has the focus.
  await expect.poll(() => commandField().inputValue()).toBe("");
  await expect.poll(() => commandField().evaluate((el) => el === document.activeElement)).toBe(true);
}

describe("the test editor", () => {
  it("lets a user build a test from nothing with the mouse and the keyboard, save it, and play it in the host, where it passes", async () => {
    site = await startExampleSite();
    driven = browserPage({ baseUrl: site.url });
    await openUi({ project: { id: "p-new", name: "New checks", url: site.url, tests: [], suites: [] }, executor: driven });
    await page.waitForSelector('[data-testid="editor-empty"]');
    expect(await page.locator('[data-testid="saved"]').count()).toBe(1);

    // A new test, by name; a duplicate name is refused in the page, next to the field.
    await button("New test").click();
    await page.locator('[data-testid="test-name"]').fill("buys a thing");
    await page.locator('[data-testid="test-name"]').press("Enter");
    await page.waitForSelector('[data-testid="editor-no-commands"]');
    await page.waitForSelector('[data-testid="unsaved"]');
    await button("New test").click();
    await page.locator('[data-testid="test-name"]').fill(" buys a thing ");
    await page.locator('[data-testid="test-name"]').press("Enter");
    expect(await page.locator('[data-testid="test-name-problem"]').textContent()).toBe('The project already has a test named "buys a thing"; choose another name.');
    await page.locator('[data-testid="test-name"]').press("Escape");
    await button("Rename").click();
    await page.locator('[data-testid="test-name"]').fill("adds to cart");
    await page.locator('[data-testid="test-name"]').press("Enter");
    await expect.poll(() => testNames(page)).toEqual(["adds to cart"]);

    // The commands, typed one after the other: Enter adds each at the end, and the form waits for the next.
    await commandField().click();
    await typeCommand("open", "/shop");
    await typeCommand("echo", "a command to remove");
    await typeCommand("assertText", "css=.cart-count", "1");
    await typeCommand("type", "id=user", "alcie");
    await typeCommand("click", "linkText=Add to cart");
    // The form says what a command does, from Selenium IDE's own list.
    await commandField().fill("assertText");
    expect(await page.locator('[data-testid="command-help"]').textContent()).toContain("assert text");
    await commandField().press("Escape");

    // Find resolves a target to the element's xpath in the page, or says why it cannot.
    await editorRow(3).click();
    await expect.poll(() => editorRow(3).getAttribute("aria-selected")).toBe("true");
    await expect.poll(() => targetField().inputValue()).toBe("id=user");
    await button("Find").click();
    await page.waitForSelector('[data-testid="locator-xpath"]');
    expect(await page.locator('[data-testid="locator-xpath"]').textContent()).toBe("//input[@id='user']");
    await targetField().fill("css=.no-such-thing");
    await button("Find").click();
    await page.waitForSelector('[data-testid="locator-result"].not-found');
    expect(await page.locator('[data-testid="locator-result"]').getAttribute("data-code")).toBe("ElementNotFound");
    // The page asks over one bridge connection that it keeps: no "plugin disconnected" per question.
    expect(await page.locator('[data-testid="log-entry"]:has-text("disconnected")').count()).toBe(0);
    await targetField().press("Escape"); // puts the IDE's target back and returns to the list
    await expect.poll(() => targetField().inputValue()).toBe("id=user");

    // Change: F2 on the row edits it; Enter commits the field.
    await expect.poll(() => editorRow(3).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("F2");
    await expect.poll(() => commandField().evaluate((el) => el === document.activeElement)).toBe(true);
    await valueField().fill("alice");
    await valueField().press("Enter");
    await expect.poll(() => editorRow(3).locator('[data-testid="editor-value"]').textContent()).toBe("alice");

    // Move: the assertion goes last, with Alt+↓ twice from the keyboard; the selection and the focus go with it.
    await editorRow(2).click();
    await expect.poll(() => editorRow(2).getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("Alt+ArrowDown");
    await expect.poll(() => editorRow(3).locator('[data-testid="editor-command"]').textContent()).toBe("assertText");
    await page.keyboard.press("Alt+ArrowDown");
    await expect.poll(() => editorRow(4).locator('[data-testid="editor-command"]').textContent()).toBe("assertText");
    await expect.poll(() => editorRow(4).evaluate((el) => el === document.activeElement)).toBe(true);

    // Delete: ↑ to the echo, Delete removes it, and the next command is selected.
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowUp");
    await expect.poll(() => editorRow(1).getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("Delete");
    await expect.poll(() => rows().count()).toBe(4);
    await expect.poll(() => editorRow(1).getAttribute("aria-selected")).toBe("true");
    await expect.poll(() => editorRow(1).evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await shownCommands()).toEqual([
      ["open", "/shop", ""],
      ["type", "id=user", "alice"],
      ["click", "linkText=Add to cart", ""],
      ["assertText", "css=.cart-count", "1"],
    ]);
    // Enter on a row starts a new command after it; Escape gives it up and returns to the row.
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator('[data-testid="command-form"]').getAttribute("data-mode")).toBe("new");
    expect(await page.locator("#command-form-heading").textContent()).toBe("New command (after command 2)");
    await expect.poll(() => commandField().evaluate((el) => el === document.activeElement)).toBe(true);
    await commandField().press("Escape");
    await expect.poll(() => editorRow(1).evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.locator('[data-testid="command-form"]').getAttribute("data-mode")).toBe("edit");
    expect(await rows().count()).toBe(4);

    // Save keeps it: the file has the test as built, and the project is saved.
    await button("Save").click();
    await page.waitForSelector('[data-testid="saved"]');
    const saved = JSON.parse(readFileSync(savedFile(), "utf8")) as typeof SHOP;
    expect(saved.tests.map((t) => t.name)).toEqual(["adds to cart"]);
    expect(saved.tests[0].commands.map(({ command, target, value }) => [command, target, value])).toEqual(await shownCommands());
    expect(host.ide.getSnapshot().project.unsaved).toBe(false);

    // Play it in the host, in the page under test: it passes, and the editor shows each state.
    await button("Play").click();
    await page.waitForSelector('[data-testid="run-result"]', { timeout: 45_000 });
    expect(await page.locator('[data-testid="run-result"]').textContent()).toBe("passed");
    await expect.poll(() => page.locator('[data-testid="command-state"]').allTextContents()).toEqual(["passed", "passed", "passed", "passed"]);
    expect(host.ide.getSnapshot().playback).toMatchObject({ status: "ended", result: "passed", testName: "adds to cart" });
  });

  it("shows a command a plugin inserts over the bridge in the displayed test, selected, and offers the plugin's commands with their docs", async () => {
    await openUi();
    const client = await controllingPlugin("plugin-eyes");
    // The plugin's commands are offered beside Selenium IDE's, with the plugin's docs.
    const option = page.locator('#editor-command-names option[value="eyesCheckWindow"]');
    await option.waitFor({ state: "attached" });
    expect(await option.getAttribute("label")).toBe("check the window (Visual checks) — Compares the window with its baseline");
    expect(await page.locator('#editor-command-names option[value="assertText"]').count()).toBe(1);

    const shown = SHOP.tests[0]; // the displayed test at start
    await expect.poll(() => rows().count()).toBe(shown.commands.length);
    expect(await client.request({ uri: "/record/command", verb: "post", payload: { command: "eyesCheckWindow", target: "after login", index: 1, select: true } })).toBe(true);

    await expect.poll(() => rows().count()).toBe(shown.commands.length + 1);
    expect(await editorRow(1).locator('[data-testid="editor-command"]').textContent()).toBe("eyesCheckWindow");
    expect(await editorRow(1).locator('[data-testid="editor-target"]').textContent()).toBe("after login");
    await expect.poll(() => editorRow(1).getAttribute("aria-selected")).toBe("true");
    expect(await commandField().inputValue()).toBe("eyesCheckWindow");
    expect(await page.locator('[data-testid="command-help"]').textContent()).toContain("Compares the window with its baseline");
    expect(await page.locator('[data-testid="command-help"]').textContent()).toContain("Target: a tag for the check");
    await page.waitForSelector('[data-testid="unsaved"]');

    // The plugin changes it: the grid and the form take the change.
    const id = await editorRow(1).getAttribute("data-command-id");
    expect(await client.request({ uri: "/record/command", verb: "put", payload: { id, target: "after logout" } })).toBe(true);
    await expect.poll(() => editorRow(1).locator('[data-testid="editor-target"]').textContent()).toBe("after logout");
    await expect.poll(() => targetField().inputValue()).toBe("after logout");
  });

  it("shows the test picked in the Tests list in the one table, each row with its state", async () => {
    await openUi();
    const [first, second] = SHOP.tests;
    expect(await shownTestId(page)).toBe(first.id);
    await pickTest(page, second.name);
    await expect.poll(() => shownTestId(page)).toBe(second.id);
    await expect.poll(() => rows().evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-command-id")))).toEqual(second.commands.map((c) => c.id));
    expect(host.ide.getSnapshot().displayedTestId).toBe(second.id);
    // One table: the commands are drawn once, each row with its state.
    expect(await page.locator('[data-testid="commands"]').count()).toBe(1);
    expect(await rows().locator('[data-testid="command-state"]').allTextContents()).toEqual(second.commands.map(() => "not run"));

    await pickTest(page, first.name);
    await expect.poll(() => rows().evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-command-id")))).toEqual(first.commands.map((c) => c.id));
    expect(host.ide.getSnapshot().displayedTestId).toBe(first.id);
  });

  it("asks the user a plugin's question with the plugin's own buttons: its confirm answers true, Escape answers false", async () => {
    await openUi();
    const client = await plugin("plugin-eyes");
    expect(await client.register(EYES)).toBe(true);
    const message = 'Compare <b>this</b> page?\nIt changed since "yesterday".';

    const first = client.request({ uri: "/popup/alert", verb: "post", payload: { message, confirm: "Looks right", cancel: "Something is off" } });
    await page.waitForSelector('[data-testid="dialog"][data-kind="pluginAlert"]');
    expect(await page.locator("#dialog-title").textContent()).toBe("Visual checks says...");
    expect(await page.locator("#dialog-text").textContent()).toBe(message);
    expect(await page.locator('[data-testid="dialog"] b').count()).toBe(0);
    expect(await page.locator('[data-testid="dialog"] button').allTextContents()).toEqual(["Looks right", "Something is off"]);
    // The answer that commits nothing has the focus.
    expect(await button("Something is off").evaluate((el) => el === document.activeElement)).toBe(true);
    await button("Looks right").click();
    expect(await first).toBe(true);
    await page.waitForSelector('[data-testid="dialog"]', { state: "detached" });

    // Without a cancel label: one button, "OK" unless the plugin named it; Escape still says no.
    const second = client.request({ uri: "/popup/alert", verb: "post", payload: { message: "Done checking." } });
    await page.waitForSelector('[data-testid="dialog"][data-kind="pluginAlert"]');
    expect(await page.locator('[data-testid="dialog"] button').allTextContents()).toEqual(["OK"]);
    await page.keyboard.press("Escape");
    expect(await second).toBe(false);
    await page.waitForSelector('[data-testid="dialog"]', { state: "detached" });

    const third = client.request({ uri: "/popup/alert", verb: "post", payload: { message: "Again?", confirm: "Yes", cancel: "No" } });
    await page.waitForSelector('[data-testid="dialog"][data-kind="pluginAlert"]');
    await button("No").click();
    expect(await third).toBe(false);
  });

  it("turns editing off, saying why, while the displayed test is being played, and on again when the run has ended", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await openUi({
      project: {
        id: "p-eyes",
        name: "Visual checks",
        tests: [{ id: "t-eyes", name: "checks the window", commands: [{ id: "c-check", command: "eyesCheckWindow", target: "home", value: "" }] }],
      },
    });
    const client = await plugin("plugin-eyes");
    expect(await client.register(EYES)).toBe(true);
    client.onCommand("eyesCheckWindow", async () => {
      await held;
      return "checked";
    });
    await expect.poll(() => rows().count()).toBe(1);
    await editorRow(0).click();

    await button("Play").click();
    await page.waitForSelector('[data-testid="editor-locked"]');
    expect(await page.locator('[data-testid="editor-locked"]').textContent()).toContain('"checks the window" is being played');
    expect(await button("New command").isDisabled()).toBe(true);
    expect(await button("Delete command").isDisabled()).toBe(true);
    expect(await commandField().isDisabled()).toBe(true);
    expect(await editorRow(0).getAttribute("aria-current")).toBe("step");
    await editorRow(0).focus();
    await page.keyboard.press("Delete");
    expect(await rows().count()).toBe(1);

    release();
    await page.waitForSelector('[data-testid="run-result"]:text-is("passed")');
    await page.waitForSelector('[data-testid="editor-locked"]', { state: "detached" });
    expect(await button("Delete command").isDisabled()).toBe(false);
    await editorRow(0).focus();
    await page.keyboard.press("Delete");
    await page.waitForSelector('[data-testid="editor-no-commands"]');
    expect(host.ide.getSnapshot().project.unsaved).toBe(true);
  });
});
