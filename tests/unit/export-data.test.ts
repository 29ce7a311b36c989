// Data-driven tests in code export (CONTRACT section 22): `loadVars FILE` … `endLoadVars` as
// each language's loop over the file's rows, nested blocks included, with the helpers that
// read the file and name a failing row written once per file; and a variable in a command's
// target or value written as the language's lookup, not inside a string literal.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Script } from "node:vm";
import { describe, expect, it } from "vitest";
import { EXPORT_LANGUAGES, exportCode } from "../../services/export/index.ts";
import type { DataOptions, ExportLanguage } from "../../services/export/index.ts";
import { parseSideProject } from "../../services/side/index.ts";
import type { SideProject } from "../../services/side/index.ts";

let nextId = 0;
const c = (command: string, target = "", value = "") => ({ id: `c${(nextId += 1)}`, command, target, value, comment: "" });

function project(commands: ReturnType<typeof c>[], others: ReturnType<typeof c>[][] = []): SideProject {
  const result = parseSideProject({
    id: "p-data",
    name: "Data",
    url: "http://127.0.0.1:8080",
    version: "2.0",
    tests: [{ id: "t-data", name: "data", commands }, ...others.map((list, index) => ({ id: `t-other${index}`, name: `other ${index}`, commands: list }))],
    suites: [{ id: "s-data", name: "Data suite", tests: ["t-data", ...others.map((_, index) => `t-other${index}`)], persistSession: false, parallel: false, timeout: 300 }],
  });
  if (!result.ok) throw new Error(result.problem);
  return result.project;
}

const NESTED = () => [
  c("open", "/form"),
  c("loadVars", "people.csv"),
  c("type", "id=name", "${name}"),
  c("loadVars", "sizes.json"),
  c("click", "id=add"),
  c("endLoadVars"),
  c("assertText", "id=out", "${expected}"),
  c("endLoadVars"),
  c("echo", "done"),
];

async function body(language: ExportLanguage, p: SideProject, data: DataOptions = {}, scope: { suiteId: string } | { testId: string } = { suiteId: "s-data" }): Promise<string> {
  const file = await exportCode(language, p, scope, data);
  if ("errorCode" in file) throw new Error(file.error);
  return file.body;
}

const lines = (text: string) => text.split("\n");
const indentOf = (text: string, fragment: string) => {
  const line = lines(text).find((candidate) => candidate.includes(fragment));
  if (line === undefined) throw new Error(`no line has ${fragment}`);
  return line.length - line.trimStart().length;
};

// Per language: the outer loop's first line, a line of its row's start, its failure's rethrow, the inner loop's first line, the echo after the block.
const LOOP_LINES: Record<ExportLanguage, { open: string; row: string; rethrow: string; inner: string; after: string }> = {
  "javascript-mocha": {
    open: 'const rows1 = dataRows("people.csv")',
    row: "Object.assign(vars, rows1[index1])",
    rethrow: "throw rowFailure(error1, rows1, index1)",
    inner: 'const rows2 = dataRows("sizes.json")',
    after: 'console.log("done")',
  },
  "python-pytest": {
    open: 'rows_1 = self.data_rows("people.csv")',
    row: "self.vars.update(row_1)",
    rethrow: "raise self.row_failure(error_1, rows_1, index_1) from error_1",
    inner: 'rows_2 = self.data_rows("sizes.json")',
    after: 'print("done")',
  },
  "ruby-rspec": {
    open: "rows_1 = data_rows('people.csv')",
    row: "@vars.merge!(row_1)",
    rethrow: "raise row_failure(error_1, rows_1, index_1)",
    inner: "rows_2 = data_rows('sizes.json')",
    after: "puts('done')",
  },
  "java-junit": {
    open: 'List<Map<String, Object>> rows1 = dataRows("people.csv");',
    row: "vars.putAll(rows1.get(index1));",
    rethrow: "throw rowFailure(error1, rows1, index1);",
    inner: 'List<Map<String, Object>> rows2 = dataRows("sizes.json");',
    after: 'System.out.println("done");',
  },
  "csharp-nunit": {
    open: 'var rows1 = DataRows("people.csv");',
    row: "foreach (var pair1 in rows1[index1]) vars[pair1.Key] = pair1.Value;",
    rethrow: "throw RowFailure(error1, rows1, index1);",
    inner: 'var rows2 = DataRows("sizes.json");',
    after: 'Console.WriteLine("done");',
  },
  "csharp-xunit": {
    open: 'var rows1 = DataRows("people.csv");',
    row: "foreach (var pair1 in rows1[index1]) vars[pair1.Key] = pair1.Value;",
    rethrow: "throw RowFailure(error1, rows1, index1);",
    inner: 'var rows2 = DataRows("sizes.json");',
    after: 'Console.WriteLine("done");',
  },
};

