// `npm run play` uploading into a file input (CONTRACT section 19), as a real process: a relative
// path in `type` is read beside the .side file, or from --files DIR first; a file found nowhere
// fails the test naming the places looked; --files naming no folder is a usage error, exit 2.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servePages } from "../support/browserPages.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const UPLOAD = `<!doctype html><html><head><title>Upload</title></head><body>
  <input type="file" id="avatar"><p id="chosen">nothing chosen</p>
  <script>
    document.getElementById("avatar").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      document.getElementById("chosen").textContent = file.name + ": " + (await file.text());
    });
  </script>
</body></html>`;

let site: Awaited<ReturnType<typeof servePages>>;
let dir: string;

beforeAll(async () => {
  site = await servePages({ "/upload": UPLOAD });
  dir = mkdtempSync(join(tmpdir(), "ide-core-play-upload-"));
  mkdirSync(join(dir, "project", "fixtures"), { recursive: true });
  mkdirSync(join(dir, "files", "fixtures"), { recursive: true });
  writeFileSync(join(dir, "project", "fixtures", "note.txt"), "beside the project");
  writeFileSync(join(dir, "files", "fixtures", "note.txt"), "from --files");
});
afterAll(() => site?.close());

const command = (id: string, name: string, target = "", value = "") => ({ id, comment: "", command: name, target, targets: [], value });

/**
 * A project in DIR/project that uploads `name` and expects the page to show `shown`: the page
 * reads the file after its change (a promise), so the test waits for the text, as a person's would.
 */
function uploadProject(name: string, shown: string): string {
  const project = {
    id: "p-upload",
    name: "Upload project",
    url: site.origin,
    version: "2.0",
    tests: [{ id: "t-up", name: "upload", commands: [command("c1", "open", "/upload"), command("c2", "type", "id=avatar", name), command("c3", "waitForText", "id=chosen", shown)] }],
    suites: [],
    urls: [],
    plugins: [],
  };
  const path = join(dir, "project", "upload.side");
  writeFileSync(path, JSON.stringify(project));
  return path;
}

function play(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "bin/play.ts", ...args, "--port", "0", "--token-file", join(dir, "token")], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, out })));
}

describe("npm run play uploading a file", () => {
  it("reads a relative path beside the .side file, and from --files DIR when given", async () => {
    const beside = await play([uploadProject("fixtures/note.txt", "note.txt: beside the project")]);
    expect(beside.out).toMatch(/passed\s+upload/);
    expect(beside.code).toBe(0);
    const files = await play([uploadProject("fixtures/note.txt", "note.txt: from --files"), "--files", join(dir, "files")]);
    expect(files.out).toMatch(/passed\s+upload/);
    expect(files.code).toBe(0);
  });

  it("fails the test naming every place looked when the file is nowhere, and refuses a --files that is no folder", async () => {
    const missing = await play([uploadProject("gone.txt", "x"), "--files", join(dir, "files")]);
    expect(missing.code).toBe(1);
    expect(missing.out).toContain(`looked at ${join(dir, "files", "gone.txt")}, ${join(dir, "project", "gone.txt")}`);
    const refused = await play([uploadProject("gone.txt", "x"), "--files", join(dir, "nowhere")]);
    expect(refused.code).toBe(2);
    expect(refused.out).toContain("--files must be a folder that exists");
  });
});
