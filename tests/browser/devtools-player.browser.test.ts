// The host's one player (CONTRACT section 19): page commands played in the page over DevTools
// with trusted input, beside WebDriver on the same pages. Each case runs through both
// players and must give the same outcome; the page itself tells whether the input it got was
// trusted (event.isTrusted), which a DOM event dispatched from script never is.
import { describe, expect, it } from "vitest";
import { browserPageOn } from "../support/browserPageOn.ts";

const PAGE = `<!doctype html><html><head><title>Start</title></head><body>
<button id="b" onclick="document.getElementById('r').textContent = 'trusted ' + event.isTrusted">B</button><p id="r"></p>
<input id="f" onkeydown="document.getElementById('k').textContent += event.key + (event.isTrusted ? '!' : '?') + ' '"><p id="k"></p>
<style>#menu ul { display: none } #menu:hover ul { display: block }</style>
<div id="menu">Menu<ul><li><button id="item" onclick="document.getElementById('m').textContent = 'picked'">Item</button></li></ul></div><p id="m"></p>
<button id="warn" onclick="alert('careful')">Warn</button>
<iframe id="inner" srcdoc="<button id=fb onclick=&quot;this.textContent='pressed'&quot;>frame</button>"></iframe>
<select id="size" onchange="document.getElementById('c').textContent = 'changed to ' + this.value"><option value="s">Small</option><option value="l">Large</option></select><p id="c"></p>
<a id="go" href="/next">next</a></body></html>`;
const NEXT = `<!doctype html><html><head><title>Next</title></head><body><p id="n">here</p></body></html>`;

for (const player of ["devtools", "webdriver"] as const) {
  describe(`the host's ${player} player`, () => {
    const served = browserPageOn({ "/": PAGE, "/next": NEXT }, `player-${player}`, { player });
    const passes = async (command: string, target = "", value = "") => expect(await served.run(command, target, value)).toEqual({ state: "passed" });

    it("clicks and types with input the page sees as trusted", async () => {
      await passes("open", "/");
      await passes("click", "id=b");
      await passes("assertText", "id=r", "trusted true");
      await passes("type", "id=f", "ab");
      await passes("sendKeys", "id=f", "${KEY_ENTER}");
      await passes("assertText", "id=k", "a! b! Enter!");
      expect(await served.run("storeValue", "id=f", "v")).toEqual({ state: "passed", variables: { v: "ab" } });
      // The player played every command but open; WebDriver none of them.
      expect(served.page().playedInPage()).toBe(player === "devtools" ? 6 : 0);
    });

    // WebDriver's type clears the element first, which chromedriver refuses on a select ("invalid element state").
    if (player === "devtools") {
      it("types an option's value or label into a select, with a change, and fails naming the text and the select when no option has it", async () => {
        await passes("open", "/");
        await passes("type", "id=size", "Large");
        await passes("assertText", "id=c", "changed to l");
        await passes("type", "id=size", "s");
        await passes("assertText", "id=c", "changed to s");
        expect(await served.run("type", "id=size", "XL")).toEqual({ state: "failed", message: `Element id=size is a select with no option whose value or label is "XL"` });
        await passes("assertText", "id=c", "changed to s");
      });
    }

    it("opens a CSS :hover menu with mouseOver, so its item can be clicked", async () => {
      await passes("open", "/");
      await passes("mouseOver", "id=menu");
      await passes("click", "id=item");
      await passes("assertText", "id=m", "picked");
    });

    it("passes a click that opens an alert, and the alert is asserted and dismissed after it", async () => {
      await passes("open", "/");
      await passes("click", "id=warn");
      await passes("assertAlert", "careful");
      await passes("click", "id=b");
      await passes("assertText", "id=r", "trusted true");
    });

    it("plays in a selected frame and back in the top document", async () => {
      await passes("open", "/");
      await passes("selectFrame", "id=inner");
      await passes("click", "id=fb");
      await passes("assertText", "id=fb", "pressed");
      await passes("selectFrame", "relative=top");
      await passes("click", "id=b");
      await passes("assertText", "id=r", "trusted true");
    });

    it("waits for the page a click opened before the next command reads it", async () => {
      await passes("open", "/");
      await passes("click", "id=go");
      await passes("assertTitle", "Next");
      await passes("assertText", "id=n", "here");
    });

    it("fails an assertion that does not hold and a missing element, as WebDriver does", async () => {
      await passes("open", "/");
      expect(await served.run("assertText", "id=r", "nothing")).toMatchObject({ state: "failed" });
      expect(await served.run("click", "id=missing")).toMatchObject({ state: "failed" });
    });
  });
}
