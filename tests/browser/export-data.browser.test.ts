// Exported data-driven tests run (CONTRACT section 22, `loadVars` … `endLoadVars`): a project
// whose tests loop over a CSV and, nested, a JSON file beside the .side file is exported by
// `npm run export`'s own code into another folder, and the files run with their language's
// test runner (mocha with selenium-webdriver and csv-parse; Debian's pytest with
// python3-selenium) against a page served on 127.0.0.1: each row plays, in order, with its
// values; a row that does not hold fails its test naming the row as the players do; SIDE_FILES
// puts other data in place of the project's. The files run exactly as exported
// (tests/export/runners/ points them at Debian's headless Chromium from outside).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportProject } from "../../apps/export/export.ts";
import type { ExportLanguage } from "../../services/export/index.ts";
import { servePages } from "../support/browserPages.ts";
import { runMocha, runPytest } from "../support/exportedRuns.ts";

const FORM = `<!doctype html><html><head><title>Form</title></head><body>
  <input id="name" oninput="document.getElementById('out').textContent = this.value"><p id="out"></p>
</body></html>`;

let site: Awaited<ReturnType<typeof servePages>>;

beforeAll(async () => {
  site = await servePages({ "/form": FORM });
});
afterAll(() => site?.close());

let nextId = 0;
const c = (command: string, target = "", value = "") => ({ id: `c${(nextId += 1)}`, comment: "", command, target, targets: [], value });

/** A project beside its data (people.csv, sizes.json) in a folder of its own; gives the .side file's path. */
function dataProject(people: string): string {
  const dir = mkdtempSync(join(tmpdir(), "export-data-"));
  writeFileSync(join(dir, "people.csv"), people);
  writeFileSync(join(dir, "sizes.json"), JSON.stringify([{ size: "S" }, { size: "M" }]));
  const project = {
    id: "p-data",
    name: "Data project",
    url: site.origin,
    version: "2.0",
    tests: [
      {
        id: "t-rows",
        name: "types each row",
        commands: [
          c("loadVars", "people.csv"),
          c("open", "/form"),
          c("type", "id=name", "${name}"),
          c("assertText", "id=out", "${expected}"),
          c("echo", "played ${name}"),
          c("endLoadVars"),
        ],
      },
      {
        id: "t-nested",
        name: "pairs sizes with people",
        commands: [
          c("loadVars", "sizes.json"),
          c("loadVars", "people.csv"),
          c("open", "/form"),
          c("type", "id=name", "${name} ${size}"),
          c("assertText", "id=out", "${expected} ${size}"),
          c("echo", "pair ${name} ${size}"),
          c("endLoadVars"),
          c("endLoadVars"),
        ],
      },
    ],
    suites: [{ id: "s-data", name: "Data suite", tests: ["t-rows", "t-nested"], persistSession: false, parallel: false, timeout: 300 }],
    urls: [],
    plugins: [],
  };
  const path = join(dir, "data.side");
  writeFileSync(path, JSON.stringify(project));
  return path;
}

/** The suite exported by `npm run export`'s code into a folder below the project's: the exported file's path. */
async function exported(side: string, language: ExportLanguage): Promise<string> {
  const written: string[] = [];
  const out = join(dirname(side), "exported");
  await exportProject({ file: side, language, target: { kind: "suite", name: "Data suite" }, out }, (path) => written.push(path));
  expect(written).toHaveLength(1);
  return written[0];
}

const GOOD = "name,expected\nAda,Ada\nBob,Bob\nCy,Cy\n";
const BAD = "name,expected\nAda,Ada\nBob,Rob\nCy,Cy\n";

/** What the exported file's echoes starting with `word` printed, in order (pytest may put its tests' dots and Fs before one). */
const echoed = (output: string, word: string) =>
  output.split("\n").flatMap((line) => line.trim().match(new RegExp(`^[.F]*(${word} .*)$`))?.[1] ?? []);

describe("an exported data-driven test runs with its language's test runner", () => {
  it("plays each CSV row and each JSON row around them in order with mocha, reading the data beside the .side file", async () => {
    const file = await exported(dataProject(GOOD), "javascript-mocha");
    const played = await runMocha(file);
    expect(played.output).toMatch(/2 passing/);
    expect(echoed(played.output, "played")).toEqual(["played Ada", "played Bob", "played Cy"]);
    expect(echoed(played.output, "pair")).toEqual(["pair Ada S", "pair Bob S", "pair Cy S", "pair Ada M", "pair Bob M", "pair Cy M"]);
    expect(played.status).toBe(0);
  });

  it("fails the mocha test at the row that does not hold, naming the row and, nested, the outer row too", async () => {
    const file = await exported(dataProject(BAD), "javascript-mocha");
    const played = await runMocha(file);
    expect(played.output).toMatch(/2 failing/);
    expect(played.output).toContain('row 2 of 3: (name="Bob", expected="Rob") ');
    expect(played.output).toContain('row 1 of 2: (size="S") row 2 of 3: (name="Bob", expected="Rob") ');
    // The first row played before the failure; the third never did.
    expect(echoed(played.output, "played")).toEqual(["played Ada"]);
    expect(played.status).not.toBe(0);
  });

  it("reads the data from SIDE_FILES before the .side file's folder in mocha", async () => {
    const file = await exported(dataProject(BAD), "javascript-mocha");
    const files = mkdtempSync(join(tmpdir(), "export-data-files-"));
    writeFileSync(join(files, "people.csv"), "name,expected\nDee,Dee\n");
    const played = await runMocha(file, { SIDE_FILES: files });
    expect(played.output).toMatch(/2 passing/);
    expect(echoed(played.output, "played")).toEqual(["played Dee"]);
    expect(played.status).toBe(0);
  });

  it("plays each CSV row and each JSON row around them in order with pytest, reading the data beside the .side file", async () => {
    const file = await exported(dataProject(GOOD), "python-pytest");
    const played = await runPytest(file);
    expect(played.output).toMatch(/2 passed/);
    expect(echoed(played.output, "played")).toEqual(["played Ada", "played Bob", "played Cy"]);
    expect(echoed(played.output, "pair")).toEqual(["pair Ada S", "pair Bob S", "pair Cy S", "pair Ada M", "pair Bob M", "pair Cy M"]);
    expect(played.status).toBe(0);
  });

  it("fails the pytest test at the row that does not hold, naming the row and, nested, the outer row too", async () => {
    const file = await exported(dataProject(BAD), "python-pytest");
    const played = await runPytest(file);
    expect(played.output).toMatch(/2 failed/);
    expect(played.output).toContain('row 2 of 3: (name="Bob", expected="Rob") ');
    expect(played.output).toContain('row 1 of 2: (size="S") row 2 of 3: (name="Bob", expected="Rob") ');
    expect(echoed(played.output, "played")).toEqual(["played Ada"]);
    expect(played.status).not.toBe(0);
  });

  it("fails the pytest test's loadVars naming the file and line of a CSV row short of a value", async () => {
    const side = dataProject("name,expected\nAda,Ada\nBob\n");
    const played = await runPytest(await exported(side, "python-pytest"));
    expect(played.output).toContain('The data file "people.csv" is not CSV with a header row: line 3');
    expect(played.output).toMatch(/2 failed/);
  });
});
