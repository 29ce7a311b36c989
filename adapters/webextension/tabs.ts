/// <reference types="chrome" />
// Locators in the tab under test: the active tab of the browser window the user was last
// in (the IDE's own window is a popup, so it is never the one). The content script
// (content.ts) is put into the tab the first time a locator is asked for there, and again
// after a navigation has dropped it.
import { messageOf } from "../../services/errors.ts";
import { LocatorError } from "../../services/locators/index.ts";
import type { ResolveLocator, TabUnderTest } from "../ports.ts";
import type { ResolveLocatorAnswer, ResolveLocatorMessage } from "./messages.ts";

export const CONTENT_SCRIPT = "content.js";

async function tabUnderTest(location: string): Promise<chrome.tabs.Tab> {
  let tab: chrome.tabs.Tab | undefined;
  try {
    const window = await chrome.windows.getLastFocused({ windowTypes: ["normal"] });
    [tab] = await chrome.tabs.query({ active: true, windowId: window.id });
  } catch {
    tab = undefined;
  }
  if (tab?.id === undefined) {
    throw new LocatorError("NoPage", `There is no browser tab to resolve the locator ${JSON.stringify(location)} in.`);
  }
  return tab;
}

/** GET /record/tab (CONTRACT section 13): the tab under test's id, or null when there is none. */
export const tabUnderTestId: TabUnderTest = async () => {
  try {
    return { id: (await tabUnderTest("")).id! };
  } catch {
    return null;
  }
};

const noReceiver = (error: unknown) => /Receiving end does not exist|Could not establish connection/i.test(messageOf(error));

async function ask(tabId: number, message: ResolveLocatorMessage): Promise<ResolveLocatorAnswer> {
  return (await chrome.tabs.sendMessage(tabId, message)) as ResolveLocatorAnswer;
}

export const resolveInTabUnderTest: ResolveLocator = async (location) => {
  const tab = await tabUnderTest(location);
  const tabId = tab.id!;
  const message: ResolveLocatorMessage = { type: "locator.resolve", location };
  let answer: ResolveLocatorAnswer;
  try {
    answer = await ask(tabId, message);
  } catch (error) {
    if (!noReceiver(error)) throw new LocatorError("NoPage", `The tab under test did not answer: ${messageOf(error)}`);
    try {
      await chrome.scripting.executeScript({ target: { tabId }, files: [CONTENT_SCRIPT] });
    } catch (injectError) {
      const where = tab.url ? ` (${tab.url})` : "";
      throw new LocatorError(
        "NoPage",
        `The tab under test${where} cannot be searched for locators (${messageOf(injectError)}); ` +
          "make the page under test the active tab of a browser window.",
      );
    }
    answer = await ask(tabId, message);
  }
  if (answer?.ok === true) return answer.xpath;
  const failure = answer ?? { errorCode: "NoPage", error: "The tab under test gave no answer." };
  throw Object.assign(new Error(failure.error), { errorCode: failure.errorCode });
};
