// mouseOver in the host is WebDriver's own pointer move (side-runtime's doMouseOver: an actions
// move to the element), trusted input, so a menu that opens on CSS :hover opens and a click on
// the item it reveals passes; without the mouseOver the item stays hidden and the click fails.
import { describe, expect, it } from "vitest";
import { browserPageOn } from "../support/browserPageOn.ts";
import { HOVER_MENU_PAGE } from "../support/hoverMenu.ts";

const served = browserPageOn({ "/menu": HOVER_MENU_PAGE }, "hover", { implicitWaitMs: 1_000 });
const run = served.run;

describe("mouseOver through WebDriver in the host", () => {
  it("opens a CSS :hover menu so a click on its item passes, where the same click without it fails", async () => {
    expect(await run("open", "/menu")).toEqual({ state: "passed" });
    // The pointer first on the plain button: nowhere near the menu.
    expect(await run("click", "id=plain")).toEqual({ state: "passed" });
    expect((await run("click", "id=save")).state).toBe("failed");
    expect(await run("assertText", "id=out", "plain")).toEqual({ state: "passed" });

    expect(await run("mouseOver", "id=menu")).toEqual({ state: "passed" });
    expect(await run("click", "id=save")).toEqual({ state: "passed" });
    expect(await run("assertText", "id=out", "saved")).toEqual({ state: "passed" });

    expect(await run("mouseOver", "id=menu")).toEqual({ state: "passed" });
    expect(await run("mouseOver", "id=more")).toEqual({ state: "passed" });
    expect(await run("click", "id=export")).toEqual({ state: "passed" });
    expect(await run("assertText", "id=out", "exported")).toEqual({ state: "passed" });
  });
});
