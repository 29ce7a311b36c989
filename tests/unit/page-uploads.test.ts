// `type` on a file input in the one player (CONTRACT sections 19, 21): where the caller can
// answer the input's file chooser (the extension's window, through chrome.debugger), the value's
// paths, one a line, are handed to it for the input found, a hidden one too; a bad value fails
// before the chooser is asked; where no one can answer it (the host's in-page player), the
// command is left to the host's WebDriver. The window's own checks of a path (uploads.ts) are
// pinned here too; the whole way through Chromium is tests/e2e/extension-upload.e2e.test.ts.
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { runInPage } from "../../drivers/player/index.ts";
import type { InPageAnswer, TrustedInput } from "../../drivers/player/index.ts";
import { isAbsolutePath } from "../../drivers/webextension/uploads.ts";

function page(body: string): Window {
  return new JSDOM(`<!doctype html><html><body>${body}</body></html>`, { url: "http://shop.test/" }).window as unknown as Window;
}

/** Trusted input whose chooser keeps what it was asked to choose, for which input, or fails with `refusal`. */
function chooser(refusal?: string) {
  const asked: Array<{ id: string; paths: string[] }> = [];
  const input: TrustedInput = {
    send: async () => {},
    offset: () => ({ x: 0, y: 0 }),
    chooseFiles: async (el, paths) => {
      if (refusal) throw new Error(refusal);
      asked.push({ id: el.id, paths });
    },
  };
  return { input, asked };
}

const type = (win: Window, target: string, value: string, input?: TrustedInput): Promise<InPageAnswer> =>
  runInPage(win, { command: "type", target, value, targets: [], implicitWaitMs: 150 }, undefined, input);

describe("type on a file input", () => {
  it("hands the path to the file chooser of the input found, a hidden one behind a label too", async () => {
    const win = page(`<input type="file" id="cv"><label>Upload<input type="file" id="photo" style="display:none"></label>`);
    const { input, asked } = chooser();
    expect(await type(win, "id=cv", "/home/me/cv.pdf", input)).toEqual({ state: "passed" });
    expect(await type(win, "id=photo", "/home/me/me.png", input)).toEqual({ state: "passed" });
    expect(asked).toEqual([
      { id: "cv", paths: ["/home/me/cv.pdf"] },
      { id: "photo", paths: ["/home/me/me.png"] },
    ]);
  });

  it("hands several paths, one a line, to an input that takes several files", async () => {
    const win = page(`<input type="file" id="docs" multiple>`);
    const { input, asked } = chooser();
    expect(await type(win, "id=docs", "/a/one.txt\n /a/two.txt \n\n", input)).toEqual({ state: "passed" });
    expect(asked).toEqual([{ id: "docs", paths: ["/a/one.txt", "/a/two.txt"] }]);
  });

  it("fails without asking the chooser when several paths are named for an input that takes one, or none at all", async () => {
    const win = page(`<input type="file" id="cv">`);
    const { input, asked } = chooser();
    expect(await type(win, "id=cv", "/a/one.txt\n/a/two.txt", input)).toEqual({
      state: "failed",
      message: "Element id=cv takes one file (it has no multiple attribute), and 2 were named: /a/one.txt, /a/two.txt",
    });
    expect(await type(win, "id=cv", "  ", input)).toEqual({ state: "failed", message: "type on the file input id=cv needs the path of the file to upload as its value" });
    expect(asked).toEqual([]);
  });

  it("fails with the chooser's reason, naming the element, when the files cannot be chosen", async () => {
    const win = page(`<input type="file" id="cv">`);
    const { input } = chooser('The file to upload "/gone/cv.pdf" was not found (or this browser may not read it).');
    expect(await type(win, "id=cv", "/gone/cv.pdf", input)).toEqual({
      state: "failed",
      message: 'Element id=cv: The file to upload "/gone/cv.pdf" was not found (or this browser may not read it).',
    });
  });

  it("leaves the upload to the host's WebDriver where no one answers the chooser", async () => {
    const win = page(`<input type="file" id="cv">`);
    const { asked } = chooser();
    expect(await type(win, "id=cv", "/home/me/cv.pdf", { send: async () => {}, offset: () => ({ x: 0, y: 0 }) })).toEqual({
      state: "unsupported",
      message: "Element id=cv is a file input, whose file is chosen through the browser's DevTools, and this page is not held through them",
    });
    expect(asked).toEqual([]);
  });
});

describe("the extension's paths to upload", () => {
  it("takes only absolute paths, as Linux, macOS and Windows write them", () => {
    expect(["/home/me/cv.pdf", "C:\\Users\\me\\cv.pdf", "d:/cv.pdf"].map(isAbsolutePath)).toEqual([true, true, true]);
    expect(["cv.pdf", "./cv.pdf", "files\\cv.pdf", ""].map(isAbsolutePath)).toEqual([false, false, false, false]);
  });
});
