// esbuild's builds kept on disk between processes (node_modules/.cache/ide-core/), each with
// the content hash of every file it was built from: a build is used again only while none of
// those files changed, so nothing stale is ever run, and on a fresh clone (or after an edit) the
// first start builds it. Plain JavaScript, so that bin/run.mjs can use it before any TypeScript
// runs; drivers/host/bundle.ts keeps the page bundles here too.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The checkout's root: what builds and their inputs are named from. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Where kept builds go; node_modules goes with a fresh install, and the builds with it. */
export const CACHE_DIR = process.env.IDE_CORE_BUILD_CACHE ?? join(ROOT, "node_modules", ".cache", "ide-core");

/** Kept outputs no manifest names any more are removed once this old (a process may still be loading one). */
const STALE_MS = 60 * 60 * 1000;

const sha = (data) => createHash("sha256").update(data).digest("hex");

/** What decides a build besides its inputs' contents: its options (plugins by name, their code in `salt`), esbuild's version, this file. */
function keyOf(name, options, version, salt) {
  const { plugins = [], ...rest } = options;
  return sha(JSON.stringify({ name, root: ROOT, rest, plugins: plugins.map((p) => p.name), salt, version, self: readFileSync(fileURLToPath(import.meta.url), "utf8") }));
}

function readManifest(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
}

/** Whether every input still has the content it had when the build was made. */
function inputsUnchanged(manifest) {
  for (const [file, hash] of Object.entries(manifest.inputs)) {
    try {
      if (sha(readFileSync(resolve(ROOT, file))) !== hash) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** Written beside, then renamed: a process reading the cache never sees half a file. */
function writeWhole(path, data) {
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, data);
  renameSync(partial, path);
}

/**
 * esbuild's `build(options)` (given `write: false` and a metafile, run from the checkout's root),
 * kept under `name` (`salt`: what else decides the output, such as a plugin's code). Resolves with the outputs (each its path as esbuild named it, the kept
 * file's path and its text) and whether it was built now. When the cache cannot be written the
 * build is still given, kept nowhere (`file` null).
 */
export async function cachedBuild(name, options, salt = "") {
  const { version, build } = await loadEsbuild();
  const key = keyOf(name, options, version, salt);
  const stem = `${name.replace(/[^\w.-]+/g, "_")}-${key.slice(0, 16)}`;
  const manifestPath = join(CACHE_DIR, `${stem}.json`);
  const kept = readManifest(manifestPath);
  if (kept?.key === key && inputsUnchanged(kept)) {
    try {
      const outputs = kept.outputs.map((o) => ({ path: o.path, file: join(CACHE_DIR, o.file), text: readFileSync(join(CACHE_DIR, o.file), "utf8") }));
      return { outputs, built: false };
    } catch {
      // an output was removed meanwhile: built again below
    }
  }
  const result = await build({ ...options, absWorkingDir: ROOT, write: false, metafile: true });
  const inputs = {};
  for (const file of Object.keys(result.metafile.inputs)) {
    // A plugin's virtual module (namespace:path) has no file to hash; its importer does.
    if (/^[\w-]+:/.test(file) && !file.startsWith("file:")) continue;
    inputs[file] = sha(readFileSync(resolve(ROOT, file)));
  }
  const outputs = result.outputFiles.map((o) => ({ path: o.path, text: o.text, file: `${stem}.${sha(o.contents).slice(0, 16)}${extname(o.path)}` }));
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    for (const o of outputs) writeWhole(join(CACHE_DIR, o.file), o.text);
    writeWhole(manifestPath, JSON.stringify({ key, inputs, outputs: outputs.map(({ path, file }) => ({ path, file })) }));
    removeStale(stem, new Set(outputs.map((o) => o.file)));
  } catch {
    return { outputs: outputs.map((o) => ({ ...o, file: null })), built: true };
  }
  return { outputs: outputs.map((o) => ({ ...o, file: join(CACHE_DIR, o.file) })), built: true };
}

function removeStale(stem, current) {
  const now = Date.now();
  for (const entry of readdirSync(CACHE_DIR)) {
    if (!entry.startsWith(`${stem}.`) || entry === `${stem}.json` || current.has(entry)) continue;
    try {
      if (now - statSync(join(CACHE_DIR, entry)).mtimeMs > STALE_MS) unlinkSync(join(CACHE_DIR, entry));
    } catch {
      // another process removed it first
    }
  }
}

let esbuild = null;

/** esbuild's version without loading esbuild (a kept build needs no bundler), and its build when one is needed. */
function loadEsbuild() {
  if (esbuild) return esbuild;
  const packageJson = join(ROOT, "node_modules", "esbuild", "package.json");
  const version = JSON.parse(readFileSync(packageJson, "utf8")).version;
  esbuild = Promise.resolve({ version, build: async (options) => (await import("esbuild")).build(options) });
  return esbuild;
}