// The first line the loop writes before the row's commands: Python and Ruby need no block of their own around it.
const BLOCK_START: Record<ExportLanguage, string> = {
  "javascript-mocha": "{",
  "python-pytest": "rows_1 =",
  "ruby-rspec": "rows_1 =",
  "java-junit": "{",
  "csharp-nunit": "{",
  "csharp-xunit": "{",
};

describe("loadVars … endLoadVars in code export", () => {
  it("writes each language's loop over the rows, the block's commands inside it and the next command back at the loop's level", async () => {
    for (const language of EXPORT_LANGUAGES) {
      const text = await body(language, project(NESTED()));
      const expected = LOOP_LINES[language];
      const trimmed = lines(text).map((line) => line.trim());
      for (const line of Object.values(expected)) expect(trimmed, `${language}: ${line}`).toContain(line);
      const outer = indentOf(text, expected.open);
      expect(indentOf(text, expected.row), language).toBeGreaterThan(outer);
      expect(indentOf(text, expected.inner), language).toBeGreaterThan(indentOf(text, expected.row));
      // The echo after the block stands where the block's first line does.
      const blockStart = lines(text).findIndex((line) => line.includes(expected.open)) - (BLOCK_START[language] === "{" ? 1 : 0);
      const startLine = lines(text)[blockStart];
      expect(startLine.trim().startsWith(BLOCK_START[language]), language).toBe(true);
      expect(indentOf(text, expected.after), language).toBe(startLine.length - startLine.trimStart().length);
      expect(trimmed.indexOf(expected.rethrow), language).toBeLessThan(trimmed.indexOf(expected.after));
    }
  });

  it("writes the helpers once per file when tests load data, and none when no test does", async () => {
    const helper: Record<ExportLanguage, string> = {
      "javascript-mocha": "function dataRows(name) {",
      "python-pytest": "def data_rows(self, name):",
      "ruby-rspec": "def data_rows(name)",
      "java-junit": "private static List<Map<String, Object>> dataRows(String name) {",
      "csharp-nunit": "private static List<Dictionary<string, object>> DataRows(",
      "csharp-xunit": "private static List<Dictionary<string, object>> DataRows(",
    };
    for (const language of EXPORT_LANGUAGES) {
      const twice = await body(language, project(NESTED(), [NESTED()]));
      expect(twice.split(helper[language]).length - 1, language).toBe(1);
      const none = await body(language, project([c("open", "/form"), c("echo", "done")]));
      expect(none, language).not.toContain(helper[language]);
      expect(none, language).not.toContain("SIDE_FILES");
    }
  });

  it("writes the export's data folder into the helpers, the exported file's own folder when none is given", async () => {
    const folder: Record<ExportLanguage, (dir: string) => string> = {
      "javascript-mocha": (dir) => `return path.resolve(__dirname, "${dir}", name)`,
      "python-pytest": (dir) => `return os.path.join(os.path.dirname(os.path.abspath(__file__)), "${dir}", name)`,
      "ruby-rspec": (dir) => `File.expand_path(File.join('${dir}', name), __dir__)`,
      "java-junit": (dir) => `return Paths.get("${dir}", name).toAbsolutePath();`,
      "csharp-nunit": (dir) => `"", "${dir}", name));`,
      "csharp-xunit": (dir) => `"", "${dir}", name));`,
    };
    for (const language of EXPORT_LANGUAGES) {
      expect(await body(language, project(NESTED())), language).toContain(folder[language]("."));
      expect(await body(language, project(NESTED()), { dataDir: "../data" }), language).toContain(folder[language]("../data"));
    }
  });

  it("writes a file name as a string literal of the language, quotes and backslashes escaped", async () => {
    const js = await body("javascript-mocha", project([c("loadVars", 'my "rows".csv'), c("echo", "x"), c("endLoadVars")]));
    expect(js).toContain('dataRows("my \\"rows\\".csv")');
    const ruby = await body("ruby-rspec", project([c("loadVars", "it's #{x}.csv"), c("echo", "x"), c("endLoadVars")]));
    expect(ruby).toContain("data_rows('it\\'s #{x}.csv')");
  });

  it("refuses a block with no endLoadVars, an endLoadVars with no block and a loadVars with no file, naming the test", async () => {
    for (const language of EXPORT_LANGUAGES) {
      const unclosed = await exportCode(language, project([c("loadVars", "people.csv"), c("echo", "x")]), { suiteId: "s-data" });
      expect(unclosed, language).toMatchObject({ errorCode: "ExportFailed", error: "Test 'data' has a problem: loadVars without endLoadVars after it" });
      const stray = await exportCode(language, project([c("echo", "x"), c("endLoadVars")]), { suiteId: "s-data" });
      expect(stray, language).toMatchObject({ errorCode: "ExportFailed", error: "Test 'data' has a problem: endLoadVars without loadVars before it" });
      const nameless = await exportCode(language, project([c("loadVars", " "), c("endLoadVars")]), { suiteId: "s-data" });
      expect(nameless, language).toMatchObject({ errorCode: "ExportFailed", error: "Test 'data' has a problem: 'loadVars' needs the path of a .csv or .json file as its target" });
    }
  });

  it("writes a JavaScript file that parses and a Python file that compiles", async () => {
    const js = await body("javascript-mocha", project(NESTED()));
    expect(() => new Script(js)).not.toThrow();
    const dir = mkdtempSync(join(tmpdir(), "export-data-unit-"));
    writeFileSync(join(dir, "test_data.py"), await body("python-pytest", project(NESTED())));
    const compiled = spawnSync("/usr/bin/python3", ["-m", "py_compile", join(dir, "test_data.py")], { encoding: "utf8" });
    expect(compiled.stderr).toBe("");
    expect(compiled.status).toBe(0);
  });
});

