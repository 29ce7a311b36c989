/// <reference types="chrome" />
// The extension's page under test (the executor port of core/ports.ts): the tab under
// test, through the content script and the tabs and scripting APIs. A run's first page
// command (or its start, when the window sees it) picks the tab, the active tab of the
// browser window the user was last in, and the run keeps that tab, and the frame selectFrame
// chose, to its end.
//
// What goes where:
// - the page commands of the one player (drivers/player/: click, type, assert*, store*, ...) go to the content script
//   in the selected frame as { type: "page.command", request }, with `${...}` replaced here;
//   the content script is put back after a navigation dropped it;
// - open, executeScript, executeAsyncScript, runScript, the conditions, selectFrame,
//   setWindowSize, and assert/verify of a variable are done here (navigation.ts, scripts.ts,
//   frames.ts); selectWindow, close, storeWindowHandle and v3's opensWindow too (windows.ts);
// - anything else is `failed`, naming the command.
// A closed tab, or one that shows a page the extension may not script, rejects with
// PageGoneError, so the run ends `fatal` saying what to do. Every wait has a limit.
import type { Executor, PageIds } from "../../core/ports.ts";
import type { PageOutcome } from "../../machines/testRunner.types.ts";
import { messageOf } from "../../services/errors.ts";
import { unknownCommand } from "../../services/playback/unknownCommand.ts";
import { interpolate, interpolateCondition, readVariable } from "../../services/playback/variables.ts";
import { inPageRequest } from "../player/request.ts";
import { parseWindowSize } from "./commandText.ts";
import { selectFrame } from "./frames.ts";
import { readInPageAnswer } from "./messages.ts";
import type { PageAbortMessage, PageCommandMessage } from "./messages.ts";
import { abortable, FRAME_GONE, navigate, NO_TAB, pageGone, PageGoneError, settled, watchLoads } from "./navigation.ts";
import { actsOnPage as acts, IN_PAGE_COMMANDS, KEY_VARIABLES } from "../player/index.ts";
import type { InPageAnswer } from "../player/index.ts";
import { runScript } from "./scripts.ts";
import type { ScriptMode } from "./scripts.ts";
import { askContentScript, findTabUnderTest, isNoFrame, isNoReceiver, isPortClosed } from "./tabs.ts";
import type { TabTarget } from "./tabs.ts";
import { closeWindow, selectWindow, storeOpenedWindow, storeWindowHandle, tabIds } from "./windows.ts";
import type { TrustedInputHost } from "./debugger.ts";

export { PageGoneError };

export interface TabPageOptions {
  /** Selenium IDE's implicit wait for elements (default 5,000 ms, as there). */
  implicitWaitMs?: number;
  /** How long `open`, and a page still loading before a command, may take (default 30,000 ms). */
  loadTimeoutMs?: number;
  /** How long executeAsyncScript's promise may take (default 30,000 ms, WebDriver's script timeout). */
  scriptTimeoutMs?: number;
  /** The window's hold on tabs for trusted input (debugger.ts); without it input is replayed as page events. */
  trustedInput?: TrustedInputHost;
}

export interface TabPage extends Executor {
  /** A run started: its tab is picked now, so plugin commands before any page command get its ids. */
  beginRun(runId: string): void;
  /** The run's tab and frame, while a run has one (locators resolve there). */
  current(): TabTarget | null;
}

const SCRIPT_MODES: Readonly<Record<string, ScriptMode>> = { executeScript: "sync", runScript: "sync", executeAsyncScript: "async" };
const OPEN_SCHEMES = new Set(["http:", "https:", "file:", "about:"]);
/** How often a page command is sent again when the frame's document went away before answering (a navigation). */
const RESENDS = 3;


const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const failed = (message: string): PageOutcome => ({ state: "failed", message });

