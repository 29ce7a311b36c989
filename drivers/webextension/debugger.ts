/// <reference types="chrome" />
// Trusted input in the extension's tab under test (CONTRACT section 19): the IDE window holds
// the tab through chrome.debugger, asked for at a run's first page command, and sends the input
// events the in-page commands ask for (page/trusted.ts) as DevTools input, so `:hover` applies
// and the page sees `isTrusted` events, as in the host. While it is attached Chromium shows its
// "… started debugging this browser" bar: that bar is this (docs/extension.md says so). When the
// tab cannot be held (another debugger has it, the user pressed the bar's Cancel, a page the
// extension may not debug) the commands replay the input as DOM events instead, as before, and
// the next command's message says so, once per tab. Each send has a time limit.
// With `console` (runs keep traces), the held tab's console errors are heard too (DevTools'
// Runtime and Log events, read as the host reads them: drivers/traces/witness.ts), for a failed
// command's trace; a tab not held has none to tell. The held tab's file choosers are answered
// for `type` on a file input too (uploads.ts).
import { z } from "zod";
import { messageOf } from "../../services/errors.ts";
import { withTimeout } from "../../services/timeout.ts";
import { consoleErrors, errorOf } from "../traces/witness.ts";
import type { TabConsole } from "./camera.ts";
import { fileChooserAnswerer } from "./uploads.ts";

const PROTOCOL_VERSION = "1.3";
const ATTACH_LIMIT_MS = 5_000;
const INPUT_LIMIT_MS = 10_000;

/** What a content script asks the window: these input events sent to its tab. */
export const PageInputMessage = z.object({
  type: z.literal("page.input"),
  events: z
    .array(z.object({ method: z.enum(["Input.dispatchMouseEvent", "Input.dispatchKeyEvent", "Input.insertText"]), params: z.record(z.string(), z.unknown()) }))
    .max(100_000),
});
export type PageInputAnswer = { ok: true } | { ok: false; error: string };

export interface TrustedInputHost {
  /** Whether the tab's input can be trusted now: attaches at the first call for a tab (then kept); false when it cannot be held. */
  ready(tabId: number): Promise<boolean>;
  /** How many batches of input the tab was sent so far (one that failed too): whether a command acted before its document went away. */
  inputs(tabId: number): number;
  /** Why the tab's input stopped being trusted, once (then null): for the next command's message. */
  takeNote(tabId: number): string | null;
  /** Lets go of every tab (the window closes). */
  close(): void;
}

export interface DebuggerHold extends TrustedInputHost {
  /** The console errors heard in the tabs held (with `console`). */
  readonly console: TabConsole;
}

/** The window's hold on tabs through chrome.debugger; with `console`, hearing their console errors. */
export function debuggerInput(options: { console?: boolean } = {}): DebuggerHold {
  const held = new Map<number, Promise<boolean>>();
  /** The tabs whose Runtime.enable answered (what it replays of before is not heard), and what was heard. */
  const hearing = new Map<number, ReturnType<typeof consoleErrors>>();
  const notes = new Map<number, string>();
  const sent = new Map<number, number>();

  const onDetach = (source: chrome.debugger.Debuggee, reason: string) => {
    if (source.tabId === undefined) return;
    hearing.delete(source.tabId);
    if (reason !== "canceled_by_user") {
      held.delete(source.tabId);
      return;
    }
    // The user said no on the bar: not asked again for this tab.
    held.set(source.tabId, Promise.resolve(false));
    notes.set(source.tabId, "Trusted input was cancelled on Chromium's debugging bar, so the tab's clicks and keys are replayed as page events from now on.");
  };
  const onMessage = (value: unknown, sender: chrome.runtime.MessageSender, sendResponse: (answer: PageInputAnswer) => void) => {
    if (sender.id !== chrome.runtime.id) return false;
    const parsed = PageInputMessage.safeParse(value);
    const tabId = sender.tab?.id;
    if (!parsed.success || tabId === undefined) return false;
    void send(tabId, parsed.data.events).then(sendResponse);
    return true;
  };

  async function send(tabId: number, events: z.infer<typeof PageInputMessage>["events"]): Promise<PageInputAnswer> {
    if (!(await held.get(tabId))) return { ok: false, error: "the tab under test is not held for trusted input" };
    sent.set(tabId, (sent.get(tabId) ?? 0) + 1);
    try {
      // In order, without waiting for each: the browser takes them in order.
      await withTimeout(
        Promise.all(events.map((event) => chrome.debugger.sendCommand({ tabId }, event.method, event.params))),
        INPUT_LIMIT_MS,
        "the trusted input",
      );
      return { ok: true };
    } catch (error) {
      return { ok: false, error: `the browser refused the input: ${messageOf(error)}` };
    }
  }

  const onEvent = (source: chrome.debugger.Debuggee, method: string, params?: object) => {
    const heard = source.tabId === undefined ? undefined : hearing.get(source.tabId);
    const error = heard ? errorOf(method, params) : null;
    if (error !== null) heard!.hear(error);
  };

  async function listen(tabId: number) {
    try {
      await withTimeout(
        Promise.all([chrome.debugger.sendCommand({ tabId }, "Runtime.enable"), chrome.debugger.sendCommand({ tabId }, "Log.enable")]),
        ATTACH_LIMIT_MS,
        "hearing the tab's console",
      );
      if (!hearing.has(tabId)) hearing.set(tabId, consoleErrors());
    } catch {
      // Not heard: a failed command's trace has no console errors to tell.
    }
  }

  chrome.debugger.onDetach.addListener(onDetach);
  chrome.runtime.onMessage.addListener(onMessage);
  if (options.console) chrome.debugger.onEvent.addListener(onEvent);

  const hold: DebuggerHold = {
    ready(tabId) {
      let holding = held.get(tabId);
      if (!holding) {
        holding = withTimeout(chrome.debugger.attach({ tabId }, PROTOCOL_VERSION), ATTACH_LIMIT_MS, "holding the tab for trusted input").then(
          async () => {
            if (options.console) await listen(tabId);
            return true;
          },
          (error) => {
            notes.set(
              tabId,
              `The tab under test cannot be held for trusted input (${messageOf(error)}), so its clicks and keys are replayed as page events: mouseOver does not open menus that open on CSS :hover, and the page sees untrusted events.`,
            );
            return false;
          },
        );
        held.set(tabId, holding);
      }
      return holding;
    },
    inputs: (tabId) => sent.get(tabId) ?? 0,
    takeNote(tabId) {
      const note = notes.get(tabId) ?? null;
      notes.delete(tabId);
      return note;
    },
    console: {
      mark: (tabId) => hearing.get(tabId)?.mark() ?? 0,
      since: (tabId, mark) => hearing.get(tabId)?.since(mark) ?? [],
    },
    close() {
      uploads.close();
      chrome.debugger.onEvent.removeListener(onEvent);
      hearing.clear();
      chrome.debugger.onDetach.removeListener(onDetach);
      chrome.runtime.onMessage.removeListener(onMessage);
      for (const [tabId, holding] of held) void holding.then((attached) => {
        if (attached) chrome.debugger.detach({ tabId }).catch(() => {});
      });
      held.clear();
    },
  };
  // Made before any tab is held, so it hears the execution contexts the console's Runtime.enable reports.
  const uploads = fileChooserAnswerer({ ready: (tabId) => hold.ready(tabId), keepsRuntime: options.console === true });
  return hold;
}
