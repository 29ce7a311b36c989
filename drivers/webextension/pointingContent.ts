/// <reference types="chrome" />
// Pointing at the page (CONTRACT section 21) in the extension, the content script's side, in
// every frame (recorderContent.ts, the recorder's script, sets it up): the IDE window reaches it
// with chrome.scripting.executeScript in the content scripts' isolated world (POINTING), so no
// runtime.onMessage listener here answers, empty, the messages meant for content.js.
// - arm / disarm: drivers/recorder/pick.ts's pick in this frame; what it takes is told to the
//   window (PICK_REPORT), which hands it to the core as the host does.
// - contextTarget: the element the last right-click in this frame was on (remembered from the
//   trusted `contextmenu` event, the one Chrome's menu opens for), described as a pick describes
//   it, for a check chosen in the tab's context menu.
import type { BuildOptions } from "../../services/locators/builders.ts";
import { armPick, describeElement } from "../recorder/pick.ts";
import type { PickReport } from "../recorder/pick.ts";
import { framePath } from "../recorder/recorder.ts";
import { eventElement } from "../recorder/shadowRoots.ts";
import { POINTING, PICK_REPORT } from "./pointing.ts";
import type { ContentPointing, PickReportMessage } from "./pointing.ts";

/** Sets up this frame's side of pointing (once per document). */
export function setUpPointing(win: Window): void {
  let contextTarget: Element | null = null;
  let disarm: (() => void) | null = null;
  win.addEventListener(
    "contextmenu",
    (event) => {
      if (event.isTrusted) contextTarget = eventElement(event);
    },
    true,
  );
  const describe = (el: Element, settings: BuildOptions): PickReport => {
    try {
      const found = describeElement(el, settings, framePath(win));
      return "problem" in found ? { pick: "failed", problem: found.problem } : { pick: "picked", element: found };
    } catch (error) {
      return { pick: "failed", problem: `The element right-clicked could not be read (${error instanceof Error ? error.message : String(error)}); nothing was taken.` };
    }
  };
  const pointing: ContentPointing = {
    arm(settings) {
      disarm?.();
      disarm = armPick(
        win,
        (report) => {
          disarm = null;
          const message: PickReportMessage = { type: PICK_REPORT, report };
          // No answer is awaited: the window takes it or has gone (then nothing is pointed at).
          chrome.runtime.sendMessage(message).catch(() => {});
        },
        { settings: () => settings, frame: framePath(win) },
      );
    },
    disarm() {
      disarm?.();
      disarm = null;
    },
    contextTarget(settings) {
      const el = contextTarget;
      if (!el?.isConnected) return { pick: "failed", problem: "The element right-clicked is no longer in the page (or no right-click was seen in it); nothing was recorded. Right-click the element again." };
      return describe(el, settings);
    },
  };
  (globalThis as Record<string, unknown>)[POINTING] = pointing;
}
