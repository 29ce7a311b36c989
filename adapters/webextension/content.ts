/// <reference types="chrome" />
// The content script, put into the tab under test by the IDE window when it first needs a
// locator there (tabs.ts). It resolves locators with the project's own resolver
// (services/locators/) against the page's live document, so the browser's own CSS and XPath
// engines check every xpath it gives.
import { messageOf } from "../../services/errors.ts";
import { resolveInDocument } from "../../services/locators/index.ts";
import { readResolveLocator } from "./messages.ts";
import type { ResolveLocatorAnswer } from "./messages.ts";

const LOADED = "__ideCoreContentScript";
const scope = globalThis as typeof globalThis & { [LOADED]?: true };

// Injected twice (the window cannot tell whether an earlier injection is still there after a
// navigation), it must still answer each message once.
if (!scope[LOADED]) {
  scope[LOADED] = true;
  chrome.runtime.onMessage.addListener((value, sender, sendResponse) => {
    if (sender.id !== chrome.runtime.id) return false;
    const request = readResolveLocator(value);
    if (!request) return false;
    let answer: ResolveLocatorAnswer;
    try {
      answer = { ok: true, xpath: resolveInDocument(document, request.location) };
    } catch (error) {
      const code = (error as { errorCode?: unknown }).errorCode;
      answer = {
        ok: false,
        errorCode: typeof code === "string" ? code : "ElementNotFound",
        error: messageOf(error),
      };
    }
    sendResponse(answer);
    return false;
  });
}
