// Declared locator strategies in exported code (CONTRACT section 23): in each of the six
// languages a `NAME=VALUE` locator is written as the package writes the css= or xpath= of its
// filled template; a text that only looks like one is left; an undeclared NAME refuses the export
// naming NAME and the command; the IDE's export takes the plugins' declarations over the
// project's. Running the exported JavaScript and Python: tests/browser/export-strategy-runs.browser.test.ts.
import { describe, expect, it } from "vitest";
import { exporter } from "../../core/export.ts";
import { EXPORT_LANGUAGES, exportCode, locatorIn } from "../../services/export/index.ts";
import { fillTemplate, locatorAsBy, strategyTable } from "../../services/locators/index.ts";
import type { StrategyDeclaration } from "../../services/locators/index.ts";
import type { PluginRegistry } from "../../services/plugins/index.ts";
import { parseSideProject } from "../../services/side/index.ts";
import type { SideProject } from "../../services/side/index.ts";

const QA: StrategyDeclaration = { name: "qa", css: '[data-qa="{value}"]', attribute: "data-qa" };
const ROW: StrategyDeclaration = { name: "row", xpath: "//tr[@data-row='{value}']" };

function project(rows: Array<[string, string, string]>, locatorStrategies?: StrategyDeclaration[]): SideProject {
  const parsed = parseSideProject({
    id: "p", name: "Shop", url: "http://shop.test", version: "2.0",
    tests: [{ id: "t", name: "buys", commands: rows.map(([command, target, value], i) => ({ id: `c${i}`, command, target, value })) }],
    suites: [],
    ...(locatorStrategies ? { locatorStrategies } : {}),
  });
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.project;
}

const ROWS: Array<[string, string, string]> = [
  ["open", "/", ""],
  ["click", "qa=save", ""],
  ["storeAttribute", "qa=save@title", "title"],
  ["dragAndDropToObject", "row=it's", "qa=bin"],
  ["type", "id=note", "qa=not-a-locator"],
  ["echo", "qa=hello", ""],
];

describe("an exported declared locator", () => {
  it.each(EXPORT_LANGUAGES)("is the filled template's By in %s, and a text that looks like one stays", async (language) => {
    const result = await exportCode(language, project(ROWS, [QA, ROW]), { testId: "t" });
    if ("errorCode" in result) throw new Error(result.error);
    // The same file as the project with the filled templates written in: the package's own code for them.
    const filled = ROWS.map(([command, target, value], i): [string, string, string] =>
      i === 1 ? [command, fillTemplate(QA, "save"), value]
      : i === 2 ? [command, `${fillTemplate(QA, "save")}@title`, value]
      : i === 3 ? [command, fillTemplate(ROW, "it's"), fillTemplate(QA, "bin")]
      : [command, target, value]);
    const twin = await exportCode(language, project(filled), { testId: "t" });
    expect(twin).toEqual(result);
    expect(result.body).toMatch(/data-qa=\\?"save\\?"/);
    expect(result.body).not.toMatch(/qa=save|qa=bin|row=it/);
    expect(result.body).toContain("qa=not-a-locator");
    expect(result.body).toContain("qa=hello");
  });

  it("refuses an undeclared strategy, naming it and the command, in every language", async () => {
    for (const language of EXPORT_LANGUAGES) {
      const result = await exportCode(language, project([["open", "/", ""], ["click", "qa=save", ""]]), { testId: "t" });
      expect(result).toEqual({
        errorCode: "ExportFailed",
        error: expect.stringMatching(/^Test 'buys' has a problem: Command 2 click uses the locator strategy "qa" \("qa=save"\), which is not declared/),
      });
    }
  });

  it("takes a registered plugin's declaration in the IDE's export, over the project's", async () => {
    const exportCodeOf = exporter({ deliver: undefined, timeoutMs: 100, warn: () => {} });
    const plugins = [{ id: "qa-plugin", registration: { name: "QA" }, strategies: [{ ...QA, css: '[data-test-qa="{value}"]' }] }] as unknown as PluginRegistry;
    const undeclared = project([["click", "qa=save", ""]]);
    const byPlugin = await exportCodeOf({ language: "python-pytest", testId: "t" }, undeclared, plugins);
    expect(byPlugin).toMatchObject({ body: expect.stringContaining('By.CSS_SELECTOR, "[data-test-qa=\\"save\\"]"') });
    const over = await exportCodeOf({ language: "python-pytest", testId: "t" }, project([["click", "qa=save", ""]], [QA]), plugins);
    expect(over).toMatchObject({ body: expect.stringContaining("data-test-qa") });
    expect(await exportCodeOf({ language: "python-pytest", testId: "t" }, undeclared, [])).toMatchObject({ errorCode: "ExportFailed", error: expect.stringContaining('"qa"') });
  });

  it("is written by locatorAsBy and locatorIn when given the table, and refused without it", async () => {
    const table = strategyTable([QA]);
    expect(locatorAsBy("qa=save", table)).toBe('By.css("[data-qa=\\"save\\"]")');
    expect(() => locatorAsBy("qa=save")).toThrow(/qa/);
    expect(await locatorIn("python-pytest", "row=a", strategyTable([ROW]))).toBe(`By.XPATH, "//tr[@data-row='a']"`);
  });
});
