// A navigation a command started is waited for before the next command (issue 27), in the
// browser extension, end to end: the built extension in headless Chromium plays a project in the
// tab under test whose server answers the next pages late, and the command right after each
// click (or Enter) reads the new page, never the old one still showing meanwhile.
import { describe, expect, it } from "vitest";
import { cmd, loadProjectFile, oneTestProject, useIdeExtension, playToTheEnd } from "../support/ideExtension.ts";
import { NAVIGATION_PAGES, NAVIGATIONS, SLOW_PATHS } from "../support/navigationPages.ts";

const ide = useIdeExtension({ plugins: ["navigating"], pages: NAVIGATION_PAGES, slowMs: SLOW_PATHS });

describe("navigations in the browser extension", () => {
  it("waits for the slow page a form post, a link, a script's location change and Enter go to before the next command reads it", async () => {
    const commands = NAVIGATIONS.flatMap((navigation, i) => [
      cmd(`o${i}`, "open", "/checkout"),
      cmd(`n${i}`, navigation.command, navigation.target, navigation.value),
      cmd(`a${i}`, "assertText", "css=h1", navigation.heading),
    ]);
    const project = oneTestProject(ide.site.origin, "navigating", "Slow navigations", { name: "slow pages", commands });
    await loadProjectFile(ide.window, project);
    await ide.tab.bringToFront();
    await playToTheEnd(ide.window, 60_000);
    const states = await ide.window.locator('[data-testid="command-row"] [data-testid="command-state"]').allTextContents();
    const messages = await ide.window.locator('[data-testid="command-row"] [data-testid="command-message"]').allTextContents();
    expect({ states, messages }).toMatchObject({ states: Array(commands.length).fill("passed") });
    expect(await ide.tab.locator("h1").textContent()).toBe(NAVIGATIONS.at(-1)!.heading);
  });
});
