// The recorder (drivers/recorder/recorder.ts) in real headless Chromium when the user chooses a
// file (CONTRACT section 19): Playwright's file chooser and setInputFiles with files on disk go
// through DevTools, as a person's choice does. It records `type` with the file's name, never the browser's
// C:\fakepath\ value, marked as an upload, and not the click that opened the chooser.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recorderInPages } from "../support/recorderPage.ts";

const FORM = `<!doctype html><html><head><title>Upload</title></head><body>
  <input type="file" id="avatar">
  <label id="pick" for="docs">Choose documents</label>
  <input type="file" id="docs" multiple style="display:none">
  <button id="send" type="button">Send</button>
</body></html>`;

const recorder = recorderInPages({ "/": FORM }, "/");
const page = () => recorder.page();
const recorded = () => recorder.recorded();

// Files on disk: Playwright gives their paths to DevTools' DOM.setFileInputFiles, whose input and
// change events are trusted, as a person's choice is (bytes in memory go through a page script).
const folder = mkdtempSync(join(tmpdir(), "ide-core-recorder-upload-"));
const file = (name: string, text: string) => {
  writeFileSync(join(folder, name), text);
  return join(folder, name);
};

describe("the recorder when the user chooses a file", () => {
  it("records type with the file's name as an upload, and not the click that opened the chooser", async () => {
    const chooser = page().waitForEvent("filechooser");
    await page().click("#avatar");
    await (await chooser).setFiles(file("photo.png", "png"));
    await page().click("#send");
    const actions = await recorded();
    expect(actions.map((a) => `${a.command} | ${a.target} | ${a.value}`)).toEqual(["type | id=avatar | photo.png", "click | id=send | "]);
    expect(actions[0].upload).toBe(true);
    expect(actions[1].upload).toBeUndefined();
  });

  it("records several files' names on lines of their own, without the label's click", async () => {
    const chooser = page().waitForEvent("filechooser");
    await page().click("#pick");
    await (await chooser).setFiles([file("a.txt", "a"), file("b.txt", "b")]);
    expect((await recorded()).map((a) => `${a.command} | ${a.target} | ${a.value}`)).toEqual(["type | id=docs | a.txt\nb.txt"]);
  });

  it("records the name, not C:\\fakepath\\, for files set without a chooser, and nothing when they are cleared", async () => {
    await page().setInputFiles("#avatar", file("cv.pdf", "pdf"));
    await page().setInputFiles("#avatar", []);
    const actions = await recorded();
    expect(actions.map((a) => a.value)).toEqual(["cv.pdf"]);
    expect(actions[0].value).not.toContain("fakepath");
  });
});
