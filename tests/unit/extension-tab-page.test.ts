// The extension's executor over a stand-in `chrome`: what it sends the tab under test for a
// page command, how it reads the answers, when it says the page is gone, and the pure pieces
// (targets, window sizes, frame targets). The real tab is played in tests/e2e/extension-run.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { followFrameSteps, parseFrameTarget, parseWindowSize } from "../../drivers/webextension/commandText.ts";
import { alternativeTargets, inPageRequest } from "../../drivers/player/request.ts";
import { PageGoneError, tabPage } from "../../drivers/webextension/tabPage.ts";
import { KEY_VARIABLES } from "../../drivers/player/index.ts";
import { readToContent } from "../../drivers/webextension/messages.ts";
import type { SideCommand } from "../../services/side/index.ts";

const command = (name: string, target = "", value = "", extra: Record<string, unknown> = {}): SideCommand => ({
  id: "c1",
  command: name,
  target,
  value,
  ...extra,
});

interface Sent {
  tabId: number;
  message: { type: string; request?: Record<string, unknown> };
  frameId: number | undefined;
}

/** A browser with one window (7) whose active tab (3) shows a web page; `answer` plays the content script. */
function fakeChrome() {
  const state = {
    sent: [] as Sent[],
    injected: [] as unknown[],
    tabClosed: false,
    listening: true,
    answer: (message: Sent["message"]): unknown => (message.type === "page.command" ? { state: "passed" } : true),
  };
  const noop = { addListener() {}, removeListener() {} };
  (globalThis as { chrome?: unknown }).chrome = {
    windows: {
      getLastFocused: async () => ({ id: 7 }),
      get: async () => ({ id: 7, state: "normal" }),
      update: async () => ({}),
    },
    tabs: {
      query: async () => [{ id: 3, windowId: 7, url: "http://127.0.0.1/form", status: "complete" }],
      get: async (id: number) => {
        if (state.tabClosed) throw new Error(`No tab with id: ${id}.`);
        return { id, windowId: 7, url: "http://127.0.0.1/form", status: "complete" };
      },
      sendMessage: async (tabId: number, message: Sent["message"], options?: { frameId?: number }) => {
        state.sent.push({ tabId, message, frameId: options?.frameId });
        if (state.tabClosed) throw new Error(`No tab with id: ${tabId}.`);
        if (!state.listening) throw new Error("Could not establish connection. Receiving end does not exist.");
        return state.answer(message);
      },
      update: async () => ({}),
      onUpdated: noop,
      onRemoved: noop,
    },
    scripting: {
      executeScript: async (injection: unknown) => {
        state.injected.push(injection);
        state.listening = true;
        return [];
      },
    },
  };
  return state;
}

const signal = () => new AbortController().signal;
const input = (c: SideCommand, variables: Record<string, unknown> = {}) => ({ command: c, variables, baseUrl: "http://127.0.0.1", runId: "run-1" });

let browser: ReturnType<typeof fakeChrome>;
beforeEach(() => {
  browser = fakeChrome();
});
afterEach(() => {
  delete (globalThis as { chrome?: unknown }).chrome;
});

