// ide-core as a browser extension, end to end: the built extension and test plugin
// extensions loaded together in headless Chromium. Plugins talk to the IDE only with
// chrome.runtime.sendMessage, as real plugins do; the test plays the user by clicking in the
// IDE window. Each test has a fresh browser profile, so nothing one keeps reaches another.
import { readFileSync } from "node:fs";
import type { Page, Worker } from "playwright-core";
import { beforeEach, describe, expect, it } from "vitest";
import { launchWithExtensions } from "../../drivers/host/chromium.ts";
import { IDE_EXTENSION_ID } from "../../drivers/webextension/identity.ts";
import { WINDOW_PAGE } from "../../drivers/webextension/messages.ts";
import { profileDir, sendFrom, workerOf, workerWhere } from "../support/extensions.ts";
import type { SendResult } from "../support/extensions.ts";
import { useIdeExtension } from "../support/ideExtension.ts";

const ROOT = new URL("../../", import.meta.url);
const SHOP = JSON.parse(readFileSync(new URL("examples/shop.side", ROOT), "utf8")) as {
  id: string;
  name: string;
  tests: Array<{ id: string; name: string; commands: Array<{ id: string }> }>;
};
const SHOP_PAGE = readFileSync(new URL("examples/shop-page.html", ROOT), "utf8");
const IDE_PAGE_URL = `chrome-extension://${IDE_EXTENSION_ID}/${WINDOW_PAGE}`;

const ALPHA = { name: "Alpha recorder", version: "2.1.0" };
const BETA = { name: "Beta checks", version: "0.3.0" };

// The IDE window is not open at first: each test opens it its own way.
const ide = useIdeExtension({ plugins: ["alpha", "beta"], pages: { "/login": SHOP_PAGE, "/again": SHOP_PAGE }, start: "/login", openWindow: false });

let alpha: Worker;
let beta: Worker;

beforeEach(() => {
  [alpha, beta] = ide.workers;
});

// ---- helpers ----------------------------------------------------------------------------

async function replyOf(pending: Promise<SendResult>): Promise<unknown> {
  const result = await pending;
  if ("rejected" in result) throw new Error(`The request was rejected by Chromium: ${result.rejected}`);
  return result.reply;
}

const ask = (plugin: Worker, message: unknown) => replyOf(sendFrom(plugin, IDE_EXTENSION_ID, message));

function watchWindow(page: Page): Page {
  page.on("pageerror", (error) => ide.windowErrors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") ide.windowErrors.push(message.text());
  });
  return page;
}

/** Runs `opening` (a request that opens the IDE window) and gives the window once its UI is up. */
async function windowOpenedBy<T>(opening: () => Promise<T>): Promise<{ window: Page; result: Promise<T> }> {
  const appeared = ide.context.waitForEvent("page", { predicate: (p) => p.url() === IDE_PAGE_URL });
  const result = opening();
  const window = watchWindow(await appeared);
  await window.waitForSelector('[data-testid="project-name"]');
  return { window, result };
}

async function openWindow(plugin: Worker): Promise<Page> {
  const { window, result } = await windowOpenedBy(() => ask(plugin, { openIDEIfClosed: true }));
  expect(await result).toBe(true);
  return window;
}

/** An open IDE window with the shop project loaded by `plugin` (now registered) and then edited by the user. */
async function windowWithEditedShop(plugin: Worker): Promise<Page> {
  const window = await openWindow(plugin);
  expect(await ask(plugin, { uri: "/register", verb: "post", payload: ALPHA })).toBe(true);
  expect(await ask(plugin, { uri: "/project", verb: "post", project: SHOP })).toBe(true);
  await window.getByRole("button", { name: "New test", exact: true }).click(); // an edit: the user adds a test in the editor
  await window.locator('[data-testid="test-name"]').fill("the user's own test");
  await window.locator('[data-testid="test-name"]').press("Enter");
  await window.waitForSelector('[data-testid="unsaved"]');
  return window;
}

async function received(plugin: Worker): Promise<Array<{ from: string; message: Record<string, unknown> }>> {
  return (await plugin.evaluate("plugin.received")) as Array<{ from: string; message: Record<string, unknown> }>;
}

async function waitForReceived(plugin: Worker, event: string) {
  await expect
    .poll(async () => (await received(plugin)).filter((r) => r.message.event === event).length, { timeout: 10_000 })
    .toBeGreaterThan(0);
  return (await received(plugin)).filter((r) => r.message.event === event);
}

