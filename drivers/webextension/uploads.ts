/// <reference types="chrome" />
// Uploads in the extension (CONTRACT section 21): `type` on a file input chooses the named files
// (absolute paths, one a line) in the file chooser the input opens, answered by the IDE window
// through chrome.debugger, where the tab under test is held (debugger.ts). The content script
// has found the input and keeps, in its isolated world only, how to open its chooser
// (CHOOSER_GLOBAL, under a fresh nonce); the window then, with every step under a time limit:
//   1. checks every path before touching the page: absolute, the extension allowed to read
//      files, and each one there and a file (read through its file: address), so a bad path
//      fails naming it and the page sees nothing;
//   2. finds that isolated world among the tab's execution contexts (Runtime) by its nonce;
//   3. turns on `Page.setInterceptFileChooserDialog`, and has that world open the input's
//      chooser (`showPicker()`) under a user gesture (`Runtime.evaluate` with `userGesture`),
//      which a page may only do for a user: a hidden input (display:none behind a styled
//      label or button, the usual upload button) opens as a visible one does;
//   4. takes `Page.fileChooserOpened` and answers it with `DOM.setFileInputFiles` on its
//      `backendNodeId`: the page gets its `input` and `change` events and reads each File's name
//      and size as after a user's choice;
//   5. turns the interception off again, whatever happened.
// What this Chromium (156) does, found by trying it from an extension (crbug 928255):
// `DOM.setFileInputFiles` from chrome.debugger answers "Not allowed" whenever the extension may
// not read file: addresses (its "Allow access to file URLs" switch in chrome://extensions: off by
// default for an installed extension, on for an unpacked one), called on a node directly or on
// the node a `Page.fileChooserOpened` named alike; with that switch on both work. Answering the
// chooser does not get around the switch: it is the way that sets the files on the very input
// that asked, as a user's choice does. Without the switch the command fails saying to turn it on.
// A missing path is no error to Chromium (the page would get an empty file of that name), hence
// step 1.
import { z } from "zod";
import { messageOf } from "../../services/errors.ts";
import { withTimeout } from "../../services/timeout.ts";

/** The content script's isolated world keeps { nonce, open() } here while it waits for an upload. */
export const CHOOSER_GLOBAL = "__ideCoreFileChooser";

/** What a content script asks the window: choose these files in the chooser of the input it holds under `nonce`. */
export const PageUploadMessage = z.object({
  type: z.literal("page.upload"),
  nonce: z.string().regex(/^[\w-]{8,64}$/),
  paths: z.array(z.string().min(1).max(4_096)).min(1).max(1_000),
});
export type PageUploadAnswer = { ok: true } | { ok: false; error: string };

/** What the window's hold on the tab gives the uploads (debugger.ts). */
export interface UploadHold {
  /** Whether the tab is held through chrome.debugger (attaching at the first call). */
  ready(tabId: number): Promise<boolean>;
  /** Whether the tab's Runtime stays enabled for another use (console errors for traces). */
  keepsRuntime: boolean;
}

const STEP_LIMIT_MS = 5_000;
const CHOOSER_LIMIT_MS = 5_000;
const FILE_LIMIT_MS = 5_000;
const CONTEXT_TRIES = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `path` is absolute: /… on Linux and macOS, C:\… or C:/… on Windows. */
export const isAbsolutePath = (path: string): boolean => path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path);

/** The file: address of an absolute path, each part escaped. */
export function fileAddress(path: string): string {
  const slashed = path.replace(/\\/g, "/");
  const parts = (slashed.startsWith("/") ? slashed : `/${slashed}`).split("/").map((part, i) => (i === 1 && /^[A-Za-z]:$/.test(part) ? part : encodeURIComponent(part)));
  return `file://${parts.join("/")}`;
}

