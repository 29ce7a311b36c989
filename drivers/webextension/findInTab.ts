/// <reference types="chrome" />
// "Find target in page" and the alternative locators' counts (CONTRACT section 21) in the tab
// under test: the content script (content.ts) counts with drivers/findInPage/ in the run's tab
// and frame while a run has them, else in the top frame of the active tab, and outlines the
// first match there for 2 s when asked to.
import { messageOf } from "../../services/errors.ts";
import { LocatorError } from "../../services/locators/index.ts";
import type { FindInPage } from "../../core/ports.ts";
import type { FindAnswer } from "../findInPage/index.ts";
import type { FindLocatorMessage } from "./messages.ts";
import { askContentScript, findTabUnderTest, isNoReceiver, isPortClosed } from "./tabs.ts";
import type { TabTarget } from "./tabs.ts";

export function findInTabUnderTest(current: () => TabTarget | null = () => null): FindInPage {
  return async (location, outline) => {
    let target = current();
    let url: string | undefined;
    if (!target) {
      const tab = await findTabUnderTest();
      if (!tab) throw new LocatorError("NoPage", "No page is open: there is no browser tab to look in (make the page under test the active tab of a browser window).");
      target = { tabId: tab.id!, windowId: tab.windowId, frameId: 0 };
      url = tab.url;
    }
    const message: FindLocatorMessage = { type: "locator.find", location, outline };
    let answer: FindAnswer | undefined;
    try {
      answer = await askContentScript<FindAnswer>(target, message);
    } catch (error) {
      if (isNoReceiver(error) || isPortClosed(error)) throw new LocatorError("NoPage", `The tab under test did not answer: ${messageOf(error)}`);
      throw new LocatorError(
        "NoPage",
        `The tab under test${url ? ` (${url})` : ""} cannot be searched (${messageOf(error)}); make the page under test the active tab of a browser window.`,
      );
    }
    if (answer?.ok === true) return { count: answer.count, shown: answer.shown };
    throw new LocatorError(answer?.errorCode ?? "NoPage", answer?.error ?? "The tab under test gave no answer.");
  };
}
