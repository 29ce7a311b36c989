// Exported code with declared locator strategies runs (CONTRACT section 23): a test whose
// locators are `qa=` (a CSS template) and `row=` (an XPath one), exported as javascript-mocha and
// python-pytest from a project that carries their declarations, passes with the language's own
// runner against headless Chromium; a copy whose assertion cannot hold fails. Run as
// tests/browser/export-runs.browser.test.ts runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportCode } from "../../services/export/index.ts";
import { parseSideProject } from "../../services/side/index.ts";
import { servePages } from "../support/browserPages.ts";
import { runMocha, runPytest, writeExported } from "../support/exportedRuns.ts";

const SHOP = `<!doctype html>
<html><head><title>Shop</title></head>
<body>
  <table><tr data-row="apples"><td>Apples</td><td><button data-qa="add-apples">Add</button></td></tr>
  <tr data-row="it's pears"><td>Pears</td><td><button data-qa='add "pears"'>Add</button></td></tr></table>
  <p data-qa="cart">0</p>
  <script>
    for (const button of document.querySelectorAll("button")) button.addEventListener("click", () => {
      const cart = document.querySelector("[data-qa=cart]");
      cart.textContent = String(Number(cart.textContent) + (button.closest("tr").dataset.row === "apples" ? 1 : 10));
    });
  </script>
</body></html>`;

let site: Awaited<ReturnType<typeof servePages>>;

beforeAll(async () => {
  site = await servePages({ "/shop": SHOP });
});

afterAll(async () => {
  await site?.close();
});

async function exportShop(language: "javascript-mocha" | "python-pytest", total: string) {
  const rows: Array<[string, string, string]> = [
    ["open", "/shop", ""],
    ["click", "qa=add-apples", ""],
    ["click", 'qa=add "pears"', ""],
    ["assertElementPresent", "row=it's pears", ""],
    ["assertText", "qa=cart", total],
  ];
  const parsed = parseSideProject({
    id: "p",
    name: "Strategies",
    url: site.origin,
    version: "2.0",
    tests: [{ id: "t", name: "fills the cart", commands: rows.map(([command, target, value], i) => ({ id: `c${i}`, command, target, value })) }],
    suites: [],
    locatorStrategies: [
      { name: "qa", css: '[data-qa="{value}"]', attribute: "data-qa" },
      { name: "row", xpath: "//tr[@data-row='{value}']" },
    ],
  });
  if (!parsed.ok) throw new Error(parsed.problem);
  const result = await exportCode(language, parsed.project, { testId: "t" });
  if ("errorCode" in result) throw new Error(result.error);
  return writeExported("exported-strategies-", result);
}

describe("an exported test with declared locator strategies runs", () => {
  it("passes as javascript-mocha with mocha and selenium-webdriver, and fails when its assertion cannot hold", async () => {
    const passing = await runMocha((await exportShop("javascript-mocha", "11")).file);
    expect(passing.output).toMatch(/1 passing/);
    expect(passing.status).toBe(0);
    const failing = await runMocha((await exportShop("javascript-mocha", "12")).file);
    expect(failing.output).toMatch(/1 failing/);
    expect(failing.status).not.toBe(0);
  });

  it("passes as python-pytest with Debian's pytest and python3-selenium, and fails when its assertion cannot hold", async () => {
    const passing = await exportShop("python-pytest", "11");
    const passed = await runPytest(passing.file);
    expect(passed.output).toMatch(/1 passed/);
    expect(passed.status).toBe(0);
    const failing = await exportShop("python-pytest", "12");
    const failed = await runPytest(failing.file);
    expect(failed.output).toMatch(/1 failed/);
    expect(failed.status).not.toBe(0);
  });
});
