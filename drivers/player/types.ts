// The shapes between the IDE window and the in-page commands (the pinned interface of
// /work/briefs/page-commands-interface.md), and the context every command handler gets.
import type { StrategyDeclaration } from "../../services/locators/templates.ts";

/** What the IDE window asks the content script in the tab under test (one frame) to do. */
export interface InPageRequest {
  /** As in the .side file, e.g. "click", "assertText". */
  command: string;
  /** `${...}` already replaced by the window (variables of the run). */
  target: string;
  /** `${...}` already replaced; `${KEY_ENTER}` etc. became WebDriver's key code points (U+E000 block). */
  value: string;
  /** The command's alternative locators, tried in order after `target` when it matches nothing. */
  targets: string[];
  /** How long to wait for an element (Selenium's implicit wait). */
  implicitWaitMs: number;
  /** The recorded element's fingerprint (CONTRACT section 18), as the .side file keeps it: relocation's last resort. */
  fingerprint?: unknown;
  /** The run's declared strategies that name an attribute (CONTRACT section 23): relocation may give one as the element's new locator. */
  strategies?: StrategyDeclaration[];
  /** false: the actionability waits (actionable.ts) are skipped, only to measure what they cost. */
  actionWaits?: false;
}

/**
 * The answer. Never thrown across the message boundary: every problem is an answer. `navigating`:
 * the command started a navigation of its document (navigating.ts), which the caller waits for.
 */
export type InPageAnswer =
  | { state: "passed"; message?: string; stored?: { name: string; value: unknown }; healed?: Healed; navigating?: true }
  | { state: "failed"; message: string }
  | { state: "unsupported"; message: string };

/** One DevTools input event (`Input.dispatchMouseEvent`, `Input.dispatchKeyEvent`, `Input.insertText`) and its parameters. */
export interface InputEvent {
  method: "Input.dispatchMouseEvent" | "Input.dispatchKeyEvent" | "Input.insertText";
  params: Record<string, unknown>;
}

/**
 * Trusted input for the page (CONTRACT section 19): the events are sent by whoever holds the
 * browser's DevTools (the host over its connection, the extension through chrome.debugger), so
 * the browser treats them as a user's (`:hover` applies, `isTrusted` is true, defaults run).
 */
export interface TrustedInput {
  /** Sends the events in order; resolves once the browser took the last. Coordinates are the top window's viewport's. */
  send(events: InputEvent[]): Promise<void>;
  /** Where this window's viewport sits in the top window's (0, 0 in the top window); null when that cannot be told (a cross-origin frame). */
  offset(win: Window): { x: number; y: number } | null;
  /**
   * Chooses `paths` (absolute, one or more) for a file input as a user does in its file chooser,
   * where the holder can answer the chooser (the extension: drivers/webextension/uploads.ts);
   * rejects, having changed nothing, with a message naming what is wrong. Absent: the host's
   * WebDriver sets the files (drivers/host/fileUpload.ts).
   */
  chooseFiles?(input: HTMLInputElement, paths: string[]): Promise<void>;
}

/** How a command's element was found when not by its target (CONTRACT section 18): the locator that worked and its score in 0..1 (1 for one of `targets`). */
export interface Healed {
  locator: string;
  score: number;
  /** The element's fingerprint as it is now, which accepting the healed locator keeps (CONTRACT section 18). */
  fingerprint?: unknown;
}

/** What a command handler works with. */
export interface CommandContext {
  win: Window;
  request: InPageRequest;
  signal?: AbortSignal;
  /** Trusted input, where the page has it; without it a user's input is replayed as DOM events. */
  input?: TrustedInput;
  /** Set by the element wait when something other than the target found the element. */
  healed?: Healed;
}

/** A command done in the page: resolves with an answer (or nothing for a plain pass), throws CommandFailure. */
export type CommandHandler = (context: CommandContext) => Promise<InPageAnswer | void>;
