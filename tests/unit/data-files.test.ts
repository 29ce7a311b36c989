// The data files a project carries (CONTRACT section 22): how they travel in the .side file,
// the editor's "Add data file" and "Remove" as undoable edits, and where loadVars finds one:
// the host's reader (disk first, then the project) and the extension's (the project only).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dataFileReader, withCarriedFiles } from "../../apps/host/dataFiles.ts";
import { carriedDataReader } from "../../drivers/webextension/dataFiles.ts";
import { parseSideProject } from "../../services/side/index.ts";
import { expectRefused, shop, startEditor } from "../support/editor.ts";
import { createIde, fakeExecutor, waitForStatus } from "../protocol/support.ts";

const PEOPLE = "name,age\nAda,36\nBob,7\n";

describe("a project's data files in the .side file", () => {
  it("keeps a dataFiles field of names and contents as it came", () => {
    const parsed = parseSideProject({ ...shop(), dataFiles: [{ name: "people.csv", content: PEOPLE }] });
    expect(parsed.ok && parsed.project.dataFiles).toEqual([{ name: "people.csv", content: PEOPLE }]);
  });

  it("refuses a project that names a data file twice, saying which", () => {
    const parsed = parseSideProject({ ...shop(), dataFiles: [{ name: "a.csv", content: "x\n1\n" }, { name: "a.csv", content: "y\n2\n" }] });
    expect(parsed).toMatchObject({ ok: false, problem: expect.stringContaining('"a.csv" a second time') });
  });

  it("refuses a data file without content", () => {
    expect(parseSideProject({ ...shop(), dataFiles: [{ name: "a.csv" }] }).ok).toBe(false);
  });
});

describe("Add data file, in the editor", () => {
  it("carries the file in the project as one undo step, and undo gives back the project without the field", () => {
    const editor = startEditor();
    const first = editor.project();
    editor.send({ type: "user.addDataFile", name: "people.csv", content: PEOPLE });
    expect(editor.project().dataFiles).toEqual([{ name: "people.csv", content: PEOPLE }]);
    expect(editor.history().undo).toBe('Add data file "people.csv"');
    expect(editor.edits()).toBe(1);
    editor.send({ type: "user.undo" });
    expect(editor.project()).toEqual(first);
    expect("dataFiles" in editor.project()).toBe(false);
    editor.send({ type: "user.redo" });
    expect(editor.project().dataFiles).toEqual([{ name: "people.csv", content: PEOPLE }]);
  });

  it("replaces a file of the same name, and removes one, each an undo step", () => {
    const editor = startEditor();
    editor.send({ type: "user.addDataFile", name: "people.csv", content: PEOPLE });
    editor.send({ type: "user.addDataFile", name: "more.json", content: '[{"a": 1}]' });
    editor.send({ type: "user.addDataFile", name: "people.csv", content: "name\nCy\n" });
    expect(editor.project().dataFiles).toEqual([
      { name: "people.csv", content: "name\nCy\n" },
      { name: "more.json", content: '[{"a": 1}]' },
    ]);
    expect(editor.history().undo).toBe('Replace data file "people.csv"');
    editor.send({ type: "user.removeDataFile", name: "people.csv" });
    editor.send({ type: "user.removeDataFile", name: "more.json" });
    expect("dataFiles" in editor.project()).toBe(false);
    editor.send({ type: "user.undo" });
    expect(editor.project().dataFiles).toEqual([{ name: "more.json", content: '[{"a": 1}]' }]);
  });

  it("refuses a file that is not a data file loadVars can play, naming the line, and changes nothing", () => {
    const editor = startEditor();
    expectRefused(editor, { type: "user.addDataFile", name: "people.csv", content: "name,age\nAda,36\nBob\n" }, /"people\.csv".*line 3/, expect);
    expectRefused(editor, { type: "user.addDataFile", name: "d.json", content: '{"a": 1}' }, /not an array of objects/, expect);
  });

  it("refuses a name that is not a .csv or .json file's, or has a folder in it", () => {
    const editor = startEditor();
    expectRefused(editor, { type: "user.addDataFile", name: "notes.txt", content: "a" }, /\.csv or a \.json file, not "notes\.txt"/, expect);
    expectRefused(editor, { type: "user.addDataFile", name: "data/people.csv", content: PEOPLE }, /has a folder in it/, expect);
    expectRefused(editor, { type: "user.addDataFile", name: "", content: PEOPLE }, /needs a name/, expect);
  });

  it("refuses the same file again, and removing one the project does not carry", () => {
    const editor = startEditor();
    editor.send({ type: "user.addDataFile", name: "people.csv", content: PEOPLE });
    expectRefused(editor, { type: "user.addDataFile", name: "people.csv", content: PEOPLE }, /already carries "people\.csv"/, expect);
    expectRefused(editor, { type: "user.removeDataFile", name: "other.csv" }, /carries no data file named "other\.csv"/, expect);
  });
});

