// `css=A >>> B` in exported code (CONTRACT section 19, services/export/shadow.ts): every
// language writes Selenium 4's getShadowRoot() chain, in its own syntax, wherever the package
// finds the element; a wait that only takes a By fails the export with a clear sentence.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exportCode } from "../../services/export/index.ts";
import type { ExportLanguage } from "../../services/export/index.ts";
import { parseSideProject } from "../../services/side/index.ts";
import type { SideProject } from "../../services/side/index.ts";

const PAY = "css=x-checkout >>> button.pay";
const TOTAL = "css=x-checkout >>> x-summary >>> .total";

function projectOf(commands: Array<[command: string, target: string, value?: string]>): SideProject {
  const parsed = parseSideProject({
    id: "p-shadow",
    name: "Shadow",
    url: "http://127.0.0.1:8080",
    version: "2.0",
    tests: [{ id: "t", name: "checkout", commands: commands.map(([command, target, value = ""], i) => ({ id: `c${i}`, command, target, value })) }],
    suites: [{ id: "s", name: "Suite", tests: ["t"] }],
  });
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.project;
}

async function bodyOf(language: ExportLanguage, project: SideProject): Promise<string> {
  const result = await exportCode(language, project, { testId: "t" });
  if ("errorCode" in result) throw new Error(result.error);
  return result.body;
}

const CHECKOUT = projectOf([
  ["click", PAY],
  ["assertText", TOTAL, "4"],
]);

const EXPECTED: Record<ExportLanguage, string[]> = {
  "javascript-mocha": [
    `await (await (await driver.findElement(By.css("x-checkout")).getShadowRoot()).findElement(By.css("button.pay"))).click()`,
    `assert.equal(await (await (await (await (await driver.findElement(By.css("x-checkout")).getShadowRoot()).findElement(By.css("x-summary"))).getShadowRoot()).findElement(By.css(".total"))).getText(), "4")`,
  ],
  "python-pytest": [
    `self.driver.find_element(By.CSS_SELECTOR, "x-checkout").shadow_root.find_element(By.CSS_SELECTOR, "button.pay").click()`,
    `assert self.driver.find_element(By.CSS_SELECTOR, "x-checkout").shadow_root.find_element(By.CSS_SELECTOR, "x-summary").shadow_root.find_element(By.CSS_SELECTOR, ".total").text == "4"`,
  ],
  "java-junit": [
    `driver.findElement(By.cssSelector("x-checkout")).getShadowRoot().findElement(By.cssSelector("button.pay")).click();`,
    `assertThat(driver.findElement(By.cssSelector("x-checkout")).getShadowRoot().findElement(By.cssSelector("x-summary")).getShadowRoot().findElement(By.cssSelector(".total")).getText(), is("4"));`,
  ],
  "csharp-nunit": [
    `driver.FindElement(By.CssSelector("x-checkout")).GetShadowRoot().FindElement(By.CssSelector("button.pay")).Click();`,
    `Assert.That(driver.FindElement(By.CssSelector("x-checkout")).GetShadowRoot().FindElement(By.CssSelector("x-summary")).GetShadowRoot().FindElement(By.CssSelector(".total")).Text, Is.EqualTo("4"));`,
  ],
  "csharp-xunit": [
    `driver.FindElement(By.CssSelector("x-checkout")).GetShadowRoot().FindElement(By.CssSelector("button.pay")).Click();`,
    `Assert.Equal(driver.FindElement(By.CssSelector("x-checkout")).GetShadowRoot().FindElement(By.CssSelector("x-summary")).GetShadowRoot().FindElement(By.CssSelector(".total")).Text, "4");`,
  ],
  "ruby-rspec": [
    `@driver.find_element(:css, 'x-checkout').shadow_root.find_element(:css, 'button.pay').click`,
    `expect(@driver.find_element(:css, 'x-checkout').shadow_root.find_element(:css, 'x-summary').shadow_root.find_element(:css, '.total').text).to eq('4')`,
  ],
};

