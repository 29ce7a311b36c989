// `npm run play` playing a data-driven test (CONTRACT section 22), as a real process against a
// page served on 127.0.0.1: loadVars reads a CSV beside the .side file, the block types each
// row's values into the page and checks them, and the row that does not hold is named in the
// printed failure and in the JUnit message.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servePages } from "../support/browserPages.ts";
import { playCli } from "../support/playCli.ts";

const FORM = `<!doctype html><html><head><title>Form</title></head><body>
  <input id="name" oninput="document.getElementById('out').textContent = this.value"><p id="out"></p>
</body></html>`;

let site: Awaited<ReturnType<typeof servePages>>;
let dir: string;

beforeAll(async () => {
  site = await servePages({ "/form": FORM });
  dir = mkdtempSync(join(tmpdir(), "ide-core-play-data-"));
});
afterAll(() => site?.close());

const command = (id: string, name: string, target = "", value = "") => ({ id, comment: "", command: name, target, targets: [], value });

function dataProject(file: string): string {
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
          command("c1", "loadVars", file),
          command("c2", "open", "/form"),
          command("c3", "type", "id=name", "${name}"),
          command("c4", "assertText", "id=out", "${expected}"),
          command("c5", "endLoadVars"),
        ],
      },
    ],
    suites: [],
    urls: [],
    plugins: [],
  };
  const path = join(dir, "data.side");
  writeFileSync(path, JSON.stringify(project));
  return path;
}

// Each run starts a process and a browser, which on a busy machine takes a while.
describe("npm run play with loadVars", { timeout: 300_000 }, () => {
  it("plays the block once per row of a CSV beside the project, and names the failing row in the output and the JUnit message", async () => {
    writeFileSync(join(dir, "people.csv"), "name,expected\nAda,Ada\nBob,Rob\nCy,Cy\n");
    const junit = join(dir, "rows.xml");
    const played = await playCli([dataProject("people.csv"), "--junit", junit], dir);
    const out = played.stdout + played.stderr;
    expect(out).toMatch(/failed\s+types each row/);
    expect(out).toContain('row 2 of 3: (name="Bob", expected="Rob")');
    expect(played.code).toBe(1);
    expect(readFileSync(junit, "utf8")).toContain("row 2 of 3: (name=&quot;Bob&quot;, expected=&quot;Rob&quot;)");
  });

  it("passes when every row holds, and fails the loadVars naming the file and line of a short CSV row", async () => {
    writeFileSync(join(dir, "good.csv"), "name,expected\nAda,Ada\nCy,Cy\n");
    const good = await playCli([dataProject("good.csv")], dir);
    expect(good.stdout).toMatch(/passed\s+types each row/);
    expect(good.code).toBe(0);
    writeFileSync(join(dir, "short.csv"), "name,expected\nAda,Ada\nCy\n");
    const short = await playCli([dataProject("short.csv")], dir);
    expect(short.stdout + short.stderr).toMatch(/loadVars.*"short\.csv".*line 3/s);
    expect(short.code).toBe(1);
  });

  it("fails the loadVars of a JSON file that is not an array of objects, naming the file, the line and the item", async () => {
    writeFileSync(join(dir, "one.json"), '{ "name": "Ada", "expected": "Ada" }\n');
    const one = await playCli([dataProject("one.json")], dir);
    expect(one.stdout).toMatch(/failed\s+types each row/);
    expect(one.stdout).toMatch(/failed at loadVars "one\.json": The data file .*one\.json"? is not an array of objects: line 1: its JSON is a object\./);
    expect(one.code).toBe(1);
    writeFileSync(join(dir, "mixed.json"), '[\n  { "name": "Ada", "expected": "Ada" },\n  "Bob"\n]\n');
    const mixed = await playCli([dataProject("mixed.json")], dir);
    expect(mixed.stdout).toMatch(/failed at loadVars "mixed\.json": The data file .*mixed\.json"? is not an array of objects: line 3: item 2 is "Bob"\./);
    expect(mixed.code).toBe(1);
  });
});