/** Why `paths` cannot be uploaded, naming the first that cannot; null when each is a file this extension may read. */
export async function checkPaths(paths: readonly string[]): Promise<string | null> {
  const relative = paths.find((path) => !isAbsolutePath(path));
  if (relative !== undefined) {
    return `The file to upload ${JSON.stringify(relative)} is not an absolute path: the extension has no .side file's folder or --files DIR to look in, so give the whole path (as /home/me/cv.pdf or C:\\Users\\me\\cv.pdf).`;
  }
  if (!(await chrome.extension.isAllowedFileSchemeAccess())) return NO_FILE_ACCESS;
  for (const path of paths) {
    const found = await readable(path);
    if (found === "missing") return `The file to upload ${JSON.stringify(path)} was not found (or this browser may not read it).`;
    if (found === "folder") return `The file to upload ${JSON.stringify(path)} is a folder, not a file.`;
  }
  return null;
}

const NO_FILE_ACCESS =
  'Chromium lets an extension give a page files from this computer only while its "Allow access to file URLs" is on: turn it on for ide-core (chrome://extensions, ide-core, Details) and play again.';

/** Whether `path` is a file, a folder or nothing this extension can read; only the answer's start is read. */
async function readable(path: string): Promise<"file" | "folder" | "missing"> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), FILE_LIMIT_MS);
  try {
    const response = await fetch(fileAddress(path), { signal: controller.signal });
    void response.body?.cancel().catch(() => {});
    // Chromium answers a file with 200 and a folder with its listing, status 0.
    return response.status === 200 ? "file" : "folder";
  } catch {
    return "missing";
  } finally {
    clearTimeout(timer);
  }
}

