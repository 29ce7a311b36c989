// `npm run play` with a data file the project carries (CONTRACT section 22; the `dataFiles` of
// services/side/dataFiles.ts, as the page's "Add data file" or the extension saves it): when no
// such file is on the disk, loadVars plays the carried one; a file on the disk wins over it.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servePages } from "../support/browserPages.ts";
import { playCli } from "../support/playCli.ts";

const FORM = `<!doctype html><html><head><title>Form</title></head><body>
  <input id="name" oninput="document.getElementById('out').textContent = this.value"><p id="out"></p>
</body></html>`;

let site: Awaited<ReturnType<typeof servePages>>;

beforeAll(async () => {
  site = await servePages({ "/form": FORM });
});
afterAll(() => site?.close());

const command = (id: string, name: string, target = "", value = "") => ({ id, comment: "", command: name, target, targets: [], value });

/** A project whose test types each row's name and expects `Ada` every time, carrying `content` as people.csv. */
function carryingProject(dir: string, content: string): string {
  const project = {
    id: "p-carried",
    name: "Carried data",
    url: site.origin,
    version: "2.0",
    tests: [
      {
        id: "t-rows",
        name: "types each carried row",
        commands: [
          command("c1", "loadVars", "people.csv"),
          command("c2", "open", "/form"),
          command("c3", "type", "id=name", "${name}"),
          command("c4", "assertText", "id=out", "Ada"),
          command("c5", "endLoadVars"),
        ],
      },
    ],
    suites: [],
    urls: [],
    plugins: [],
    dataFiles: [{ name: "people.csv", content }],
  };
  const path = join(dir, "carried.side");
  writeFileSync(path, JSON.stringify(project));
  return path;
}

describe("npm run play with a data file carried in the project", () => {
  it("plays the carried file when the disk has none, and the disk's file when it has one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ide-core-play-carried-"));
    const side = carryingProject(dir, "name\nAda\nAda\n");
    const carried = await playCli([side], dir);
    expect(carried.stdout).toMatch(/passed\s+types each carried row/);
    expect(carried.code).toBe(0);
    writeFileSync(join(dir, "people.csv"), "name\nAda\nBob\n");
    const disk = await playCli([side], dir);
    expect(disk.stdout + disk.stderr).toContain('row 2 of 2: (name="Bob")');
    expect(disk.code).toBe(1);
  }, 240_000);
});
