// GET /record/tab in the browser extension: the window's tabUnderTest port (drivers/webextension/
// tabs.ts) over a stand-in of the chrome API. The tab under test is the active tab of the browser
// window the user was last in; with none, or an API that fails, there is none (the route then
// answers NoPage, "No active tab found").
import { afterEach, describe, expect, it, vi } from "vitest";
import { tabUnderTestId } from "../../drivers/webextension/tabs.ts";
import { createIde } from "../../index.ts";

function stubChrome(windowId: number | Error, tabs: Array<{ id?: number }> | Error) {
  const queries: unknown[] = [];
  vi.stubGlobal("chrome", {
    windows: {
      getLastFocused: async (options: unknown) => {
        queries.push(options);
        if (windowId instanceof Error) throw windowId;
        return { id: windowId };
      },
    },
    tabs: {
      query: async (query: unknown) => {
        queries.push(query);
        if (tabs instanceof Error) throw tabs;
        return tabs;
      },
    },
  });
  return queries;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the extension's tab under test", () => {
  it("is the active tab of the last focused normal window, and GET /record/tab answers its id", async () => {
    const queries = stubChrome(7, [{ id: 42 }]);
    expect(await tabUnderTestId()()).toEqual({ id: 42 });
    expect(queries).toEqual([{ windowTypes: ["normal"] }, { active: true, windowId: 7 }]);
    const ide = createIde({ tabUnderTest: tabUnderTestId() });
    expect(await ide.handle({ uri: "/record/tab", verb: "get" }, { id: "plugin" })).toEqual({ id: 42 });
  });

  it("is the run's tab while a run has one, whatever window the user is in", async () => {
    const queries = stubChrome(7, [{ id: 42 }]);
    expect(await tabUnderTestId(() => ({ tabId: 5, windowId: 2, frameId: 0 }))()).toEqual({ id: 5 });
    expect(queries).toEqual([]);
  });

  it.each([
    ["no active tab", 7, []],
    ["a tab without an id", 7, [{}]],
    ["no focused window", new Error("No last-focused window"), [{ id: 1 }]],
    ["a tabs API that fails", 7, new Error("tabs gone")],
  ] as const)("is none with %s, which GET /record/tab answers as NoPage", async (_, windowId, tabs) => {
    stubChrome(windowId as number | Error, tabs as Array<{ id?: number }> | Error);
    expect(await tabUnderTestId()()).toBeNull();
    const ide = createIde({ tabUnderTest: tabUnderTestId() });
    expect(await ide.handle({ uri: "/record/tab", verb: "get" }, { id: "plugin" })).toEqual({ error: "No active tab found", errorCode: "NoPage" });
  });
});
