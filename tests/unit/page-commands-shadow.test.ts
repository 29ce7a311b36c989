// The in-page commands (drivers/player/) on elements inside open shadow roots, with
// `css=A >>> B` targets (CONTRACT section 19), in jsdom: the same commands, waits, alternative
// targets and messages as in the document. Real Chromium is tests/browser/page-commands.browser.test.ts.
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { locateInPage, runInPage } from "../../drivers/player/index.ts";
import type { InPageAnswer, InPageRequest } from "../../drivers/player/index.ts";

/** A page with <x-form> whose open shadow root holds a field, a button and a nested <x-badge>. */
function shadowPage(): { win: Window; root: ShadowRoot; seen: string[] } {
  const { window } = new JSDOM(`<!doctype html><html><body><x-form id="form"></x-form><p id="outside">Outside</p></body></html>`, {
    url: "http://shop.test/",
  });
  const host = window.document.getElementById("form")!;
  const root = host.attachShadow({ mode: "open" });
  root.innerHTML = `<label>Name <input id="name"></label><button id="save">Save</button><x-badge></x-badge>`;
  root.querySelector("x-badge")!.attachShadow({ mode: "open" }).innerHTML = `<span class="count">3 items</span>`;
  const seen: string[] = [];
  for (const type of ["click", "focus", "input", "change"]) {
    root.addEventListener(type, (event) => seen.push(`${type}@${(event.target as Element).id || (event.target as Element).localName}`), true);
  }
  return { win: window as unknown as Window, root, seen };
}

function run(win: Window, command: string, target = "", value = "", more: Partial<InPageRequest> = {}): Promise<InPageAnswer> {
  return runInPage(win, { command, target, value, targets: [], implicitWaitMs: 100, ...more });
}

const passed = { state: "passed" };

describe("page commands inside open shadow roots", () => {
  it("clicks a button inside a shadow root, which gets the click itself", async () => {
    const { win, seen } = shadowPage();
    expect(await run(win, "click", "css=#form >>> #save")).toEqual(passed);
    expect(seen).toContain("click@save");
  });

  it("types into a field inside a shadow root, with its input and change events, and asserts the value", async () => {
    const { win, root, seen } = shadowPage();
    expect(await run(win, "type", "css=x-form >>> input", "Ada")).toEqual(passed);
    expect((root.querySelector("#name") as HTMLInputElement).value).toBe("Ada");
    expect(seen).toEqual(expect.arrayContaining(["focus@name", "input@name", "change@name"]));
    expect(await run(win, "assertValue", "css=x-form >>> input", "Ada")).toEqual(passed);
  });

  it("sends keys to the field focused inside a shadow root, not to its host", async () => {
    const { win, root } = shadowPage();
    expect(await run(win, "sendKeys", "css=x-form >>> #name", "ab")).toEqual(passed);
    expect(await run(win, "sendKeys", "css=x-form >>> #name", "c")).toEqual(passed);
    expect((root.querySelector("#name") as HTMLInputElement).value).toBe("abc");
  });

  it("asserts and stores text through nested shadow roots", async () => {
    const { win } = shadowPage();
    expect(await run(win, "assertText", "css=x-form >>> x-badge >>> .count", "3 items")).toEqual(passed);
    expect(await run(win, "assertText", "css=x-form >>> x-badge >>> .count", "4 items")).toEqual({
      state: "failed",
      message: "Actual value '3 items' did not match '4 items'",
    });
    expect(await run(win, "storeText", "css=x-form >>> x-badge >>> .count", "count")).toEqual({
      state: "passed",
      stored: { name: "count", value: "3 items" },
    });
  });

  it("counts every match in the shadow roots, and finds none for a part that matches nothing", async () => {
    const { win } = shadowPage();
    expect(await run(win, "storeElementCount", "css=x-form >>> button, input", "n")).toEqual({ state: "passed", stored: { name: "n", value: 2 } });
    expect(await run(win, "assertElementNotPresent", "css=#outside >>> button")).toEqual(passed);
  });

  it("fails with Selenium's 'Element X not found' when a step finds no shadow root, and falls back to an alternative target", async () => {
    const { win } = shadowPage();
    expect(await run(win, "click", "css=#outside >>> button")).toEqual({ state: "failed", message: "Element css=#outside >>> button not found" });
    expect(await run(win, "click", "css=#outside >>> button", "", { targets: ["css=#form >>> #save"] })).toEqual({ state: "passed", healed: { locator: "css=#form >>> #save", score: 1 } });
  });

  it("refuses an empty part at once with the locator's message", async () => {
    const { win } = shadowPage();
    const answer = await run(win, "click", "css=#form >>>", "", { implicitWaitMs: 60_000 });
    expect(answer).toEqual({ state: "failed", message: expect.stringContaining("empty part 2 of 2") });
  });

  it("locates a shadow element for the window's own uses", async () => {
    const { win } = shadowPage();
    const found = await locateInPage(win, { target: "css=#form >>> #save", implicitWaitMs: 0 });
    expect(found.ok && found.element.textContent).toBe("Save");
  });
});
