// Windows through the host's WebDriver path (CONTRACT section 19): side-runtime's
// WebDriverExecutor over chromedriver and headless Chromium plays v3's recorded form, a click
// with opensWindow and windowHandleName, selectWindow handle=${win_ser_1}, close, and back to
// the first window stored with storeWindowHandle, for a target=_blank link and a window.open().
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserPage } from "../../drivers/host/browserPage.ts";
import type { BrowserPage } from "../../drivers/host/browserPage.ts";
import type { PageOutcome } from "../../machines/testRunner.types.ts";
import { servePages } from "../support/browserPages.ts";

const SHOP = `<!doctype html>
<html><head><title>Shop</title></head>
<body>
  <h1 id="heading">Shop</h1>
  <a id="help" href="/help" target="_blank">Help</a>
  <button id="popup" onclick="window.open('/help?from=popup', 'help')">Popup</button>
</body></html>`;
const HELP = `<!doctype html>
<html><head><title>Help</title></head>
<body><p id="faq">Frequently asked</p><script>document.getElementById("faq").dataset.from = location.search;</script></body></html>`;

let site: Awaited<ReturnType<typeof servePages>>;
let page: BrowserPage;

beforeAll(async () => {
  site = await servePages({ "/shop": SHOP, "/help": HELP });
  page = browserPage({ baseUrl: site.origin, implicitWaitMs: 1_000 });
});

afterAll(async () => {
  await page?.close();
  await site?.close();
});

let count = 0;
async function run(variables: Record<string, unknown>, command: string, target = "", value = "", extra: Record<string, unknown> = {}): Promise<PageOutcome> {
  const id = `c${++count}`;
  const outcome = await page.execute({ command: { id, command, target, value, ...extra }, variables, baseUrl: site.origin, runId: "windows" }, new AbortController().signal);
  Object.assign(variables, outcome.variables ?? {});
  return outcome;
}

describe("windows through WebDriver in the host", () => {
  for (const opener of ["id=help", "id=popup"]) {
    it(`plays a click on ${opener} that opens a window, selectWindow into it, close, and selectWindow back`, async () => {
      const variables: Record<string, unknown> = {};
      expect(await run(variables, "open", "/shop")).toEqual({ state: "passed" });
      expect((await run(variables, "storeWindowHandle", "win_ser_local")).state).toBe("passed");
      const clicked = await run(variables, "click", opener, "", { opensWindow: true, windowHandleName: "win_ser_1" });
      expect(clicked.state).toBe("passed");
      expect(typeof variables.win_ser_1).toBe("string");
      expect(variables.win_ser_1).not.toBe(variables.win_ser_local);
      expect(await run(variables, "selectWindow", "handle=${win_ser_1}")).toEqual({ state: "passed" });
      expect(await run(variables, "assertText", "id=faq", "Frequently asked")).toEqual({ state: "passed" });
      expect(await run(variables, "assertTitle", "Help")).toEqual({ state: "passed" });
      expect(await run(variables, "close")).toEqual({ state: "passed" });
      expect(await run(variables, "selectWindow", "handle=${win_ser_local}")).toEqual({ state: "passed" });
      expect(await run(variables, "assertText", "id=heading", "Shop")).toEqual({ state: "passed" });
    });
  }

  it("fails selectWindow of a window that was closed", async () => {
    const variables: Record<string, unknown> = {};
    await run(variables, "open", "/shop");
    await run(variables, "storeWindowHandle", "win_ser_local");
    await run(variables, "click", "id=help", "", { opensWindow: true, windowHandleName: "win_ser_1" });
    await run(variables, "selectWindow", "handle=${win_ser_1}");
    await run(variables, "close");
    const outcome = await run(variables, "selectWindow", "handle=${win_ser_1}");
    expect(outcome.state).not.toBe("passed");
    expect(await run(variables, "selectWindow", "handle=${win_ser_local}")).toEqual({ state: "passed" });
  });
});
