/// <reference types="chrome" />
// Uploads in the extension (CONTRACT section 21): `type` on a file input chooses the named files
// (absolute paths, one a line) in the file chooser the input opens, answered by the IDE window
// through chrome.debugger, where the tab under test is held (debugger.ts). The content script
// has found the input and keeps, in its isolated world only, how to open its chooser and an
// input of its own to try the files on (CHOOSER_GLOBAL, under a fresh nonce: chooserWorld);
// the window then, with every step under a time limit:
//   1. checks that every path is absolute and that the extension may read files at all;
//   2. finds that isolated world among the tab's execution contexts (Runtime) by its nonce;
//   3. gives the content script's own input (never in the document) the files, which reads
//      them: a missing path or a folder fails naming it, and the page has seen nothing;
//   4. turns on `Page.setInterceptFileChooserDialog`, and has that world open the input's
//      chooser (`showPicker()`) under a user gesture (`Runtime.evaluate` with `userGesture`),
//      which a page may only do for a user: a hidden input (display:none behind a styled
//      label, or of opacity 0 under a button: the usual upload button) opens as a visible one;
//   5. takes `Page.fileChooserOpened` and answers it with `DOM.setFileInputFiles` on its
//      `backendNodeId`: the page gets `input` then `change` and reads each File's name and size
//      as after a user's choice;
//   6. turns the interception off again, whatever happened.
// What this Chromium (156) does, found by trying it from an extension (crbug 928255):
// `DOM.setFileInputFiles` from chrome.debugger answers "Not allowed" whenever the extension may
// not read file: addresses (its "Allow access to file URLs" switch in chrome://extensions: off by
// default for an installed extension, on for an unpacked one), whether called on a node directly
// or on the node a `Page.fileChooserOpened` named; with the switch on, both work. Answering the
// chooser does not get around the switch: it is the way that sets the files on the very input
// that asked, as a user's choice does. Without the switch the command fails saying to turn it
// on. A trusted click (Input domain) opens a visible input's chooser too, but a hidden input has
// no point to click; `showPicker()` under the gesture opens both.
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
const CONTEXT_TRIES = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `path` is absolute: /… on Linux and macOS, C:\… or C:/… on Windows. */
export const isAbsolutePath = (path: string): boolean => path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path);

/** Why `paths` cannot be uploaded before the page is asked anything; null when none is relative and the extension may read files. */
export async function checkPaths(paths: readonly string[]): Promise<string | null> {
  const relative = paths.find((path) => !isAbsolutePath(path));
  if (relative !== undefined) {
    return `The file to upload ${JSON.stringify(relative)} is not an absolute path: the extension has no .side file's folder or --files DIR to look in, so give the whole path (as /home/me/cv.pdf or C:\\Users\\me\\cv.pdf).`;
  }
  return (await chrome.extension.isAllowedFileSchemeAccess()) ? null : NO_FILE_ACCESS;
}

const NO_FILE_ACCESS =
  'Chromium lets an extension give a page files from this computer only while its "Allow access to file URLs" is on: turn it on for ide-core (chrome://extensions, ide-core, Details) and play again.';

/** What the content script keeps under CHOOSER_GLOBAL for one upload. */
export interface ChooserWorld {
  nonce: string;
  /** Opens the input's file chooser (the window calls it under a user gesture). */
  open(): void;
  /** An input of the content script's own, never in the document, which the window gives the files first. */
  probe: HTMLInputElement;
  /** The index of the first of the probe's files that cannot be read (missing, a folder), or -1. */
  unreadable(): Promise<number>;
}

/**
 * The content script's side of one upload into `input`. The paths are tried on `probe` before
 * the page's input: Chromium takes a missing path, or a folder, without a word and gives an
 * empty File of that name, which only reading tells apart (a file: address read by fetch
 * would tell too, but logs a "Failed to load resource" error in the window).
 */
export function chooserWorld(input: HTMLInputElement, nonce: string): ChooserWorld {
  const probe = input.ownerDocument.createElement("input");
  probe.type = "file";
  probe.multiple = true;
  return {
    nonce,
    open: () => input.showPicker(),
    probe,
    async unreadable() {
      const files = [...(probe.files ?? [])];
      for (let i = 0; i < files.length; i++) {
        try {
          // One byte says a file is there; an empty one (or a missing one, also size 0) is read whole.
          await (files[i].size > 0 ? files[i].slice(0, 1) : files[i]).arrayBuffer();
        } catch {
          return i;
        }
      }
      return -1;
    },
  };
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
    // A frame from another site runs in a process of its own (site isolation), which the tab's
    // chrome.debugger session does not reach; or the document went away meanwhile.
    throw new Error(
      "its frame is out of the reach of the tab's chrome.debugger session: a frame from another site than the tab's page runs apart in Chromium, so the extension cannot answer its file chooser (or the page navigated meanwhile)",
    );
  }

  /** Gives the content script's probe input the files, and fails naming the first it cannot read; the page sees none of it. */
  async function tryFiles(tabId: number, contextId: number, paths: string[]): Promise<void> {
    const probe = await send<{ result: { objectId?: string } }>(tabId, "Runtime.evaluate", { expression: `globalThis.${CHOOSER_GLOBAL}.probe`, contextId });
    const objectId = probe.result.objectId;
    if (!objectId) throw new Error("the content script gave no input to try the files on");
    try {
      const { node } = await send<{ node: { backendNodeId: number } }>(tabId, "DOM.describeNode", { objectId });
      await setFiles(tabId, paths, node.backendNodeId);
    } finally {
      await send(tabId, "Runtime.releaseObject", { objectId }).catch(() => {});
    }
    const read = await send<{ result: { value?: unknown } }>(tabId, "Runtime.evaluate", {
      expression: `globalThis.${CHOOSER_GLOBAL}.unreadable()`,
      contextId,
      awaitPromise: true,
      returnByValue: true,
    });
    const index = read.result.value;
    if (typeof index !== "number") throw new Error("the files could not be read to check them");
    if (index >= 0) throw new Error(`The file to upload ${JSON.stringify(paths[index])} was not found (or is not a file this browser may read).`);
  }

  const setFiles = (tabId: number, files: string[], backendNodeId: number) =>
    send(tabId, "DOM.setFileInputFiles", { files, backendNodeId }).catch((error) => {
      throw new Error(/not allowed/i.test(messageOf(error)) ? NO_FILE_ACCESS : `the browser refused the files: ${messageOf(error)}`);
    });

  async function choose(tabId: number, nonce: string, paths: string[]): Promise<void> {
    await send(tabId, "Runtime.enable");
    let stopWaiting = () => {};
    try {
      const contextId = await worldOf(tabId, nonce);
      await tryFiles(tabId, contextId, paths);
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
      const evaluated = await send<{ exceptionDetails?: { text?: string; exception?: { description?: string } } }>(tabId, "Runtime.evaluate", {
        expression: `globalThis.${CHOOSER_GLOBAL}.open()`,
        contextId,
        userGesture: true,
        returnByValue: true,
      });
      if (evaluated.exceptionDetails) {
        const why = evaluated.exceptionDetails.exception?.description ?? evaluated.exceptionDetails.text ?? "an error";
        throw new Error(`its file chooser would not open: ${why.split("\n")[0]}`);
      }
      const chooser = await opened;
      if (chooser.backendNodeId === undefined) throw new Error("its file chooser opened without naming its input");
      if (paths.length > 1 && chooser.mode !== "selectMultiple") throw new Error(`it takes one file, and ${paths.length} were named`);
      await setFiles(tabId, paths, chooser.backendNodeId);
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
