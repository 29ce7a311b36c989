// The types of cache.mjs (plain JavaScript, so that bin/run.mjs runs it before any TypeScript).
import type { BuildOptions } from "esbuild";

/** The checkout's root: what builds and their inputs are named from. */
export declare const ROOT: string;

/** Where kept builds go (node_modules/.cache/ide-core/, or IDE_CORE_BUILD_CACHE). */
export declare const CACHE_DIR: string;

export interface KeptOutput {
  /** The output's path as esbuild named it (its extension tells the script from the styles). */
  path: string;
  /** The kept file, or null when the cache could not be written. */
  file: string | null;
  text: string;
}

/**
 * esbuild's `build(options)` (given `write: false` and a metafile, run from the checkout's root),
 * kept under `name` (`salt`: what else decides the output, such as a plugin's code); built again
 * only when a file it was built from changed.
 */
export declare function cachedBuild(name: string, options: BuildOptions, salt?: string): Promise<{ outputs: KeptOutput[]; built: boolean }>;
