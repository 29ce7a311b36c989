// mouseOver before a click on an item a CSS :hover menu revealed (drivers/recorder/hover.ts),
// in real headless Chromium: Playwright's mouse goes through DevTools input, so hovering the
// menu applies :hover and the click is trusted, as from a person.
import { describe, expect, it } from "vitest";
import { HOVER_MENU_PAGE } from "../support/hoverMenu.ts";
import { recorderInPages } from "../support/recorderPage.ts";

const recorder = recorderInPages({ "/menu": HOVER_MENU_PAGE }, "/menu");
const page = () => recorder.page();

async function recorded(): Promise<string[]> {
  return (await recorder.recorded()).map((a) => `${a.command} | ${a.target}`);
}

describe("recording a click in a menu that opens on CSS :hover", () => {
  it("records mouseOver on the menu, then the click on the item it revealed", async () => {
    await page().hover("#menu .label");
    await page().click("#save");
    expect(await page().textContent("#out")).toBe("saved");
    expect(await recorded()).toEqual(["mouseOver | id=menu", "click | id=save"]);
  });

  it("records mouseOver on the menu and then on the submenu's item, outermost first, before a click in the submenu", async () => {
    await page().hover("#menu .label");
    await page().hover("#more");
    await page().click("#export");
    expect(await page().textContent("#out")).toBe("exported");
    expect(await recorded()).toEqual(["mouseOver | id=menu", "mouseOver | id=more", "click | id=export"]);
  });

  it("records no mouseOver for a plain click on a visible button, nor for the menu's label that a :hover only colours", async () => {
    await page().click("#plain");
    await page().click("#menu .label");
    expect(await recorded()).toEqual(["click | id=plain", "click | css=.label"]);
  });
});
