// Exported code with `css=A >>> B` locators runs (CONTRACT section 19): a test on a page of
// nested open shadow roots, exported as javascript-mocha and python-pytest, passes with the
// language's own runner against headless Chromium, through Selenium 4's getShadowRoot() chain;
// a copy whose assertion cannot hold fails. Run as tests/browser/export-runs.browser.test.ts runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportCode } from "../../services/export/index.ts";
import { parseSideProject } from "../../services/side/index.ts";
import { servePages } from "../support/browserPages.ts";
import { shadowCheckoutScript } from "../support/shadowCheckout.ts";
import { runMocha, runPytest, writeExported } from "../support/exportedRuns.ts";

const CHECKOUT = `<!doctype html>
<html><head><title>Checkout</title></head>
<body>
  <x-checkout></x-checkout>
  ${shadowCheckoutScript()}
</body></html>`;

let site: Awaited<ReturnType<typeof servePages>>;

beforeAll(async () => {
  site = await servePages({ "/checkout": CHECKOUT });
});

afterAll(async () => {
  await site?.close();
});

async function exportCheckout(language: "javascript-mocha" | "python-pytest", total: string) {
  const rows: Array<[string, string, string]> = [
    ["open", "/checkout", ""],
    ["waitForElementPresent", "css=x-checkout >>> x-summary >>> .total", "5000"],
    ["type", "css=x-checkout >>> .card", "4242"],
    ["click", "css=x-checkout >>> .pay", ""],
    ["assertText", "css=x-checkout >>> x-summary >>> .total", total],
  ];
  const parsed = parseSideProject({
    id: "p",
    name: "Shadow",
    url: site.origin,
    version: "2.0",
    tests: [{ id: "t", name: "checkout", commands: rows.map(([command, target, value], i) => ({ id: `c${i}`, command, target, value })) }],
    suites: [],
  });
  if (!parsed.ok) throw new Error(parsed.problem);
  const result = await exportCode(language, parsed.project, { testId: "t" });
  if ("errorCode" in result) throw new Error(result.error);
  return writeExported("exported-shadow-", result);
}

describe("an exported test with shadow DOM locators runs", () => {
  it("passes as javascript-mocha with mocha and selenium-webdriver, and fails when its assertion cannot hold", async () => {
    const passing = await runMocha((await exportCheckout("javascript-mocha", "4")).file);
    expect(passing.output).toMatch(/1 passing/);
    expect(passing.status).toBe(0);
    const failing = await runMocha((await exportCheckout("javascript-mocha", "5")).file);
    expect(failing.output).toMatch(/1 failing/);
    expect(failing.status).not.toBe(0);
  });

  it("passes as python-pytest with Debian's pytest and python3-selenium, and fails when its assertion cannot hold", async () => {
    const passing = await exportCheckout("python-pytest", "4");
    const passed = await runPytest(passing.file);
    expect(passed.output).toMatch(/1 passed/);
    expect(passed.status).toBe(0);
    const failing = await exportCheckout("python-pytest", "5");
    const failed = await runPytest(failing.file);
    expect(failed.output).toMatch(/1 failed/);
    expect(failed.status).not.toBe(0);
  });
});
