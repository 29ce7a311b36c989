// "Find target in page" and "Alternative locators" (CONTRACT section 21) in the built browser
// extension, end to end: the IDE window in headless Chromium with a project loaded from a file
// as a user does, and the tab under test on a page served on 127.0.0.1. Find outlines the
// target's first match in that tab (the overlay is read in the tab itself) and is gone again;
// the alternatives show their counts there, and choosing one makes it the target, which Undo
// gives back.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OUTLINE_TAG } from "../../drivers/findInPage/index.ts";
import { loadProjectFile, useIdeExtension } from "../support/ideExtension.ts";
import { findProject, FIND_TARGETS } from "../support/findPages.ts";

const SHOP_PAGE = readFileSync(new URL("../../examples/shop-page.html", import.meta.url), "utf8");
const WAIT = { timeout: 20_000 };
const ide = useIdeExtension({ plugins: ["find-opener"], pages: { "/shop": SHOP_PAGE }, start: "/shop", once: true });

const alternatives = () => ide.window.getByRole("list", { name: "Alternative locators", exact: true });
const matches = () => ide.window.getByTestId("locator-matches");
const targetField = () => ide.window.getByTestId("editor-target-field");
const targetNow = () =>
  ide.window.evaluate(() => (globalThis as unknown as { ideCore: { getProject(): { tests: Array<{ commands: Array<{ target: string }> }> } } }).ideCore.getProject().tests[0].commands[1].target);
const counts = () =>
  alternatives()
    .locator("li")
    .evaluateAll((items) => items.map((li) => [li.getAttribute("data-locator"), li.querySelector('[data-testid="alternative-count"]')?.textContent ?? null]));

/** The outline in the tab under test, and the box of the element it should cover. */
const outlineInTab = () =>
  ide.tab.evaluate((tag) => {
    const box = document.querySelector(tag);
    if (!box) return null;
    const drawn = box.getBoundingClientRect();
    const link = document.querySelector(".product a")!.getBoundingClientRect();
    return {
      drawn: [drawn.left, drawn.top, drawn.width, drawn.height].map(Math.round),
      link: [link.left, link.top, link.width, link.height].map(Math.round),
      pointerEvents: getComputedStyle(box).pointerEvents,
    };
  }, OUTLINE_TAG);

describe("Find target in page and the alternative locators in the extension", () => {
  it("counts the alternatives in the tab under test, outlines Find's first match there for a while, and makes a chosen alternative the target, which Undo gives back", async () => {
    await loadProjectFile(ide.window, findProject(ide.site.origin));
    await ide.window.getByTestId("commands").getByTestId("command-row").nth(1).click();
    await expect.poll(counts, WAIT).toEqual([
      ["linkText=Add to cart", "2 matches"],
      ["css=.product a", "2 matches"],
      ["xpath=//a[@href='/cart/add/2']", "1 match"],
      ["css=.missing", "0 matches"],
    ]);

    await ide.window.getByRole("button", { name: "Find", exact: true }).click();
    await expect.poll(() => matches().textContent(), WAIT).toBe("2 elements match; the first is outlined");
    const seen = await outlineInTab();
    expect(seen).not.toBeNull();
    expect(seen!.drawn).toEqual(seen!.link);
    expect(seen!.pointerEvents).toBe("none");
    await expect.poll(outlineInTab, WAIT).toBeNull();

    await alternatives().getByRole("button", { name: "Use css=.product a as the target", exact: true }).click();
    await expect.poll(() => targetField().inputValue(), WAIT).toBe("css=.product a");
    expect(await targetNow()).toBe("css=.product a");
    await expect.poll(() => alternatives().locator("li.current").getAttribute("data-locator"), WAIT).toBe("css=.product a");

    await ide.window.getByRole("button", { name: "Undo", exact: true }).click();
    await expect.poll(() => targetField().inputValue(), WAIT).toBe(FIND_TARGETS[0]);
    expect(await targetNow()).toBe(FIND_TARGETS[0]);
  });

  it("says why an invalid target cannot be found, and outlines nothing", async () => {
    await targetField().fill("xpath=//a[");
    await targetField().press("Enter");
    await expect.poll(targetNow, WAIT).toBe("xpath=//a[");
    await ide.window.getByRole("button", { name: "Find", exact: true }).click();
    await expect.poll(() => matches().getAttribute("data-code"), WAIT).toBe("InvalidLocator");
    expect(await matches().textContent()).toMatch(/^Not a locator: /);
    expect(await outlineInTab()).toBeNull();
  });
});
