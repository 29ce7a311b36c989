// The extension build: the id plugins send to is the manifest key's, the manifest says what
// the contract needs (other extensions may message it, web pages may not), and the folder
// holds every file the manifest and the window page name.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildExtension, extensionManifest } from "../../apps/extension/build.ts";
import { extensionIdOf, newExtensionKey } from "../../drivers/webextension/extensionId.ts";
import { IDE_EXTENSION_ID, IDE_EXTENSION_KEY } from "../../drivers/webextension/identity.ts";
import { sideFileName } from "../../drivers/webextension/save.ts";
import { IN_PAGE_COMMANDS } from "../../drivers/player/index.ts";
import { parseSideProject } from "../../services/side/index.ts";

const scratch = () => mkdtempSync(join(tmpdir(), "ide-core-build-test-"));

describe("the extension's identity", () => {
  it("is the id Chromium derives from the pinned manifest key", () => {
    expect(extensionIdOf(IDE_EXTENSION_KEY)).toBe(IDE_EXTENSION_ID);
    expect(IDE_EXTENSION_ID).toMatch(/^[a-p]{32}$/);
  });

  it("gives a new key its own 32-letter id", () => {
    const a = newExtensionKey();
    const b = newExtensionKey();
    expect(a.id).toMatch(/^[a-p]{32}$/);
    expect(extensionIdOf(a.key)).toBe(a.id);
    expect(a.id).not.toBe(b.id);
  });

  it("refuses an empty key", () => {
    expect(() => extensionIdOf("")).toThrow(/non-empty base64/);
  });
});

describe("the manifest", () => {
  it("is MV3 with the pinned key, a background worker and messages from any other extension only", () => {
    const manifest = extensionManifest();
    expect(manifest.manifest_version).toBe(3);
    expect(manifest.key).toBe(IDE_EXTENSION_KEY);
    expect(manifest.background).toEqual({ service_worker: "background.js" });
    expect(manifest.externally_connectable).toEqual({ ids: ["*"] });
    expect(manifest.externally_connectable).not.toHaveProperty("matches");
    expect(manifest.version).toBe(JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version);
  });
});

describe("buildExtension", () => {
  it("writes the manifest and every file it and the window page name", async () => {
    const outDir = join(scratch(), "extension");
    const built = await buildExtension({ outDir });
    const names = built.files.map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(["manifest.json", "background.js", "ide.html", "ide.js", "ide.css", "content.js"]));
    const manifest = JSON.parse(readFileSync(join(outDir, "manifest.json"), "utf8"));
    expect(existsSync(join(outDir, manifest.background.service_worker))).toBe(true);
    const html = readFileSync(join(outDir, "ide.html"), "utf8");
    for (const [, file] of html.matchAll(/(?:src|href)="([^"]+)"/g)) expect(existsSync(join(outDir, file))).toBe(true);
    // MV3 pages run no inline script.
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    for (const file of built.files) expect(file.bytes).toBeGreaterThan(0);
  });

  it("replaces an earlier build in place", async () => {
    const outDir = join(scratch(), "extension");
    await buildExtension({ outDir });
    writeFileSync(join(outDir, "stale.js"), "left over");
    await buildExtension({ outDir });
    expect(existsSync(join(outDir, "stale.js"))).toBe(false);
  });

  it("refuses to empty a folder that is not an earlier build, and leaves it as it was", async () => {
    const outDir = scratch();
    mkdirSync(join(outDir, "work"));
    writeFileSync(join(outDir, "notes.txt"), "keep me");
    await expect(buildExtension({ outDir })).rejects.toThrow(/not an earlier build/);
    expect(readFileSync(join(outDir, "notes.txt"), "utf8")).toBe("keep me");
  });
});

describe("the saved file's name", () => {
  it("is the project's name made safe for a file system, with .side", () => {
    expect(sideFileName("Shop checkout")).toBe("Shop-checkout.side");
    expect(sideFileName("../../etc/passwd")).toBe("etc-passwd.side");
    expect(sideFileName("a/b\\c:d")).toBe("a-b-c-d.side");
    expect(sideFileName("")).toBe("project.side");
    expect(sideFileName("***")).toBe("project.side");
  });
});

describe("the extension's manual (docs/extension.md)", () => {
  const manual = readFileSync(new URL("../../docs/extension.md", import.meta.url), "utf8");
  const example = (file: string) => readFileSync(new URL(`../../examples/plugin-extension/${file}`, import.meta.url), "utf8");

  it("shows the example plugin extension exactly as it is in examples/plugin-extension", () => {
    expect(manual).toContain("```json\n" + example("manifest.json") + "```");
    expect(manual).toContain("```js\n" + example("background.js") + "```");
  });

  it("points at an example project that plays the example plugin's command among commands the tab under test does", () => {
    expect(manual).toContain("examples/plugin-extension/example.side");
    const parsed = parseSideProject(JSON.parse(example("example.side")));
    if (!parsed.ok) throw new Error(parsed.problem);
    const commands = parsed.project.tests[0].commands.map((c) => c.command);
    const declared = /id: "([A-Za-z]+)"/.exec(example("background.js"))?.[1];
    expect(commands).toContain(declared);
    const windowCommands = new Set(["open", "executeScript", "executeAsyncScript", "selectFrame", "setWindowSize"]);
    expect(commands.filter((c) => c !== declared && !windowCommands.has(c) && !IN_PAGE_COMMANDS.has(c))).toEqual([]);
  });

  it("names the id the example plugin sends to, which is the extension's", () => {
    expect(example("background.js")).toContain(`"${IDE_EXTENSION_ID}"`);
    expect(manual).toContain(IDE_EXTENSION_ID);
  });
});