describe("where loadVars finds a data file", () => {
  const carried = { dataFiles: [{ name: "people.csv", content: PEOPLE }] };

  it("in the host, reads the disk first and the project's file only when the disk has none", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ide-core-carried-"));
    writeFileSync(join(dir, "people.csv"), "name,age\nDisk,1\n");
    const read = withCarriedFiles(dataFileReader({ filesDir: null, projectDir: dir }), () => carried);
    expect(await read("people.csv")).toEqual([{ name: "Disk", age: "1" }]);
    const empty = mkdtempSync(join(tmpdir(), "ide-core-carried-"));
    const fallback = withCarriedFiles(dataFileReader({ filesDir: null, projectDir: empty }), () => carried);
    expect(await fallback("people.csv")).toEqual([
      { name: "Ada", age: "36" },
      { name: "Bob", age: "7" },
    ]);
    expect(await fallback("data/people.csv")).toHaveLength(2);
    await expect(fallback("other.csv")).rejects.toThrow(/"other\.csv" was not found: looked at .*Nor does the project carry a data file of that name/);
  });

  it("in the host, does not take the project's file in place of a broken one on the disk", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ide-core-carried-"));
    writeFileSync(join(dir, "people.csv"), "name,age\nAda\n");
    const read = withCarriedFiles(dataFileReader({ filesDir: null, projectDir: dir }), () => carried);
    await expect(read("people.csv")).rejects.toThrow(/"people\.csv" is not CSV with a header row: line 2/);
  });

  it("in the extension, reads only the project's files and says how to add one it lacks", async () => {
    const read = carriedDataReader(() => carried);
    expect(await read("people.csv")).toHaveLength(2);
    await expect(read("/home/me/people2.csv")).rejects.toThrow(/"\/home\/me\/people2\.csv" is not in the project \(it carries "people\.csv"\).*"Add data file"/);
    await expect(carriedDataReader(() => ({}))("a.csv")).rejects.toThrow(/it carries none/);
  });

  it("plays a loadVars block over a file added with Add data file, as the extension does", async () => {
    const project = {
      id: "p",
      name: "P",
      url: "http://127.0.0.1:8080",
      tests: [{ id: "t", name: "t", commands: [
        { id: "l", command: "loadVars", target: "people.csv", value: "" },
        { id: "o", command: "open", target: "/${name}", value: "" },
        { id: "e", command: "endLoadVars", target: "", value: "" },
      ] }],
    };
    const page = fakeExecutor();
    let ide: ReturnType<typeof createIde> | null = null;
    ide = createIde({ project, executor: page, readData: carriedDataReader(() => ide!.getProject()) });
    ide.send({ type: "user.addDataFile", name: "people.csv", content: PEOPLE });
    expect(ide.getSnapshot().dataFiles).toEqual([{ name: "people.csv", chars: PEOPLE.length }]);
    ide.send({ type: "user.startPlayback", testId: "t" });
    expect((await waitForStatus(ide, "ended")).result).toBe("passed");
    expect(page.executed.map((c) => c.target)).toEqual(["/Ada", "/Bob"]);
    ide.stop();
  });
});
