/// <reference types="chrome" />
// Waiting on the tab under test's loads: `open` navigates and waits until the new page has
// loaded; every page command first waits while the tab is still loading (a click on a link,
// a form sent), so it runs in the page the user would see. Every wait has a limit.
import { messageOf } from "../../services/errors.ts";
import { isNoTab } from "./tabs.ts";

/** The page under test cannot be played in any more (the tab was closed, or shows a page the extension may not script). */
export class PageGoneError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PageGoneError";
  }
}

export const TAB_CLOSED =
  "the tab under test was closed. Open the page under test in a browser tab, make it the active tab of its window, and press Play again.";

export const NO_TAB =
  "there is no browser tab to play in. Open the page under test in a browser window, make it the active tab, and press Play again.";

export const unscriptable = (url: string | undefined, reason: string) =>
  `the tab under test${url ? ` (${url})` : ""} shows a page the extension may not script (${reason}). ` +
  "Open a web page (http, https or file) in that tab, or make such a tab the active one, and press Play again.";

export const FRAME_GONE =
  "the selected frame is not there any more (it was removed or navigated away); selectFrame relative=top goes back to the page.";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LET_GO = "the run let go of the command";

/** `work`, or a rejection as soon as the run lets go of the command (`onAbort` tells the page). */
export function abortable<T>(work: Promise<T>, signal: AbortSignal, onAbort: () => void): Promise<T> {
  if (signal.aborted) {
    onAbort();
    return Promise.reject(new Error(LET_GO));
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      onAbort();
      reject(new Error(LET_GO));
    };
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/** Chromium's refusal, as the run reads it: a tab that is closed or may not be scripted ends the run. */
export async function pageGone(target: { tabId: number }, error: unknown): Promise<PageGoneError> {
  if (error instanceof PageGoneError) return error;
  if (isNoTab(error)) return new PageGoneError(TAB_CLOSED);
  const tab = await chrome.tabs.get(target.tabId).catch(() => null);
  if (!tab) return new PageGoneError(TAB_CLOSED);
  return new PageGoneError(unscriptable(tab.url, messageOf(error)));
}

/** The tab, or PageGoneError when it was closed. */
export async function getTab(tabId: number): Promise<chrome.tabs.Tab> {
  try {
    return await chrome.tabs.get(tabId);
  } catch (error) {
    if (isNoTab(error)) throw new PageGoneError(TAB_CLOSED);
    throw new PageGoneError(`the tab under test cannot be read (${messageOf(error)}).`);
  }
}

/** Waits (at most `timeoutMs`) while the tab is loading; gives the tab as it is then. */
export async function settled(tabId: number, timeoutMs: number, signal: AbortSignal): Promise<chrome.tabs.Tab> {
  let tab = await getTab(tabId);
  const deadline = Date.now() + timeoutMs;
  while (tab.status === "loading" && Date.now() < deadline && !signal.aborted) {
    await sleep(25);
    tab = await getTab(tabId);
  }
  return tab;
}

const withoutHash = (url: string) => url.replace(/#.*$/, "");

/**
 * Navigates the tab to `url` and waits until the new page has loaded (a change of the hash
 * alone loads nothing: it is done when the tab shows it). Resolves with null, or with why it
 * did not finish in time; rejects with PageGoneError when the tab closes meanwhile.
 */
export async function navigate(tabId: number, url: string, timeoutMs: number, signal: AbortSignal): Promise<string | null> {
  const before = await getTab(tabId);
  const sameDocument = url.includes("#") && withoutHash(before.url ?? "") === withoutHash(url) && before.url !== url;
  return new Promise<string | null>((resolve, reject) => {
    let sawLoading = false;
    let done = false;
    const finish = (outcome: { ok: string | null } | { error: unknown }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(poll);
      chrome.tabs.onUpdated.removeListener(onUpdated);
      chrome.tabs.onRemoved.removeListener(onRemoved);
      signal.removeEventListener("abort", onAbort);
      if ("ok" in outcome) resolve(outcome.ok);
      else reject(outcome.error);
    };
    const onUpdated = (id: number, change: { status?: string }) => {
      if (id !== tabId) return;
      if (change.status === "loading") sawLoading = true;
      else if (change.status === "complete" && sawLoading) finish({ ok: null });
    };
    const onRemoved = (id: number) => {
      if (id === tabId) finish({ error: new PageGoneError(TAB_CLOSED) });
    };
    const onAbort = () => finish({ error: new Error(LET_GO) });
    // Events can be missed between two listeners' lives; the tab's state is read as well.
    const poll = setInterval(() => {
      chrome.tabs.get(tabId).then(
        (tab) => {
          if (tab.status === "loading") sawLoading = true;
          else if (tab.status === "complete" && !tab.pendingUrl && (sawLoading || (sameDocument && tab.url === url))) finish({ ok: null });
        },
        (error) => finish({ error: isNoTab(error) ? new PageGoneError(TAB_CLOSED) : error }),
      );
    }, 100);
    const timer = setTimeout(() => finish({ ok: `the page did not finish loading within ${timeoutMs} ms` }), timeoutMs);
    chrome.tabs.onUpdated.addListener(onUpdated);
    chrome.tabs.onRemoved.addListener(onRemoved);
    signal.addEventListener("abort", onAbort, { once: true });
    chrome.tabs.update(tabId, { url }).catch((error: unknown) =>
      finish({ error: isNoTab(error) ? new PageGoneError(TAB_CLOSED) : error }),
    );
  });
}

export interface LoadWatch {
  /** Whether the tab started loading since the watch began. */
  started(): boolean;
  /**
   * Waits (at most `timeoutMs`) until a navigation a command started is over: the tab loaded
   * (it was seen loading, and is complete), or it went away; gives up at the limit.
   */
  over(timeoutMs: number, signal: AbortSignal): Promise<void>;
  stop(): void;
}

/**
 * Watches the tab's loads from now on (issue 27): a command's navigation (a form post whose
 * answer is slow) can start after the command answered, so the watch begins before it is sent.
 * The tab's own events say it started loading (a quick load and stop is not missed), and its
 * state is read as well.
 */
export function watchLoads(tabId: number): LoadWatch {
  let loadingSeen = false;
  let loadedAfter = false;
  const onUpdated = (id: number, change: { status?: string }) => {
    if (id !== tabId) return;
    if (change.status === "loading") loadingSeen = true;
    else if (change.status === "complete" && loadingSeen) loadedAfter = true;
  };
  chrome.tabs.onUpdated.addListener(onUpdated);
  const stop = () => chrome.tabs.onUpdated.removeListener(onUpdated);
  return {
    started: () => loadingSeen,
    async over(timeoutMs, signal) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline && !signal.aborted && !loadedAfter) {
        const tab = await chrome.tabs.get(tabId).catch(() => null);
        if (!tab) return;
        if (tab.status === "loading" || tab.pendingUrl) loadingSeen = true;
        else if (loadingSeen) return;
        await sleep(25);
      }
    },
    stop,
  };
}
