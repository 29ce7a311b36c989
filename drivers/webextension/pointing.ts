/// <reference types="chrome" />
// Pointing at the page (CONTRACT section 21) in the extension, the IDE window's side: its
// PickInPage port (Select target in page, and the page-panel checks' core path) arms
// drivers/recorder/pick.ts in every frame of the tab under test and disarms it; the frame that
// takes a click tells the window (PICK_REPORT), whose report goes to the core as the host's does
// (ide.record). contextChecks.ts uses the same path for the tab's context menu.
import type { Ide } from "../../core/ide.ts";
import type { PickInPage } from "../../core/ports.ts";
import type { BuildOptions } from "../../services/locators/builders.ts";
import type { PickReport } from "../recorder/pick.ts";
import { coreReport } from "../recorder/report.ts";
import { RECORDER_SCRIPT } from "./recording.ts";
import { findTabUnderTest } from "./tabs.ts";

/** Where the content scripts' isolated world keeps a frame's pointing (pointingContent.ts). */
export const POINTING = "__ideCorePointing";
export const PICK_REPORT = "ide-core.pick.report";

export type PickReportMessage = { type: typeof PICK_REPORT; report: PickReport };

/** A frame's pointing, as pointingContent.ts gives it. */
export interface ContentPointing {
  arm(settings: BuildOptions): void;
  disarm(): void;
  contextTarget(settings: BuildOptions): PickReport;
}

/** Runs in the frame's isolated world (serialised by chrome.scripting: it names nothing outside). */
function armInFrame(name: string, settings: BuildOptions) {
  (globalThis as unknown as Record<string, ContentPointing | undefined>)[name]?.arm(settings);
}
function disarmInFrame(name: string) {
  (globalThis as unknown as Record<string, ContentPointing | undefined>)[name]?.disarm();
}
function contextTargetInFrame(name: string, settings: BuildOptions): PickReport | null {
  return (globalThis as unknown as Record<string, ContentPointing | undefined>)[name]?.contextTarget(settings) ?? null;
}

/** The element right-clicked in one frame of a tab, described (or why not). */
export async function contextTargetIn(tabId: number, frameId: number, settings: BuildOptions): Promise<PickReport> {
  const [result] = await chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, func: contextTargetInFrame, args: [POINTING, settings] });
  const report = result?.result as PickReport | null | undefined;
  return report ?? { pick: "failed", problem: "The page right-clicked cannot be pointed at by the extension (a browser page, or one it may not script); nothing was recorded." };
}

/**
 * The extension's PickInPage port. `follow(core)` gives it the core the reports go to (the core
 * is made with the port, so it comes after) and returns what stops following.
 */
export function pickInTabUnderTest(findTab: () => Promise<chrome.tabs.Tab | null> = findTabUnderTest) {
  let core: Ide | null = null;
  let armedTab: number | null = null;
  // Each arm and disarm moves it on: an arm overtaken while it awaited (a pick that ended at
  // once, as a context-menu check's does) arms nothing.
  let generation = 0;

  const pickInPage: PickInPage = async (arm) => {
    const mine = ++generation;
    if (!arm) {
      const tabId = armedTab;
      armedTab = null;
      if (tabId !== null) await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, func: disarmInFrame, args: [POINTING] }).catch(() => {});
      return;
    }
    const tab = await findTab();
    if (tab?.id === undefined) throw new Error("there is no browser tab under test (make the page the active tab of a browser window)");
    // Frames loaded before the extension have no content script yet; it never runs twice.
    await chrome.scripting.executeScript({ target: { tabId: tab.id, allFrames: true }, files: [RECORDER_SCRIPT] });
    if (mine !== generation || !core) return;
    armedTab = tab.id;
    const settings = { ...core.getSnapshot().recordingSettings };
    await chrome.scripting.executeScript({ target: { tabId: tab.id, allFrames: true }, func: armInFrame, args: [POINTING, settings] });
  };

  function follow(to: Ide): () => void {
    core = to;
    const onMessage = (value: unknown, sender: chrome.runtime.MessageSender) => {
      const message = value as Partial<PickReportMessage> | null;
      if (sender.id !== chrome.runtime.id || message?.type !== PICK_REPORT || !message.report) return false;
      const tabId = sender.tab?.id ?? null;
      if (tabId === null || tabId !== armedTab) return false;
      // One frame took the click: the others are disarmed as the pick ends (the core's port).
      to.record(coreReport(message.report, tabId));
      return false;
    };
    chrome.runtime.onMessage.addListener(onMessage);
    return () => chrome.runtime.onMessage.removeListener(onMessage);
  }

  return { pickInPage, follow };
}