describe("the extension's executor", () => {
  it("sends a page command to the run's tab with ${...} replaced, KEY_ENTER as WebDriver's key and the alternative locators", async () => {
    const executor = tabPage({ implicitWaitMs: 1234 });
    const outcome = await executor.execute(
      input(command("type", "id=${field}", "${who}${KEY_ENTER}", { targets: [["id=${field}", "id"], ["css=#user", "css:finder"]] }), {
        field: "user",
        who: "Ada",
      }),
      signal(),
    );
    expect(outcome).toEqual({ state: "passed" });
    expect(browser.sent).toHaveLength(1);
    expect(browser.sent[0]).toMatchObject({ tabId: 3, frameId: 0 });
    expect(browser.sent[0].message).toEqual({
      type: "page.command",
      request: { command: "type", target: "id=user", value: `Ada${KEY_VARIABLES.KEY_ENTER}`, targets: ["css=#user"], implicitWaitMs: 1234 },
      trusted: false,
    });
  });

  it("sends the run's buildable strategies with a command that has a fingerprint, and the tab reads them", async () => {
    const sku = { name: "sku", css: '[data-sku="{value}"]', attribute: "data-sku" };
    const executor = tabPage({});
    const fingerprint = { tag: "button" };
    await executor.execute({ ...input(command("click", "id=buy", "", { fingerprint })), strategies: [sku, { name: "label", xpath: "//*[@aria-label='{value}']" }] }, signal());
    const sent = browser.sent.at(-1)!.message as { request: { strategies?: unknown } };
    expect(sent.request.strategies).toEqual([sku]);
    expect(readToContent(sent)).toMatchObject({ type: "page.command", request: { strategies: [sku], fingerprint } });
  });

  it("asks the page for trusted input when the window holds the tab, and says once why it cannot", async () => {
    const notes = new Map<number, string>([[3, "The tab under test cannot be held for trusted input (busy)"]]);
    let holds = true;
    const trustedInput = { ready: async () => holds, inputs: () => 0, takeNote: (tabId: number) => { const note = notes.get(tabId) ?? null; notes.delete(tabId); return note; }, close() {} };
    const executor = tabPage({ trustedInput });
    expect(await executor.execute(input(command("click", "id=buy")), signal())).toEqual({ state: "passed", message: "The tab under test cannot be held for trusted input (busy)" });
    expect(browser.sent.at(-1)!.message).toMatchObject({ type: "page.command", trusted: true });
    holds = false;
    expect(await executor.execute(input(command("click", "id=buy")), signal())).toEqual({ state: "passed" });
    expect(browser.sent.at(-1)!.message).toMatchObject({ type: "page.command", trusted: false });
  });

  it("hands back what a store command stored, and fails what the page could not do, naming it", async () => {
    const executor = tabPage();
    browser.answer = () => ({ state: "passed", stored: { name: "greeting", value: "Hello" } });
    expect(await executor.execute(input(command("storeText", "id=result", "greeting")), signal())).toEqual({
      state: "passed",
      variables: { greeting: "Hello" },
    });
    browser.answer = () => ({ state: "failed", message: "Actual value 'a' did not match 'b'" });
    expect(await executor.execute(input(command("assertText", "id=result", "b")), signal())).toEqual({
      state: "failed",
      message: "Actual value 'a' did not match 'b'",
    });
    browser.answer = () => ({ state: "unsupported", message: "not in this page" });
    const unsupported = await executor.execute(input(command("click", "id=go")), signal());
    expect(unsupported.state).toBe("failed");
    expect(unsupported.message).toContain("click");
    const unknown = await executor.execute(input(command("selectWindow", "handle=x")), signal());
    expect(unknown.state).toBe("failed");
    expect(unknown.message).toContain("selectWindow");
  });

  it("puts the content script back into the frame when a navigation dropped it, and asks again", async () => {
    const executor = tabPage();
    browser.listening = false;
    expect(await executor.execute(input(command("click", "id=go")), signal())).toEqual({ state: "passed" });
    expect(browser.injected).toEqual([{ target: { tabId: 3, frameIds: [0] }, files: ["content.js"] }]);
    expect(browser.sent.filter((s) => s.message.type === "page.command")).toHaveLength(2);
  });

  it("does not send a click again when its page navigated away before answering, but asks a new page again for an assertion", async () => {
    const executor = tabPage();
    let portClosedOnce = true;
    browser.answer = (message) => {
      if (message.type !== "page.command") return true;
      if (portClosedOnce) {
        portClosedOnce = false;
        throw new Error("A listener indicated an asynchronous response by returning true, but the message channel closed before a response was received");
      }
      return { state: "passed" };
    };
    const commandsSent = () => browser.sent.filter((s) => s.message.type === "page.command").length;
    await expect(executor.execute(input(command("click", "id=next")), signal())).resolves.toEqual({ state: "passed" });
    expect(commandsSent()).toBe(1);
    portClosedOnce = true;
    await expect(executor.execute(input(command("assertText", "id=title", "Done")), signal())).resolves.toMatchObject({ state: "passed" });
    expect(commandsSent()).toBe(3);
  });

  it("with trusted input, sends a click again to the new page when its page navigated away before it sent any input, and not when it had", async () => {
    let inputs = 0;
    const trustedInput = { ready: async () => true, inputs: () => inputs, takeNote: () => null, close() {} };
    const executor = tabPage({ trustedInput });
    let portClosedOnce = true;
    let inputBeforeClosing = false;
    browser.answer = (message) => {
      if (message.type !== "page.command") return true;
      if (portClosedOnce) {
        portClosedOnce = false;
        if (inputBeforeClosing) inputs += 1;
        throw new Error("A listener indicated an asynchronous response by returning true, but the message channel closed before a response was received");
      }
      return { state: "passed" };
    };
    const commandsSent = () => browser.sent.filter((s) => s.message.type === "page.command").length;
    // Still waiting for its element when a script navigated: it clicked nothing, so the new page gets it.
    await expect(executor.execute(input(command("click", "id=finish")), signal())).resolves.toEqual({ state: "passed" });
    expect(commandsSent()).toBe(2);
    portClosedOnce = true;
    inputBeforeClosing = true;
    await expect(executor.execute(input(command("click", "id=next")), signal())).resolves.toEqual({ state: "passed" });
    expect(commandsSent()).toBe(3);
  });

  it("says the page is gone, and what to do, when the tab under test was closed", async () => {
    const executor = tabPage();
    await executor.execute(input(command("click", "id=go")), signal());
    browser.tabClosed = true;
    const played = executor.execute(input(command("click", "id=go")), signal());
    await expect(played).rejects.toBeInstanceOf(PageGoneError);
    await expect(played).rejects.toThrow(/closed.*press Play again/);
  });

  it("gives plugin commands the ids of the tab it picked as the run started", async () => {
    const executor = tabPage();
    expect(executor.pageIds!()).toEqual({ tabId: null, windowId: null, frameId: null });
    executor.beginRun("run-1");
    await expect.poll(() => executor.pageIds!()).toEqual({ tabId: 3, windowId: 7, frameId: 0 });
  });

  it("fails open for an address it cannot resolve or may not go to, without navigating", async () => {
    const executor = tabPage();
    const relative = await executor.execute({ ...input(command("open", "/form")), baseUrl: "" }, signal());
    expect(relative.state).toBe("failed");
    expect(relative.message).toMatch(/no url to resolve it against/);
    const chromePage = await executor.execute(input(command("open", "chrome://settings")), signal());
    expect(chromePage.state).toBe("failed");
    expect(chromePage.message).toMatch(/http, https, file/);
  });

  it("fails setWindowSize and selectFrame targets that mean nothing", async () => {
    const executor = tabPage();
    expect((await executor.execute(input(command("setWindowSize", "big")), signal())).message).toMatch(/WIDTHxHEIGHT/);
    expect((await executor.execute(input(command("selectFrame", "index=x")), signal())).message).toMatch(/not a frame index/);
  });
});

