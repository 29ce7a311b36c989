// Trusted input in the browser extension, end to end (CONTRACT section 19): the built extension
// in headless Chromium holds the tab under test through chrome.debugger when a run starts, and
// the in-page commands' clicks and keys reach the page as trusted input: the page sees
// `event.isTrusted`, a menu that opens on CSS :hover opens for mouseOver, and a key's default
// runs in the browser. The page itself reports what it got.
import { describe, expect, it } from "vitest";
import { cmd, loadProjectFile, oneTestProject, useIdeExtension, playToTheEnd } from "../support/ideExtension.ts";

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Trusted</title>
<style>#menu ul { display: none } #menu:hover ul { display: block }</style></head><body>
<button id="b" onclick="document.getElementById('r').textContent = 'trusted ' + event.isTrusted">B</button><p id="r"></p>
<div id="menu">Menu<ul><li><button id="item" onclick="document.getElementById('m').textContent = 'picked ' + event.isTrusted">Item</button></li></ul></div><p id="m"></p>
<input id="f" onkeydown="document.getElementById('k').textContent += event.key + (event.isTrusted ? '!' : '?') + ' '"><p id="k"></p>
</body></html>`;

const ide = useIdeExtension({ plugins: ["trusting"], pages: { "/trusted": PAGE } });

describe("trusted input in the browser extension", () => {
  it("plays clicks, a :hover menu and keys as trusted input the page sees as a user's", async () => {
    const project = oneTestProject(ide.site.origin, "trusted", "Trusted input", {
      name: "trusted",
      commands: [
        cmd("c1", "open", "/trusted"),
        cmd("c2", "click", "id=b"),
        cmd("c3", "assertText", "id=r", "trusted true"),
        cmd("c4", "mouseOver", "id=menu"),
        cmd("c5", "click", "id=item"),
        cmd("c6", "assertText", "id=m", "picked true"),
        cmd("c7", "type", "id=f", "ab"),
        cmd("c8", "sendKeys", "id=f", "${KEY_ENTER}"),
        cmd("c9", "assertText", "id=k", "a! b! Enter!"),
      ],
    });
    await loadProjectFile(ide.window, project);
    await ide.tab.bringToFront();
    await playToTheEnd(ide.window, 30_000);
    const states = await ide.window.locator('[data-testid="command-row"] [data-testid="command-state"]').allTextContents();
    const messages = await ide.window.locator('[data-testid="command-row"] [data-testid="command-message"]').allTextContents();
    expect({ states, messages }).toMatchObject({ states: Array(9).fill("passed") });
    expect(await ide.tab.locator("#m").textContent()).toBe("picked true");
  });
});
