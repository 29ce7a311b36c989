// Runs one of the project's TypeScript programs (`node bin/run.mjs bin/play.ts ARGS`, what
// `npm run play` is) as plain JavaScript: the program and the project's files it imports bundled
// by esbuild into one module (packages stay imports), kept by drivers/build/cache.mjs and built
// again only when one of those files changed. So a start compiles nothing (tsx compiled every
// file at every start: seconds on a busy machine), a fresh clone builds at its first start, and
// an edited source is never run stale. Where the cache cannot be written, tsx runs the source.
// A source that does not compile is esbuild's message and exit 1.
import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { cachedBuild, ROOT } from "../drivers/build/cache.mjs";

/** Each source file's `import.meta.url` is its own, as if it ran unbundled: paths beside a source (examples/, the page bundles' entries) stay right. */
const ownImportMeta = {
  name: "own-import-meta-url",
  setup(build) {
    build.onLoad({ filter: /\.(tsx?|mjs)$/ }, (args) => {
      if (args.path.includes(`${"/"}node_modules${"/"}`)) return undefined;
      const source = readFileSync(args.path, "utf8");
      const contents = source.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href));
      return { contents, loader: args.path.endsWith(".mjs") ? "js" : args.path.endsWith(".tsx") ? "tsx" : "ts" };
    });
  },
};

const [entryArg, ...rest] = process.argv.slice(2);
if (!entryArg) {
  console.error("usage: node bin/run.mjs bin/PROGRAM.ts [ARGS...]");
  process.exit(2);
}
const entry = resolve(ROOT, entryArg);
// The program reads its own arguments from process.argv.slice(2), as under tsx.
process.argv.splice(2, process.argv.length - 2, ...rest);

let module = null;
try {
  const { outputs } = await cachedBuild(relative(ROOT, entry), {
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    outdir: "run",
    outExtension: { ".js": ".mjs" },
    logLevel: "silent",
    plugins: [ownImportMeta],
  }, readFileSync(new URL(import.meta.url), "utf8"));
  module = outputs.find((o) => o.path.endsWith(".mjs"))?.file ?? null;
} catch (error) {
  // A source that does not compile: esbuild's message names the file, the line and the column.
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
if (module) {
  await import(pathToFileURL(module).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(entry).href);
}
