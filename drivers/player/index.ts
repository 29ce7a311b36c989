// The one player (CONTRACT section 19): Selenium IDE's page commands against the live DOM of
// one frame, run inside the page under test. Both sides play with it, so it lives in a room of
// its own that neither owns: the extension's content script (drivers/webextension/content.ts)
// runs it in the tab under test for the IDE window, and the host puts it into an isolated world
// of the page it drives (hostEntry.ts here, driven over DevTools by
// drivers/host/devtoolsPlayer.ts). It imports only services/, never either side. The interface is pinned in /work/briefs/page-commands-interface.md:
// runInPage(window, request, signal) answers passed (with what a store command stored), failed
// (an assertion that does not hold, an element not found within the wait, bad input) or
// unsupported (a command this side does not do), and never throws.
//
// Layout: find.ts (locating, the implicit wait), actions.ts (mouse, keyboard, forms),
// assertions.ts (assert/verify, store), waits.ts (waitFor*), keys.ts (WebDriver's keys),
// keyboard.ts / editing.ts / mouse.ts / focus.ts (a user's input as DOM events), dom.ts (what
// WebDriver reads from an element), trusted.ts (the same input as trusted DevTools events, where
// the caller gives TrustedInput: the host over DevTools, the extension through chrome.debugger).
// Nothing here may import Node: it is bundled into the content script and the host's player
// (hostEntry.ts, with hostNames.ts, the names it shares with its driver in Node).
import { ACTIONS } from "./actions.ts";
import { READS } from "./assertions.ts";
import { CommandAborted, CommandFailure, NotPlayableHere } from "./errors.ts";
import { waitForElement } from "./find.ts";
import { watchNavigation } from "./navigating.ts";
import type { CommandContext, CommandHandler, InPageAnswer, InPageRequest, TrustedInput } from "./types.ts";
import { WAITS } from "./waits.ts";
import { messageOf } from "../../services/errors.ts";

export type { Healed, InPageAnswer, InPageRequest, InputEvent, TrustedInput } from "./types.ts";
export { KEY_VARIABLES } from "./keys.ts";
export { MAX_WAIT_MS } from "./find.ts";

const HANDLERS: Readonly<Record<string, CommandHandler>> = Object.freeze({ ...ACTIONS, ...READS, ...WAITS });

/** Whether a command changes the page; one that only reads (assert, verify, store, waitFor) may be sent again to a new document. */
export const actsOnPage = (command: string): boolean => !/^(assert|verify|store|waitFor)/.test(command);

/** The commands done in the page (the window does open, executeScript, selectFrame, setWindowSize, and conditions). */
export const IN_PAGE_COMMANDS: ReadonlySet<string> = new Set(Object.keys(HANDLERS));

function badRequest(request: unknown): string | null {
  const r = request as Partial<InPageRequest> | null;
  if (!r || typeof r !== "object") return "The page command request is not an object.";
  for (const key of ["command", "target", "value"] as const) {
    if (typeof r[key] !== "string") return `The page command request's ${key} is not a string.`;
  }
  if (!Array.isArray(r.targets) || r.targets.some((t) => typeof t !== "string")) return "The page command request's targets are not a list of locators.";
  if (typeof r.implicitWaitMs !== "number" || !(r.implicitWaitMs >= 0)) return "The page command request's implicitWaitMs is not a number of milliseconds.";
  return null;
}

/** Runs one command against this window's document. `signal` aborts a wait; `input`, where given, makes the user's input trusted. */
export async function runInPage(win: Window, request: InPageRequest, signal?: AbortSignal, input?: TrustedInput): Promise<InPageAnswer> {
  const bad = badRequest(request);
  if (bad) return { state: "failed", message: bad };
  const handler = Object.hasOwn(HANDLERS, request.command) ? HANDLERS[request.command] : undefined;
  if (!handler) {
    return { state: "unsupported", message: `The command ${request.command || "(empty)"} is not one the tab under test does.` };
  }
  // A command that acts may start a navigation (navigating.ts): its answer says so, and the
  // caller waits for the next document before the next command.
  const navigation = actsOnPage(request.command) ? watchNavigation(win) : null;
  try {
    const context: CommandContext = { win, request, signal, input };
    let answer = (await handler(context)) ?? { state: "passed" };
    if (answer.state === "passed" && context.healed) answer = { ...answer, healed: context.healed };
    if (answer.state === "passed" && navigation) {
      await navigation.settle();
      if (navigation.started()) answer = { ...answer, navigating: true };
    }
    return answer;
  } catch (error) {
    if (error instanceof CommandFailure) return { state: "failed", message: error.message };
    if (error instanceof CommandAborted) return { state: "failed", message: error.message };
    if (error instanceof NotPlayableHere) return { state: "unsupported", message: error.message };
    return { state: "failed", message: `${request.command} failed in the page: ${messageOf(error)}` };
  } finally {
    navigation?.stop();
  }
}

/**
 * The element `target` (then each of `targets`) matches in `win`, waited for up to
 * `implicitWaitMs`; for the window's own uses (a frame to select). Fails as runInPage does.
 */
export async function locateInPage(
  win: Window,
  location: { target: string; targets?: string[]; implicitWaitMs: number },
  signal?: AbortSignal,
): Promise<{ ok: true; element: Element } | { ok: false; message: string }> {
  try {
    const request: InPageRequest = { command: "locate", target: location.target, value: "", targets: location.targets ?? [], implicitWaitMs: location.implicitWaitMs };
    return { ok: true, element: await waitForElement({ win, request, signal }) };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}
