// Time travel in the IDE page (CONTRACT section 17) beyond one test played once, in real
// headless Chromium against npm start as a user starts it: after a suite, the run panel's
// commands show the pictures of the test it shows (each test of a suite has a trace of its own)
// and "Runs" lists every test of the suite by suite, test and result (an ended test picked in the
// suite's list opens its trace); a command a loop played
// several times shows its last turn, and a kept run's table lists every turn; a paused run's
// pictures follow it as it steps on.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { command, shownPicture, useHostWithProject } from "../support/timeTravel.ts";
import { openTab, pickSuite, pickTest } from "../support/idePage.ts";

// Each click adds one, and the page shows how many (its picture differs after each).
const SHOP = `<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1>
<button id="add" type="button" onclick="const c = document.getElementById('count'); c.textContent = String(Number(c.textContent) + 1); c.style.fontSize = (20 + 10 * Number(c.textContent)) + 'px'">Add</button>
<p id="count">0</p></body></html>`;

const host = useHostWithProject({ "/shop": SHOP }, (origin) => ({
  id: "p-travel-runs",
  version: "2.0",
  name: "Travel runs",
  url: origin,
  urls: [origin],
  plugins: [],
  tests: [
    { id: "t-one", name: "adds one", commands: [command("o1", "open", "/shop"), command("o2", "click", "id=add"), command("o3", "assertText", "id=count", "1")] },
    { id: "t-none", name: "finds no stock", commands: [command("n1", "open", "/shop"), command("n2", "assertText", "id=count", "5")] },
    {
      id: "t-three",
      name: "adds three",
      commands: [
        command("h1", "open", "/shop"),
        command("h2", "times", "3"),
        command("h3", "click", "id=add"),
        command("h4", "end"),
        command("h5", "assertText", "id=count", "3"),
      ],
    },
  ],
  suites: [{ id: "s-cart", name: "cart", persistSession: false, parallel: false, timeout: 300, tests: ["t-one", "t-none"] }],
}));

const runs = (ui: Page) => ui.getByRole("combobox", { name: "Runs" });

/** The kept run "Runs" names `label`: its trace's id (the option's value). */
async function traceIdOf(ui: Page, label: string): Promise<string> {
  await openTab(ui, "Runs");
  await runs(ui).focus();
  await expect.poll(() => runs(ui).locator("option").allTextContents(), { timeout: 10_000 }).toContain(label);
  return (await runs(ui).locator("option", { hasText: label }).getAttribute("value"))!;
}

/** A kept run's manifest, read as the IDE page reads it. */
async function manifestOf(ui: Page, traceId: string): Promise<{ steps: Array<{ commandId: string; command: string; screenshot: string | null }> }> {
  return ui.evaluate(async (id) => {
    const token = document.querySelector('meta[name="ide-token"]')!.getAttribute("content")!;
    return (await fetch(`/traces/${id}?token=${encodeURIComponent(token)}`)).json();
  }, traceId);
}

async function waitForStatus(ui: Page, status: string) {
  await expect.poll(() => ui.getByTestId("run-status").getAttribute("data-status"), { timeout: 60_000 }).toBe(status);
}

