// `type` on a file input through a real Selenium Grid (drivers/host/fileUpload.ts with
// selenium's remote.FileDetector): the host names a file on its own disk, the detector sends it
// to the node, and the node's browser sets the input's files from the node's copy.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGrid } from "../../drivers/grid/grid.ts";
import type { Grid } from "../../drivers/grid/grid.ts";
import { browserPage } from "../../drivers/host/browserPage.ts";
import type { BrowserPage } from "../../drivers/host/browserPage.ts";
import type { PageOutcome } from "../../machines/testRunner.types.ts";
import { servePages } from "../support/browserPages.ts";

const UPLOAD = `<!doctype html>
<html><head><title>Upload</title></head>
<body>
  <input type="file" id="avatar">
  <p id="chosen">nothing chosen</p>
  <script>
    document.getElementById("avatar").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      document.getElementById("chosen").textContent = file.name + ": " + (await file.text());
    });
  </script>
</body></html>`;

const projectDir = mkdtempSync(join(tmpdir(), "ide-core-grid-upload-"));
writeFileSync(join(projectDir, "note.txt"), "sent to the node");

let grid: Grid;
let site: Awaited<ReturnType<typeof servePages>>;
let page: BrowserPage;

beforeAll(async () => {
  grid = await startGrid({ maxSessions: 1 });
  site = await servePages({ "/upload": UPLOAD });
  page = browserPage({ baseUrl: site.origin, webdriverUrl: grid.url, implicitWaitMs: 2_000, uploads: { filesDir: null, projectDir } });
}, 120_000);

afterAll(async () => {
  await page?.close();
  await site?.close();
  await grid?.stop();
}, 60_000);

let count = 0;
function run(command: string, target = "", value = ""): Promise<PageOutcome> {
  return page.execute({ command: { id: `c${++count}`, command, target, value }, variables: {}, baseUrl: site.origin, runId: "grid-upload" }, new AbortController().signal);
}

describe("type on a file input through a Selenium Grid", () => {
  it("uploads the file beside the .side file to the node, and the page reads its content", async () => {
    expect(await run("open", "/upload")).toEqual({ state: "passed" });
    expect(await run("type", "id=avatar", "note.txt")).toEqual({ state: "passed" });
    // The page reads the file after its change (a promise): the text is waited for.
    expect(await run("waitForText", "id=chosen", "note.txt: sent to the node")).toEqual({ state: "passed" });
  });
});