describe("exporting a css=A >>> B locator", () => {
  for (const [language, lines] of Object.entries(EXPECTED) as Array<[ExportLanguage, string[]]>) {
    it(`writes the getShadowRoot() chain in ${language}, and no ">>>" is left in the code`, async () => {
      const body = await bodyOf(language, CHECKOUT);
      for (const line of lines) expect(body).toContain(line);
      expect(body).not.toContain(">>>");
    });
  }

  it("writes the chain for every locator of a command: dragAndDropToObject's value and storeAttribute's element", async () => {
    const body = await bodyOf("java-junit", projectOf([["dragAndDropToObject", PAY, TOTAL], ["storeAttribute", `${PAY}@title`, "title"]]));
    expect(body).toContain(`WebElement dropped = driver.findElement(By.cssSelector("x-checkout")).getShadowRoot().findElement(By.cssSelector("x-summary")).getShadowRoot().findElement(By.cssSelector(".total"));`);
    expect(body).toContain(`WebElement element = driver.findElement(By.cssSelector("x-checkout")).getShadowRoot().findElement(By.cssSelector("button.pay"));`);
    expect(body).not.toContain(">>>");
  });

  it("writes a wait for the element as a condition over the chain where the language's wait takes one", async () => {
    const waits = projectOf([["waitForElementPresent", PAY, "1000"], ["waitForElementVisible", PAY, "1000"]]);
    expect(await bodyOf("python-pytest", waits)).toContain(
      `WebDriverWait(self.driver, 1).until(lambda driver: self.driver.find_element(By.CSS_SELECTOR, "x-checkout").shadow_root.find_element(By.CSS_SELECTOR, "button.pay").is_displayed())`,
    );
    expect(await bodyOf("java-junit", waits)).toContain(
      `wait.until(d -> driver.findElement(By.cssSelector("x-checkout")).getShadowRoot().findElement(By.cssSelector("button.pay")));`,
    );
    expect(await bodyOf("javascript-mocha", waits)).toContain(
      `until.elementLocated(async (driver) => { try { return (await (await driver.findElement(By.css("x-checkout")).getShadowRoot()).findElements(By.css("button.pay"))) } catch { return [] } })`,
    );
  });

  it("fails the export, naming the command and language, where a wait only takes a locator", async () => {
    const result = await exportCode("python-pytest", projectOf([["waitForElementNotVisible", PAY, "1000"]]), { testId: "t" });
    expect(result).toEqual({
      errorCode: "ExportFailed",
      error: `Test 'checkout' has a problem: 'waitForElementNotVisible' with the shadow DOM locator "${PAY}" cannot be exported to python-pytest: its code takes a single locator there, which cannot step into shadow roots`,
    });
  });

  it("leaves a css locator without >>> as the package writes it", async () => {
    const body = await bodyOf("python-pytest", projectOf([["click", "css=a[title='>>>']"]]));
    expect(body).toContain(`self.driver.find_element(By.CSS_SELECTOR, "a[title=\\'>>>\\']").click()`);
    expect(body).not.toContain("shadow_root");
  });

  it("writes JavaScript and Python files that parse", async () => {
    const project = projectOf([["click", PAY], ["assertText", TOTAL, "4"], ["waitForElementPresent", TOTAL, "1000"]]);
    const dir = mkdtempSync(join(tmpdir(), "export-shadow-"));
    writeFileSync(join(dir, "test.js"), await bodyOf("javascript-mocha", project));
    writeFileSync(join(dir, "test.py"), await bodyOf("python-pytest", project));
    expect(() => execFileSync(process.execPath, ["--check", join(dir, "test.js")], { stdio: "pipe" })).not.toThrow();
    expect(() => execFileSync("python3", ["-c", "import ast, sys; ast.parse(open(sys.argv[1]).read())", join(dir, "test.py")], { stdio: "pipe" })).not.toThrow();
  });
});
