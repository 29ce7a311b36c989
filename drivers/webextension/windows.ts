/// <reference types="chrome" />
// Windows in the extension's runs (CONTRACT section 19): a window handle is the tab's id, as
// text. A command with v3's `opensWindow` waits for the tab it opened and stores that tab's
// handle in `windowHandleName`; `storeWindowHandle` stores the run's tab; `selectWindow
// handle=H` makes tab H the run's (its top frame); `close` closes the run's tab, after which
// only a selectWindow can go on. Every wait has a limit.
import { messageOf } from "../../services/errors.ts";
import type { PageOutcome } from "../../machines/testRunner.types.ts";
import type { TabTarget } from "./tabs.ts";

/** How long a command with opensWindow waits for its tab (side-runtime's default). */
export const WINDOW_TIMEOUT_MS = 2_000;

const failed = (message: string): PageOutcome => ({ state: "failed", message });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The ids of every tab now: what a command with opensWindow compares against. */
export async function tabIds(): Promise<Set<number>> {
  return new Set((await chrome.tabs.query({})).flatMap((tab) => (tab.id === undefined ? [] : [tab.id])));
}

/**
 * The tab a command opened: a tab not in `before`, the one `opener` opened first if there is
 * one; null when none came within `timeoutMs`.
 */
export async function newTab(before: Set<number>, opener: number, timeoutMs = WINDOW_TIMEOUT_MS): Promise<chrome.tabs.Tab | null> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const fresh = (await chrome.tabs.query({})).filter((tab) => tab.id !== undefined && !before.has(tab.id));
    const found = fresh.find((tab) => tab.openerTabId === opener) ?? fresh[0];
    if (found) return found;
    if (Date.now() >= until) return null;
    await sleep(50);
  }
}

/** A passed command that opened a window: `name` holds the new tab's handle. */
export async function storeOpenedWindow(outcome: PageOutcome, before: Set<number>, target: TabTarget, name: string): Promise<PageOutcome> {
  if (outcome.state !== "passed") return outcome;
  const tab = await newTab(before, target.tabId);
  if (!tab) return failed(`The command was to open a window (opensWindow), but no new tab opened within ${WINDOW_TIMEOUT_MS} ms.`);
  return { ...outcome, variables: { ...outcome.variables, [name]: String(tab.id) } };
}

/** `handle=H`: tab H becomes the run's, in its top frame. */
export async function selectWindow(target: TabTarget, text: string): Promise<PageOutcome> {
  const match = /^handle=(\d+)$/.exec(text.trim());
  if (!match) {
    return failed(`selectWindow needs handle=HANDLE (a stored window handle, as handle=\${win_ser_1}); got ${JSON.stringify(text)}.`);
  }
  const tabId = Number(match[1]);
  let tab: chrome.tabs.Tab;
  try {
    tab = await chrome.tabs.get(tabId);
  } catch {
    return failed(`selectWindow: no open window has the handle ${tabId} (was it closed?).`);
  }
  // In place, as open and selectFrame change it: the run goes on in that tab's top frame.
  target.tabId = tabId;
  target.windowId = tab.windowId;
  target.frameId = 0;
  try {
    await chrome.tabs.update(tabId, { active: true });
  } catch {
    // Shown or not, the tab is the run's.
  }
  return { state: "passed" };
}

/** The run's tab is closed; the run stays on it, so the next command but selectWindow finds no page. */
export async function closeWindow(target: TabTarget): Promise<PageOutcome> {
  try {
    await chrome.tabs.remove(target.tabId);
  } catch (error) {
    return failed(`close: ${messageOf(error)}`);
  }
  return { state: "passed" };
}

/** storeWindowHandle VAR: the run's tab's handle. */
export function storeWindowHandle(target: TabTarget, name: string): PageOutcome {
  if (!name) return failed("storeWindowHandle needs the name of the variable to store the handle in.");
  return { state: "passed", variables: { [name]: String(target.tabId) } };
}