async function takeControl(plugin: Worker, window: Page, registration: object): Promise<void> {
  const pending = ask(plugin, { uri: "/control", verb: "post", payload: registration });
  await window.waitForSelector('[data-testid="dialog"][data-kind="controlConsent"]');
  await window.getByRole("button", { name: "Restart and allow access" }).click();
  expect(await pending).toBe(true);
  await window.waitForSelector('[data-testid="control-banner"]');
}

/**
 * Stops the IDE extension's service worker the way the browser does when it idles, and
 * returns as soon as the stop is asked for: requests sent right after it meet the worker
 * stopping and starting again.
 */
async function stopIdeWorker(window: Page): Promise<void> {
  const cdp = await ide.context.newCDPSession(window);
  const versions: Array<{ versionId: string; scriptURL: string; runningStatus: string }> = [];
  cdp.on("ServiceWorker.workerVersionUpdated", (event) => versions.push(...event.versions));
  await cdp.send("ServiceWorker.enable");
  await expect.poll(() => versions.some((v) => v.scriptURL.includes(IDE_EXTENSION_ID))).toBe(true);
  const worker = versions.find((v) => v.scriptURL.includes(IDE_EXTENSION_ID))!;
  await cdp.send("ServiceWorker.stopWorker", { versionId: worker.versionId });
  stoppedVersions = () => versions.filter((v) => v.versionId === worker.versionId).map((v) => v.runningStatus);
}
let stoppedVersions: () => string[] = () => [];

const errorCodeOf = (reply: unknown) => (reply as { errorCode?: unknown }).errorCode;

// ---- tests ------------------------------------------------------------------------------

