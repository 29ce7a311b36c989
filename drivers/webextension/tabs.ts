/// <reference types="chrome" />
// The tab under test: the active tab of the browser window the user was last in (the IDE's
// own window is a popup, so it is never the one). The content script (content.ts) is put
// into a frame of it the first time the window needs it there, and again after a navigation
// has dropped it. Locators resolve there (in the run's tab and frame while a run has them);
// runs play there (tabPage.ts).
import { messageOf } from "../../services/errors.ts";
import { LocatorError } from "../../services/locators/index.ts";
import type { ResolveLocator, TabUnderTest } from "../../core/ports.ts";
import type { ResolveLocatorAnswer, ResolveLocatorMessage } from "./messages.ts";

export const CONTENT_SCRIPT = "content.js";

/** A tab and frame of it that the window talks to. */
export interface TabTarget {
  tabId: number;
  windowId: number;
  frameId: number;
}

/**
 * The active tab of the last focused browser window, or null when there is none, or when it
 * is the IDE's own page (ide.html opened in a tab by hand): the IDE never plays on itself.
 */
export async function findTabUnderTest(): Promise<chrome.tabs.Tab | null> {
  try {
    const window = await chrome.windows.getLastFocused({ windowTypes: ["normal"] });
    const [tab] = await chrome.tabs.query({ active: true, windowId: window.id });
    if (tab?.id === undefined) return null;
    const own = chrome.runtime?.getURL?.("");
    return own && tab.url?.startsWith(own) ? null : tab;
  } catch {
    return null;
  }
}

/** Chromium's rejection when no content script listens in that frame (none yet, or a navigation dropped it). */
export const isNoReceiver = (error: unknown) => /Receiving end does not exist|Could not establish connection/i.test(messageOf(error));

/** Chromium's rejection when the frame's document went away before it answered (a navigation, a closed tab). */
export const isPortClosed = (error: unknown) => /message port closed|message channel closed|back\/forward cache/i.test(messageOf(error));

/** Chromium's rejection when a tab is closed. */
export const isNoTab = (error: unknown) => /No tab with id/i.test(messageOf(error));

/** Chromium's rejection when a frame is not there any more. */
export const isNoFrame = (error: unknown) => /No frame with id|Frame with ID \d+ (was removed|is showing error page)|frame was removed/i.test(messageOf(error));

/** Puts the content script into one frame of a tab. Rejects with Chromium's reason (a page the extension may not script). */
export async function injectContentScript(tabId: number, frameId: number): Promise<void> {
  await chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files: [CONTENT_SCRIPT] });
}

/** Sends to the content script of one frame, putting it there first when none listens. */
export async function askContentScript<T>(target: TabTarget, message: unknown): Promise<T> {
  try {
    return (await chrome.tabs.sendMessage(target.tabId, message, { frameId: target.frameId })) as T;
  } catch (error) {
    if (!isNoReceiver(error)) throw error;
    await injectContentScript(target.tabId, target.frameId);
    return (await chrome.tabs.sendMessage(target.tabId, message, { frameId: target.frameId })) as T;
  }
}

/** GET /record/tab (CONTRACT section 13): the run's tab while a run has one, else the tab under test; null when there is none. */
export function tabUnderTestId(current: () => TabTarget | null = () => null): TabUnderTest {
  return async () => {
    const target = current();
    if (target) return { id: target.tabId };
    const tab = await findTabUnderTest();
    return tab ? { id: tab.id! } : null;
  };
}

/**
 * GET /playback/location in the tab under test. `current` gives the run's tab and frame while
 * a run has them, so a plugin resolves where the run plays; else the active tab is looked up.
 */
export function locatorsInTabUnderTest(current: () => TabTarget | null = () => null): ResolveLocator {
  return async (location) => {
    let target = current();
    let url: string | undefined;
    if (!target) {
      const tab = await findTabUnderTest();
      if (!tab) throw new LocatorError("NoPage", `There is no browser tab to resolve the locator ${JSON.stringify(location)} in.`);
      target = { tabId: tab.id!, windowId: tab.windowId, frameId: 0 };
      url = tab.url;
    }
    const message: ResolveLocatorMessage = { type: "locator.resolve", location };
    let answer: ResolveLocatorAnswer;
    try {
      answer = await askContentScript<ResolveLocatorAnswer>(target, message);
    } catch (error) {
      if (isNoReceiver(error) || isPortClosed(error)) throw new LocatorError("NoPage", `The tab under test did not answer: ${messageOf(error)}`);
      const where = url ? ` (${url})` : "";
      throw new LocatorError(
        "NoPage",
        `The tab under test${where} cannot be searched for locators (${messageOf(error)}); ` +
          "make the page under test the active tab of a browser window.",
      );
    }
    if (answer?.ok === true) return answer.xpath;
    const failure = answer ?? { errorCode: "NoPage", error: "The tab under test gave no answer." };
    throw Object.assign(new Error(failure.error), { errorCode: failure.errorCode });
  };
}

/** The active tab's locators, as before runs had a tab of their own. */
export const resolveInTabUnderTest: ResolveLocator = locatorsInTabUnderTest();
