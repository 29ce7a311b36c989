/// <reference types="chrome" />
// Checks from the tab's context menu while recording (CONTRACT section 21), as Selenium IDE v3
// had them: the eight items are in the browser's context menu from the start of a recording to
// its end, and the one chosen records that check for the element right-clicked. The element is
// the one the frame's content script saw the `contextmenu` event on (pointingContent.ts), told
// by that frame (Chrome's click names the tab and frame). It reaches the core on the pick's one
// path: the check is picked (user.pickCheck) and the element is the pick's report (ide.record),
// so the pointing and recording machines record it as the page panel's check, plugins told.
// The right-click itself records nothing: the recorder records no right button.
import type { Ide } from "../../core/ide.ts";
import { CHECKS } from "../../services/recording/checks.ts";
import type { CheckCommand } from "../../services/recording/checks.ts";
import { coreReport } from "../recorder/report.ts";
import { contextTargetIn } from "./pointing.ts";

const ITEM_PREFIX = "ide-core-check-";

/** The item's id for a check, and back. */
const itemId = (command: CheckCommand) => `${ITEM_PREFIX}${command}`;
const commandOf = (id: string | number): CheckCommand | null => CHECKS.find((c) => itemId(c.command) === String(id))?.command ?? null;

export interface ContextChecks {
  /** What Chrome's onClicked calls (tests call it the same way: Chrome's own menu cannot be clicked from DevTools). */
  clicked(info: chrome.contextMenus.OnClickData, tab?: chrome.tabs.Tab): Promise<void>;
  /** The ids of the items in the menu now. */
  items(): string[];
  stop(): void;
}

/** Keeps the checks in the context menu while `core` records; returns the handler and the items shown. */
export function checksInContextMenu(core: Ide): ContextChecks {
  let recording = false;
  let shown: string[] = [];
  // Each change of the menu waits for the one before: a short recording's removal never overtakes its creation.
  let menu: Promise<void> = Promise.resolve();
  const change = (step: () => Promise<void>) => {
    menu = menu.then(step).catch((error: unknown) => console.error(`The context menu's checks could not be changed: ${error instanceof Error ? error.message : String(error)}`));
  };
  const show = () =>
    change(async () => {
      await chrome.contextMenus.removeAll();
      for (const { command, label } of CHECKS) {
        await new Promise<void>((resolve, reject) =>
          chrome.contextMenus.create({ id: itemId(command), title: label, contexts: ["all"] }, () => {
            const error = chrome.runtime.lastError;
            if (error) reject(new Error(error.message));
            else resolve();
          }),
        );
      }
      shown = CHECKS.map((c) => itemId(c.command));
    });
  const hide = () =>
    change(async () => {
      await chrome.contextMenus.removeAll();
      shown = [];
    });

  const subscription = core.subscribe((view) => {
    const now = view.recording !== null;
    if (now === recording) return;
    recording = now;
    if (now) show();
    else hide();
  });

  async function clicked(info: chrome.contextMenus.OnClickData, tab?: chrome.tabs.Tab) {
    const command = commandOf(info.menuItemId);
    if (!command) return;
    const tabId = tab?.id;
    if (!recording || tabId === undefined) {
      core.send({ type: "user.pickCheck", command });
      return;
    }
    const report = await contextTargetIn(tabId, info.frameId ?? 0, { ...core.getSnapshot().recordingSettings }).catch((error: unknown) => ({
      pick: "failed" as const,
      problem: `The element right-clicked could not be read (${error instanceof Error ? error.message : String(error)}); nothing was recorded.`,
    }));
    // The pick's one path: picking the check, then its report (the arm the pick asks for is overtaken and arms nothing).
    core.send({ type: "user.pickCheck", command });
    core.record(coreReport(report, tabId));
  }

  const onClicked = (info: chrome.contextMenus.OnClickData, tab?: chrome.tabs.Tab) => void clicked(info, tab);
  chrome.contextMenus.onClicked.addListener(onClicked);
  // A window that went mid-recording left its items: they go as the next window starts.
  hide();
  return {
    clicked,
    items: () => [...shown],
    stop() {
      subscription.unsubscribe();
      chrome.contextMenus.onClicked.removeListener(onClicked);
      hide();
    },
  };
}
