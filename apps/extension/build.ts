// The MV3 extension, built by esbuild into a folder Chromium loads unpacked
// (`npm run build:extension`, by default dist/extension/, which git ignores):
//   manifest.json   the pinned key (identity.ts), the worker, who may message it
//   background.js   background.ts: answers plugins while no IDE window does (relay.ts)
//   ide.html/.js/.css  the IDE window: the core and the UI (window.tsx)
//   content.js      content.ts: resolves locators in the tab under test
//   recorder.js     recorderContent.ts: the recorder, in every frame, recording only when the window says
// Everything the pages run is bundled (xpath is CommonJS, Preact and ELK are packages), so
// the folder needs nothing else; MV3 allows no code from anywhere but the extension itself.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Plugin } from "esbuild";
import { BROWSER_BUNDLE } from "../../drivers/host/bundle.ts";
import { IDE_EXTENSION_KEY } from "../../drivers/webextension/identity.ts";
import { WINDOW_PAGE } from "../../drivers/webextension/messages.ts";
import { CONTENT_SCRIPT } from "../../drivers/webextension/tabs.ts";
import { RECORDER_SCRIPT } from "../../drivers/webextension/recording.ts";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const DEFAULT_OUT_DIR = join(ROOT, "dist", "extension");

export interface ExtensionManifest {
  manifest_version: 3;
  name: string;
  version: string;
  description: string;
  key: string;
  minimum_chrome_version: string;
  background: { service_worker: string };
  action: { default_title: string };
  externally_connectable: { ids: string[] };
  permissions: string[];
  host_permissions: string[];
  content_scripts: Array<{ matches: string[]; js: string[]; all_frames: boolean; match_about_blank: boolean; run_at: string }>;
}

export function extensionManifest(): ExtensionManifest {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
  return {
    manifest_version: 3,
    name: "ide-core",
    version: pkg.version,
    description: "The core of a test-recording IDE: answers its plugins and shows its flows.",
    key: IDE_EXTENSION_KEY,
    // chrome.runtime.getContexts, which the worker uses to find an open IDE window, is 116+.
    minimum_chrome_version: "116",
    background: { service_worker: "background.js" },
    action: { default_title: "Open the IDE" },
    // Any other extension may send requests; web pages may not (no `matches`).
    externally_connectable: { ids: ["*"] },
    // storage: the kept project; scripting + host permissions: the locator content script in
    // the tab under test; downloads: "save to computer"; debugger: a run's clicks and keys as
    // trusted input in the tab under test (drivers/webextension/debugger.ts), and its console
    // errors for a failed command's trace; contextMenus: the checks in the tab's context menu
    // while recording (drivers/webextension/contextChecks.ts); <all_urls> also lets captureVisibleTab picture the tab
    // after each command (drivers/webextension/camera.ts).
    permissions: ["storage", "scripting", "downloads", "debugger", "contextMenus"],
    host_permissions: ["<all_urls>"],
    // The recorder (CONTRACT section 14) in every frame of every page from its start, so a
    // navigation or a new frame of the tab under test records too; it asks the IDE window
    // whether to record and does nothing otherwise.
    content_scripts: [{ matches: ["<all_urls>"], js: [RECORDER_SCRIPT], all_frames: true, match_about_blank: true, run_at: "document_end" }],
  };
}

function windowHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ide-core</title>
<link rel="stylesheet" href="ide.css">
<script src="ide.js" defer></script>
</head>
<body>
<div id="app"><p class="loading">Loading the IDE…</p></div>
</body>
</html>
`;
}

/** Refuses to empty a folder that is not an earlier build: a wrong --out must not delete work. */
function prepare(outDir: string) {
  if (existsSync(outDir)) {
    if (!statSync(outDir).isDirectory()) throw new Error(`${outDir} exists and is not a folder.`);
    const entries = readdirSync(outDir);
    if (entries.length > 0 && !entries.includes("manifest.json")) {
      throw new Error(`${outDir} is not empty and holds no manifest.json, so it is not an earlier build; choose another folder.`);
    }
    rmSync(outDir, { recursive: true, force: true });
  }
  mkdirSync(outDir, { recursive: true });
}

// side-code-export (code export) requires Node's fs, path and url for its file writer and
// command-line helpers, which the IDE never calls: in the browser they are empty modules.
const nodeHelpersUnused: Plugin = {
  name: "node-helpers-unused",
  setup(build) {
    build.onResolve({ filter: /^(fs|path|url)$/ }, (args) => ({ path: args.path, namespace: "node-helpers-unused" }));
    build.onLoad({ filter: /.*/, namespace: "node-helpers-unused" }, () => ({ contents: "module.exports = {};", loader: "js" }));
  },
};

export interface BuiltExtension {
  outDir: string;
  files: Array<{ name: string; bytes: number }>;
}

export async function buildExtension(options: { outDir?: string; minify?: boolean } = {}): Promise<BuiltExtension> {
  const outDir = resolve(options.outDir ?? DEFAULT_OUT_DIR);
  prepare(outDir);
  await build({
    entryPoints: {
      background: join(HERE, "background.ts"),
      ide: join(HERE, "window.tsx"),
      [CONTENT_SCRIPT.replace(/\.js$/, "")]: join(ROOT, "drivers", "webextension", "content.ts"),
      [RECORDER_SCRIPT.replace(/\.js$/, "")]: join(ROOT, "drivers", "webextension", "recorderContent.ts"),
    },
    ...BROWSER_BUNDLE,
    outdir: outDir,
    format: "iife",
    target: "chrome116",
    minify: options.minify ?? true,
    legalComments: "none",
    plugins: [nodeHelpersUnused],
  });
  writeFileSync(join(outDir, WINDOW_PAGE), windowHtml());
  writeFileSync(join(outDir, "manifest.json"), `${JSON.stringify(extensionManifest(), null, 2)}\n`);
  const files = readdirSync(outDir)
    .sort()
    .map((name) => ({ name, bytes: statSync(join(outDir, name)).size }));
  return { outDir, files };
}
