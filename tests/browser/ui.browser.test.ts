// The IDE UI in real headless Chromium, against the real host: a plugin talks to the IDE
// through the typed client while the test clicks the page like a user, and every check looks
// at what the page shows and, where it matters, at the IDE's own state. Runs that need what
// the host lacks (a page under test, a plugin in this process that holds its answers) get an
// IDE the test builds itself, served with the same UI server. One test writes the README's
// screenshot (docs/ui.png, with `npm run screenshot`).
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { WebSocket, WebSocketServer } from "ws";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { connectPlugin } from "../../client/index.ts";
import type { PluginClient } from "../../client/index.ts";
import { machineCharts } from "../../drivers/view/charts.ts";
import type { ChartState } from "../../drivers/view/messages.ts";
import { launchChromium } from "../../drivers/host/chromium.ts";
import { startHost } from "../../apps/host/host.ts";
import type { Host, HostOptions } from "../../apps/host/host.ts";
import { createUiServer } from "../../apps/host/ui.ts";
import { createIde } from "../../index.ts";
import type { Ide } from "../../index.ts";
import type { HostMessage } from "../../ui/protocol.ts";
import { fakeExecutor } from "../support/executor.ts";
import { freshNpmStart } from "../support/freshHost.ts";
import type { FreshHost } from "../support/freshHost.ts";
import { killLeftovers } from "../support/processes.ts";
import { openTab, pickTest, shownTestId, suitesList, testNames } from "../support/idePage.ts";

const ROOT = new URL("../../", import.meta.url);
const SHOP = JSON.parse(readFileSync(new URL("examples/shop.side", ROOT), "utf8")) as {
  id: string;
  name: string;
  tests: Array<{ id: string; name: string; commands: Array<{ id: string; command: string; target: string; value: string }> }>;
  suites: Array<{ id: string; name: string; tests: string[] }>;
};
// Every run takes the picture; `npm run screenshot` keeps it as the README's docs/ui.png
// (it shows the time, so writing it on every test run would change a tracked file each time).
const SCREENSHOT = process.env.UPDATE_SCREENSHOT
  ? fileURLToPath(new URL("docs/ui.png", ROOT))
  : join(mkdtempSync(join(tmpdir(), "ide-core-ui-")), "ui.png");

const OTHER_PROJECT = {
  id: "p-other",
  name: "Other project",
  tests: [{ id: "t-other", name: "opens the other page", commands: [{ id: "o-1", command: "open", target: "/other" }] }],
};

const VISUAL = { name: "Visual checks", version: "1.2.0" };
/** The same plugin, declaring the commands it executes in a run (CONTRACT section 10). */
const EYES = {
  ...VISUAL,
  commands: [
    { id: "eyesOpen", name: "open the eyes" },
    { id: "eyesCheckWindow", name: "check the window" },
    { id: "eyesCheckRegion", name: "check a region" },
    { id: "eyesClose", name: "close the eyes" },
  ],
};

/**
 * A project the host can play without a page under test: the IDE's own commands and the
 * plugin's. The first test stores a variable and hands it to the plugin; a suite plays both.
 */
const VISUAL_PROJECT = {
  id: "p-visual",
  name: "Visual checks of the shop",
  tests: [
    {
      id: "t-pages",
      name: "checks the pages",
      commands: [
        { id: "v-store", command: "store", target: "home", value: "page" },
        { id: "v-open", command: "eyesOpen", target: "${page}", value: "" },
        { id: "v-check", command: "eyesCheckWindow", target: "the ${page} page", value: "" },
        { id: "v-echo", command: "echo", target: "checked ${page}", value: "" },
        { id: "v-close", command: "eyesClose", target: "", value: "" },
      ],
    },
    {
      id: "t-cart",
      name: "checks the cart",
      commands: [
        { id: "w-open", command: "eyesOpen", target: "cart", value: "" },
        { id: "w-check", command: "eyesCheckRegion", target: "css=.cart-count", value: "" },
      ],
    },
  ],
  suites: [{ id: "s-visual", name: "Visual suite", tests: ["t-pages", "t-cart"] }],
};

/** The README's picture: a plugin's visual checks, with variables, in a project of two tests and a suite. */
const SCREENSHOT_PROJECT = {
  id: "p-shop-visual",
  name: "Shop checkout",
  tests: [
    {
      id: "t-login-visual",
      name: "checks the login page",
      commands: [
        { id: "s-user", command: "store", target: "alice", value: "user" },
        { id: "s-cart", command: "storeJson", target: '{"items":2,"coupon":null}', value: "cart" },
        { id: "s-open", command: "eyesOpen", target: "Shop checkout", value: "" },
        { id: "s-login", command: "eyesCheckWindow", target: "login page for ${user}", value: "" },
        { id: "s-region", command: "eyesCheckRegion", target: "css=.cart-count", value: "" },
        { id: "s-echo", command: "echo", target: "the cart holds ${cart.items} items", value: "" },
        { id: "s-close", command: "eyesClose", target: "", value: "" },
      ],
    },
    VISUAL_PROJECT.tests[1],
  ],
  suites: [{ id: "s-all", name: "Every check", tests: ["t-login-visual", "t-cart"] }],
};

/** Long enough that a plugin command the test holds never times out on a busy machine. */
const PATIENT = { deliverTimeoutMs: 120_000 };

let browser: Browser;
let host: Host;
let context: BrowserContext;
let page: Page;
let plugins: PluginClient[];
let pageErrors: string[];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function start(options: HostOptions = {}) {
  host = await startHost({ port: 0, tokenFile: null, project: SHOP, ...options });
}

beforeEach(async () => {
  plugins = [];
  pageErrors = [];
  await start();
  context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
});

afterEach(async () => {
  await context?.close();
  await served?.close();
  served = null;
  await Promise.all(plugins.map((p) => p.disconnect().catch(() => {})));
  await host?.close();
  // A script error in the page is a failure even when the test's own checks passed.
  expect(pageErrors).toEqual([]);
});

async function openUi() {
  await page.goto(host.urls.ui);
  await page.waitForSelector('[data-testid="connection"]:text-is("connected")');
  await page.waitForSelector('[data-testid="project-name"]');
}

async function plugin(id: string, registration: { name: string; version: string } | null = VISUAL) {
  const client = await connectPlugin({ url: host.urls.plugins, id, token: host.token });
  plugins.push(client);
  if (registration) expect(await client.register(registration)).toBe(true);
  return client;
}

interface ExecuteMessage {
  action: "execute";
  command: { command: string; target: string; value: string };
  options: { commandId: string; runId: string; testId: string };
}

/**
 * A plugin in the same process, reached through the IDE's `deliver`: it answers events with
 * `true`, and executes its commands at once with `true` or what `answers` says for a command
 * id, except the commands it was told to hold: those wait until the test releases them, so
 * the page can be looked at while they are pending.
 */