describe("time travel through suites, loops and a paused run", () => {
  it("shows, after a suite, the pictures of the test the run panel shows, and lists each test of the suite in Runs by suite, test and result", async () => {
    const { ui } = host;
    await pickSuite(ui, "cart");
    await ui.getByRole("button", { name: "Play suite", exact: true }).click();
    await expect.poll(() => ui.getByTestId("run-result").textContent().catch(() => null), { timeout: 60_000 }).toBe("failed");
    await waitForStatus(ui, "ended");
    // The run panel shows the suite's last test; its commands show its own trace's pictures.
    expect(await ui.getByTestId("run-status").locator("strong").textContent()).toBe("finds no stock");
    const failedTrace = await traceIdOf(ui, "cart › finds no stock: failed");
    const passedTrace = await traceIdOf(ui, "cart › adds one: passed");
    expect(failedTrace).not.toBe(passedTrace);
    // Every command of each test has its picture, the first test's too, though its browser had just started.
    for (const id of [passedTrace, failedTrace]) {
      await expect.poll(async () => (await manifestOf(ui, id)).steps.map((step) => step.screenshot !== null), { timeout: 10_000 }).not.toContain(false);
    }
    await runs(ui).selectOption({ label: "The run in the command table" });
    await ui.getByTestId("commands").getByTestId("command-row").nth(1).click();
    const src = await shownPicture(ui, "The page after command 2: assertText");
    expect(src).toContain(`/traces/${failedTrace}/`);
    await expect.poll(() => ui.getByTestId("trace-message").textContent()).toContain("5");
    await ui.keyboard.press("ArrowLeft");
    expect(await shownPicture(ui, "The page after command 1: open")).toContain(`/traces/${failedTrace}/`);

    // The suite's first test, opened from Runs: its own three commands.
    await runs(ui).selectOption({ label: "cart › adds one: passed" });
    const rows = ui.getByTestId("trace-row");
    await expect.poll(() => rows.count()).toBe(3);
    await rows.nth(2).click();
    expect(await shownPicture(ui, "The page after command 3: assertText")).toContain(`/traces/${passedTrace}/`);
    await runs(ui).selectOption({ label: "The run in the command table" });

    // The same test picked in the suite's list in the Playback panel: its commands are no longer
    // kept (only the last test's are), so its trace opens here.
    const adds = ui.getByTestId("suite-run").filter({ hasText: "adds one" }).getByRole("button");
    expect(await adds.getAttribute("title")).toBe("Show this test's trace: the page after each of its commands");
    await adds.click();
    await expect.poll(() => runs(ui).inputValue()).toBe(passedTrace);
    await expect.poll(() => rows.count()).toBe(3);
    await runs(ui).selectOption({ label: "The run in the command table" });
  }, 120_000);

  it("shows a command a loop played three times as its last turn, and a kept run's table lists every turn", async () => {
    const { ui } = host;
    await pickTest(ui, "adds three");
    await ui.getByRole("button", { name: "Play", exact: true }).click();
    await expect.poll(() => ui.getByTestId("run-status").locator("strong").textContent(), { timeout: 60_000 }).toBe("adds three");
    await expect.poll(() => ui.getByTestId("run-result").textContent().catch(() => null), { timeout: 60_000 }).toBe("passed");
    const traceId = await traceIdOf(ui, "adds three: passed");
    await runs(ui).selectOption({ label: "The run in the command table" });
    const manifest = await manifestOf(ui, traceId);
    const clicks = manifest.steps.filter((step) => step.commandId === "h3");
    expect(clicks.length).toBe(3);
    expect(manifest.steps.filter((step) => step.commandId === "h2").length).toBe(4);

    await ui.getByTestId("commands").getByTestId("command-row").nth(2).click();
    const src = await shownPicture(ui, "The page after command 3: click");
    expect(clicks[2].screenshot).not.toBeNull();
    expect(new URL(src, ui.url()).pathname).toBe(`/traces/${traceId}/${clicks[2].screenshot}`);

    // The kept run: a row per turn, in the order they ran, each stepping to its own picture.
    await runs(ui).selectOption({ label: "adds three: passed" });
    const rows = ui.getByTestId("trace-row");
    await expect.poll(() => rows.count()).toBe(manifest.steps.length);
    expect(await rows.locator(".command-name").allTextContents()).toEqual(manifest.steps.map((step) => step.command));
    const firstClick = manifest.steps.findIndex((step) => step.commandId === "h3");
    await rows.nth(firstClick).click();
    const first = await shownPicture(ui, "The page after command 3: click");
    expect(new URL(first, ui.url()).pathname).toBe(`/traces/${traceId}/${clicks[0].screenshot}`);
    await runs(ui).selectOption({ label: "The run in the command table" });
  }, 120_000);

  it("shows a paused run's newest turn of a command as it steps on, the picture arriving once taken", async () => {
    const { ui } = host;
    await pickTest(ui, "adds three");
    const breakpoint = ui.getByRole("button", { name: "Breakpoint before command 3, click" });
    await breakpoint.click();
    await ui.getByRole("button", { name: "Play", exact: true }).click();
    await waitForStatus(ui, "paused");
    const rows = ui.getByTestId("commands").getByTestId("command-row");
    await rows.nth(2).click();
    await expect.poll(() => ui.getByTestId("trace-missing").textContent()).toContain("Command 3 (click) has no trace");

    // One step: the click's first turn is played, and its picture shows.
    await ui.getByRole("button", { name: "Step", exact: true }).click();
    const first = await shownPicture(ui, "The page after command 3: click");
    await waitForStatus(ui, "paused");
    // On to the breakpoint again, and one step more: the second turn's picture replaces the first's.
    await ui.getByRole("button", { name: "Resume", exact: true }).click();
    await expect.poll(() => ui.getByTestId("paused-at").textContent().catch(() => null), { timeout: 60_000 }).toContain("before command 3, click");
    await ui.getByRole("button", { name: "Step", exact: true }).click();
    await expect.poll(() => ui.getByRole("img", { name: "The page after command 3: click", exact: true }).getAttribute("src").catch(() => first), { timeout: 10_000 }).not.toBe(first);
    await shownPicture(ui, "The page after command 3: click");

    await ui.getByRole("button", { name: "Stop", exact: true }).click();
    await waitForStatus(ui, "ended");
    await breakpoint.click();
  }, 120_000);
});
