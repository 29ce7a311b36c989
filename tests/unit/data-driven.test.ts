// Data-driven tests (CONTRACT section 22): loadVars FILE … endLoadVars. The data file as it is
// parsed, the block structure as it is checked before a run, and the rows as a test runner
// plays them, with the ports a host provides stood in by plain functions.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dataFileReader } from "../../apps/host/dataFiles.ts";
import { createActor, fromPromise, waitFor } from "xstate";
import { testRunnerMachine } from "../../machines/testRunner.machine.ts";
import type { DataRow, PageCommandInput, PageOutcome, ReadDataInput, TestRunnerInput } from "../../machines/testRunner.types.ts";
import { commandRows } from "../../services/playback/commandTable.ts";
import { parseDataFile } from "../../services/playback/data.ts";
import { buildFlow } from "../../services/playback/flow.ts";
import { command, modelProject } from "../model/support.ts";

describe("a data file", () => {
  it("gives a CSV's rows with the header's names and string values", () => {
    expect(parseDataFile({ path: "people.csv", text: "name,age\nAda,36\nBob,7\n" })).toEqual([
      { name: "Ada", age: "36" },
      { name: "Bob", age: "7" },
    ]);
  });

  it("refuses a CSV with a short row, naming the file and the line", () => {
    expect(() => parseDataFile({ path: "people.csv", text: "name,age\nAda,36\nBob\n" })).toThrow(/"people\.csv".*line 3/);
  });

  it("gives a JSON array of objects as its rows", () => {
    expect(parseDataFile({ path: "d.json", text: '[{"a": 1}, {"a": "x"}]' })).toEqual([{ a: 1 }, { a: "x" }]);
  });

  it("refuses JSON that is not an array, naming the file", () => {
    expect(() => parseDataFile({ path: "d.json", text: '{"a": 1}' })).toThrow(/"d\.json" is not an array of objects: line 1/);
  });

  it("refuses a JSON array with an item that is not an object, naming its line", () => {
    expect(() => parseDataFile({ path: "d.json", text: '[\n  {"a": 1},\n  3\n]' })).toThrow(/"d\.json" is not an array of objects: line 3: item 2 is 3/);
  });

  it("refuses broken JSON, naming the file and the line", () => {
    expect(() => parseDataFile({ path: "d.json", text: '[\n  {"a": 1},\n  }\n]' })).toThrow(/"d\.json" is not JSON: line 3/);
  });

  it("refuses a file that is neither .csv nor .json", () => {
    expect(() => parseDataFile({ path: "d.txt", text: "a" })).toThrow(/\.csv or a \.json file, not "d\.txt"/);
  });
});

const c = (id: string, name: string, target = "", value = "") => command(id, name, target, value);

describe("a data block's structure", () => {
  it("refuses an endLoadVars without a loadVars before the run", () => {
    const flow = buildFlow([c("a", "open", "/"), c("b", "endLoadVars")]);
    expect(flow).toMatchObject({ ok: false, commandId: "b", reason: "endLoadVars without loadVars before it" });
  });

  it("refuses a loadVars that is never closed", () => {
    expect(buildFlow([c("a", "loadVars", "d.csv"), c("b", "open", "/")])).toMatchObject({ ok: false, commandId: "a", reason: "loadVars without endLoadVars after it" });
  });

  it("refuses blocks that cross: an if opened inside a data block and closed after it", () => {
    const flow = buildFlow([c("a", "loadVars", "d.csv"), c("b", "if", "true"), c("c", "endLoadVars"), c("d", "end")]);
    expect(flow).toMatchObject({ ok: false, commandId: "c", reason: expect.stringContaining("endLoadVars inside an open if block") });
  });

  it("refuses a break that would leave a data block", () => {
    const flow = buildFlow([c("a", "loadVars", "d.csv"), c("b", "break"), c("c", "endLoadVars")]);
    expect(flow).toMatchObject({ ok: false, commandId: "b", reason: expect.stringContaining("break cannot leave a loadVars block") });
  });
});

