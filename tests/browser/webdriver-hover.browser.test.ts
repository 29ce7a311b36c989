// mouseOver in the host is WebDriver's own pointer move (side-runtime's doMouseOver: an actions
// move to the element), trusted input, so a menu that opens on CSS :hover opens and a click on
// the item it reveals passes; without the mouseOver the item stays hidden and the click fails.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webdriverPage } from "../../drivers/host/webdriver.ts";
import type { WebDriverPage } from "../../drivers/host/webdriver.ts";
import type { PageOutcome } from "../../machines/testRunner.types.ts";
import { servePages } from "../support/browserPages.ts";
import { HOVER_MENU_PAGE } from "../support/hoverMenu.ts";

let site: Awaited<ReturnType<typeof servePages>>;
let page: WebDriverPage;

beforeAll(async () => {
  site = await servePages({ "/menu": HOVER_MENU_PAGE });
  page = webdriverPage({ baseUrl: site.origin, implicitWaitMs: 1_000 });
});

afterAll(async () => {
  await page?.close();
  await site?.close();
});

let count = 0;
function run(command: string, target = "", value = ""): Promise<PageOutcome> {
  const id = `c${++count}`;
  return page.execute({ command: { id, command, target, value }, variables: {}, baseUrl: site.origin, runId: "hover" }, new AbortController().signal);
}

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
