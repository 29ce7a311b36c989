// Code bundled for a browser by esbuild: the IDE page the host serves (apps/host/ui.ts), the
// locator resolver put into live pages and the page under test (pages.ts), the player and the
// recorder put into the page under test (devtoolsPlayer.ts, recording.ts). Each is kept on disk
// (drivers/build/cache.mjs) and built again only when a file it is made of changed, so a start
// bundles nothing (the IDE page alone took 1.7 s); in a process, each once. The extension's
// build (apps/extension/build.ts) writes to a folder instead, with the same base.
import type { BuildOptions } from "esbuild";
import { relative } from "node:path";
import { cachedBuild, ROOT } from "../build/cache.mjs";

/** What every bundle for a browser shares: all its imports inside, Preact's JSX, esbuild quiet (a failure rejects). */
export const BROWSER_BUNDLE = {
  bundle: true,
  platform: "browser",
  jsx: "automatic",
  jsxImportSource: "preact",
  logLevel: "silent",
  // csv-parse's own build for browsers (loadVars' data files in the extension): its Node build
  // needs Node's Buffer, which no extension page or worker has.
  alias: { "csv-parse/sync": "csv-parse/browser/esm/sync" },
  // @puppeteer/replay (Chrome Recorder's flows: the IDE page reads them with its parse) loads
  // these only in its runner and its Lighthouse export, which no page calls.
  external: ["puppeteer", "lighthouse"],
} as const satisfies BuildOptions;

export interface Bundle {
  script: string;
  /** The CSS the entry imports, if any. */
  styles: string | null;
}

export type BundleOptions = Omit<BuildOptions, keyof typeof BROWSER_BUNDLE | "entryPoints" | "stdin" | "write" | "outdir" | "outfile" | "entryNames"> & {
  /** The file to bundle, an absolute path. */
  entry: string;
};

const bundles = new Map<string, Promise<Bundle>>();

/** `entry` with everything it imports as one script (and its styles), built or read from the cache at the first call for these options; a failed build is tried again at the next. */
export function browserBundle(options: BundleOptions): Promise<Bundle> {
  const key = JSON.stringify(options);
  let bundled = bundles.get(key);
  if (!bundled) {
    const { entry, ...rest } = options;
    bundled = cachedBuild(`page-${relative(ROOT, entry)}`, { ...BROWSER_BUNDLE, ...rest, entryPoints: [entry], outdir: "/bundle" }).then(({ outputs }) => {
      const script = outputs.find((file) => file.path.endsWith(".js"));
      if (!script) throw new Error(`Bundling ${entry} produced no script.`);
      return { script: script.text, styles: outputs.find((file) => file.path.endsWith(".css"))?.text ?? null };
    });
    bundles.set(key, bundled);
    bundled.catch(() => bundles.delete(key));
  }
  return bundled;
}

/**
 * `entry` as one minified script that defines `globalThis[globalName]` when run: the scripts the
 * host puts into pages (the locator resolver, Find's outline, the heal benchmark's player).
 */
export async function pageGlobalBundle(entry: string, globalName: string): Promise<string> {
  const { script } = await browserBundle({
    entry,
    format: "iife",
    globalName,
    target: "chrome110",
    minify: true,
    legalComments: "none",
    // The bundle is run with an indirect eval; in its strict code a `var` would stay local.
    footer: { js: `globalThis.${globalName}=${globalName};` },
  });
  return script;
}
