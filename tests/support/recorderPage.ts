// The recorder (drivers/recorder/recorder.ts) in a page of real headless Chromium, for the
// recorder's browser tests: the pages served on 127.0.0.1, one browser for the file, a fresh
// page for each test with the recorder attached, and what it recorded read back. Registers the
// suite's hooks itself; call it once at the top of a test file.
import type { Page } from "playwright-core";
import type { RecordedAction, RecorderReport } from "../../drivers/recorder/recorder.ts";
import { bundleInPages } from "./browserPages.ts";

export interface RecorderPage {
  /** The page of the current test, recorder attached. */
  page(): Page;
  /** The commands recorded so far; the reports of pending typing are left out. */
  recorded(): Promise<RecordedAction[]>;
}

/**
 * Serves `pages`, opens `path` with the recorder in it before each test. `extraModule` is more
 * of the bundle's source (imports and exports the test reads through `globalName`).
 */
export function recorderInPages(pages: Record<string, string>, path: string, options: { extraModule?: string; globalName?: string } = {}): RecorderPage {
  const current = bundleInPages(
    pages,
    path,
    `import { attachRecorder } from "./drivers/recorder/recorder.ts";
     ${options.extraModule ?? ""}
     const seen = (globalThis.__recorded = []);
     attachRecorder(window, (action) => seen.push(action));`,
    { globalName: options.globalName },
  );

  return {
    page: current,
    async recorded() {
      // What the recorder reports may come a moment after the input (some commands wait for a
      // second click or a change): read until nothing new came for a while, within a limit.
      const page = current();
      const read = () => page.evaluate(() => (globalThis as unknown as { __recorded: RecorderReport[] }).__recorded);
      let reports = await read();
      for (let quiet = 0, tries = 0; quiet < 3 && tries < 40; tries++) {
        await page.waitForTimeout(50);
        const now = await read();
        quiet = now.length === reports.length ? quiet + 1 : 0;
        reports = now;
      }
      return reports.filter((report): report is RecordedAction => !("pending" in report));
    },
  };
}