describe("a variable in a command's parameter in code export", () => {
  it("writes a variable standing alone, or among words, as the language's lookup in an assertion", async () => {
    const expected: Record<ExportLanguage, [string, string]> = {
      "javascript-mocha": ['assert.equal(await driver.findElement(By.id("out")).getText(), vars["expected"])', 'assert.equal(await driver.findElement(By.id("out")).getText(), "Hello " + vars["who"] + "!")'],
      "python-pytest": ['assert self.driver.find_element(By.ID, "out").text == str(self.vars["expected"])', 'assert self.driver.find_element(By.ID, "out").text == "Hello " + str(self.vars["who"]) + "!"'],
      "ruby-rspec": ["expect(@driver.find_element(:id, 'out').text).to eq(@vars['expected'].to_s)", "expect(@driver.find_element(:id, 'out').text).to eq('Hello ' + @vars['who'].to_s + '!')"],
      "java-junit": ['assertThat(driver.findElement(By.id("out")).getText(), is(vars.get("expected").toString()));', 'assertThat(driver.findElement(By.id("out")).getText(), is("Hello " + vars.get("who").toString() + "!"));'],
      "csharp-nunit": ['Assert.That(driver.FindElement(By.Id("out")).Text, Is.EqualTo(vars["expected"].ToString()));', 'Assert.That(driver.FindElement(By.Id("out")).Text, Is.EqualTo("Hello " + vars["who"].ToString() + "!"));'],
      "csharp-xunit": ['Assert.Equal(driver.FindElement(By.Id("out")).Text, vars["expected"].ToString());', 'Assert.Equal(driver.FindElement(By.Id("out")).Text, "Hello " + vars["who"].ToString() + "!");'],
    };
    const p = project([c("assertText", "id=out", "${expected}"), c("assertText", "id=out", "Hello ${who}!")]);
    for (const language of EXPORT_LANGUAGES) {
      const trimmed = lines(await body(language, p)).map((line) => line.trim());
      for (const line of expected[language]) expect(trimmed, language).toContain(line);
    }
  });

  it("writes variables in a locator and a URL as lookups joined to the literal's other pieces", async () => {
    const p = project([c("open", "/form/${page}"), c("click", "css=[data-x=\"${a}\"] .${b}")]);
    const js = lines(await body("javascript-mocha", p)).map((line) => line.trim());
    expect(js).toContain('await driver.get("http://127.0.0.1:8080/form/" + vars["page"])');
    expect(js).toContain('await driver.findElement(By.css("[data-x=\\"" + vars["a"] + "\\"] ." + vars["b"])).click()');
  });

  it("leaves to the package what it writes right: times' count as code, a script's variables as its arguments, sendKeys' keys", async () => {
    const p = project([c("times", "${n}", "5"), c("click", "id=a"), c("end"), c("executeScript", "return ${x} + 1", "y"), c("sendKeys", "id=a", "${KEY_ENTER}")]);
    const js = lines(await body("javascript-mocha", p)).map((line) => line.trim());
    expect(js).toContain('const times = vars["n"]');
    expect(js).toContain('vars["y"] = await driver.executeScript("return arguments[0] + 1", vars["x"])');
    expect(js).toContain('await driver.findElement(By.id("a")).sendKeys(Key.ENTER)');
  });
});