function inProcessPlugin(answers: Record<string, unknown> = {}) {
  const executed: ExecuteMessage[] = [];
  const heard: string[] = [];
  const held = new Set<string>();
  const waiting = new Map<string, (answer: unknown) => void>();
  const executing = (id: string) => expect.poll(() => waiting.has(id), { timeout: 20_000 }).toBe(true);
  return {
    executed,
    heard,
    deliver: async (_pluginId: string, message: unknown) => {
      const m = message as { action: string; event?: string };
      if (m.action !== "execute") {
        heard.push(m.event ?? m.action);
        return true;
      }
      const execute = m as ExecuteMessage;
      executed.push(execute);
      const id = execute.options.commandId;
      if (!held.has(id)) return Object.hasOwn(answers, id) ? answers[id] : true;
      return new Promise((resolve) => waiting.set(id, resolve));
    },
    hold: (...ids: string[]) => ids.forEach((id) => held.add(id)),
    executing,
    /** Waits until the held command is executing, then answers it. */
    async release(id: string, answer: unknown = true) {
      await executing(id);
      held.delete(id);
      const resolve = waiting.get(id)!;
      waiting.delete(id);
      resolve(answer);
    },
  };
}

interface Served {
  ide: Ide;
  url: string;
  close(): Promise<void>;
}
let served: Served | null = null;

/**
 * An IDE the test builds itself, served with the UI page as the host serves it: the host has
 * no page under test, and its plugins are other processes; here the test hands createIde a
 * fake executor, or a `deliver` that is a plugin in this process.
 */
