// Chrome DevTools Recorder's user flows (CONTRACT section 23): in as a project of one test,
// out as a flow @puppeteer/replay plays. docs/formats.md has the mapping both ways.
export { checkFlow, flowToProject, type FlowImport } from "./import.ts";
export { testToFlow, type FlowExport, type FlowExportOptions } from "./export.ts";
export { commandSelectors, locatorToSelector, selectorsToTargets, selectorToLocator } from "./selectors.ts";

/** The export language name of the format (`npm run export -- --language chrome-recorder`). */
export const CHROME_RECORDER = "chrome-recorder";

/** Whether parsed JSON is a flow rather than a .side project: it has `steps` and `title` and no `tests`. */
export function looksLikeFlow(data: unknown): boolean {
  return typeof data === "object" && data !== null && !Array.isArray(data) && "steps" in data && "title" in data && !("tests" in data);
}
