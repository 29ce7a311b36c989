// The IDE UI in real headless Chromium, against the real host: a plugin talks to the IDE
// through the typed client while the test clicks the page like a user, and every check looks
// at what the page shows and, where it matters, at the IDE's own state. One test writes the
// README's screenshot (docs/ui.png, with `npm run screenshot`).
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { WebSocket } from "ws";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectPlugin } from "../../adapters/bridge/client.ts";
import type { OutboundMessage, PluginClient } from "../../adapters/bridge/client.ts";
import { machineCharts } from "../../adapters/view/charts.ts";
import type { ChartState } from "../../adapters/view/charts.ts";
import { launchChromium } from "../../adapters/host/chromium.ts";
import { startHost } from "../../adapters/host/host.ts";
import type { Host, HostOptions } from "../../adapters/host/host.ts";
import type { HostMessage } from "../../ui/protocol.ts";

const ROOT = new URL("../../", import.meta.url);
const SHOP = JSON.parse(readFileSync(new URL("examples/shop.side", ROOT), "utf8")) as {
  id: string;
  name: string;
  tests: Array<{ id: string; name: string; commands: Array<{ id: string }> }>;
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
const isGreen = (rgb: string) => hue(rgb).saturated && hue(rgb).hue >= 90 && hue(rgb).hue <= 150;

const entry = (message: string) => `[data-testid="log-entry"]:has-text(${JSON.stringify(message)})`;

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
    await button("Edit").click();
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
    expect(host.ide.getSnapshot().project).toEqual({ id: SHOP.id, name: SHOP.name, unsaved: true });
  });

  it("loads the plugin's project when the user clicks 'Load and lose unsaved changes'", async () => {
    await openUi();
    const client = await plugin("plugin-loader");
    await button("Edit").click();
    await page.waitForSelector('[data-testid="unsaved"]');

    const reply = client.loadProject(OTHER_PROJECT);
    await page.waitForSelector('[data-testid="dialog"][data-kind="loadProject"]');
    await button("Load and lose unsaved changes").click();

    expect(await reply).toBe(true);
    await page.waitForSelector(`[data-testid="project-name"]:has-text("${OTHER_PROJECT.name}")`);
    expect(await page.locator('[data-testid="unsaved"]').count()).toBe(0);
    expect(await page.locator('[data-testid="test-picker"] option').allTextContents()).toEqual(["opens the other page"]);
  });

  it("changes each command's badge as the plugin sets its state, after the user starts the test case", async () => {
    await openUi();
    const client = await plugin("plugin-runner");
    const heard: OutboundMessage[] = [];
    client.onMessage((message) => {
      heard.push(message);
    });

    await page.locator('[data-testid="test-picker"]').selectOption("t-cart");
    await button("Start").click();
    await page.waitForSelector('[data-testid="run-status"]:has-text("running")');
    const badge = (id: string) => `[data-command-id="${id}"] [data-testid="command-state"]`;
    expect(await text(badge("c2-open"))).toBe("not run");
    expect(await classOf(badge("c2-open"))).toContain("state-none");
    await expect.poll(() => heard.map((m) => [m.event, (m.options as { testId?: string }).testId])).toContainEqual([
      "playbackStarted",
      "t-cart",
    ]);

    expect(await client.commandState("c2-open", "passed")).toBe(true);
    await page.waitForSelector(`${badge("c2-open")}.state-passed`);
    expect(await text(badge("c2-open"))).toBe("passed");
    expect(isGreen(await color(badge("c2-open"), "backgroundColor"))).toBe(true);

    expect(await client.commandState("c2-add", "pending")).toBe(true);
    await page.waitForSelector(`${badge("c2-add")}.state-pending`);
    expect(await client.commandState("c2-add", "failed", "The link is gone")).toBe(true);
    await page.waitForSelector(`${badge("c2-add")}.state-failed`);
    expect(await text(badge("c2-add"))).toBe("failed");
    expect(isRed(await color(badge("c2-add"), "backgroundColor"))).toBe(true);
    expect(await text('[data-command-id="c2-add"] [data-testid="command-message"]')).toBe("The link is gone");

    await button("Stop").click();
    await page.waitForSelector('[data-testid="run-status"]:has-text("stopped")');
    expect(host.ide.getSnapshot().playback).toMatchObject({ testId: "t-cart", running: false });
    // The ended test case stays with its last states.
    expect(await text(badge("c2-add"))).toBe("failed");
  });

  it("highlights each machine's current state in its statechart and moves the highlight when control mode changes", async () => {
    await openUi();
    const state = (path: string) => `[data-testid="state-${path}"]`;
    for (const chart of ["ide", "control", "project", "playback"]) {
      await page.waitForSelector(`[data-testid="diagram-${chart}"]`);
    }
    expect(await classOf(state("control.notControlled"))).toContain("active");
    expect(await page.locator(state("control.notControlled")).getAttribute("data-active")).toBe("true");
    expect(await page.locator(state("control.notControlled")).getAttribute("aria-current")).toBe("true");
    expect(await classOf(state("control.controlled"))).not.toContain("active");
    expect(await page.locator(state("control.controlled")).getAttribute("data-active")).toBe("false");
    expect(await classOf(state("ide.open"))).toContain("active");
    // Parallel regions are both active at once.
    expect(await classOf(state("project.dialog.idle"))).toContain("active");
    expect(await classOf(state("project.saving.idle"))).toContain("active");
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
    const charts = machineCharts(host.ide);
    for (const chart of charts) await page.waitForSelector(`[data-testid="diagram-${chart.actor}"]`);

    const statesOf = (s: ChartState): ChartState[] => [s, ...s.states.flatMap(statesOf)];
    for (const chart of charts) {
      for (const s of statesOf(chart.root)) {
        const box = page.locator(`[data-testid="state-${s.path}"]`);
        expect(await box.count(), s.path).toBe(1);
        for (const t of s.transitions) {
          const others = t.targets.filter((target) => target !== s.path);
          if (others.length === 0) {
            // Staying (or re-entering): written inside the state's own box.
            const inBox = box.locator(`:scope > [data-testid="state-transition"][data-event="${t.event}"]`);
            expect(await inBox.count(), `${s.path}: ${t.event}`).toBe(1);
          }
          for (const target of others) {
            const label = page.locator(
              `[data-testid="transition"][data-source="${s.path}"][data-target="${target}"][data-event="${t.event}"]`,
            );
            expect(await label.count(), `${s.path} --${t.event}--> ${target}`).toBe(1);
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

  it("loads a .side file the user picks", async () => {
    await openUi();
    await page.locator('[data-testid="load-file"]').setInputFiles({
      name: "other.side",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(OTHER_PROJECT)),
    });
    await page.waitForSelector(`[data-testid="project-name"]:has-text("${OTHER_PROJECT.name}")`);
    expect(await text('[data-testid="project-id"]')).toBe(OTHER_PROJECT.id);
    expect(host.ide.getSnapshot().project).toEqual({ id: OTHER_PROJECT.id, name: OTHER_PROJECT.name, unsaved: false });
    expect(await page.locator('[data-testid="test-picker"] option').allTextContents()).toEqual(["opens the other page"]);
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
    await openUi();
    const client = await plugin("jgnfghanfbjmimbdmnjfofnbcgpkbegj", null);
    const reply = client.control(VISUAL);
    await page.waitForSelector('[data-testid="dialog"][data-kind="controlConsent"]');
    await button("Restart and allow access").click();
    expect(await reply).toBe(true);

    await client.log("Connected to the visual grid; results at https://example.org/results/42");
    await client.log("The baseline for 'logs in' is 3 days old", "warn");
    await page.locator('[data-testid="test-picker"]').selectOption("t-login");
    await button("Start").click();
    await page.waitForSelector('[data-testid="run-status"]:has-text("running")');
    await client.commandState("c-open", "passed");
    await client.commandState("c-user", "passed");
    await client.commandState("c-pass", "failed", "The password field is hidden behind a cookie banner");
    await client.commandState("c-submit", "pending");
    await client.playbackLog("type name=password: the element is not visible", "error");
    await client.playbackLog("Questions? mailto:qa@example.org");

    await page.waitForSelector('[data-testid="control-banner"]');
    await page.waitForSelector('[data-command-id="c-submit"] .state-pending');
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
    expect(hello.charts.map((c) => c.actor)).toEqual(["ide", "control", "project", "playback"]);
    expect(messages.filter((m) => m.type === "hello")).toHaveLength(1);
    const all = updates(messages);
    expect(all[0].logs.reset).toBe(true);
    expect(all[0].tests?.map((t) => t.id)).toEqual(SHOP.tests.map((t) => t.id));
    expect(all[0].states).toMatchObject({ ide: "open", control: "notControlled", playback: "idle" });
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