async function serveUi(options: Parameters<typeof createIde>[0]): Promise<Served> {
  const ide = createIde({ limits: PATIENT, ...options });
  const ui = await createUiServer(ide);
  const sockets = new WebSocketServer({ noServer: true });
  const server = createServer((req, res) => {
    if (!ui.handleHttp(req, res, "test-token")) {
      res.writeHead(404);
      res.end();
    }
  });
  server.on("upgrade", (req, socket, head) => sockets.handleUpgrade(req, socket, head, (ws) => ui.acceptSocket(ws)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  served = {
    ide,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    async close() {
      ui.close();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      ide.stop();
    },
  };
  await page.goto(served.url);
  await page.waitForSelector('[data-testid="connection"]:text-is("connected")');
  await page.waitForSelector('[data-testid="project-name"]');
  return served;
}

/** The IDE of VISUAL_PROJECT (or another) with the visual checks plugin registered in this process. */
async function serveWithEyes(plugin: ReturnType<typeof inProcessPlugin>, project: unknown = VISUAL_PROJECT) {
  const { ide } = await serveUi({ project, deliver: plugin.deliver });
  expect(await ide.handle({ uri: "/register", verb: "post", payload: EYES }, { id: "plugin-eyes" })).toBe(true);
  return ide;
}

const button = (name: string) => page.getByRole("button", { name, exact: true });
const text = (selector: string) => page.locator(selector).first().textContent();
const classOf = (selector: string) => page.locator(selector).first().getAttribute("class");
const color = (selector: string, property: "color" | "backgroundColor" = "color") =>
  page
    .locator(selector)
    .first()
    .evaluate((el, p) => getComputedStyle(el)[p as "color"], property);

/** The hue in degrees of a computed `rgb(r, g, b)` colour, and whether it is a colour at all. */
function hue(rgb: string): { hue: number; saturated: boolean } {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number).map((v) => v / 255);
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  if (d === 0) return { hue: 0, saturated: false };
  let h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  h *= 60;
  if (h < 0) h += 360;
  return { hue: h, saturated: d / max > 0.5 };
}
const isRed = (rgb: string) => hue(rgb).saturated && (hue(rgb).hue < 12 || hue(rgb).hue > 345);
const isOrange = (rgb: string) => hue(rgb).saturated && hue(rgb).hue >= 20 && hue(rgb).hue <= 45;

const entry = (message: string) => `[data-testid="log-entry"]:has-text(${JSON.stringify(message)})`;
const row = (commandId: string) => `[data-testid="command-row"][data-command-id="${commandId}"]`;
const badge = (commandId: string) => `${row(commandId)} [data-testid="command-state"]`;
/** The run's variables as the page shows them: name and JSON text. */
const variables = () =>
  page
    .locator('[data-testid="variable"]')
    .evaluateAll((rows) => rows.map((r) => [r.getAttribute("data-name"), r.querySelector('[data-testid="variable-value"]')!.textContent]));

describe("the IDE UI page", () => {
  it("shows a plugin's logs as they come, errors red and warnings orange, with only http, https and mailto links clickable and no script run from a message", async () => {
    await openUi();
    const client = await plugin("plugin-logs");
    const linked =
      "Docs at https://example.org/docs, status http://example.com/status, mail mailto:help@example.org, not javascript:alert(1)";
    const hostile = `Broken <img src=x onerror="window.__pwned=1"> and <script>window.__pwned2=1</script> markup`;
    expect(await client.log("Plain information")).toBe(true);
    expect(await client.log("Disk almost full", "warn")).toBe(true);
    expect(await client.playbackLog("The step failed", "error")).toBe(true);
    expect(await client.log(linked)).toBe(true);
    expect(await client.log(hostile)).toBe(true);

    // New entries appear without a reload.
    await page.waitForSelector(entry("markup"));
    expect(isRed(await color(entry("The step failed")))).toBe(true);
    expect(await classOf(entry("The step failed"))).toContain("level-error");
    expect(isOrange(await color(entry("Disk almost full")))).toBe(true);
    expect(await classOf(entry("Disk almost full"))).toContain("level-warn");
    const info = await color(entry("Plain information"));
    expect(isRed(info) || isOrange(info)).toBe(false);

    const links = page.locator(`${entry("Docs at")} a`);
    expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute("href")))).toEqual([
      "https://example.org/docs",
      "http://example.com/status",
      "mailto:help@example.org",
    ]);
    expect(await text(`${entry("Docs at")} [data-testid="log-message"]`)).toBe(linked);
    expect(await page.locator('[data-testid="log-list"] a[href^="javascript"]').count()).toBe(0);

    // The markup in a message is text: shown as written, never parsed, never run.
    expect(await text(`${entry("markup")} [data-testid="log-message"]`)).toBe(hostile);
    expect(await page.locator('[data-testid="log-list"] img, [data-testid="log-list"] script').count()).toBe(0);
    expect(await page.evaluate(() => [(window as any).__pwned, (window as any).__pwned2])).toEqual([undefined, undefined]);
  });

  it("gives control to the plugin and shows 'Controlled by NAME (id)' when the user clicks 'Restart and allow access'", async () => {
    await openUi();
    const client = await plugin("plugin-visual", null);
    const reply = client.control(VISUAL);

    await page.waitForSelector('[data-testid="dialog"][data-kind="controlConsent"]');
    const dialog = await text('[data-testid="dialog"]');
    expect(dialog).toContain("Visual checks");
    expect(dialog).toContain("plugin-visual");
    expect(await page.locator('[data-testid="control-banner"]').count()).toBe(0);

    await button("Restart and allow access").click();
    expect(await reply).toBe(true);
    await page.waitForSelector('[data-testid="control-banner"]');
    expect(await text('[data-testid="control-banner"]')).toBe("Controlled by Visual checks (plugin-visual)");
    expect(host.ide.getSnapshot().control).toMatchObject({ mode: "controlled", controller: "plugin-visual" });
    expect(await page.locator('[data-testid="dialog"]').count()).toBe(0);
  });

  it("leaves the IDE not controlled when the user clicks 'Deny access'", async () => {
    await openUi();
    const client = await plugin("plugin-denied", null);
    const reply = client.control(VISUAL);
    await page.waitForSelector('[data-testid="dialog"][data-kind="controlConsent"]');

    await button("Deny access").click();
    expect(await reply).toBe(false);
    await page.waitForSelector('[data-testid="dialog"]', { state: "detached" });
    expect(await page.locator('[data-testid="control-banner"]').count()).toBe(0);
    expect(host.ide.getSnapshot().control).toMatchObject({ mode: "notControlled", controller: null });
  });

  it("keeps the user's unsaved changes when they click 'Keep my changes' as a plugin loads another project", async () => {
    await openUi();
    const client = await plugin("plugin-loader");
    await button("New test").click(); // an edit: the user adds a test in the editor
    await page.locator('[data-testid="test-name"]').fill("the user's own test");
    await page.locator('[data-testid="test-name"]').press("Enter");
    await page.waitForSelector('[data-testid="unsaved"]');

    const reply = client.loadProject(OTHER_PROJECT);
    await page.waitForSelector('[data-testid="dialog"][data-kind="loadProject"]');
    const dialog = await text('[data-testid="dialog"]');
    expect(dialog).toContain("Other project");
    expect(dialog).toContain("plugin-loader");
    await button("Keep my changes").click();

    expect(await reply).toBe(false);
    await page.waitForSelector('[data-testid="dialog"]', { state: "detached" });
    expect(await text('[data-testid="project-name"]')).toBe(SHOP.name);
    expect(await page.locator('[data-testid="unsaved"]').count()).toBe(1);
    expect(host.ide.getSnapshot().project).toEqual({ id: SHOP.id, name: SHOP.name, unsaved: true, path: null });
  });

  it("loads the plugin's project when the user clicks 'Load and lose unsaved changes'", async () => {
    await openUi();
    const client = await plugin("plugin-loader");
    await button("New test").click(); // an edit: the user adds a test in the editor
    await page.locator('[data-testid="test-name"]').fill("the user's own test");
    await page.locator('[data-testid="test-name"]').press("Enter");
    await page.waitForSelector('[data-testid="unsaved"]');

    const reply = client.loadProject(OTHER_PROJECT);
    await page.waitForSelector('[data-testid="dialog"][data-kind="loadProject"]');
    await button("Load and lose unsaved changes").click();

    expect(await reply).toBe(true);
    await page.waitForSelector(`[data-testid="project-name"]:has-text("${OTHER_PROJECT.name}")`);
    expect(await page.locator('[data-testid="unsaved"]').count()).toBe(0);
    await expect.poll(() => testNames(page)).toEqual(["opens the other page"]);
  });

  it("offers the unsaved changes a journal kept in 'Restore unsaved changes', with the focus on restoring, and restores them when the user clicks 'Restore my changes'", async () => {
    await host.close();
    const journalFile = join(mkdtempSync(join(tmpdir(), "ide-core-ui-journal-")), "journal.json");
    const first = await startHost({ port: 0, tokenFile: null, project: SHOP, journalFile });
    first.ide.send({ type: "user.addTest", name: "kept by the journal" });
    await first.close(); // the journal stays: nothing was saved
    await start({ journalFile });
    await openUi();
    const dialog = page.getByRole("dialog", { name: "Restore unsaved changes" });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Restore my changes");
    await button("Restore my changes").click();
    await page.waitForSelector('[data-testid="unsaved"]');
    expect(await dialog.count()).toBe(0);
    await expect.poll(() => testNames(page)).toContain("kept by the journal");
  });

  it("plays the picked test when the user presses Play, showing each command's state, the current command, the variables and the result", async () => {
    const eyes = inProcessPlugin({ "v-check": "No difference <img src=x onerror=\"window.__pwned=1\">" });
    eyes.hold("v-open", "v-close");
    const ide = await serveWithEyes(eyes);

    // Before any run: the picked test's commands, as the project has them.
    expect(await testNames(page)).toEqual(["checks the pages", "checks the cart"]);
    expect(await page.locator('[data-testid="command-row"]').evaluateAll((rows) => rows.map((r) => r.getAttribute("data-command-id")))).toEqual(
      VISUAL_PROJECT.tests[0].commands.map((c) => c.id),
    );
    expect(await text(badge("v-store"))).toBe("not run");
    expect(await page.locator('[data-testid="no-run"]').count()).toBe(1);
    await expect(button("Step").isDisabled()).resolves.toBe(true);
    await expect(button("Stop").isDisabled()).resolves.toBe(true);

    await button("Play").click();
    // The plugin's command is pending and current; the IDE's store before it passed.
    await eyes.executing("v-open");
    await page.waitForSelector(`${badge("v-open")}.state-pending`);
    await page.waitForSelector('[data-testid="run-state"]:text-is("running")');
    await openTab(page, "Variables");
    expect(await text(badge("v-store"))).toBe("passed");
    expect(await page.locator(row("v-open")).getAttribute("aria-current")).toBe("step");
    expect(await page.locator('[data-testid="command-row"][aria-current]').count()).toBe(1);
    expect(await text(badge("v-check"))).toBe("not run");
    expect(await variables()).toEqual([["page", '"home"']]);
    expect(eyes.executed[0].command).toEqual({ command: "eyesOpen", target: "home", value: "" });
    await expect(button("Play").isDisabled()).resolves.toBe(true);
    await expect(button("Step").isDisabled()).resolves.toBe(true);
    // The run machine's chart (in its tab) follows it into its nested state.
    await page.waitForSelector('[data-testid="state-testRunner.live.running.pluginCommand"][data-active="true"]', { state: "attached" });
    expect(await page.locator('[data-testid="state-testRunner.live.running"]').getAttribute("data-active")).toBe("true");
    expect(await page.locator('[data-testid="state-suiteRunner.idle"]').getAttribute("data-active")).toBe("false");

    await eyes.release("v-open");
    await eyes.executing("v-close");
    await page.waitForSelector(`${row("v-close")}[aria-current="step"]`);
    expect(await text(badge("v-open"))).toBe("passed");
    expect(await text(badge("v-check"))).toBe("passed");
    expect(await text(badge("v-echo"))).toBe("passed");
    expect(eyes.executed[1].command.target).toBe("the home page");
    // The plugin's message is text, never markup.
    expect(await text(`${row("v-check")} [data-testid="command-message"]`)).toBe('No difference <img src=x onerror="window.__pwned=1">');
    expect(await page.locator('[data-testid="commands"] img').count()).toBe(0);
    await openTab(page, "Log");
    await page.waitForSelector(entry("checked home"));

    await eyes.release("v-close");
    await page.waitForSelector('[data-testid="run-state"]:text-is("ended")');
    await page.waitForSelector('[data-testid="run-result"]:text-is("passed")');
    expect(await classOf('[data-testid="run-result"]')).toContain("result-passed");
    expect(await text(badge("v-close"))).toBe("passed");
    expect(await page.locator('[data-testid="command-row"][aria-current]').count()).toBe(0);
    await page.waitForSelector('[data-testid="state-suiteRunner.ended"][data-active="true"]', { state: "attached" });
    expect(ide.getSnapshot().playback).toMatchObject({ status: "ended", result: "passed", variables: { page: "home" } });
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    await expect(button("Play").isDisabled()).resolves.toBe(false);
  });

  it("pauses at a breakpoint the user set from the keyboard, steps one command, resumes, and stops the run", async () => {
    const eyes = inProcessPlugin();
    eyes.hold("v-close");
    const ide = await serveWithEyes(eyes);

    const toggle = page.locator(`${row("v-check")} [data-testid="breakpoint"]`);
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
    expect(await toggle.getAttribute("aria-label")).toBe("Breakpoint before command 3, eyesCheckWindow");
    await toggle.focus();
    await page.keyboard.press("Space");
    await page.waitForSelector(`${row("v-check")} [data-testid="breakpoint"][aria-pressed="true"]`);
    expect(ide.getSnapshot().runControls.breakpoints).toEqual(["v-check"]);
    // The focus stays on the toggle and shows.
    expect(await toggle.evaluate((el) => el === document.activeElement && el.matches(":focus-visible"))).toBe(true);
    expect(await toggle.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe("solid");

    await button("Play").click();
    await page.waitForSelector('[data-testid="run-state"]:text-is("paused")');
    expect(await page.locator(row("v-check")).getAttribute("aria-current")).toBe("step");
    expect(await text(badge("v-check"))).toBe("not run");
    expect(await text(badge("v-open"))).toBe("passed");
    expect(await text('[data-testid="paused-at"]')).toContain("before command 3, eyesCheckWindow");
    expect(eyes.executed.map((e) => e.options.commandId)).toEqual(["v-open"]);
    await expect(button("Step").isDisabled()).resolves.toBe(false);
    await expect(button("Resume").isVisible()).resolves.toBe(true);
    await page.waitForSelector('[data-testid="state-testRunner.live.paused"][data-active="true"]', { state: "attached" });

    // Step: the command at the breakpoint runs, and the run pauses before the next.
    await button("Step").click();
    await page.waitForSelector(`${row("v-echo")}[aria-current="step"]`);
    await page.waitForSelector('[data-testid="run-state"]:text-is("paused")');
    expect(await text(badge("v-check"))).toBe("passed");
    expect(await text(badge("v-echo"))).toBe("not run");

    // Resume: on to the held command, which Stop leaves undetermined.
    await button("Resume").click();
    await eyes.executing("v-close");
    await page.waitForSelector(`${badge("v-close")}.state-pending`);
    await page.waitForSelector('[data-testid="run-state"]:text-is("running")');
    expect(await text(badge("v-echo"))).toBe("passed");
    await button("Stop").click();
    await page.waitForSelector('[data-testid="run-state"]:text-is("ended")');
    await page.waitForSelector(`${badge("v-close")}.state-undetermined`);
    expect(ide.getSnapshot().playback).toMatchObject({ status: "ended", running: false });
    await expect(button("Stop").isDisabled()).resolves.toBe(true);

    // The breakpoint stays until the user removes it.
    expect(await toggle.getAttribute("aria-pressed")).toBe("true");
    await toggle.click();
    await page.waitForSelector(`${row("v-check")} [data-testid="breakpoint"][aria-pressed="false"]`);
    expect(ide.getSnapshot().runControls.breakpoints).toEqual([]);
  });

  it("changes the delay between commands, refuses one out of range, and plays with it", async () => {
    const ide = await serveWithEyes(inProcessPlugin());
    const delay = page.locator('[data-testid="delay"]');
    expect(await delay.inputValue()).toBe("0");
    expect(await delay.getAttribute("min")).toBe("0");
    expect(await delay.getAttribute("max")).toBe("10000");

    await delay.fill("20000");
    await delay.press("Enter");
    await page.waitForSelector('[data-testid="delay-problem"]');
    expect(await delay.getAttribute("aria-invalid")).toBe("true");
    expect(ide.getSnapshot().runControls.delayMs).toBe(0);

    // The longest delay: after its first command the run is waiting, long enough to see it.
    await delay.fill("10000");
    await delay.press("Enter");
    await expect.poll(() => ide.getSnapshot().runControls.delayMs).toBe(10_000);
    expect(await page.locator('[data-testid="delay-problem"]').count()).toBe(0);
    expect(await delay.inputValue()).toBe("10000");
    await button("Play").click();
    await page.waitForSelector('[data-testid="state-testRunner.live.running.waiting"][data-active="true"]', { state: "attached" });
    expect(await text(badge("v-store"))).toBe("passed");
    expect(await text(badge("v-open"))).toBe("not run");
    expect(ide.getSnapshot().playback?.delayMs).toBe(10_000);
    await button("Stop").click();
    await page.waitForSelector('[data-testid="run-state"]:text-is("ended")');
    expect(await text(badge("v-store"))).toBe("passed");
    expect(await text(badge("v-check"))).toBe("not run");

    await delay.fill("250");
    await delay.blur();
    await expect.poll(() => ide.getSnapshot().runControls.delayMs).toBe(250);
  });

  it("plays the picked suite of a plugin's commands through the host, showing which of its tests is playing, and its result", async () => {
    await host.close();
    await start({ project: VISUAL_PROJECT, limits: PATIENT });
    await openUi();
    // A plugin in its own connection to the host's bridge; eyesOpen waits until the test lets it go.
    const client = await plugin("plugin-eyes", EYES);
    const opened = new Map<string, () => void>();
    client.onCommand("eyesOpen", (_command, options) => new Promise((resolve) => opened.set(options.commandId, () => resolve(true))));
    client.onCommand("eyesCheckWindow", () => "No difference");
    client.onCommand("eyesCheckRegion", () => ({ error: "The cart count differs" }));
    client.onCommand("eyesClose", () => true);
    const eyes = {
      executing: (id: string) => expect.poll(() => opened.has(id), { timeout: 20_000 }).toBe(true),
      async release(id: string) {
        await eyes.executing(id);
        opened.get(id)!();
      },
    };
    const ide = host.ide;
    await page.waitForSelector('[data-testid="plugin"][data-plugin-id="plugin-eyes"]');
    expect(await suitesList(page).locator('[data-testid="suite-item"]').evaluateAll((items) => items.map((i) => i.getAttribute("data-suite-id")))).toEqual(["s-visual"]);

    await button("Play suite").click();
    await eyes.executing("v-open");
    await page.waitForSelector('[data-testid="run-suite"]:has-text("test 1 of 2")');
    expect(await text('[data-testid="run-suite"]')).toBe("Suite Visual suite: test 1 of 2");
    // The table follows the suite's test while the run is under way, and Play waits for it to end.
    expect(await shownTestId(page)).toBe("t-pages");
    expect(await button("Play").isDisabled()).toBe(true);
    await eyes.release("v-open");

    // The suite's next test replaces the rows; the page follows it.
    await eyes.executing("w-open");
    await page.waitForSelector('[data-testid="run-suite"]:has-text("test 2 of 2")');
    await page.waitForSelector(`${badge("w-open")}.state-pending`);
    expect(await shownTestId(page)).toBe("t-cart");
    expect(await text('[data-testid="run-status"] strong')).toBe("checks the cart");
    expect(await page.locator(row("v-open")).count()).toBe(0);
    await eyes.release("w-open");

    await page.waitForSelector('[data-testid="run-result"]:text-is("failed")');
    expect(await classOf('[data-testid="run-result"]')).toContain("result-failed");
    expect(await text(badge("w-check"))).toBe("failed");
    expect(await text(`${row("w-check")} [data-testid="command-message"]`)).toBe("The cart count differs");
    expect(isRed(await color(badge("w-check"), "backgroundColor"))).toBe(true);
    expect(ide.getSnapshot().playback).toMatchObject({ status: "ended", result: "failed", suite: { id: "s-visual", testIndex: 1 } });
  });

  it("plays page commands through the IDE's executor: passed, pending while the page works, failed, and the rest not run", async () => {
    let letGo!: () => void;
    const typing = new Promise<void>((resolve) => (letGo = resolve));
    const executor = fakeExecutor({
      answer: ({ command }) =>
        command.id === "c-user"
          ? typing.then(() => ({ state: "passed" as const }))
          : command.command === "click"
            ? { state: "failed", message: `Element ${command.target} not found` }
            : undefined,
    });
    await serveUi({ project: SHOP, executor });
    {
      await pickTest(page, SHOP.tests.find((t) => t.id === "t-login")!.name);
      await button("Play").click();
      await page.waitForSelector(`${badge("c-user")}.state-pending`);
      expect(await text(badge("c-open"))).toBe("passed");
      expect(await page.locator(row("c-user")).getAttribute("aria-current")).toBe("step");
      letGo();
      await page.waitForSelector('[data-testid="run-result"]:text-is("failed")');
      expect(await text(badge("c-user"))).toBe("passed");
      expect(await text(badge("c-pass"))).toBe("passed");
      expect(await text(badge("c-submit"))).toBe("failed");
      expect(await text(`${row("c-submit")} [data-testid="command-message"]`)).toBe("Element css=button[type=submit] not found");
      expect(await text(badge("c-check"))).toBe("not run");
      expect(executor.executed.map((e) => e.id)).toEqual(["c-open", "c-user", "c-pass", "c-submit"]);
    }
  });

  it("highlights each machine's current state in its statechart and moves the highlight when control mode changes", async () => {
    await openUi();
    await openTab(page, "Statecharts");
    const state = (path: string) => `[data-testid="state-${path}"]`;
    for (const chart of ["ide", "control", "projectFile", "editor", "suiteRunner", "recording", "pointing", "testRunner"]) {
      await page.waitForSelector(`[data-testid="diagram-${chart}"]`);
    }
    expect(await classOf(state("recording.idle"))).toContain("active");
    expect(await classOf(state("control.notControlled"))).toContain("active");
    expect(await page.locator(state("control.notControlled")).getAttribute("data-active")).toBe("true");
    expect(await page.locator(state("control.notControlled")).getAttribute("aria-current")).toBe("true");
    expect(await classOf(state("control.controlled"))).not.toContain("active");
    expect(await page.locator(state("control.controlled")).getAttribute("data-active")).toBe("false");
    expect(await classOf(state("ide.open"))).toContain("active");
    // Parallel regions are both active at once.
    expect(await classOf(state("projectFile.dialog.idle"))).toContain("active");
    expect(await classOf(state("projectFile.saving.idle"))).toContain("active");
    // The current state is filled and outlined in the highlight colour; the others are not.
    const box = (path: string) => `${state(path)} > rect.state-box`;
    const boxColours = (path: string) =>
      page.locator(box(path)).evaluate((el) => [getComputedStyle(el).fill, getComputedStyle(el).stroke, getComputedStyle(el).strokeWidth]);
    const [activeFill, activeStroke, activeWidth] = await boxColours("control.notControlled");
    const [idleFill, idleStroke, idleWidth] = await boxColours("control.controlled");
    expect(hue(activeStroke)).toMatchObject({ saturated: true });
    expect(activeFill).not.toBe(idleFill);
    expect(activeStroke).not.toBe(idleStroke);
    expect(parseFloat(activeWidth)).toBeGreaterThan(parseFloat(idleWidth));
    // Each state's accessible description lists its transitions, read from the machine itself,
    // and the drawing has the arrow: from notControlled to awaitingConsent, labelled with the event.
    expect(await text(state("control.notControlled"))).toContain("request.control → awaitingConsent");
    const arrow = '[data-testid="edge"][data-source="control.notControlled"][data-target="control.awaitingConsent"]';
    expect(await page.locator(`${arrow} path.edge-path`).getAttribute("d")).toMatch(/^M[\d.]+,[\d.]+ L/);
    expect(
      await page
        .locator('[data-testid="transition"][data-source="control.notControlled"][data-target="control.awaitingConsent"]')
        .allTextContents(),
    ).toEqual(["request.control"]);

    // The highlight moves on the same drawing: nothing is laid out again.
    const diagram = await page.locator('[data-testid="diagram-control"]').elementHandle();
    const geometry = () =>
      page
        .locator('[data-testid="diagram-control"] rect.state-box')
        .evaluateAll((rects) => rects.map((r) => ["x", "y", "width", "height"].map((a) => r.getAttribute(a)).join(" ")));
    const before = await geometry();
    const client = await plugin("plugin-chart", null);
    const reply = client.control(VISUAL);
    await page.waitForSelector(`${state("control.awaitingConsent")}.active`);
    expect(await classOf(state("control.notControlled"))).not.toContain("active");
    await button("Restart and allow access").click();
    expect(await reply).toBe(true);
    await page.waitForSelector(`${state("control.controlled")}.active`);
    expect(await classOf(state("control.awaitingConsent"))).not.toContain("active");
    expect(await page.locator(state("control.controlled")).getAttribute("aria-current")).toBe("true");
    expect(await diagram!.evaluate((el) => el.isConnected)).toBe(true);
    expect(await geometry()).toEqual(before);
    expect(await page.locator('[data-testid^="chart-pending-"]').count()).toBe(0);
  });

  it("draws every transition of every machine as a labelled arrow from its source state to its target, under the page's policy", async () => {
    const consoleErrors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    await openUi();
    await openTab(page, "Statecharts");
    const charts = machineCharts(host.ide);
    for (const chart of charts) await page.waitForSelector(`[data-testid="diagram-${chart.actor}"]`);

    const statesOf = (s: ChartState): ChartState[] => [s, ...s.states.flatMap(statesOf)];
    for (const chart of charts) {
      for (const s of statesOf(chart.root)) {
        const box = page.locator(`[data-testid="state-${s.path}"]`);
        expect(await box.count(), s.path).toBe(1);
        for (const t of s.transitions) {
          const others = t.targets.filter((target) => target !== s.path);
          // One line says it: the event alone (an unguarded sibling covers every case), or the event with this guard.
          const lines = async (selector: string) =>
            (await page.locator(`${selector}:not([data-guard])`).count()) +
            (t.guard === null ? 0 : await page.locator(`${selector}[data-guard="${t.guard}"]`).count());
          if (others.length === 0) {
            // Staying (or re-entering): written inside the state's own box.
            const inBox = `[data-testid="state-${s.path}"] > [data-testid="state-transition"][data-event="${t.event}"]`;
            expect(await lines(inBox), `${s.path}: ${t.event}`).toBe(1);
          }
          for (const target of others) {
            const label = `[data-testid="transition"][data-source="${s.path}"][data-target="${target}"][data-event="${t.event}"]`;
            expect(await lines(label), `${s.path} --${t.event}${t.guard ? ` [${t.guard}]` : ""}--> ${target}`).toBe(1);
          }
        }
      }
    }

    // Every arrow starts on its source's outline and its head touches its target's.
    const misplaced = await page.locator('[data-testid="edge"]').evaluateAll((edges) => {
      const rectOf = (path: string) => {
        const r = document.querySelector(`[data-testid="state-${path}"] > rect.state-box`)!;
        const [x, y, width, height] = ["x", "y", "width", "height"].map((a) => Number(r.getAttribute(a)));
        return { x, y, width, height };
      };
      const offBorder = (p: { x: number; y: number }, b: { x: number; y: number; width: number; height: number }) => {
        const dx = Math.max(b.x - p.x, 0, p.x - (b.x + b.width));
        const dy = Math.max(b.y - p.y, 0, p.y - (b.y + b.height));
        if (dx > 0 || dy > 0) return Math.hypot(dx, dy);
        return Math.min(p.x - b.x, b.x + b.width - p.x, p.y - b.y, b.y + b.height - p.y);
      };
      const first = (d: string) => {
        const [x, y] = /^M([-\d.]+),([-\d.]+)/.exec(d)!.slice(1).map(Number);
        return { x, y };
      };
      return edges
        .filter((edge) => {
          const start = first(edge.querySelector("path.edge-path")!.getAttribute("d")!);
          const tip = first(edge.querySelector("path.edge-head")!.getAttribute("d")!);
          return (
            offBorder(start, rectOf(edge.getAttribute("data-source")!)) > 1.5 ||
            offBorder(tip, rectOf(edge.getAttribute("data-target")!)) > 1.5
          );
        })
        .map((edge) => `${edge.getAttribute("data-source")} -> ${edge.getAttribute("data-target")}`);
    });
    expect(misplaced).toEqual([]);
    expect(await page.locator('[data-testid="edge"]').count()).toBeGreaterThan(10);

    // Labels are readable: none is drawn over another.
    const overlapping = await page.locator("svg.statechart").evaluateAll((svgs) =>
      svgs.flatMap((svg) => {
        const boxes = [...svg.querySelectorAll("rect.edge-label-box")].map((r) => r.getBoundingClientRect());
        const hits: string[] = [];
        boxes.forEach((a, i) =>
          boxes.slice(i + 1).forEach((b) => {
            if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) {
              hits.push(`${svg.getAttribute("data-testid")} label ${i}`);
            }
          }),
        );
        return hits;
      }),
    );
    expect(overlapping).toEqual([]);
    // ELK ran in the page without anything the Content-Security-Policy refuses (eval, workers, inline styles).
    expect(consoleErrors).toEqual([]);
  });

  it("hides the entries that the group and level filters leave out", async () => {
    await openUi();
    const client = await plugin("plugin-filters");
    await client.log("system info");
    await client.log("system warning", "warn");
    await client.playbackLog("playback info");
    await client.playbackLog("playback error", "error");
    await page.waitForSelector(entry("playback error"));
    const visible = () =>
      page
        .locator('[data-testid="log-entry"]')
        .evaluateAll((els) => els.map((el) => [el.getAttribute("data-group"), el.getAttribute("data-level"), el.textContent]));
    const ours = async () => (await visible()).filter(([, , t]) => t?.includes("plugin-filters"));

    await page.locator('[data-testid="log-group-filter"]').selectOption("playback");
    await expect.poll(async () => (await visible()).every(([group]) => group === "playback")).toBe(true);
    expect((await ours()).map(([, level]) => level)).toEqual(["info", "error"]);

    await page.locator('[data-testid="log-group-filter"]').selectOption("system");
    await expect.poll(async () => (await visible()).every(([group]) => group === "system")).toBe(true);
    expect((await ours()).map(([, level]) => level)).toEqual(["info", "warn"]);

    await page.locator('[data-testid="log-group-filter"]').selectOption("all");
    await page.locator('[data-testid="log-level-filter"]').selectOption("warn");
    await expect.poll(async () => (await visible()).every(([, level]) => level === "warn" || level === "error")).toBe(true);
    expect((await ours()).map(([, level]) => level)).toEqual(["warn", "error"]);

    await page.locator('[data-testid="log-level-filter"]').selectOption("error");
    await expect.poll(async () => (await visible()).every(([, level]) => level === "error")).toBe(true);
    expect((await ours()).map(([group, level]) => `${group} ${level}`)).toEqual(["playback error"]);

    await page.locator('[data-testid="log-level-filter"]').selectOption("all");
    await expect.poll(async () => (await ours()).length).toBe(4);
  });

  it("closes and opens the IDE window with its buttons", async () => {
    await openUi();
    const client = await plugin("plugin-window");
    await button("Close the IDE").click();
    await page.waitForSelector('[data-testid="window-state"]:has-text("Window closed")');
    await page.waitForSelector('[data-testid="closed-notice"]');
    expect(host.ide.getSnapshot().window).toBe("closed");
    expect(await client.health()).toMatchObject({ errorCode: "IdeNotActive" });

    await button("Open the IDE").click();
    await page.waitForSelector('[data-testid="window-state"]:has-text("Window open")');
    expect(host.ide.getSnapshot().window).toBe("open");
    // A fresh plugin session: the plugin must register again.
    expect(await client.health()).toBe(false);
    expect(await page.locator('[data-testid="closed-notice"]').count()).toBe(0);
  });

  it("changes the project's locator order with the Move up and Move down buttons and its test-id attributes, and the project becomes unsaved", async () => {
    await openUi();
    await page.getByText("Locator order", { exact: true }).click();
    const order = page.getByRole("list", { name: "Locator order" });
    expect(await order.locator("code").first().textContent()).toBe("css:testId");
    expect(await page.getByRole("button", { name: "Move css:testId up" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Move css:data-attr up" }).click();
    await page.waitForFunction(() => document.querySelector('[aria-label="Locator order"] code')?.textContent === "css:data-attr");
    expect(host.ide.getSnapshot().recordingSettings.locatorOrder.slice(0, 2)).toEqual(["css:data-attr", "css:testId"]);
    await page.getByRole("button", { name: "Move css:data-attr down" }).click();
    await page.waitForFunction(() => document.querySelector('[aria-label="Locator order"] code')?.textContent === "css:testId");

    await page.getByRole("textbox", { name: "Test-id attributes" }).fill("data-e2e, data-testid");
    await page.getByRole("button", { name: "Apply" }).click();
    await vi.waitFor(() => expect(host.ide.getSnapshot().recordingSettings.testIdAttributes).toEqual(["data-e2e", "data-testid"]), { timeout: 10_000 });
    expect(host.ide.getSnapshot().project.unsaved).toBe(true);
    await page.waitForSelector('[data-testid="unsaved"]');
  });

  it("turns healing off and on with the checkbox beside the locator order, and the project becomes unsaved", async () => {
    await openUi();
    const heal = page.getByRole("checkbox", { name: "Heal broken locators at playback" });
    expect(await heal.isChecked()).toBe(true);
    expect(host.ide.getSnapshot().project.unsaved).toBe(false);
    await heal.click();
    await vi.waitFor(() => expect(host.ide.getSnapshot().healing.project).toBe(false), { timeout: 10_000 });
    expect(host.ide.getProject().heal).toBe(false);
    expect(host.ide.getSnapshot().project.unsaved).toBe(true);
    await page.waitForSelector('[data-testid="unsaved"]');
    expect(await heal.isChecked()).toBe(false);
    await heal.click();
    await vi.waitFor(() => expect(host.ide.getSnapshot().healing.project).toBe(true), { timeout: 10_000 });
    expect(host.ide.getProject()).not.toHaveProperty("heal");
    expect(await page.locator('[data-testid="heal-forced-off"]').count()).toBe(0);

    // npm start --no-heal: the page says healing is off whatever the checkbox says.
    await host.close();
    await start({ heal: false });
    await openUi();
    expect(await page.getByTestId("heal-forced-off").textContent()).toContain("--no-heal");
  });

  it("loads a .side file the user picks", async () => {
    await openUi();
    await page.locator('[data-testid="load-file"]').setInputFiles({
      name: "other.side",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(OTHER_PROJECT)),
    });
    await page.waitForSelector(`[data-testid="project-name"]:has-text("${OTHER_PROJECT.name}")`);
    expect(await text('[data-testid="project-id"]')).toBe(OTHER_PROJECT.id);
    expect(host.ide.getSnapshot().project).toEqual({ id: OTHER_PROJECT.id, name: OTHER_PROJECT.name, unsaved: false, path: null });
    await expect.poll(() => testNames(page)).toEqual(["opens the other page"]);
    expect(await page.locator('[data-testid="load-error"]').count()).toBe(0);
  });

  it("says clearly when a picked file is not JSON, and shows the IDE's reason when it is JSON but not a project", async () => {
    await openUi();
    await page.locator('[data-testid="load-file"]').setInputFiles({
      name: "broken.side",
      mimeType: "application/json",
      buffer: Buffer.from('{ "id": "p", "name": '),
    });
    await page.waitForSelector('[data-testid="load-error"]');
    const error = await text('[data-testid="load-error"]');
    expect(error).toContain("broken.side");
    expect(error).toContain("not valid JSON");
    expect(host.ide.getSnapshot().project.name).toBe(SHOP.name);

    await page.locator('[data-testid="load-file"]').setInputFiles({
      name: "not-a-project.side",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify({ name: "No id, no tests" })),
    });
    await page.waitForSelector(entry("not a usable .side project"));
    expect(await classOf(entry("not a usable .side project"))).toContain("level-error");
    expect(await page.locator('[data-testid="load-error"]').count()).toBe(0);
    expect(host.ide.getSnapshot().project.name).toBe(SHOP.name);
  });

  it("shows a controlled IDE with its plugin, logs and a running test case at once (the README's screenshot)", async () => {
    const eyes = inProcessPlugin({ "s-login": "Matches the baseline" });
    eyes.hold("s-region");
    const { ide } = await serveUi({ project: SCREENSHOT_PROJECT, deliver: eyes.deliver });
    const id = "jgnfghanfbjmimbdmnjfofnbcgpkbegj";
    const ask = (message: Record<string, unknown>) => ide.handle(message, { id });
    const reply = ask({ uri: "/control", verb: "post", payload: EYES });
    await page.waitForSelector('[data-testid="dialog"][data-kind="controlConsent"]');
    await button("Restart and allow access").click();
    expect(await reply).toBe(true);

    await ask({ uri: "/log", verb: "post", message: "Connected to the visual grid; results at https://example.org/results/42" });
    await ask({ uri: "/log", verb: "post", type: "warn", message: "The baseline for 'checks the login page' is 3 days old" });
    await page.locator(`${row("s-echo")} [data-testid="breakpoint"]`).click();
    await page.waitForSelector(`${row("s-echo")} [data-testid="breakpoint"][aria-pressed="true"]`);
    await button("Play").click();
    await eyes.executing("s-region");
    await ask({ uri: "/playback/log", verb: "post", type: "warn", message: "The region css=.cart-count is still loading; waiting for it" });
    await ask({ uri: "/playback/log", verb: "post", message: "Questions? mailto:qa@example.org" });

    await page.waitForSelector(`${badge("s-region")}.state-pending`);
    await page.waitForSelector('[data-testid="variable"][data-name="cart"]', { state: "attached" });
    await page.waitForSelector('[data-testid="diagram-suiteRunner"]', { state: "attached" });
    await page.waitForSelector('[data-testid="state-testRunner.live.running.pluginCommand"][data-active="true"]', { state: "attached" });
    await page.waitForSelector('[data-testid="control-banner"]');
    await page.waitForSelector(entry("mailto:qa@example.org"));
    await page.waitForSelector('[data-testid="plugin"][data-plugin-id="jgnfghanfbjmimbdmnjfofnbcgpkbegj"]');
    expect(await text('[data-testid="control-banner"]')).toBe("Controlled by Visual checks (jgnfghanfbjmimbdmnjfofnbcgpkbegj)");
    await page.mouse.move(0, 0); // no hover highlight in the picture
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    const png = await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect(readFileSync(SCREENSHOT).equals(png)).toBe(true);
  });

  it("keeps showing the newest entries of each group when old ones fall off the log's cap", async () => {
    await host.close();
    await start({ limits: { logEntriesPerGroup: 5 } });
    await openUi();
    const client = await plugin("plugin-flood");
    for (let i = 1; i <= 5; i++) await client.log(`flood ${i}`);
    await client.playbackLog("playback survivor");
    await page.waitForSelector(entry("playback survivor"));
    // The page has flood 1 to 5; seven more in one turn (so one update carries them all) push
    // them out of the IDE's log, while the last entry the page saw stays.
    const flood = [6, 7, 8, 9, 10, 11, 12].map((i) =>
      host.ide.handle({ uri: "/log", verb: "post", message: `flood ${i}` }, { id: "plugin-flood" }),
    );
    expect(await Promise.all(flood)).toEqual(flood.map(() => true));
    await page.waitForSelector(entry("flood 12"));
    const messages = () =>
      page.locator('[data-testid="log-entry"] [data-testid="log-message"]').allTextContents();
    // The system group keeps its newest 5; the playback entry, in its own group, stays.
    await expect.poll(messages).toEqual(["playback survivor", "flood 8", "flood 9", "flood 10", "flood 11", "flood 12"]);
    expect(host.ide.getSnapshot().logs.map((e) => e.message)).toEqual(await messages());
  });

  it("says 'disconnected' while the host is gone and catches up when it is back", async () => {
    await openUi();
    const first = await plugin("plugin-before");
    await first.log("from the first host");
    await page.waitForSelector(entry("from the first host"));
    const { port, token } = host;
    await host.close();
    await page.waitForSelector('[data-testid="connection"]:has-text("disconnected")');
    // The page keeps what it had while it waits.
    expect(await page.locator(entry("from the first host")).count()).toBe(1);

    await start({ port, token });
    await page.waitForSelector('[data-testid="connection"]:text-is("connected")', { timeout: 15_000 });
    const second = await plugin("plugin-after");
    await second.log("from the second host");
    await page.waitForSelector(entry("from the second host"));
    // A new socket starts with the whole log of the IDE it reached, nothing else.
    expect(await page.locator(entry("from the first host")).count()).toBe(0);
  });

  it("refuses the page without the host's token with 401, and serves it with a policy that forbids inline script", async () => {
    const bare = await page.goto(`http://127.0.0.1:${host.port}/`);
    expect(bare?.status()).toBe(401);
    expect(await page.textContent("body")).toContain("npm start");
    const wrong = await page.goto(`http://127.0.0.1:${host.port}/?token=not-the-token`);
    expect(wrong?.status()).toBe(401);

    const good = await page.goto(host.urls.ui);
    expect(good?.status()).toBe(200);
    const policy = good?.headers()["content-security-policy"] ?? "";
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain("unsafe-inline");
    expect(policy).toMatch(/connect-src 'self' ws:\/\/127\.0\.0\.1:\* ws:\/\/localhost:\*/);
    await page.waitForSelector('[data-testid="connection"]:text-is("connected")');
  });
});

