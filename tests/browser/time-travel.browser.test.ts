// Time travel in the IDE page (CONTRACT section 17), in real headless Chromium against npm start
// as a user starts it: after a run, selecting a command of its table shows the page as it was
// after it (its picture, named for the command), Left/Right step through the commands, a failed
// command shows its message, its console error and a link to its DOM snapshot, and "Runs"
// opens a kept run whose commands step the same way.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { command, shownPicture, useHostWithProject } from "../support/timeTravel.ts";
import { openTab, pickTest } from "../support/idePage.ts";

const SHOP = `<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1>
<button id="add" type="button" onclick="document.getElementById('count').textContent = '1'">Add</button>
<p id="count">0</p></body></html>`;

const host = useHostWithProject({ "/shop": SHOP }, (origin) => ({
  id: "p-travel",
  version: "2.0",
  name: "Travel",
  url: origin,
  urls: [origin],
  plugins: [],
  suites: [],
  tests: [
    {
      id: "t-checkout",
      name: "checks out",
      commands: [
        command("c1", "open", "/shop"),
        command("c2", "click", "id=add"),
        command("c3", "executeScript", "console.error('stock service down: 503'); throw new Error('the stock is gone')"),
      ],
    },
    { id: "t-add", name: "adds to cart", commands: [command("a1", "open", "/shop"), command("a2", "click", "id=add"), command("a3", "assertText", "id=count", "1")] },
  ],
}));

async function play(ui: Page, testName: string, result: string) {
  await pickTest(ui, testName);
  await ui.getByRole("button", { name: "Play", exact: true }).click();
  await expect.poll(() => ui.getByTestId("run-result").textContent().catch(() => null), { timeout: 60_000 }).toBe(result);
}

describe("time travel in the IDE page", () => {
  it("steps through a finished run's commands with the arrow keys, showing a failure's message, console error and DOM", async () => {
    const { ui } = host;
    await play(ui, "checks out", "failed");
    const rows = ui.getByTestId("commands").getByTestId("command-row");
    await rows.nth(0).click();
    await shownPicture(ui, "The page after command 1: open");
    await expect.poll(() => ui.getByTestId("trace-locator").textContent()).toBe("none");

    await ui.keyboard.press("ArrowRight");
    await shownPicture(ui, "The page after command 2: click");
    await expect.poll(() => ui.getByTestId("trace-locator").textContent()).toBe("id=add");
    expect(await ui.getByTestId("trace-duration").textContent()).toMatch(/^\d+ ms$/);
    // A passed command has no failure to tell.
    expect(await ui.getByTestId("trace-message").count()).toBe(0);

    await ui.keyboard.press("ArrowRight");
    await shownPicture(ui, "The page after command 3: executeScript");
    await expect.poll(() => ui.getByTestId("trace-message").textContent()).toContain("the stock is gone");
    expect(await ui.getByTestId("trace-console").textContent()).toContain("stock service down: 503");
    // The DOM snapshot opens from the host, sandboxed: the page as it was, the click's count included.
    const [snapshot] = await Promise.all([ui.context().waitForEvent("page"), ui.getByRole("link", { name: "Open the DOM snapshot" }).click()]);
    await snapshot.waitForLoadState();
    expect(new URL(snapshot.url()).origin).toBe(new URL(ui.url()).origin);
    expect(await snapshot.locator("#count").textContent()).toBe("1");
    await snapshot.close();

    // Past the last command the keys stay there; Left goes back.
    await ui.getByTestId("commands").focus();
    await ui.keyboard.press("ArrowRight");
    await shownPicture(ui, "The page after command 3: executeScript");
    await ui.keyboard.press("ArrowLeft");
    await shownPicture(ui, "The page after command 2: click");
  }, 120_000);

  it("shows the page after a command of a paused run, and none for a command it has not played yet", async () => {
    const { ui } = host;
    await pickTest(ui, "checks out");
    const breakpoint = ui.getByRole("button", { name: "Breakpoint before command 3, executeScript" });
    await breakpoint.click();
    await ui.getByRole("button", { name: "Play", exact: true }).click();
    await expect.poll(() => ui.getByTestId("run-status").getAttribute("data-status"), { timeout: 60_000 }).toBe("paused");
    await ui.getByTestId("commands").getByTestId("command-row").nth(1).click();
    await shownPicture(ui, "The page after command 2: click");
    await ui.keyboard.press("ArrowLeft");
    await shownPicture(ui, "The page after command 1: open");
    // The command the run has not played yet has no page to show.
    await ui.keyboard.press("ArrowRight");
    await ui.keyboard.press("ArrowRight");
    await expect.poll(() => ui.getByTestId("trace-missing").textContent()).toContain("Command 3 (executeScript) has no trace");
    await ui.getByRole("button", { name: "Stop", exact: true }).click();
    await expect.poll(() => ui.getByTestId("run-status").getAttribute("data-status"), { timeout: 30_000 }).toBe("ended");
    await breakpoint.click();
  }, 120_000);

  it("opens a kept run from the Runs list, each entry naming its test and result, and steps through its commands", async () => {
    const { ui } = host;
    await play(ui, "adds to cart", "passed");
    await openTab(ui, "Runs");
    const runs = ui.getByRole("combobox", { name: "Runs" });
    await runs.focus();
    await expect
      .poll(() => runs.locator("option").allTextContents())
      .toEqual(["The run in the command table", "adds to cart: passed", "checks out: stopped", "checks out: failed"]);
    await runs.selectOption({ label: "checks out: failed" });
    const rows = ui.getByTestId("trace-row");
    await expect.poll(() => rows.count()).toBe(3);
    await rows.nth(0).click();
    await shownPicture(ui, "The page after command 1: open");
    await ui.keyboard.press("ArrowRight");
    await ui.keyboard.press("ArrowRight");
    await shownPicture(ui, "The page after command 3: executeScript");
    await expect.poll(() => ui.getByTestId("trace-message").textContent()).toContain("the stock is gone");
    await ui.keyboard.press("ArrowLeft");
    await shownPicture(ui, "The page after command 2: click");

    await runs.selectOption({ label: "adds to cart: passed" });
    await ui.getByTestId("trace-row").nth(2).click();
    await shownPicture(ui, "The page after command 3: assertText");
    expect(await ui.getByTestId("trace-locator").textContent()).toBe("id=count");
  }, 120_000);
});
