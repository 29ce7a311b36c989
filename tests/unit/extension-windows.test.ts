// Windows in the extension's runs (drivers/webextension/windows.ts) over a stand-in `chrome`
// with several tabs: opensWindow stores the opened tab's handle, selectWindow moves the run to
// a tab, close closes the run's tab, storeWindowHandle stores it. The real tabs are played in
// tests/e2e/extension-windows.e2e.test.ts.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tabPage } from "../../drivers/webextension/tabPage.ts";
import type { SideCommand } from "../../services/side/index.ts";

type Tab = { id: number; windowId: number; url: string; status: string; openerTabId?: number };

/** A browser window (7) with tab 3 active; a click in tab 3 opens `opens` when it is set. */
function fakeChrome() {
  const state = {
    tabs: [{ id: 3, windowId: 7, url: "http://127.0.0.1/", status: "complete" }] as Tab[],
    sent: [] as Array<{ tabId: number; command: unknown }>,
    removed: [] as number[],
    activated: [] as number[],
    opens: null as Tab | null,
  };
  const noop = { addListener() {}, removeListener() {} };
  (globalThis as { chrome?: unknown }).chrome = {
    windows: { getLastFocused: async () => ({ id: 7 }), get: async () => ({ id: 7, state: "normal" }), update: async () => ({}) },
    tabs: {
      query: async (query: { active?: boolean }) => (query.active ? state.tabs.slice(0, 1) : [...state.tabs]),
      get: async (id: number) => {
        const tab = state.tabs.find((t) => t.id === id);
        if (!tab) throw new Error(`No tab with id: ${id}.`);
        return tab;
      },
      sendMessage: async (tabId: number, message: { request?: { command: string } }) => {
        if (!state.tabs.some((t) => t.id === tabId)) throw new Error(`No tab with id: ${tabId}.`);
        state.sent.push({ tabId, command: message.request?.command });
        if (message.request?.command === "click" && state.opens) state.tabs.push(state.opens);
        return { state: "passed" };
      },
      update: async (tabId: number) => {
        state.activated.push(tabId);
        return {};
      },
      remove: async (tabId: number) => {
        state.removed.push(tabId);
        state.tabs = state.tabs.filter((t) => t.id !== tabId);
      },
      onUpdated: noop,
      onRemoved: noop,
    },
    scripting: { executeScript: async () => [] },
    runtime: { lastError: undefined },
  };
  return state;
}

const command = (name: string, target = "", value = "", extra: Record<string, unknown> = {}): SideCommand => ({ id: "c1", command: name, target, value, ...extra });
const signal = () => new AbortController().signal;
const input = (c: SideCommand, variables: Record<string, unknown> = {}) => ({ command: c, variables, baseUrl: "http://127.0.0.1", runId: "run-1" });

let browser: ReturnType<typeof fakeChrome>;
beforeEach(() => {
  browser = fakeChrome();
});
afterEach(() => {
  delete (globalThis as { chrome?: unknown }).chrome;
});

describe("windows in the extension's runs", () => {
  it("stores the handle of the tab a click with opensWindow opened, then plays in it after selectWindow, and back after close", async () => {
    const executor = tabPage();
    browser.opens = { id: 11, windowId: 7, url: "http://127.0.0.1/help", status: "complete", openerTabId: 3 };
    const local = await executor.execute(input(command("storeWindowHandle", "win_ser_local")), signal());
    expect(local).toEqual({ state: "passed", variables: { win_ser_local: "3" } });
    const clicked = await executor.execute(input(command("click", "id=help", "", { opensWindow: true, windowHandleName: "win_ser_1" })), signal());
    expect(clicked).toEqual({ state: "passed", variables: { win_ser_1: "11" } });
    const variables = { win_ser_local: "3", win_ser_1: "11" };
    expect(await executor.execute(input(command("selectWindow", "handle=${win_ser_1}"), variables), signal())).toEqual({ state: "passed" });
    expect(executor.current()).toEqual({ tabId: 11, windowId: 7, frameId: 0 });
    expect(browser.activated).toContain(11);
    await executor.execute(input(command("assertText", "id=faq", "FAQ"), variables), signal());
    expect(browser.sent.at(-1)).toEqual({ tabId: 11, command: "assertText" });
    expect(await executor.execute(input(command("close"), variables), signal())).toEqual({ state: "passed" });
    expect(browser.removed).toEqual([11]);
    expect(await executor.execute(input(command("selectWindow", "handle=${win_ser_local}"), variables), signal())).toEqual({ state: "passed" });
    await executor.execute(input(command("click", "id=buy"), variables), signal());
    expect(browser.sent.at(-1)).toEqual({ tabId: 3, command: "click" });
  });

  it("fails a command with opensWindow when no tab opens, and selectWindow of a closed or malformed handle, naming the command", async () => {
    const executor = tabPage();
    const clicked = await executor.execute(input(command("click", "id=help", "", { opensWindow: true, windowHandleName: "win_ser_1" })), signal());
    expect(clicked.state).toBe("failed");
    expect(clicked.message).toContain("opensWindow");
    const gone = await executor.execute(input(command("selectWindow", "handle=42")), signal());
    expect(gone).toMatchObject({ state: "failed" });
    expect(gone.message).toContain("selectWindow");
    const bad = await executor.execute(input(command("selectWindow", "title=Help")), signal());
    expect(bad.message).toContain("handle=");
    expect(executor.current()?.tabId).toBe(3);
  });
});