/** Plays `commands` with `files` as the data files and a page that fails `open` of any path in `failing`; the opened paths and the rows' states. */
async function play(commands: unknown[], files: Record<string, DataRow[] | Error>, failing: string[] = []) {
  const project = modelProject("p", "P", [{ id: "t", name: "t", commands }], []);
  const opened: string[] = [];
  const machine = testRunnerMachine.provide({
    actors: {
      readData: fromPromise<DataRow[], ReadDataInput>(async ({ input }) => {
        const file = files[input.file];
        if (!file) throw new Error(`The data file "${input.file}" was not found`);
        if (file instanceof Error) throw file;
        return file;
      }),
      runPageCommand: fromPromise<PageOutcome, PageCommandInput>(async ({ input }) => {
        const path = input.command.target.replace(/\$\{(\w+)\}/g, (_, name: string) => String(input.variables[name]));
        opened.push(path);
        return failing.includes(path) ? { state: "failed", message: `${path} is not there` } : { state: "passed" };
      }),
    } as never,
    actions: { reportEnded: () => undefined },
  });
  const input: TestRunnerInput = { runId: "r", projectName: "P", baseUrl: project.url, heal: true, tests: project.tests, testId: "t", suite: null, plugins: [], breakpoints: [], delayMs: 0 };
  const actor = createActor(machine, { input }).start();
  const ended = await waitFor(actor, (s) => s.matches("ended"));
  return { opened, rows: commandRows(ended.context.run.commands).map((r) => [r.id, r.state, r.message]), failed: ended.context.run.failed };
}

describe("playing a data block", () => {
  it("plays the block once per row, in order, with the row's values as variables", async () => {
    const { opened, failed } = await play([c("l", "loadVars", "d.csv"), c("o", "open", "/${name}"), c("e", "endLoadVars"), c("z", "open", "/after")], {
      "d.csv": [{ name: "a" }, { name: "b" }, { name: "c" }],
    });
    expect(opened).toEqual(["/a", "/b", "/c", "/after"]);
    expect(failed).toBe(false);
  });

  it("nests: the inner block plays all its rows for each row of the outer", async () => {
    const { opened } = await play(
      [c("l", "loadVars", "outer.json"), c("m", "loadVars", "inner.csv"), c("o", "open", "/${x}/${y}"), c("n", "endLoadVars"), c("e", "endLoadVars")],
      { "outer.json": [{ x: 1 }, { x: 2 }], "inner.csv": [{ y: "p" }, { y: "q" }] },
    );
    expect(opened).toEqual(["/1/p", "/1/q", "/2/p", "/2/q"]);
  });

  it("passes over the block when the file has no rows", async () => {
    const { opened } = await play([c("l", "loadVars", "d.csv"), c("o", "open", "/${name}"), c("e", "endLoadVars"), c("z", "open", "/after")], { "d.csv": [] });
    expect(opened).toEqual(["/after"]);
  });

  it("names the row and its values in a failing command's message, and ends the test there", async () => {
    const { opened, rows, failed } = await play([c("l", "loadVars", "d.csv"), c("o", "open", "/${name}"), c("e", "endLoadVars")], {
      "d.csv": [{ name: "a" }, { name: "b" }, { name: "c" }],
    }, ["/b"]);
    expect(opened).toEqual(["/a", "/b"]);
    expect(failed).toBe(true);
    expect(rows.find(([id]) => id === "o")).toEqual(["o", "failed", 'row 2 of 3: (name="b") /b is not there']);
  });

  it("fails the loadVars with the file's problem when its file is missing, and plays nothing of the block", async () => {
    const { opened, rows } = await play([c("l", "loadVars", "gone.csv"), c("o", "open", "/${name}"), c("e", "endLoadVars")], {});
    expect(opened).toEqual([]);
    expect(rows[0]).toEqual(["l", "failed", 'The data file "gone.csv" was not found']);
  });
});

describe("the host's data files", () => {
  const dir = mkdtempSync(join(tmpdir(), "ide-core-data-"));
  mkdirSync(join(dir, "files"));
  mkdirSync(join(dir, "project"));
  writeFileSync(join(dir, "files", "d.json"), '[{"from": "files"}]');
  writeFileSync(join(dir, "project", "d.json"), '[{"from": "project"}]');
  writeFileSync(join(dir, "project", "only.csv"), "from\nproject\n");

  it("reads a relative path from --files DIR first, then beside the .side file", async () => {
    const read = dataFileReader({ filesDir: join(dir, "files"), projectDir: join(dir, "project") });
    expect(await read("d.json")).toEqual([{ from: "files" }]);
    expect(await read("only.csv")).toEqual([{ from: "project" }]);
    expect(await read(join(dir, "project", "d.json"))).toEqual([{ from: "project" }]);
  });

  it("names every path it looked at when the file is nowhere", async () => {
    const read = dataFileReader({ filesDir: join(dir, "files"), projectDir: join(dir, "project") });
    await expect(read("gone.csv")).rejects.toThrow(`The data file "gone.csv" was not found: looked at ${join(dir, "files", "gone.csv")}, ${join(dir, "project", "gone.csv")}.`);
  });
});
