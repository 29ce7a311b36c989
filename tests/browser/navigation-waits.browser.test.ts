// A navigation a command started is waited for before the next command (issue 27), in the host's
// one player: the server answers the next page late, and the command right after the click (or
// Enter) reads the new page, never the old one still showing meanwhile.
import { describe, expect, it } from "vitest";
import { browserPageOn } from "../support/browserPageOn.ts";
import { NAVIGATION_PAGES, NAVIGATIONS, SLOW_PATHS } from "../support/navigationPages.ts";

describe("the host's one player", () => {
  const served = browserPageOn(NAVIGATION_PAGES, "navigation-waits", { player: "devtools" }, SLOW_PATHS);

  for (const navigation of NAVIGATIONS) {
    it(`waits for the slow page ${navigation.name} goes to before the next command reads it`, async () => {
      expect(await served.run("open", "/checkout")).toEqual({ state: "passed" });
      const before = served.page().playedInPage();
      expect(await served.run(navigation.command, navigation.target, navigation.value)).toEqual({ state: "passed" });
      expect(await served.run("assertText", "css=h1", navigation.heading)).toEqual({ state: "passed" });
      // Both were the player's, not WebDriver's (which waits for a navigation on its own).
      expect(served.page().playedInPage() - before).toBe(2);
    });
  }
});
