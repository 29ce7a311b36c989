// selectFrame by the frame element's locator in the host (CONTRACT section 19): side-runtime's
// WebDriverExecutor over chromedriver and headless Chromium finds `id=payment` with the implicit
// wait, so a frame the page adds late by script is waited for, and `index=N` still plays.
import { describe, expect, it } from "vitest";
import { browserPageOn } from "../support/browserPageOn.ts";

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

const served = browserPageOn({ "/late": LATE_FRAME, "/card": CARD }, "frames", { implicitWaitMs: 5_000 });
const run = served.run;

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
