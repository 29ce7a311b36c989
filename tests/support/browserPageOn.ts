// The host's browser page under test (drivers/host/browserPage.ts) over pages served on
// 127.0.0.1, for the host's browser tests: one page for the file, and `run` to play one command
// in it as a run would. Registers the suite's hooks itself; call it once at the top of a file.
import { afterAll, beforeAll } from "vitest";
import { browserPage } from "../../drivers/host/browserPage.ts";
import type { BrowserPage, BrowserPageOptions } from "../../drivers/host/browserPage.ts";
import type { PageOutcome } from "../../machines/testRunner.types.ts";
import { servePages } from "./browserPages.ts";

export interface ServedBrowserPage {
  page(): BrowserPage;
  /** Plays one command (a fresh id each time) with no variables. */
  run(command: string, target?: string, value?: string): Promise<PageOutcome>;
}

export function browserPageOn(
  pages: Record<string, string>,
  runId: string,
  options: Omit<BrowserPageOptions, "baseUrl"> = {},
  slowMs: Record<string, number> = {},
): ServedBrowserPage {
  let site: Awaited<ReturnType<typeof servePages>>;
  let page: BrowserPage;
  let count = 0;

  beforeAll(async () => {
    site = await servePages(pages, slowMs);
    page = browserPage({ implicitWaitMs: 1_000, ...options, baseUrl: site.origin });
  });

  afterAll(async () => {
    await page?.close();
    await site?.close();
  });

  return {
    page: () => page,
    run(command, target = "", value = "") {
      const id = `c${++count}`;
      return page.execute({ command: { id, command, target, value }, variables: {}, baseUrl: site.origin, runId }, new AbortController().signal);
    },
  };
}
