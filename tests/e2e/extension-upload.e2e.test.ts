// Uploads in the browser extension, end to end (CONTRACT section 21): the built extension in
// headless Chromium plays `type` with the absolute path of a real file (written here) into a
// visible file input, into a hidden one behind a styled label, into one of opacity 0 under a
// button, and two files into one that takes several; the page reads each file's name and size
// through the File API in its own `change` handler, and hears `input` then `change`, as after a
// user's choice. A missing file, or a folder, fails naming its path, and the page's input is left
// as it was; so does a relative path, which the extension has no folder to read from. A hidden
// input in a frame of the page's origin uploads; one in a frame of another site fails saying why.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cmd, loadProjectFile, useIdeExtension } from "../support/ideExtension.ts";

/** A file input whose `change` writes the chosen files' names and sizes, read by the File API, into #out-ID. */
const input = (id: string, attributes = "") =>
  `<input type="file" id="${id}" ${attributes} oninput="this.dataset.heard = 'input'" onchange="document.getElementById('out-${id}').textContent = this.dataset.heard + ' change: ' + [...this.files].map((f) => f.name + ' ' + f.size).join(', ')">`;

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Uploads</title>
<style>.styled { display: inline-block; padding: 8px; background: #36c; color: white; cursor: pointer }
#under { position: relative } #under input { position: absolute; inset: 0; opacity: 0 }</style></head><body>
<p>${input("plain")}</p><p id="out-plain"></p>
<p><label class="styled">Choose a photo${input("hidden", 'style="display:none"')}</label></p><p id="out-hidden"></p>
<p><span id="under"><button type="button">Attach</button>${input("faint")}</span></p><p id="out-faint"></p>
<p>${input("many", "multiple")}</p><p id="out-many"></p>
</body></html>`;

/** Two frames of one file input: one of the page's origin, one of another site (localhost for 127.0.0.1). */
const FRAMED = `<!doctype html><title>Framed</title><iframe id="same" src="/inner"></iframe><iframe id="other"></iframe>
<script>document.getElementById("other").src = location.href.replace("127.0.0.1", "localhost").replace("/framed", "/inner")</script>`;
const INNER = `<!doctype html><title>Inner</title><label>Choose${input("deep", 'style="display:none"')}</label><p id="out-deep"></p>`;

const ide = useIdeExtension({ plugins: ["uploader"], pages: { "/upload": PAGE, "/framed": FRAMED, "/inner": INNER }, once: true });

const dir = mkdtempSync(join(tmpdir(), "ide-core-upload-"));
const cv = join(dir, "cv.txt");
const photo = join(dir, "photo one.png");
const missing = join(dir, "not-there.pdf");

const project = (origin: string) => ({
  id: "uploads",
  version: "2.0",
  name: "Uploads",
  url: origin,
  urls: [origin],
  plugins: [],
  suites: [],
  tests: [
    {
      id: "t1",
      name: "uploads",
      commands: [
        cmd("c1", "open", "/upload"),
        cmd("c2", "type", "id=plain", cv),
        cmd("c3", "assertText", "id=out-plain", "input change: cv.txt 11"),
        cmd("c4", "type", "id=hidden", photo),
        cmd("c5", "assertText", "id=out-hidden", "input change: photo one.png 4"),
        cmd("c6", "type", "id=faint", cv),
        cmd("c7", "assertText", "id=out-faint", "input change: cv.txt 11"),
        cmd("c8", "type", "id=many", `${cv}\n${photo}`),
        cmd("c9", "assertText", "id=out-many", "input change: cv.txt 11, photo one.png 4"),
      ],
    },
    { id: "t2", name: "missing", commands: [cmd("c1", "open", "/upload"), cmd("c2", "type", "id=plain", missing), cmd("c3", "click", "id=plain")] },
    { id: "t3", name: "folder", commands: [cmd("c1", "open", "/upload"), cmd("c2", "type", "id=many", `${cv}\n${dir}`)] },
    {
      id: "t5",
      name: "frames",
      commands: [
        cmd("c1", "open", "/framed"),
        cmd("c2", "selectFrame", "id=same"),
        cmd("c3", "type", "id=deep", cv),
        cmd("c4", "assertText", "id=out-deep", "input change: cv.txt 11"),
        cmd("c5", "selectFrame", "relative=top"),
        cmd("c6", "selectFrame", "id=other"),
        cmd("c7", "type", "id=deep", cv),
      ],
    },
    { id: "t4", name: "relative", commands: [cmd("c1", "open", "/upload"), cmd("c2", "type", "id=plain", "cv.txt")] },
  ],
});

beforeAll(async () => {
  writeFileSync(cv, "my whole cv");
  writeFileSync(photo, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  await loadProjectFile(ide.window, project(ide.site.origin));
}, 120_000);

/** Plays test `id` from the IDE window and gives each command's state, and message if any, as shown. */
async function play(id: string): Promise<string[]> {
  await ide.window.locator(`[data-testid="test-item"][data-test-id="${id}"] button`).click();
  await ide.tab.bringToFront();
  await ide.window.getByRole("button", { name: "Play", exact: true }).click();
  // The status line still shows the test played before until this run starts: wait for this test's end.
  const name = project("").tests.find((test) => test.id === id)!.name;
  const status = ide.window.locator('[data-testid="run-status"]');
  await expect
    .poll(async () => `${await status.getAttribute("data-status")} ${await status.locator("strong").textContent()}`, { timeout: 60_000 })
    .toBe(`ended ${name}`);
  const rows = ide.window.locator('[data-testid="command-row"]');
  const played: string[] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    const state = ((await row.locator('[data-testid="command-state"]').textContent()) ?? "").trim();
    const message = (await row.locator('[data-testid="command-message"]').count()) ? await row.locator('[data-testid="command-message"]').textContent() : null;
    played.push(message ? `${state}: ${message}` : state);
  }
  return played;
}

describe("uploads in the browser extension", () => {
  it("uploads real files into a visible input, a hidden one behind a label, one under a button and one taking several, as a user's choice", async () => {
    expect(await play("t1")).toEqual(Array(9).fill("passed"));
    expect(await ide.tab.locator("#out-hidden").textContent()).toBe("input change: photo one.png 4");
    expect(await ide.tab.evaluate(() => (document.getElementById("many") as HTMLInputElement).files!.length)).toBe(2);
  });

  it("fails on a missing file naming its path, and leaves the page's input as it was", async () => {
    const played = await play("t2");
    expect(played).toEqual(["passed", `failed: Element id=plain: The file to upload ${JSON.stringify(missing)} was not found (or is not a file this browser may read).`, "not run"]);
    expect(await ide.tab.evaluate(() => (document.getElementById("plain") as HTMLInputElement).files!.length)).toBe(0);
    expect(await ide.tab.locator("#out-plain").textContent()).toBe("");
  });

  it("fails on a folder among several files naming it, choosing none of them", async () => {
    expect(await play("t3")).toEqual(["passed", `failed: Element id=many: The file to upload ${JSON.stringify(dir)} was not found (or is not a file this browser may read).`]);
    expect(await ide.tab.evaluate(() => (document.getElementById("many") as HTMLInputElement).files!.length)).toBe(0);
    expect(await ide.tab.locator("#out-many").textContent()).toBe("");
  });

  it("uploads into a hidden input in a frame of the page's origin, and fails in a frame of another site saying why", async () => {
    const played = await play("t5");
    expect(played.slice(0, 6)).toEqual(Array(6).fill("passed"));
    expect(played[6]).toBe(
      "failed: Element id=deep: its frame is out of the reach of the tab's chrome.debugger session: a frame from another site than the tab's page runs apart in Chromium, so the extension cannot answer its file chooser (or the page navigated meanwhile)",
    );
  });

  it("fails on a relative path, asking for the whole path", async () => {
    const played = await play("t4");
    expect(played[1]).toBe(
      'failed: Element id=plain: The file to upload "cv.txt" is not an absolute path: the extension has no .side file\'s folder or --files DIR to look in, so give the whole path (as /home/me/cv.pdf or C:\\Users\\me\\cv.pdf).',
    );
  });

  // With traces off the window does not keep the tab's Runtime enabled for console errors: the
  // upload enables it to find the content script's world, and lets it go after.
  it("uploads with traces off too", async () => {
    await ide.window.evaluate(async () => {
      await chrome.storage.local.set({ trace: "off" });
      // A reload does not run the window's close(), which lets the tab go: it is let go here.
      for (const target of await chrome.debugger.getTargets()) {
        if (target.attached && target.tabId !== undefined) await chrome.debugger.detach({ tabId: target.tabId }).catch(() => {});
      }
    });
    await ide.window.reload();
    await ide.window.waitForSelector('[data-testid="project-name"]');
    await loadProjectFile(ide.window, project(ide.site.origin));
    expect(await play("t1")).toEqual(Array(9).fill("passed"));
    expect(await play("t2")).toEqual(["passed", `failed: Element id=plain: The file to upload ${JSON.stringify(missing)} was not found (or is not a file this browser may read).`, "not run"]);
  });
});