describe("the UI socket", () => {
  /** A raw /ui socket, as the page opens it, recording every message. */
  async function uiSocket() {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ui?token=${host.token}`);
    const messages: HostMessage[] = [];
    ws.on("message", (data) => messages.push(JSON.parse(String(data)) as HostMessage));
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    return { ws, messages };
  }
  const updates = (messages: HostMessage[]) =>
    messages.filter((m): m is Extract<HostMessage, { type: "update" }> => m.type === "update");

  it("sends the charts once, then updates that carry only the log entries the page has not seen", async () => {
    const { ws, messages } = await uiSocket();
    const client = await plugin("plugin-socket");
    await client.log("one");
    await expect.poll(() => updates(messages).some((u) => u.logs.entries.some((e) => e.message === "one"))).toBe(true);
    const before = updates(messages).length;
    await client.log("two");
    await expect.poll(() => updates(messages).length).toBeGreaterThan(before);

    expect(messages[0].type).toBe("hello");
    const hello = messages[0] as Extract<HostMessage, { type: "hello" }>;
    expect(hello.charts.map((c) => c.actor)).toEqual(["ide", "control", "projectFile", "editor", "suiteRunner", "recording", "pointing", "testRunner"]);
    expect(messages.filter((m) => m.type === "hello")).toHaveLength(1);
    const all = updates(messages);
    expect(all[0].logs.reset).toBe(true);
    expect(all[0].tests?.map((t) => t.id)).toEqual(SHOP.tests.map((t) => t.id));
    // Each test's commands and the suites come too: the page shows a test and its breakpoints before any run.
    // A command's description (comment) comes only when it has one.
    expect(all[0].tests?.map((t) => t.commands)).toEqual(
      SHOP.tests.map((t) =>
        t.commands.map(({ id, command, target, value, comment, targets }: { id: string; command: string; target: string; value: string; comment?: string; targets?: string[][] }) => ({
          id,
          command,
          target,
          value,
          ...(comment ? { comment } : {}),
          // The recorded alternatives, which the form lists as "Alternative locators".
          ...(targets && targets.length > 0 ? { targets: [...new Set(targets.map(([locator]) => locator))] } : {}),
        })),
      ),
    );
    expect(all[0].tests?.find((t) => t.id === "t-cart")?.commands[1]).toEqual({ id: "c2-add", command: "click", target: "linkText=Add to cart", targets: ["linkText=Add to cart"], value: "" });
    // Each suite with its settings, the .side file's defaults filled in (not parallel, no shared session, 300 s).
    expect(all[0].suites).toEqual(SHOP.suites.map(({ id, name, tests }) => ({ id, name, tests, parallel: false, persistSession: false, timeout: 300 })));
    expect(all[0].url).toBe((SHOP as { url?: string }).url ?? "");
    expect(all[0].playback).toBeNull();
    expect(all[0].commands).toBeUndefined();
    expect(all[0].view.runControls).toEqual({ breakpoints: [], delayMs: 0 });
    expect(all[0].states).toMatchObject({ ide: "open", control: "notControlled", suiteRunner: "idle", recording: "idle" });
    expect("testRunner" in all[0].states).toBe(false);
    expect("logs" in all[0].view).toBe(false);
    const last = all[all.length - 1];
    expect(last.logs).toMatchObject({ reset: false, kept: { system: 2, playback: 0 } });
    expect(last.logs.entries.map((e) => e.message)).toEqual(["two"]);
    // Every entry was sent once.
    expect(all.flatMap((u) => u.logs.entries.map((e) => e.message))).toEqual(["one", "two"]);
    ws.close();
  });

  it("sends the whole log again, as a reset, when the last entry the page saw fell off the cap", async () => {
    await host.close();
    await start({ limits: { logEntriesPerGroup: 3 } });
    const { ws, messages } = await uiSocket();
    const log = (message: string) => host.ide.handle({ uri: "/log", verb: "post", message }, { id: "plugin-cap" });
    await log("a");
    await expect.poll(() => updates(messages).some((u) => u.logs.entries.some((e) => e.message === "a"))).toBe(true);
    const before = updates(messages).length;
    // Four entries in one turn, before the next update can go out: "a" is gone from the IDE's log.
    await Promise.all(["b", "c", "d", "e"].map(log));
    await expect.poll(() => updates(messages).length).toBeGreaterThan(before);

    const next = updates(messages)[before];
    expect(next.logs.reset).toBe(true);
    expect(next.logs.entries.map((e) => e.message)).toEqual(["c", "d", "e"]);
    expect(next.logs.kept).toEqual({ system: 3, playback: 0 });
    ws.close();
  });

  it("passes user events to the IDE and ignores frames that are not user events", async () => {
    const { ws, messages } = await uiSocket();
    ws.send("not json");
    ws.send(JSON.stringify({ type: "request.control", sender: "x" }));
    ws.send(JSON.stringify({ type: "user.startPlayback", testId: 42 }));
    ws.send(JSON.stringify({ type: "user.editProject" }));
    await expect.poll(() => host.ide.getSnapshot().project.unsaved).toBe(true);
    expect(host.ide.getSnapshot().control.mode).toBe("notControlled");
    expect(host.ide.getSnapshot().playback).toBeNull();
    await expect.poll(() => updates(messages).some((u) => u.view.project.unsaved)).toBe(true);
    ws.close();
  });
});

describe("a newcomer's first Play on a fresh npm start", () => {
  let fresh: FreshHost | null = null;
  afterAll(async () => {
    await fresh?.stop();
    killLeftovers();
  });

  it("plays the test shown when the page opens green, with npm start alone, and shows its page readable at once", async () => {
    fresh = await freshNpmStart();
    const { ui } = fresh;
    expect(await shownTestId(ui)).toBe(SHOP.tests[0].id);
    await ui.getByRole("button", { name: "Play", exact: true }).click();
    await expect.poll(() => ui.getByTestId("run-result").textContent().catch(() => null), { timeout: 60_000 }).toBe("passed");
    const states = await ui.getByTestId("command-state").allTextContents();
    expect(states).toEqual(SHOP.tests[0].commands.map(() => "passed"));
    // The picture (of a 1280 px wide window) is readable at once: at the page's own size, in a
    // view that scrolls; "Fit" fits it to the panel, and "Actual size" gives it back.
    const image = ui.getByRole("img", { name: /^The page under test/ });
    await image.waitFor();
    const shown = () => image.evaluate((img) => ({ natural: (img as HTMLImageElement).naturalWidth, width: img.getBoundingClientRect().width }));
    const view = () => ui.getByTestId("page-view").evaluate((el) => ({ scrolls: getComputedStyle(el).overflow, width: el.clientWidth }));
    expect((await shown()).natural).toBe(1280);
    expect((await shown()).width).toBe(1280);
    expect((await view()).scrolls).toBe("auto");
    expect((await view()).width).toBeLessThan(1280);
    await ui.getByRole("button", { name: "Fit", exact: true }).click();
    await ui.getByRole("button", { name: "Actual size", exact: true }).waitFor();
    expect(Math.round((await shown()).width)).toBe((await view()).width);
    await ui.getByRole("button", { name: "Actual size", exact: true }).click();
    await ui.getByRole("button", { name: "Fit", exact: true }).waitFor();
    expect((await shown()).width).toBe(1280);
  }, 120_000);
});
