// The six languages of code export (CONTRACT section 15) and where each one's package is.
// Each package is loaded the first time it is needed: the core starts without them, and a
// process that never exports never pays for them.
import type { LanguageEmitter } from "side-code-export";

import type { ExportLanguage } from "./names.ts";

export { EXPORT_LANGUAGES, EXPORT_LANGUAGE_NAMES, isExportLanguage } from "./names.ts";
export type { ExportLanguage } from "./names.ts";

// Literal import() calls, one per package, so that bundlers see every one of them.
const LOADERS: Record<ExportLanguage, () => Promise<unknown>> = {
  "csharp-nunit": () => import("@seleniumhq/code-export-csharp-nunit"),
  "csharp-xunit": () => import("@seleniumhq/code-export-csharp-xunit"),
  "java-junit": () => import("@seleniumhq/code-export-java-junit"),
  "javascript-mocha": () => import("@seleniumhq/code-export-javascript-mocha"),
  "python-pytest": () => import("@seleniumhq/code-export-python-pytest"),
  "ruby-rspec": () => import("@seleniumhq/code-export-ruby-rspec"),
};

const loaded = new Map<ExportLanguage, Promise<LanguageEmitter>>();

/** The package's language emitter (its default export), loaded once per process. */
export function loadLanguage(language: ExportLanguage): Promise<LanguageEmitter> {
  let emitter = loaded.get(language);
  if (!emitter) {
    emitter = LOADERS[language]().then(defaultExportOf);
    loaded.set(language, emitter);
  }
  return emitter;
}

// The packages are CommonJS with an `__esModule` default: Node hands the whole
// `module.exports` as `default`, bundlers hand the default itself.
function defaultExportOf(module: unknown): LanguageEmitter {
  let candidate = (module as { default?: unknown }).default ?? module;
  if (!isLanguageEmitter(candidate)) candidate = (candidate as { default?: unknown }).default;
  if (!isLanguageEmitter(candidate)) throw new Error("A code-export package has no language emitter as its default export.");
  return candidate;
}

function isLanguageEmitter(value: unknown): value is LanguageEmitter {
  return typeof value === "object" && value !== null && "emit" in value && "opts" in value;
}
