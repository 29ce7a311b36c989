/// <reference types="chrome" />
// The content script, put into a frame of the tab under test by the IDE window when it first
// needs it there (tabs.ts). It answers:
// - locator.resolve: GET /playback/location, with the project's own resolver
//   (services/locators/) against the live document, so the browser's own CSS and XPath
//   engines check every xpath it gives;
// - locator.find: "Find target in page" and the alternatives' counts (drivers/findInPage/);
// - page.command: one command of a run, done by the one player (drivers/player/, runInPage) in this frame's document,
//   with trusted input (the window sends it through chrome.debugger: debugger.ts) when the
//   window holds the tab and this frame's place in the top window can be told, and a file
//   input's chooser opened here for the window to answer (uploads.ts);
// - page.abort: lets go of the commands still waiting here (the run was stopped);
// - frame.locate: selectFrame's locator: which of window.frames the element is.
import { messageOf } from "../../services/errors.ts";
import { resolveInDocument } from "../../services/locators/index.ts";
import { readFindLocator, readResolveLocator, readToContent } from "./messages.ts";
import { findInDocument } from "../findInPage/index.ts";
import type { FrameLocateAnswer, ResolveLocatorAnswer } from "./messages.ts";
import { locateInPage, runInPage } from "../player/index.ts";
import type { InPageAnswer, InputEvent, TrustedInput } from "../player/index.ts";
import type { PageInputAnswer } from "./debugger.ts";
import { CHOOSER_GLOBAL, chooserWorld } from "./uploads.ts";
import type { ChooserWorld, PageUploadAnswer } from "./uploads.ts";

const LOADED = "__ideCoreContentScript";
const scope = globalThis as typeof globalThis & { [LOADED]?: true; [CHOOSER_GLOBAL]?: ChooserWorld };

function resolveLocator(location: string): ResolveLocatorAnswer {
  try {
    return { ok: true, xpath: resolveInDocument(document, location) };
  } catch (error) {
    const code = (error as { errorCode?: unknown }).errorCode;
    return { ok: false, errorCode: typeof code === "string" ? code : "ElementNotFound", error: messageOf(error) };
  }
}

/** The frame element a locator names, waited for up to the implicit wait (the player's own wait), as its index in window.frames. */
async function locateFrame(location: string, implicitWaitMs: number, signal: AbortSignal): Promise<FrameLocateAnswer> {
  const found = await locateInPage(window, { target: location, implicitWaitMs }, signal);
  if (!found.ok) return { ok: false, error: found.message };
  const element = found.element;
  if (!(element instanceof HTMLIFrameElement) && !(element instanceof HTMLFrameElement)) {
    return { ok: false, error: `selectFrame ${location}: the element is a <${element.localName}>, not a frame.` };
  }
  for (let i = 0; i < window.frames.length; i++) {
    if (window.frames[i] === element.contentWindow) return { ok: true, index: i };
  }
  return { ok: false, error: `selectFrame ${location}: the frame has no window (it is not in the document's frames).` };
}

/** Where `win`'s viewport sits in the top window's; null when a frame on the way is cross-origin. */
function offsetInTop(win: Window): { x: number; y: number } | null {
  let x = 0;
  let y = 0;
  for (let w = win; w !== w.top; w = w.parent) {
    let frame: Element | null;
    try {
      frame = w.frameElement;
    } catch {
      return null;
    }
    if (!frame) return null;
    const rect = frame.getBoundingClientRect();
    const style = w.parent.getComputedStyle(frame);
    x += rect.left + frame.clientLeft + parseFloat(style.paddingLeft || "0");
    y += rect.top + frame.clientTop + parseFloat(style.paddingTop || "0");
  }
  return { x, y };
}

/** Input the IDE window sends to this tab as trusted DevTools events. */
const windowInput: TrustedInput = {
  async send(events: InputEvent[]) {
    const answer = (await chrome.runtime.sendMessage({ type: "page.input", events })) as PageInputAnswer | undefined;
    if (!answer || answer.ok !== true) throw new Error(answer?.ok === false ? answer.error : "the IDE window did not send the input");
  },
  offset: offsetInTop,
  // The window opens the chooser through this isolated world, which the page cannot see, under
  // a user gesture a page script never has (uploads.ts), and answers it with the files.
  async chooseFiles(input: HTMLInputElement, paths: string[]) {
    const nonce = crypto.randomUUID();
    scope[CHOOSER_GLOBAL] = chooserWorld(input, nonce);
    try {
      const answer = (await chrome.runtime.sendMessage({ type: "page.upload", nonce, paths })) as PageUploadAnswer | undefined;
      if (!answer || answer.ok !== true) throw new Error(answer?.ok === false ? answer.error : "the IDE window did not answer the upload");
    } finally {
      if (scope[CHOOSER_GLOBAL]?.nonce === nonce) delete scope[CHOOSER_GLOBAL];
    }
  },
};

// Injected twice (the window cannot tell whether an earlier injection is still there after a
// navigation), it must still answer each message once.
if (!scope[LOADED]) {
  scope[LOADED] = true;
  const running = new Set<AbortController>();
  const track = <T,>(work: (signal: AbortSignal) => Promise<T>, sendResponse: (answer: T) => void, onError: (error: unknown) => T) => {
    const controller = new AbortController();
    running.add(controller);
    work(controller.signal)
      .catch(onError)
      .then(sendResponse)
      .finally(() => running.delete(controller));
  };
  chrome.runtime.onMessage.addListener((value, sender, sendResponse) => {
    if (sender.id !== chrome.runtime.id) return false;
    const locate = readResolveLocator(value);
    if (locate) {
      sendResponse(resolveLocator(locate.location));
      return false;
    }
    const find = readFindLocator(value);
    if (find) {
      sendResponse(findInDocument(document, find.location, find.outline));
      return false;
    }
    const message = readToContent(value);
    if (!message) return false;
    if (message.type === "page.abort") {
      for (const controller of running) controller.abort();
      sendResponse(true);
      return false;
    }
    if (message.type === "page.command") {
      track<InPageAnswer>(
        (signal) => runInPage(window, message.request, signal, message.trusted ? windowInput : undefined),
        sendResponse,
        (error) => ({ state: "failed", message: `${message.request.command}: ${messageOf(error)}` }),
      );
      return true;
    }
    track<FrameLocateAnswer>(
      (signal) => locateFrame(message.location, message.implicitWaitMs, signal),
      sendResponse,
      (error) => ({ ok: false, error: messageOf(error) }),
    );
    return true;
  });
}