/** The window's answerer of uploads in held tabs; close() stops it. */
export function fileChooserAnswerer(hold: UploadHold): { close(): void } {
  /** The isolated execution contexts (not the page's own) of each tab, while its Runtime is enabled. */
  const contexts = new Map<number, Set<number>>();
  const busy = new Set<number>();
  /** Who waits for each tab's chooser to open. */
  const choosers = new Map<number, (params: { backendNodeId?: number; mode?: string }) => void>();

  const send = <T = unknown>(tabId: number, method: string, params: object = {}): Promise<T> =>
    withTimeout(chrome.debugger.sendCommand({ tabId }, method, params) as Promise<T>, STEP_LIMIT_MS, `the tab's ${method}`);

  const onEvent = (source: chrome.debugger.Debuggee, method: string, params?: object) => {
    const tabId = source.tabId;
    if (tabId === undefined) return;
    const p = (params ?? {}) as { context?: { id: number; auxData?: { isDefault?: boolean } }; executionContextId?: number };
    if (method === "Runtime.executionContextCreated" && p.context && p.context.auxData?.isDefault === false) {
      if (!contexts.has(tabId)) contexts.set(tabId, new Set());
      contexts.get(tabId)!.add(p.context.id);
    } else if (method === "Runtime.executionContextDestroyed" && p.executionContextId !== undefined) contexts.get(tabId)?.delete(p.executionContextId);
    else if (method === "Runtime.executionContextsCleared") contexts.delete(tabId);
    else if (method === "Page.fileChooserOpened") choosers.get(tabId)?.(params as { backendNodeId?: number; mode?: string });
  };
  const onDetach = (source: chrome.debugger.Debuggee) => {
    if (source.tabId !== undefined) contexts.delete(source.tabId);
  };
  const onMessage = (value: unknown, sender: chrome.runtime.MessageSender, sendResponse: (answer: PageUploadAnswer) => void) => {
    if (sender.id !== chrome.runtime.id) return false;
    const parsed = PageUploadMessage.safeParse(value);
    const tabId = sender.tab?.id;
    if (!parsed.success || tabId === undefined) return false;
    void upload(tabId, parsed.data).then(sendResponse, (error) => sendResponse({ ok: false, error: messageOf(error) }));
    return true;
  };

  async function upload(tabId: number, { nonce, paths }: z.infer<typeof PageUploadMessage>): Promise<PageUploadAnswer> {
    if (busy.has(tabId)) return { ok: false, error: "another upload is still under way in this tab" };
    busy.add(tabId);
    try {
      const bad = await checkPaths(paths);
      if (bad) return { ok: false, error: bad };
      if (!(await hold.ready(tabId))) {
        return { ok: false, error: "the tab under test is not held through chrome.debugger, so no one can answer the file input's chooser" };
      }
      await choose(tabId, nonce, paths);
      return { ok: true };
    } catch (error) {
      return { ok: false, error: messageOf(error) };
    } finally {
      busy.delete(tabId);
    }
  }

  /** The content script's isolated world that holds the input under `nonce`; Runtime replays the contexts as it is enabled. */
  async function worldOf(tabId: number, nonce: string): Promise<number> {
    const probe = `globalThis.${CHOOSER_GLOBAL}?.nonce === ${JSON.stringify(nonce)}`;
    for (let attempt = 0; attempt < CONTEXT_TRIES; attempt++) {
      for (const contextId of contexts.get(tabId) ?? []) {
        const answer = await send<{ result?: { value?: unknown } }>(tabId, "Runtime.evaluate", { expression: probe, contextId, returnByValue: true }).catch(() => null);
        if (answer?.result?.value === true) return contextId;
      }
      await sleep(50);
    }
    throw new Error("the file input's frame could not be found among the tab's scripts (did the page navigate meanwhile?)");
  }

  async function choose(tabId: number, nonce: string, paths: string[]): Promise<void> {
    await send(tabId, "Runtime.enable");
    let stopWaiting = () => {};
    try {
      const contextId = await worldOf(tabId, nonce);
      // The chooser event comes through the Page domain, which stays on (as the tab stays held).
      await send(tabId, "Page.enable");
      const opened = new Promise<{ backendNodeId?: number; mode?: string }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`its file chooser did not open within ${CHOOSER_LIMIT_MS} ms`)), CHOOSER_LIMIT_MS);
        choosers.set(tabId, (params) => {
          clearTimeout(timer);
          resolve(params);
        });
        stopWaiting = () => clearTimeout(timer);
      });
      opened.catch(() => {});
      await send(tabId, "Page.setInterceptFileChooserDialog", { enabled: true });
      const open = `globalThis.${CHOOSER_GLOBAL}.open()`;
      const evaluated = await send<{ exceptionDetails?: { text?: string; exception?: { description?: string } } }>(tabId, "Runtime.evaluate", { expression: open, contextId, userGesture: true, returnByValue: true });
      if (evaluated.exceptionDetails) {
        const why = evaluated.exceptionDetails.exception?.description ?? evaluated.exceptionDetails.text ?? "an error";
        throw new Error(`its file chooser would not open: ${why.split("\n")[0]}`);
      }
      const chooser = await opened;
      if (chooser.backendNodeId === undefined) throw new Error("its file chooser opened without naming its input");
      if (paths.length > 1 && chooser.mode !== "selectMultiple") throw new Error(`it takes one file, and ${paths.length} were named`);
      await send(tabId, "DOM.setFileInputFiles", { files: paths, backendNodeId: chooser.backendNodeId }).catch((error) => {
        throw new Error(/not allowed/i.test(messageOf(error)) ? NO_FILE_ACCESS : `the browser refused the files: ${messageOf(error)}`);
      });
    } finally {
      stopWaiting();
      choosers.delete(tabId);
      await send(tabId, "Page.setInterceptFileChooserDialog", { enabled: false }).catch(() => {});
      if (!hold.keepsRuntime) {
        await send(tabId, "Runtime.disable").catch(() => {});
        contexts.delete(tabId);
      }
    }
  }

  chrome.debugger.onEvent.addListener(onEvent);
  chrome.debugger.onDetach.addListener(onDetach);
  chrome.runtime.onMessage.addListener(onMessage);
  return {
    close() {
      chrome.debugger.onEvent.removeListener(onEvent);
      chrome.debugger.onDetach.removeListener(onDetach);
      chrome.runtime.onMessage.removeListener(onMessage);
      contexts.clear();
    },
  };
}
