// `css=A >>> B` in the host's WebDriver path (drivers/host/shadowLocator.ts): side-runtime's
// WebDriverExecutor over chromedriver and headless Chromium plays click, type, assert and store
// commands on elements inside nested open shadow roots, through Selenium 4's getShadowRoot(),
// and GET /playback/location resolves the same locators in the driven page.
import { describe, expect, it } from "vitest";
import { browserPageOn } from "../support/browserPageOn.ts";
import { shadowCheckoutScript } from "../support/shadowCheckout.ts";

const CHECKOUT = `<!doctype html>
<html><head><title>Checkout</title></head>
<body>
  <x-checkout id="checkout"></x-checkout>
  <x-checkout id="second"></x-checkout>
  <p id="plain">No shadow here</p>
  ${shadowCheckoutScript('<label>Card <input class="card"></label>')}
</body></html>`;

const served = browserPageOn({ "/checkout": CHECKOUT }, "shadow", { implicitWaitMs: 1_000 });
const page = () => served.page();
const run = served.run;

describe("css=A >>> B through WebDriver in the host", () => {
  it("types, clicks, asserts and stores inside nested open shadow roots", async () => {
    expect(await run("open", "/checkout")).toEqual({ state: "passed" });
    expect(await run("type", "css=#checkout >>> .card", "4242 4242")).toEqual({ state: "passed" });
    expect(await run("assertValue", "css=#checkout >>> .card", "4242 4242")).toEqual({ state: "passed" });
    expect(await run("click", "css=#checkout >>> .pay")).toEqual({ state: "passed" });
    expect(await run("assertText", "css=#checkout >>> x-summary >>> .total", "9")).toEqual({ state: "passed" });
    // The second checkout was not paid: its total is its own.
    expect(await run("assertText", "css=#second >>> x-summary >>> .total", "0")).toEqual({ state: "passed" });
    expect(await run("storeElementCount", "css=x-checkout >>> x-summary >>> .total", "totals")).toEqual({ state: "passed", variables: { totals: 2 } });
    expect(await run("assertElementNotPresent", "css=#plain >>> span")).toEqual({ state: "passed" });
  });

  it("fails a command whose host has no shadow root as a missing element", async () => {
    expect(await run("open", "/checkout")).toEqual({ state: "passed" });
    const outcome = await run("assertText", "css=#plain >>> span", "x");
    expect(outcome.state).toBe("failed");
    expect(outcome.message).toMatch(/element to be located|not found/);
    const verified = await run("verifyText", "css=#checkout >>> x-summary >>> .total", "5");
    expect(verified).toEqual({ state: "failed", message: "Actual value '0' did not match '5'" });
  });

  it("resolves GET /playback/location's chain in the driven page", async () => {
    expect(await run("open", "/checkout")).toEqual({ state: "passed" });
    const chain = await page().resolveLocator("css=#second >>> x-summary >>> .total");
    expect(chain.split(" >>> ")[0]).toBe("//x-checkout[@id='second']");
    expect(chain.split(" >>> ")).toHaveLength(3);
    await expect(page().resolveLocator("css=#plain >>> span")).rejects.toMatchObject({ errorCode: "ElementNotFound" });
  });
});
