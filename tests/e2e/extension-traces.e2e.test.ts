// Traces in the browser extension, end to end (CONTRACT section 17): the built extension in
// headless Chromium plays a failing test in the tab under test; its trace is in the IDE
// window's IndexedDB with a picture (chrome.tabs.captureVisibleTab, JPEG, scaled to 1280 px
// wide) named by every command, and for the failed command the page's URL, title, HTML and the console error it
// logged; the window's "Runs" opens the kept run, and its commands show the page after them.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { TRACE_DATABASE } from "../../drivers/webextension/traceShelf.ts";
import { cmd, loadProjectFile, oneTestProject, useIdeExtension, playToTheEnd } from "../support/ideExtension.ts";
import { readTraceDatabase } from "../support/traceDatabase.ts";

const SHOP = `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head><body><h1>Shop</h1>
<button id="add" type="button" onclick="document.getElementById('count').textContent = '1'">Add</button>
<p id="count">0</p></body></html>`;

const ide = useIdeExtension({ plugins: ["tracing"], pages: { "/shop": SHOP } });

/** Each trace in the window's IndexedDB, with its files by name. */
async function storedTraces(page: Page) {
  const { traces, files } = await page.evaluate(readTraceDatabase, TRACE_DATABASE);
  return traces.map(({ traceId, manifest }) => ({
    manifest,
    files: Object.fromEntries(Object.entries(files).flatMap(([key, file]) => (key.startsWith(`${traceId}/`) ? [[key.slice(traceId.length + 1), file]] : []))),
  }));
}

describe("traces in the browser extension", () => {
  it("keeps a failing run's trace in IndexedDB, a picture for every command and the failure's page, and the window shows the page after a command of the run and of a run opened from Runs", async () => {
    const project = oneTestProject(ide.site.origin, "traced", "Traced in the tab", {
      name: "checks out",
      commands: [
        cmd("c1", "open", "/shop"),
        cmd("c2", "click", "id=add"),
        cmd("c3", "executeScript", "console.error('stock service down: 503'); throw new Error('the stock is gone')"),
        cmd("c4", "click", "id=add"),
      ],
    });
    await loadProjectFile(ide.window, project);
    // Wider than the pictures may be: they are scaled to 1280 px wide.
    await ide.tab.setViewportSize({ width: 1600, height: 1000 });
    await ide.tab.bringToFront();
    await playToTheEnd(ide.window, 30_000);

    // The manifest is written once the test ended and its pictures are in.
    await expect.poll(async () => (await storedTraces(ide.window)).map((t) => t.manifest?.result ?? "writing"), { timeout: 15_000 }).toEqual(["failed"]);
    const [{ manifest, files }] = await storedTraces(ide.window);
    const steps = manifest!.steps;
    expect(steps.map((s) => [s.index, s.command, s.state])).toEqual([
      [1, "open", "passed"],
      [2, "click", "passed"],
      [3, "executeScript", "failed"],
    ]);
    for (const step of steps) {
      expect(step.screenshot).not.toBeNull();
      // A JPEG's first bytes.
      expect(files[step.screenshot!]).toMatchObject({ type: "image/jpeg", head: "ffd8ff" });
    }
    expect(steps[1].locator).toBe("id=add");
    const failure = steps[2].failure!;
    expect(failure).toMatchObject({ url: `${ide.site.origin}/shop`, title: "Shop" });
    expect(failure.consoleErrors.some((line) => line.includes("stock service down: 503"))).toBe(true);
    expect(files[failure.dom!].text).toContain('<button id="add" type="button"');
    // The click before the failure ran: the snapshot is of the page after it.
    expect(files[failure.dom!].text).toContain('<p id="count">1</p>');

    // The window's time travel: a command of the run in the Playback panel shows the page after it...
    await ide.window.getByTestId("commands").getByTestId("command-row").nth(1).click();
    const clicked = ide.window.getByRole("img", { name: "The page after command 2: click", exact: true });
    await expect.poll(() => clicked.evaluate((img) => (img as HTMLImageElement).naturalWidth).catch(() => 0), { timeout: 10_000 }).toBe(1280);
    expect(await ide.window.getByTestId("trace-locator").textContent()).toBe("id=add");
    // ... and "Runs" opens the kept run, whose commands show the page after them.
    await ide.window.getByTestId("trace-runs").selectOption({ label: "checks out: failed" });
    await ide.window.getByTestId("trace-row").nth(0).click();
    const first = ide.window.getByRole("img", { name: "The page after command 1: open", exact: true });
    await first.waitFor({ timeout: 10_000 });
    await expect.poll(() => first.evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: 10_000 }).toBeGreaterThan(0);
    // The tab is 1600 px wide: its picture is scaled to 1280.
    expect(await first.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1280);
    await ide.window.getByTestId("trace-commands").press("ArrowRight");
    await ide.window.getByTestId("trace-commands").press("ArrowRight");
    const failed = ide.window.getByRole("img", { name: "The page after command 3: executeScript", exact: true });
    await expect.poll(() => failed.evaluate((img) => (img as HTMLImageElement).naturalWidth).catch(() => 0), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await ide.window.getByTestId("trace-message").textContent()).toContain("the stock is gone");
    expect(await ide.window.getByTestId("trace-console").textContent()).toContain("stock service down: 503");
    // The DOM snapshot opens as text: the page's HTML is shown, never run in the extension's origin.
    const link = ide.window.getByRole("link", { name: "Open the DOM snapshot" });
    const href = (await link.getAttribute("href"))!;
    expect(href.startsWith("blob:chrome-extension://")).toBe(true);
    const opened = await ide.window.evaluate(async (url) => {
      const response = await fetch(url);
      return { type: response.headers.get("content-type"), text: await response.text() };
    }, href);
    expect(opened.type).toBe("text/plain;charset=utf-8");
    expect(opened.text).toContain('<button id="add" type="button"');
  });
});