describe("what the window makes of a command's text", () => {
  it("lists the locator strings of `targets`, with variables replaced and duplicates dropped", () => {
    const c = command("click", "id=a", "", { targets: [["id=a", "id"], ["css=#${x}", "css:finder"], ["css=#b", "css:finder"], "xpath=//b"] });
    expect(alternativeTargets(c, { x: "b" })).toEqual(["id=a", "css=#b", "xpath=//b"]);
    expect(alternativeTargets(command("click", "id=a"))).toEqual([]);
  });

  it("refuses an unknown key in sendKeys, as Selenium does, and leaves it as written elsewhere", () => {
    expect(inPageRequest(command("sendKeys", "id=a", "${KEY_NOPE}"), {}, KEY_VARIABLES, 0)).toEqual({ ok: false, message: "Unrecognised key NOPE" });
    const typed = inPageRequest(command("type", "id=a", "${KEY_NOPE}"), {}, KEY_VARIABLES, 0);
    expect(typed.ok && typed.request.value).toBe("${KEY_NOPE}");
  });

  it("reads window sizes and frame targets", () => {
    expect(parseWindowSize("1280x800")).toEqual({ width: 1280, height: 800 });
    expect(parseWindowSize("0x800")).toBeNull();
    expect(parseWindowSize("1280 by 800")).toBeNull();
    expect(parseFrameTarget("relative=top")).toEqual({ kind: "top" });
    expect(parseFrameTarget("relative=parent")).toEqual({ kind: "parent" });
    expect(parseFrameTarget("index=1\\..\\0")).toEqual({ kind: "index", steps: [1, "..", 0] });
    expect(parseFrameTarget("id=inner")).toEqual({ kind: "locator", location: "id=inner" });
    expect(parseFrameTarget("").kind).toBe("invalid");
    expect(followFrameSteps([2], [1, "..", 0])).toEqual([2, 0]);
  });
});

describe("assert and verify of a variable, done by the window", () => {
  it("pass when the variable reads as the value, and fail with Selenium's message when not", async () => {
    const executor = tabPage();
    expect(await executor.execute(input(command("assert", "count", "${expected}"), { count: 3, expected: "3" }), signal())).toEqual({ state: "passed" });
    expect(await executor.execute(input(command("verify", "count", "4"), { count: 3 }), signal())).toEqual({
      state: "failed",
      message: "Actual value '3' did not match '4'",
    });
    expect(browser.sent).toEqual([]);
  });
});

describe("a stopped run", () => {
  it("lets go of a page command still waiting, and tells the frame to stop waiting", async () => {
    const executor = tabPage();
    browser.answer = (message) => (message.type === "page.command" ? new Promise(() => {}) : true);
    const stop = new AbortController();
    const played = executor.execute(input(command("click", "id=never")), stop.signal);
    await expect.poll(() => browser.sent.length).toBe(1);
    stop.abort();
    await expect(played).rejects.toThrow(/let go/);
    expect(browser.sent.map((s) => s.message.type)).toEqual(["page.command", "page.abort"]);
    expect(browser.sent[1]).toMatchObject({ tabId: 3, frameId: 0 });
  });
});