export function tabPage(options: TabPageOptions = {}): TabPage {
  const implicitWaitMs = options.implicitWaitMs ?? 5_000;
  const loadTimeoutMs = options.loadTimeoutMs ?? 30_000;
  const scriptTimeoutMs = options.scriptTimeoutMs ?? 30_000;
  /** The run's tab: `target` is changed in place by open and selectFrame. */
  let run: { runId: string; target: TabTarget | null; picking: Promise<TabTarget | null> } | null = null;

  function pick(runId: string): Promise<TabTarget | null> {
    const picking = findTabUnderTest().then((tab) => {
      const target = tab ? { tabId: tab.id!, windowId: tab.windowId, frameId: 0 } : null;
      if (run?.runId === runId && run.picking === picking) run.target = target;
      return target;
    });
    run = { runId, target: null, picking };
    return picking;
  }

  async function tabFor(runId: string | undefined): Promise<TabTarget> {
    const key = runId ?? "";
    if (run?.runId !== key) pick(key);
    const target = run!.target ?? (await run!.picking) ?? (await pick(key));
    if (!target) throw new PageGoneError(NO_TAB);
    return target;
  }

  async function sendToPage(target: TabTarget, message: PageCommandMessage, signal: AbortSignal): Promise<InPageAnswer> {
    const abort: PageAbortMessage = { type: "page.abort" };
    for (let attempt = 0; ; attempt++) {
      await settled(target.tabId, loadTimeoutMs, signal);
      const loads = acts(message.request.command) ? watchLoads(target.tabId) : null;
      const inputsBefore = options.trustedInput?.inputs(target.tabId) ?? 0;
      try {
        const raw = await abortable(askContentScript<unknown>(target, message), signal, () => {
          chrome.tabs.sendMessage(target.tabId, abort, { frameId: target.frameId }).catch(() => {});
        });
        const answer = readInPageAnswer(raw) ?? { state: "failed", message: `The tab under test gave no usable answer to ${message.request.command}.` };
        // A navigation the command started (the page said so, or the tab started loading) is
        // over before the next command: a form post whose answer is slow leaves the old
        // document "complete" meanwhile (issue 27).
        if (loads && answer.state === "passed" && (answer.navigating || loads.started())) await loads.over(loadTimeoutMs, signal);
        return answer;
      } catch (error) {
        if (signal.aborted) throw error;
        if (isNoFrame(error)) return { state: "failed", message: FRAME_GONE };
        // The page took a command that acts (a click, a key) and went away before answering:
        // the navigation is that command's effect, as WebDriver reports it. Sending it again
        // to the new page would click or type twice. With trusted input the window knows
        // whether the command sent any: one that went away still waiting for its element
        // (a script navigated meanwhile) acted on nothing and is sent to the new page.
        if (isPortClosed(error) && acts(message.request.command) && (!message.trusted || options.trustedInput!.inputs(target.tabId) > inputsBefore)) return { state: "passed" };
        // Nothing received it, or a command that only reads went with its document: the new
        // document is asked.
        if ((isPortClosed(error) || isNoReceiver(error)) && attempt < RESENDS) {
          await sleep(50);
          continue;
        }
        if (isPortClosed(error) || isNoReceiver(error)) {
          return { state: "failed", message: `The tab under test did not answer ${message.request.command}: ${messageOf(error)}` };
        }
        throw await pageGone(target, error);
      } finally {
        loads?.stop();
      }
    }
  }

  async function pageCommand(target: TabTarget, input: Parameters<Executor["execute"]>[0], signal: AbortSignal): Promise<PageOutcome> {
    const { command, variables } = input;
    if (!IN_PAGE_COMMANDS.has(command.command)) {
      return failed(
        command.command === ""
          ? "The command has no name."
          : unknownCommand(command.command, "the browser extension cannot play it in the tab under test"),
      );
    }
    const prepared = inPageRequest(command, variables, KEY_VARIABLES, implicitWaitMs, input.strategies);
    if (!prepared.ok) return failed(prepared.message);
    const trusted = options.trustedInput ? await options.trustedInput.ready(target.tabId) : false;
    const answer = await sendToPage(target, { type: "page.command", request: prepared.request, trusted }, signal);
    const note = options.trustedInput?.takeNote(target.tabId) ?? null;
    if (answer.state === "unsupported") return failed(`The browser extension cannot play ${command.command}: ${answer.message}${note ? ` (${note})` : ""}`);
    if (answer.state === "failed") return failed(note ? `${answer.message} (${note})` : answer.message);
    const outcome: PageOutcome = { state: "passed" };
    if (answer.message !== undefined || note) outcome.message = [answer.message, note].filter(Boolean).join(" ");
    if (answer.stored) outcome.variables = { [answer.stored.name]: answer.stored.value };
    if (answer.healed) outcome.healed = answer.healed;
    return outcome;
  }

  async function open(target: TabTarget, where: string, baseUrl: string, signal: AbortSignal): Promise<PageOutcome> {
    let url: URL;
    try {
      url = baseUrl ? new URL(where, baseUrl) : new URL(where);
    } catch {
      return failed(
        `open: ${JSON.stringify(where)} is not an address${baseUrl ? ` relative to ${baseUrl}` : ", and the project has no url to resolve it against"}.`,
      );
    }
    if (!OPEN_SCHEMES.has(url.protocol)) return failed(`open goes to http, https, file and about: addresses only, not ${url.href}.`);
    let late: string | null;
    try {
      late = await navigate(target.tabId, url.href, loadTimeoutMs, signal);
    } catch (error) {
      if (error instanceof PageGoneError || signal.aborted) throw error;
      return failed(`open ${url.href}: ${messageOf(error)}`);
    }
    // As WebDriver does, a navigation selects the top frame again.
    target.frameId = 0;
    return late === null ? { state: "passed" } : failed(`open ${url.href}: ${late}.`);
  }

  async function script(target: TabTarget, mode: ScriptMode, source: string, into: string, variables: Parameters<Executor["execute"]>[0]["variables"], signal: AbortSignal): Promise<PageOutcome> {
    const { script: text, argv } = interpolateCondition(source, variables);
    await settled(target.tabId, loadTimeoutMs, signal);
    let result;
    try {
      result = await abortable(runScript(target, text, argv, mode, scriptTimeoutMs), signal, () => {});
    } catch (error) {
      if (signal.aborted) throw error;
      if (isNoFrame(error)) return failed(FRAME_GONE);
      throw await pageGone(target, error);
    }
    if (!result.ok) return failed(result.error);
    const name = interpolate(into, variables);
    return name ? { state: "passed", variables: { [name]: result.value } } : { state: "passed" };
  }

  async function setWindowSize(target: TabTarget, text: string): Promise<PageOutcome> {
    const size = parseWindowSize(text);
    if (!size) return failed(`setWindowSize needs WIDTHxHEIGHT in pixels, as 1280x800; got ${JSON.stringify(text)}.`);
    try {
      const window = await chrome.windows.get(target.windowId);
      if (window.state !== "normal") await chrome.windows.update(target.windowId, { state: "normal" });
      await chrome.windows.update(target.windowId, size);
    } catch (error) {
      return failed(`setWindowSize ${text}: ${messageOf(error)}`);
    }
    return { state: "passed" };
  }

  /** One command in the run's tab, by where it is done. */
  async function playOne(target: TabTarget, input: Parameters<Executor["execute"]>[0], signal: AbortSignal): Promise<PageOutcome> {
    const { command, variables } = input;
    switch (command.command) {
      case "open":
        return open(target, interpolate(command.target, variables), input.baseUrl, signal);
      case "executeScript":
      case "executeAsyncScript":
      case "runScript":
        return script(target, SCRIPT_MODES[command.command], command.target, command.command === "runScript" ? "" : command.value, variables, signal);
      case "selectFrame":
        return selectFrame(target, interpolate(command.target, variables), { implicitWaitMs, loadTimeoutMs }, signal);
      case "setWindowSize":
        return setWindowSize(target, interpolate(command.target, variables));
      case "assert":
      case "verify": {
        // A variable against a value: Selenium's doAssert, which reads the target as a name.
        const actual = `${readVariable(variables, command.target).value}`;
        const expected = interpolate(command.value, variables);
        return actual === expected ? { state: "passed" } : failed(`Actual value '${actual}' did not match '${expected}'`);
      }
      case "selectWindow":
        return selectWindow(target, interpolate(command.target, variables));
      case "close":
        return closeWindow(target);
      case "storeWindowHandle":
        return storeWindowHandle(target, interpolate(command.target, variables));
      default:
        return pageCommand(target, input, signal);
    }
  }

  return {
    beginRun(runId) {
      if (run?.runId !== runId) pick(runId);
    },

    current: () => run?.target ?? null,

    pageIds(): PageIds {
      const target = run?.target;
      return target ? { tabId: target.tabId, windowId: target.windowId, frameId: target.frameId } : { tabId: null, windowId: null, frameId: null };
    },

    async execute(input, signal) {
      const target = await tabFor(input.runId);
      const { command } = input;
      const name = (command as { windowHandleName?: unknown }).windowHandleName;
      if ((command as { opensWindow?: unknown }).opensWindow !== true || typeof name !== "string" || name === "") return playOne(target, input, signal);
      // v3's opensWindow: the tab the command opens is waited for, and its handle stored in windowHandleName.
      const before = await tabIds();
      return storeOpenedWindow(await playOne(target, input, signal), before, target, name);
    },

    async evaluate({ script: text, argv, runId }, signal) {
      const target = await tabFor(runId);
      await settled(target.tabId, loadTimeoutMs, signal);
      let result;
      try {
        result = await abortable(runScript(target, text, argv, "condition", scriptTimeoutMs), signal, () => {});
      } catch (error) {
        if (signal.aborted) throw error;
        throw await pageGone(target, error);
      }
      if (!result.ok) throw new Error(`The condition could not be evaluated in the page: ${result.error}`);
      return result.value === true;
    },
  };
}

