// The IDE page's side list and tabs as a user meets them: the tests and suites are lists named
// "Tests" and "Suites" whose entries are buttons, and the log, variables, reference, runs and
// statecharts are tabs. What the browser tests share to pick a test, read the list, open a tab.
import type { Page } from "playwright-core";

/** The "Tests" list. */
export const testsList = (ui: Page) => ui.getByRole("list", { name: "Tests", exact: true });
export const suitesList = (ui: Page) => ui.getByRole("list", { name: "Suites", exact: true });

/** Clicks the test in the "Tests" list: the table shows it. */
export async function pickTest(ui: Page, name: string): Promise<void> {
  await testsList(ui).getByRole("button", { name, exact: true }).click();
}

/** Clicks the suite in the "Suites" list: its settings show, and "Play suite" plays it. */
export async function pickSuite(ui: Page, name: string): Promise<void> {
  await suitesList(ui).locator('[data-testid="suite-item"] button', { hasText: name }).first().click();
}

/** The names in the "Tests" list, in order. */
export const testNames = (ui: Page) => testsList(ui).locator('[data-testid="test-item"] button').evaluateAll((buttons) => buttons.map((b) => b.firstChild?.textContent ?? ""));

/** The id of the test the table shows (the displayed one, or the run's while the page follows a run). */
export const shownTestId = (ui: Page) => testsList(ui).locator('[data-testid="test-item"]:has(button.shown)').getAttribute("data-test-id");

/** Opens a tab under the table: "Log", "Variables", "Reference", "Runs", "Statecharts". */
export async function openTab(ui: Page, name: string): Promise<void> {
  await ui.getByRole("tab", { name, exact: true }).click();
}
