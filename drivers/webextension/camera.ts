/// <reference types="chrome" />
// The extension's eyes on the tab under test while runs keep traces (CONTRACT section 17), for
// the traced executor (drivers/traces/tracedExecutor.ts):
// - the camera: chrome.tabs.captureVisibleTab of the tab's window, JPEG, scaled to at most
//   1280 px wide (createImageBitmap and an OffscreenCanvas). Chrome allows two calls a second
//   (MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND), so calls are spaced; the traced executor shares a
//   picture among the commands that end meanwhile, so the run never waits for one. A tab that
//   is not its window's active one is not pictured (the picture would be another page's).
// - the witness: the page's URL, title and HTML through chrome.scripting (its top frame), and
//   the console errors the window's debugger hears in the tab (debugger.ts) while it holds it.
// Each call has a time limit.
import { withTimeout } from "../../services/timeout.ts";
import { MAX_HTML_CHARS, PageFacts } from "../traces/witness.ts";
import type { PageWitness } from "../traces/witness.ts";
import type { PageEyes } from "../traces/tracedExecutor.ts";
import type { TabTarget } from "./tabs.ts";
import { bytesOf } from "./traceShelf.ts";

/** Chrome's MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND is 2: one call each this many ms, with a margin. */
export const CAPTURE_SPACING_MS = 520;
export const MAX_PICTURE_WIDTH = 1280;
const CAPTURE_LIMIT_MS = 5_000;
const DETAILS_LIMIT_MS = 5_000;
const JPEG_QUALITY = 80;

/** The console errors heard in a tab: a mark, and those after it. */
export interface TabConsole {
  mark(tabId: number): number;
  since(tabId: number, mark: number): string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("the picture could not be read"));
    reader.readAsDataURL(blob);
  });
}

/** The picture, at most MAX_PICTURE_WIDTH wide: as it is when it fits, else scaled down. */
async function fitted(dataUrl: string): Promise<string> {
  const bitmap = await createImageBitmap(new Blob([bytesOf(dataUrl)], { type: "image/jpeg" }));
  try {
    if (bitmap.width <= MAX_PICTURE_WIDTH) return dataUrl;
    const height = Math.max(1, Math.round((bitmap.height * MAX_PICTURE_WIDTH) / bitmap.width));
    const canvas = new OffscreenCanvas(MAX_PICTURE_WIDTH, height);
    canvas.getContext("2d")!.drawImage(bitmap, 0, 0, MAX_PICTURE_WIDTH, height);
    return dataUrlOf(await canvas.convertToBlob({ type: "image/jpeg", quality: JPEG_QUALITY / 100 }));
  } finally {
    bitmap.close();
  }
}

/** The page's facts, read in its top frame (an isolated world: the page's own scripts are not asked). */
function readPage(maxChars: number) {
  return { url: location.href, title: document.title, html: document.documentElement ? document.documentElement.outerHTML.slice(0, maxChars) : "" };
}

/** The camera and witness of the run's tab (`target`: the executor's current one). */
export function tabEyes(target: () => TabTarget | null, heard: TabConsole | null): PageEyes {
  let turn: Promise<unknown> = Promise.resolve();
  let last = 0;

  /** Waits for this call's turn under Chrome's quota. */
  function spaced(): Promise<void> {
    const mine = turn.then(async () => {
      const wait = last + CAPTURE_SPACING_MS - Date.now();
      if (wait > 0) await sleep(wait);
      last = Date.now();
    });
    turn = mine;
    return mine;
  }

  async function camera(): Promise<string | null> {
    const tab = target();
    if (!tab) return null;
    await spaced();
    const shown = await withTimeout(chrome.tabs.get(tab.tabId), CAPTURE_LIMIT_MS, "finding the tab under test").catch(() => null);
    if (!shown?.active) return null;
    const image = await withTimeout(chrome.tabs.captureVisibleTab(tab.windowId, { format: "jpeg", quality: JPEG_QUALITY }), CAPTURE_LIMIT_MS, "picturing the tab under test");
    return withTimeout(fitted(image), CAPTURE_LIMIT_MS, "scaling the tab's picture");
  }

  async function details(tabId: number) {
    try {
      const [done] = await withTimeout(
        chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, func: readPage, args: [MAX_HTML_CHARS] }),
        DETAILS_LIMIT_MS,
        "reading the tab under test's page",
      );
      const facts = PageFacts.safeParse(done?.result);
      if (facts.success) return facts.data;
    } catch {
      // A page the extension may not script (or one going away): its tab's address and title only.
    }
    const tab = await withTimeout(chrome.tabs.get(tabId), DETAILS_LIMIT_MS, "reading the tab under test");
    return { url: tab.url ?? "", title: tab.title ?? "", html: null };
  }

  async function witness(): Promise<PageWitness | null> {
    const tab = target();
    if (!tab) return null;
    const { tabId } = tab;
    return {
      mark: () => heard?.mark(tabId) ?? 0,
      errorsSince: (mark) => heard?.since(tabId, mark) ?? [],
      details: () => details(tabId),
      close() {},
    };
  }

  return { camera, witness };
}
