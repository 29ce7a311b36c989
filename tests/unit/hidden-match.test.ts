// A target whose first match is hidden (issue 34, CONTRACT section 18) in the in-page player
// (drivers/player/, as the extension's tab runs it), against jsdom, where visibility comes from
// styles alone: a click acts on a locator's first visible match; a locator whose matches stay
// hidden through the wait gives way to the next one, healed; one shown during the wait is used;
// commands that need no visible element keep the first match. Real Chromium, with relocation:
// tests/browser/hidden-match.browser.test.ts.
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { runInPage } from "../../drivers/player/index.ts";
import type { InPageAnswer, InPageRequest } from "../../drivers/player/index.ts";

function page(body: string): Window {
  return new JSDOM(`<!doctype html><html><body>${body}</body></html>`, { url: "http://shop.test/" }).window as unknown as Window;
}

function run(win: Window, command: string, target: string, more: Partial<InPageRequest> = {}): Promise<InPageAnswer> {
  return runInPage(win, { command, target, value: "", targets: [], implicitWaitMs: 200, ...more });
}

/** Which element got each click, by its data-where. */
function clicks(win: Window): string[] {
  const seen: string[] = [];
  win.document.addEventListener("click", (event) => seen.push((event.target as Element).getAttribute("data-where") ?? "?"), true);
  return seen;
}

const SUGGESTIONS = `<div class="suggestions" style="display:none"><button name="go" data-where="hidden copy">Search</button></div>
<button name="go" data-where="shown">Search</button><button id="lucky" data-where="lucky">Lucky</button>`;

describe("a click whose locator's first match is hidden", () => {
  it("clicks the locator's first visible match, not the next locator, and is not healed", async () => {
    const win = page(SUGGESTIONS);
    const seen = clicks(win);
    expect(await run(win, "click", "name=go", { targets: ["name=go", "id=lucky"] })).toEqual({ state: "passed" });
    expect(seen).toEqual(["shown"]);
  });

  it("takes the next locator once the wait shows the target's matches all hidden, and says it healed", async () => {
    const win = page(`<nav hidden><a href="#" class="m" data-where="hidden copy">Blog</a></nav><a href="#" id="blog" data-where="shown">Our blog</a>`);
    const seen = clicks(win);
    expect(await run(win, "click", "linkText=Blog", { targets: ["linkText=Blog", "id=blog"] })).toEqual({ state: "passed", healed: { locator: "id=blog", score: 1 } });
    expect(seen).toEqual(["shown"]);
  });

  it("clicks the target's match the page shows during the wait, not the alternative that matched at once", async () => {
    const win = page(`<a href="#" class="go" style="display:none" data-where="late">Go</a><a href="#" class="now" data-where="early">Go now</a>`);
    const seen = clicks(win);
    win.setTimeout(() => ((win.document.querySelector(".go") as HTMLElement).style.display = "inline"), 60);
    expect(await run(win, "click", "css=.go", { targets: ["css=.go", "css=.now"] })).toEqual({ state: "passed" });
    expect(seen).toEqual(["late"]);
  });

  it("fails saying the element is not visible when every locator finds only hidden elements", async () => {
    const win = page(`<nav hidden><a href="#" class="m">Blog</a></nav>`);
    expect(await run(win, "click", "linkText=Blog", { targets: ["linkText=Blog", "css=.m"] })).toEqual({
      state: "failed",
      message: "Element linkText=Blog is not visible, so it cannot be interacted with",
    });
  });
});

describe("commands that need no visible element keep the first match", () => {
  it("stores the hidden first match's attribute and reads its text as empty", async () => {
    const win = page(SUGGESTIONS);
    expect(await run(win, "storeAttribute", "name=go@data-where", { value: "where" })).toEqual({ state: "passed", stored: { name: "where", value: "hidden copy" } });
    expect(await run(win, "storeText", "name=go", { value: "text" })).toEqual({ state: "passed", stored: { name: "text", value: "" } });
  });
});
