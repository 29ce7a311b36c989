// The page under test when tests play at once (CONTRACT section 16): a pool of browser pages
// (browserPage.ts), one browser session for each test playing, at most `sessions`. A test's
// commands carry its runId; its first command takes a free page (or opens one), and the page is
// free again once createIde says the test ended (`endRun`). With one session it is exactly one
// browserPage, reused by every run as before. The picture is of the page of the test named
// (the one the IDE shows), else of the page that played a command last, as is GET
// /playback/location.
import type { PageCommandInput, PageOutcome } from "../../machines/testRunner.types.ts";
import type { PageShot } from "../view/messages.ts";
import type { LiveAnswer, LiveSink } from "../view/pageFeed.ts";
import { browserPage } from "./browserPage.ts";
import type { BrowserPage, BrowserPageOptions } from "./browserPage.ts";

export interface SessionPoolOptions extends BrowserPageOptions {
  /** How many browser sessions at most: the IDE's workers. Default 1. */
  sessions?: number;
}

export interface SessionPool extends BrowserPage {
  endRun(runId: string): void;
  /** The picture of the page the test `runId` played in (while no other test took it), else of the last page used. */
  capturePage(runId?: string): Promise<PageShot | null>;
  /** The witness (pageWitness.ts) of the page the test `runId` plays in, else of the last page used. */
  witnessOf(runId?: string): ReturnType<BrowserPage["witness"]>;
  /** The page of the test `runId` (else the last page used) live; the page streamed before stops when another is shown. */
  livePage(sink: LiveSink, runId?: string): Promise<LiveAnswer>;
  /** How many pages (browser sessions, open or not yet) the pool holds now. */
  size(): number;
}

export function sessionPool(options: SessionPoolOptions = {}): SessionPool {
  const max = options.sessions ?? 1;
  if (!Number.isInteger(max) || max < 1) throw new TypeError(`sessionPool: sessions must be a whole number of at least 1, not ${max}.`);
  const pages: BrowserPage[] = [];
  const byRun = new Map<string, BrowserPage>();
  const free: BrowserPage[] = [];
  /** The test each page played last: kept after the test ends, for its picture. */
  const lastRunOf = new Map<BrowserPage, string>();
  let last: BrowserPage | null = null;
  /** The page streamed live now. */
  let streaming: BrowserPage | null = null;

  const open = () => {
    const page = browserPage(options);
    pages.push(page);
    return page;
  };

  /** The page of this test: the one it has, else a free one, else a new one while there is room. */
  function pageFor(runId: string | undefined): BrowserPage {
    // The page shown outside runs (recording, the page panel's input): its picture is the one shown.
    if (runId === undefined) return (last ??= pages[0] ?? open());
    let page = byRun.get(runId);
    if (!page) {
      // The workers bound the tests playing, so room is always there; past it, tests share the last page.
      page = free.pop() ?? (pages.length < max ? open() : (last ?? pages[0]));
      byRun.set(runId, page);
      lastRunOf.set(page, runId);
    }
    last = page;
    return page;
  }

  /** The page the test `runId` played in last (while no other test took it), else the last page used. */
  const pageOfRun = (runId: string | undefined) => (runId !== undefined && [...lastRunOf].find(([, id]) => id === runId)?.[0]) || last;

  return {
    execute(input: PageCommandInput, signal: AbortSignal): Promise<PageOutcome> {
      return pageFor(input.runId).execute(input, signal);
    },
    evaluate(input, signal) {
      return pageFor(input.runId).evaluate(input, signal);
    },
    endRun(runId) {
      const page = byRun.get(runId);
      if (!page) return;
      byRun.delete(runId);
      if (![...byRun.values()].includes(page) && !free.includes(page)) free.push(page);
    },
    size: () => pages.length,
    baseUrl: options.baseUrl,
    hasPage: () => last?.hasPage() ?? false,
    resolveLocator: (location) => pageFor(undefined).resolveLocator(location),
    findInPage: (location, outline) => pageFor(undefined).findInPage(location, outline),
    chromedriverPid: () => last?.chromedriverPid() ?? null,
    capturePage(runId?: string): Promise<PageShot | null> {
      const page = pageOfRun(runId);
      return page ? page.capturePage() : Promise.resolve(null);
    },
    witness: () => (last ? last.witness() : Promise.resolve(null)),
    witnessOf(runId?: string) {
      const page = pageOfRun(runId);
      return page ? page.witness() : Promise.resolve(null);
    },
    livePage(sink, runId) {
      const page = pageOfRun(runId);
      if (page !== streaming) streaming?.stopLivePage();
      streaming = page;
      return page ? page.livePage(sink) : Promise.resolve("none");
    },
    stopLivePage() {
      streaming?.stopLivePage();
      streaming = null;
    },
    sideRuntime: () => pageFor(undefined).sideRuntime(),
    playedInPage: () => pages.reduce((sum, page) => sum + page.playedInPage(), 0),
    async close() {
      await Promise.all(pages.map((page) => page.close()));
      pages.length = 0;
      free.length = 0;
      byRun.clear();
      lastRunOf.clear();
      last = null;
      streaming = null;
    },
  };
}
