// visibleText and isDisplayed without layout (jsdom, as the unit tests of the player run them):
// Selenium's rules that styles alone decide. The same functions are held to chromedriver's
// getText in real Chromium, element by element, in tests/browser/gettext.browser.test.ts.
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { isDisplayed, visibleText } from "../../drivers/player/dom.ts";

function body(html: string): Document {
  return new JSDOM(`<!doctype html><html><head><style>.up{text-transform:uppercase}.cap{text-transform:capitalize}.pre{white-space:pre}</style></head><body>${html}</body></html>`).window.document;
}

const text = (html: string, id = "t") => visibleText(body(html).getElementById(id)!);

describe("the text Assert text records, read without layout", () => {
  it("leaves out a child hidden by display, visibility or a transparent ancestor", () => {
    expect(text(`<div id="t">a <span style="display:none">b</span>c <span style="visibility:hidden">d</span> <span style="opacity:0">e</span>f</div>`)).toBe("a c f");
  });

  it("reads a visible child of an invisible element, and nothing of the element's own text", () => {
    expect(text(`<div id="t" style="visibility:hidden">gone <span style="visibility:visible">kept</span></div>`)).toBe("kept");
  });

  it("breaks lines around blocks and at each <br>, keeping the blank line two make", () => {
    expect(text(`<div id="t">one<div>two</div>three<br><br>four</div>`)).toBe("one\ntwo\nthree\n\nfour");
  });

  it("sets table cells apart by a space and rows by a line", () => {
    expect(text(`<table id="t"><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>`)).toBe("a b\nc d");
  });

  it("collapses white space but keeps it where the style is pre, and reads non-breaking spaces as spaces", () => {
    expect(text(`<p id="t">  a \n  b&nbsp;&nbsp;c  </p>`)).toBe("a b  c");
    expect(text(`<div id="t" class="pre">  a   b</div>`)).toBe("  a   b");
  });

  it("applies the text-transform, capitalising Latin words as chromedriver does", () => {
    expect(text(`<p id="t"><span class="up">shout</span> <span class="cap">o'neil well-known x_y</span></p>`)).toBe("SHOUT O'neil Well-Known X_y");
  });

  it("reads a textarea's text as written in the page and a field's value not at all", () => {
    const doc = body(`<div id="t"><textarea id="area">written</textarea><input value="typed"></div>`);
    (doc.getElementById("area") as HTMLTextAreaElement).value = "changed";
    expect(visibleText(doc.getElementById("t")!)).toBe("written");
  });

  it("gives an empty text for an element not displayed, and says it is not displayed", () => {
    const doc = body(`<p id="t" hidden>secret</p><details id="d"><summary id="s">More</summary><p id="inside">inside</p></details><input id="h" type="hidden">`);
    for (const id of ["t", "inside", "h"]) expect(isDisplayed(doc.getElementById(id)!), id).toBe(false);
    expect(isDisplayed(doc.getElementById("s")!)).toBe(true);
    expect(visibleText(doc.getElementById("t")!)).toBe("");
    expect(visibleText(doc.getElementById("d")!)).toBe("More");
  });
});
