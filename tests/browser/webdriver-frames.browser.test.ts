// selectFrame by the frame element's locator in the host (CONTRACT section 19): side-runtime's
// WebDriverExecutor over chromedriver and headless Chromium finds `id=payment` with the implicit
// wait, so a frame the page adds late by script is waited for, and `index=N` still plays.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webdriverPage } from "../../drivers/host/webdriver.ts";
import type { WebDriverPage } from "../../drivers/host/webdriver.ts";
import type { PageOutcome } from "../../machines/testRunner.types.ts";
import { servePages } from "../support/browserPages.ts";

const LATE_FRAME = `<!doctype html><html><head><title>Checkout</title></head><body>
  <p id="top">Top</p>
  <script>setTimeout(() => {
    const frame = document.createElement("iframe");
    frame.id = "payment";
    frame.src = "/card";
    document.body.append(frame);
  }, 300);</script>
</body></html>`;
const CARD = `<!doctype html><html><body><input id="card"></body></html>`;

let site: Awaited<ReturnType<typeof servePages>>;
let page: WebDriverPage;

beforeAll(async () => {
  site = await servePages({ "/late": LATE_FRAME, "/card": CARD });
  page = webdriverPage({ baseUrl: site.origin, implicitWaitMs: 5_000 });
});

afterAll(async () => {
  await page?.close();
  await site?.close();
});

let count = 0;
function run(command: string, target = "", value = ""): Promise<PageOutcome> {
  const id = `c${++count}`;
  return page.execute({ command: { id, command, target, value }, variables: {}, baseUrl: site.origin, runId: "frames" }, new AbortController().signal);
}

describe("selectFrame through WebDriver in the host", () => {
  it("selects a frame the page adds late by its id, types in it, and comes back to the top", async () => {
    expect(await run("open", "/late")).toEqual({ state: "passed" });
    expect(await run("selectFrame", "id=payment")).toEqual({ state: "passed" });
    expect(await run("type", "id=card", "4242")).toEqual({ state: "passed" });
    expect(await run("assertValue", "id=card", "4242")).toEqual({ state: "passed" });
    expect(await run("selectFrame", "relative=top")).toEqual({ state: "passed" });
    expect(await run("assertText", "id=top", "Top")).toEqual({ state: "passed" });
    expect(await run("selectFrame", "index=0")).toEqual({ state: "passed" });
    expect(await run("assertValue", "id=card", "4242")).toEqual({ state: "passed" });
  });
});
