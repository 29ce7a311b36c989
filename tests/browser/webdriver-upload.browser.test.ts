// `type` on a file input in the host's WebDriver path (drivers/host/fileUpload.ts):
// side-runtime's WebDriverExecutor over chromedriver and headless Chromium uploads the file a
// relative path names, read from --files DIR or beside the .side file, and the page sees its
// name and size; a file found nowhere fails the command with every place looked.
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { browserPageOn } from "../support/browserPageOn.ts";

const UPLOAD = `<!doctype html>
<html><head><title>Upload</title></head>
<body>
  <input type="file" id="avatar">
  <input id="caption">
  <p id="chosen">nothing chosen</p>
  <script>
    document.getElementById("avatar").addEventListener("change", (event) => {
      const file = event.target.files[0];
      document.getElementById("chosen").textContent = file ? file.name + " " + file.size + " bytes" : "nothing chosen";
    });
  </script>
</body></html>`;

const projectDir = mkdtempSync(join(tmpdir(), "ide-core-upload-project-"));
const filesDir = mkdtempSync(join(tmpdir(), "ide-core-upload-files-"));
mkdirSync(join(projectDir, "fixtures"));
writeFileSync(join(projectDir, "fixtures", "avatar.png"), "twelve bytes");
writeFileSync(join(filesDir, "cv.txt"), "from --files");

const served = browserPageOn({ "/upload": UPLOAD }, "upload", { implicitWaitMs: 1_000, uploads: { filesDir, projectDir } });
const run = served.run;

describe("type on a file input through WebDriver in the host", () => {
  it("uploads the file a path relative to the .side file names, and the page sees its name and size", async () => {
    expect(await run("open", "/upload")).toEqual({ state: "passed" });
    expect(await run("type", "id=avatar", "fixtures/avatar.png")).toEqual({ state: "passed" });
    expect(await run("assertText", "id=chosen", "avatar.png 12 bytes")).toEqual({ state: "passed" });
  });

  it("reads a relative path from --files DIR first, and still types into other inputs", async () => {
    expect(await run("open", "/upload")).toEqual({ state: "passed" });
    expect(await run("type", "id=avatar", "cv.txt")).toEqual({ state: "passed" });
    expect(await run("assertText", "id=chosen", "cv.txt 12 bytes")).toEqual({ state: "passed" });
    expect(await run("type", "id=caption", "hello")).toEqual({ state: "passed" });
    expect(await run("assertValue", "id=caption", "hello")).toEqual({ state: "passed" });
  });

  it("fails at once on a file found nowhere, naming every place looked", async () => {
    expect(await run("open", "/upload")).toEqual({ state: "passed" });
    const outcome = await run("type", "id=avatar", "missing.png");
    expect(outcome.state).toBe("failed");
    expect(outcome.message).toContain(`looked at ${join(filesDir, "missing.png")}, ${join(projectDir, "missing.png")}`);
    expect(await run("assertText", "id=chosen", "nothing chosen")).toEqual({ state: "passed" });
  });
});