describe("the IDE as a browser extension", () => {
  it("answers IdeNotActive while no IDE window is open, after the checks that come first", async () => {
    expect(errorCodeOf(await ask(alpha, { uri: "/health", verb: "get" }))).toBe("IdeNotActive");
    expect(errorCodeOf(await ask(alpha, { uri: "/log", verb: "post", message: "hi" }))).toBe("IdeNotActive");
    expect(errorCodeOf(await ask(alpha, "not a request"))).toBe("InvalidRequest");
    expect(errorCodeOf(await ask(alpha, { uri: "/nowhere", verb: "get" }))).toBe("NoRoute");
    expect(errorCodeOf(await ask(alpha, { uri: "/health", verb: "post" }))).toBe("VerbNotAllowed");
    // A malformed POST /control is refused without opening anything.
    expect(errorCodeOf(await ask(alpha, { uri: "/control", verb: "post", payload: { name: "" } }))).toBe("InvalidRequest");
    expect(ide.context.pages().some((p) => p.url() === IDE_PAGE_URL)).toBe(false);
  });

  it("runs a plugin's whole conversation: health, register, logs, project, control, locators, command states, save and close", async () => {
    const window = await openWindow(alpha);

    // health → register → health
    expect(await ask(alpha, { uri: "/health", verb: "get" })).toBe(false);
    expect(await ask(alpha, { uri: "/register", verb: "post", payload: ALPHA })).toBe(true);
    expect(await ask(alpha, { uri: "/health", verb: "get" })).toBe(true);
    await expect.poll(() => window.locator(`[data-plugin-id="${ide.extensions[0].id}"]`).count()).toBe(1);

    // logs in both groups, both request forms; the sender is the extension Chromium names
    expect(await ask(alpha, { uri: "/log", verb: "post", message: "system hello", sender: "someone-else" })).toBe(true);
    expect(await ask(alpha, { uri: "/playback/log", verb: "post", payload: { type: "warn", message: "playback hello" } })).toBe(
      true,
    );
    await window.getByText("system hello").waitFor();
    await window.getByText("playback hello").waitFor();
    const systemEntry = window.locator('[data-testid="log-entry"]', { hasText: "system hello" });
    expect(await systemEntry.textContent()).toContain(ide.extensions[0].id);

    // a project: loaded by the plugin (every registered plugin hears of it), then read back
    expect(await ask(alpha, { uri: "/project", verb: "post", payload: { project: SHOP } })).toBe(true);
    expect(await ask(alpha, { uri: "/project", verb: "get" })).toEqual({ id: SHOP.id, name: SHOP.name });
    const loaded = await waitForReceived(alpha, "projectLoaded");
    expect(loaded[0].from).toBe(IDE_EXTENSION_ID);
    expect(loaded[0].message.options).toEqual({ projectId: SHOP.id, projectName: SHOP.name });
    await expect.poll(() => window.locator('[data-testid="project-name"]').textContent()).toBe(SHOP.name);

    // control, with the user's consent clicked in the IDE window
    await takeControl(alpha, window, ALPHA);
    expect(await window.locator('[data-testid="control-banner"]').textContent()).toContain(ALPHA.name);

    // a second plugin is refused the controlled-only routes, and keeps the others
    expect(errorCodeOf(await ask(beta, { uri: "/register", verb: "post", payload: BETA }))).toBe("CannotAccessInControlMode");
    expect(errorCodeOf(await ask(beta, { uri: "/log", verb: "post", message: "let me in" }))).toBe(
      "CannotAccessInControlMode",
    );
    expect(errorCodeOf(await ask(beta, { uri: "/project", verb: "get" }))).toBe("CannotAccessInControlMode");
    expect(await ask(beta, { uri: "/health", verb: "get" })).toBe(false);
    expect(await ask(beta, { uri: "/playback/log", verb: "post", message: "beta watching" })).toBe(true);

    // locators, resolved by the content script in the page under test
    expect(await ask(alpha, { uri: "/playback/location", verb: "get", payload: { location: "id=user" } })).toBe(
      "//input[@id='user']",
    );
    expect(await ask(alpha, { uri: "/playback/location", verb: "get", location: "name=password" })).toBe(
      "//input[@name='password']",
    );
    expect(errorCodeOf(await ask(alpha, { uri: "/playback/location", verb: "get", location: "css=#missing" }))).toBe(
      "ElementNotFound",
    );
    expect(errorCodeOf(await ask(alpha, { uri: "/playback/location", verb: "get", location: "bogus=1" }))).toBe(
      "InvalidLocator",
    );
    // What the content script found is what the page has: the xpath selects the element.
    const userId = await ide.tab.evaluate(
      "document.evaluate(\"//input[@id='user']\", document, null, 9, null).singleNodeValue.name",
    );
    expect(userId).toBe("user");

    // command states while a test case runs: the user puts a breakpoint on its first command
    // (so the run waits there while the plugin sends states) and presses Play
    await window.getByRole("button", { name: "Breakpoint before command 1, open" }).click();
    await window.getByRole("button", { name: "Play", exact: true }).click();
    await window.waitForSelector('[data-testid="command-row"]');
    const started = await waitForReceived(alpha, "playbackStarted");
    expect(started[0].message.options).toMatchObject({ testId: SHOP.tests[0].id, projectName: SHOP.name });
    expect(await ask(alpha, { uri: "/playback/command", verb: "post", payload: { commandId: "c2-add", state: "passed" } })).toBe(
      true,
    );
    expect(
      await ask(alpha, { uri: "/playback/command", verb: "post", commandId: "c2-assert", state: "failed", message: "no field" }),
    ).toBe(true);
    expect(errorCodeOf(await ask(alpha, { uri: "/playback/command", verb: "post", commandId: "nope", state: "passed" }))).toBe(
      "UnknownCommand",
    );
    const state = (id: string) =>
      window.locator(`[data-testid="command-row"][data-command-id="${id}"] [data-testid="command-state"]`).textContent();
    await expect.poll(() => state("c2-add")).toContain("passed");
    await expect.poll(() => state("c2-assert")).toContain("failed");
    await window.getByRole("button", { name: "Stop" }).click();
    await waitForReceived(alpha, "playbackStopped");

    // the user edits and saves: the project goes to the controller, and only then is saved
    await window.getByRole("button", { name: "New test", exact: true }).click(); // an edit: the user adds a test in the editor
    await window.locator('[data-testid="test-name"]').fill("another test of the user's");
    await window.locator('[data-testid="test-name"]').press("Enter");
    await window.waitForSelector('[data-testid="unsaved"]');
    await window.getByRole("button", { name: "Save", exact: true }).click();
    const saved = await waitForReceived(alpha, "saveProject");
    expect((saved[0].message.options as { project: { id: string; tests: unknown[] } }).project).toMatchObject({
      id: SHOP.id,
      name: SHOP.name,
    });
    await window.waitForSelector('[data-testid="saved"]');

    // close: the controller closes the IDE, and the window goes
    const gone = window.waitForEvent("close");
    expect(await ask(alpha, { uri: "/close", verb: "post" })).toBe(true);
    await gone;
    expect(errorCodeOf(await ask(alpha, { uri: "/health", verb: "get" }))).toBe("IdeNotActive");
  });

  it("answers a request that waits on the user with IdeNotActive when the IDE window is closed", async () => {
    const window = await openWindow(alpha);
    const pending = sendFrom(beta, IDE_EXTENSION_ID, { uri: "/control", verb: "post", payload: BETA });
    await window.waitForSelector('[data-testid="dialog"][data-kind="controlConsent"]');
    await window.close();
    const result = await pending;
    expect(result).toEqual({ reply: { error: expect.any(String), errorCode: "IdeNotActive" } });
    expect(errorCodeOf(await ask(beta, { uri: "/health", verb: "get" }))).toBe("IdeNotActive");
  });

  it("opens the window for POST /control while closed, asks the user, and keeps it open after a no", async () => {
    const { window, result } = await windowOpenedBy(() => ask(beta, { uri: "/control", verb: "post", payload: BETA }));
    await window.waitForSelector('[data-testid="dialog"][data-kind="controlConsent"]');
    expect(await window.locator('[data-testid="dialog"]').textContent()).toContain(BETA.name);
    await window.getByRole("button", { name: "Deny access" }).click();
    expect(await result).toBe(false);
    expect(window.isClosed()).toBe(false);
    expect(await ask(beta, { uri: "/health", verb: "get" })).toBe(false);
  });

  it("saves to the computer through the browser's download when no plugin controls the IDE", async () => {
    const window = await windowWithEditedShop(alpha);
    const download = window.waitForEvent("download");
    await window.getByRole("button", { name: "Save", exact: true }).click();
    const file = await download;
    const saved = JSON.parse(readFileSync(await file.path(), "utf8"));
    expect(saved).toMatchObject({ id: SHOP.id, name: SHOP.name });
    // The shop's tests, and the one the user added in the editor.
    expect(saved.tests.map((t: { name: string }) => t.name)).toEqual([...SHOP.tests.map((t) => t.name), "the user's own test"]);
    await window.waitForSelector('[data-testid="saved"]');
    // Nothing went to a plugin: no one controls the IDE.
    expect((await received(alpha)).filter((r) => r.message.event === "saveProject")).toEqual([]);
  });

  it("shows the window's door and the background relay in its statecharts, beside the core's machines", async () => {
    const window = await openWindow(alpha);
    await window.waitForSelector('[data-testid="diagram-windowDoor"]', { state: "attached" });
    await window.waitForSelector('[data-testid="diagram-backgroundRelay"]', { state: "attached" });
    const charts = () =>
      window.locator('[data-testid^="chart-value-"]').evaluateAll((codes) =>
        codes.map((code) => [code.getAttribute("data-testid")!.slice("chart-value-".length), JSON.parse(code.textContent!)]),
      );
    expect((await charts()).map(([actor]) => actor)).toEqual(["ide", "control", "projectFile", "editor", "suiteRunner", "recording", "pointing", "testRunner", "windowDoor", "backgroundRelay"]);
    // The door answers once the relay has handed over, which it does as it becomes present.
    await expect
      .poll(async () => Object.fromEntries((await charts()).slice(8)))
      .toEqual({ windowDoor: "answering", backgroundRelay: "present" });
  });

  it("closes a second IDE window and keeps the first", async () => {
    const first = await openWindow(alpha);
    const second = await ide.context.newPage();
    const closed = second.waitForEvent("close");
    await second.goto(IDE_PAGE_URL);
    await closed;
    expect(first.isClosed()).toBe(false);
    expect(await ask(alpha, { uri: "/health", verb: "get" })).toBe(false);
  });

  it("keeps the project and offers its unsaved changes back when the window closes and opens again", async () => {
    let window = await windowWithEditedShop(alpha);
    await window.close();

    window = await openWindow(alpha);
    expect(await window.locator('[data-testid="project-name"]').textContent()).toBe(SHOP.name);
    await window.getByRole("dialog", { name: "Restore unsaved changes" }).waitFor();
    await window.getByRole("button", { name: "Restore my changes" }).click();
    await window.waitForSelector('[data-testid="unsaved"]');
    const names = (await window.evaluate(() =>
      (globalThis as unknown as { ideCore: { getProject(): { tests: Array<{ name: string }> } } }).ideCore.getProject().tests.map((t) => t.name),
    )) as string[];
    expect(names).toContain("the user's own test");
    // A new window is a new plugin session: the registration did not survive it.
    expect(await ask(alpha, { uri: "/health", verb: "get" })).toBe(false);
  });

  it("loses nothing the user had when the browser restarts the background worker", async () => {
    const window = await windowWithEditedShop(alpha);
    await takeControl(alpha, window, ALPHA);

    // Requests sent while the worker stops and starts again: the new worker queues them and
    // forwards them to the window, which also got them itself. Each is answered, and handled once.
    await stopIdeWorker(window);
    const during = await Promise.all(
      Array.from({ length: 20 }, (_, i) => ask(alpha, { uri: "/log", verb: "post", message: `around restart ${i}` })),
    );
    expect(during).toEqual(Array(20).fill(true));
    expect(stoppedVersions()).toContain("stopped");
    const after = await Promise.all(
      Array.from({ length: 20 }, (_, i) => ask(alpha, { uri: "/log", verb: "post", message: `after restart ${i}` })),
    );
    expect(after).toEqual(Array(20).fill(true));
    await window.getByText("after restart 19").waitFor();
    expect(await window.locator('[data-testid="log-entry"]', { hasText: "around restart" }).count()).toBe(20);
    expect(await window.locator('[data-testid="log-entry"]', { hasText: "after restart" }).count()).toBe(20);

    expect(await ask(alpha, { uri: "/health", verb: "get" })).toBe(true);
    expect(await ask(alpha, { uri: "/project", verb: "get" })).toEqual({ id: SHOP.id, name: SHOP.name });
    expect(errorCodeOf(await ask(beta, { uri: "/log", verb: "post", message: "still locked?" }))).toBe(
      "CannotAccessInControlMode",
    );
    await window.waitForSelector('[data-testid="unsaved"]');
    expect(await window.locator('[data-testid="control-banner"]').textContent()).toContain(ALPHA.name);
    // The door held while the port was made again, and answers again.
    await expect.poll(() => window.locator('[data-testid="chart-value-windowDoor"]').textContent()).toBe('"answering"');

    // The new worker answers for a closed window just as the old one did.
    await window.close();
    expect(errorCodeOf(await ask(alpha, { uri: "/health", verb: "get" }))).toBe("IdeNotActive");
  });

  it("resolves locators in the tab under test again after it navigates, and says NoPage for a tab it cannot search", async () => {
    await openWindow(alpha);
    const location = { uri: "/playback/location", verb: "get", location: "id=user" };
    expect(await ask(alpha, location)).toBe("//input[@id='user']");
    // A navigation drops the content script; the next request puts it back.
    await ide.tab.goto(`${ide.site.origin}/again`);
    expect(await ask(alpha, location)).toBe("//input[@id='user']");
    await ide.tab.goto("chrome://version");
    const reply = await ask(alpha, location);
    expect(errorCodeOf(reply)).toBe("NoPage");
    expect((reply as { error: string }).error).toMatch(/chrome:\/\/.*active tab of a browser window/);
  });
});

describe("the README's example plugin (examples/plugin-extension)", () => {
  it("opens the IDE, registers and logs, and the IDE window shows its message", async () => {
    const exampleDir = new URL("examples/plugin-extension/", ROOT).pathname;
    await ide.context.close();
    ide.context = await launchWithExtensions(profileDir(), [ide.ideDir, exampleDir]);
    await workerOf(ide.context, IDE_EXTENSION_ID);
    // Unpacked without a key, the example's id comes from its folder: find it by its worker.
    const example = await workerWhere(ide.context, (w) => !w.url().includes(IDE_EXTENSION_ID), "the example plugin");
    const opened = ide.context.waitForEvent("page", { predicate: (p) => p.url() === IDE_PAGE_URL });
    const replies = await example.evaluate("hello()");
    expect(replies).toEqual({ open: true, health: false, register: true, strategy: true, log: true });
    const window = watchWindow(await opened);
    await window.getByText("Hello from my plugin").waitFor();
  });
});

