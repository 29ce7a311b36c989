// The start of a recording in the extension (drivers/webextension/recording.ts) over a stand-in
// `chrome`: the core hears of the page (open, setWindowSize) only once the recorder listens in
// every frame the window put it in, so a click made as soon as the test shows its first commands
// is recorded; what a frame reports before that comes after the page, in order. The real tab is
// recorded in tests/e2e/extension-record.e2e.test.ts and extension-pointing.e2e.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Ide } from "../../core/ide.ts";
import { recordInTabUnderTest } from "../../drivers/webextension/recording.ts";

const RUNTIME_ID = "ide-core-test";
type Listener = (...args: unknown[]) => void;

/** A frame's port to the window, as chrome.runtime.connect gives it to the window's onConnect. */
function framePort(frameId: number) {
  const fromWindow: unknown[] = [];
  const listeners: Listener[] = [];
  return {
    name: "ide-core-recorder",
    sender: { id: RUNTIME_ID, tab: { id: 3 }, frameId },
    postMessage: (message: unknown) => fromWindow.push(message),
    onMessage: { addListener: (l: Listener) => listeners.push(l) },
    onDisconnect: { addListener() {} },
    fromWindow,
    /** The frame's recorder sends the window a message. */
    send: (message: unknown) => listeners.forEach((l) => l(message)),
  };
}

function fakeChrome(frames: number[] | "not scriptable") {
  const connect: Listener[] = [];
  const noop = { addListener() {}, removeListener() {} };
  (globalThis as { chrome?: unknown }).chrome = {
    runtime: { id: RUNTIME_ID, onConnect: { addListener: (l: Listener) => connect.push(l), removeListener() {} }, onMessage: noop },
    tabs: { onRemoved: noop, onCreated: noop },
    windows: { get: async () => ({ id: 7, width: 1200, height: 800 }) },
    scripting: {
      executeScript: async () => {
        if (frames === "not scriptable") throw new Error("Cannot access a chrome:// URL");
        return frames.map((frameId) => ({ frameId, result: undefined }));
      },
    },
  };
  return { connect: (port: ReturnType<typeof framePort>) => connect.forEach((l) => l(port)) };
}

/** The core as the window sees it: its view's recording, and what it was told. */
function fakeCore() {
  const told: Array<{ type: string }> = [];
  let listener: ((view: unknown) => void) | null = null;
  const view = (recording: boolean) => ({ recording: recording ? { testId: "t1" } : null, recordingSettings: {} });
  const core = {
    getSnapshot: () => view(false),
    subscribe: (l: (view: unknown) => void) => {
      listener = l;
      return { unsubscribe() {} };
    },
    record: (report: { type: string }) => told.push(report) > 0,
  } as unknown as Ide;
  return { core, told, startRecording: () => listener?.(view(true)), stopRecording: () => listener?.(view(false)) };
}

const tab = async () => ({ id: 3, windowId: 7, url: "http://127.0.0.1/form" }) as chrome.tabs.Tab;
const click = { action: { command: "click", target: "id=go", targets: [["id=go", "id"]], value: "", frame: [], frameTargets: [] } };
const settle = () => new Promise((resolve) => setTimeout(resolve, 0)).then(() => new Promise(setImmediate));

let stop: () => void = () => {};
afterEach(() => {
  stop();
  vi.useRealTimers();
  delete (globalThis as { chrome?: unknown }).chrome;
});

describe("the start of a recording in the extension", () => {
  let ide: ReturnType<typeof fakeCore>;
  beforeEach(() => {
    ide = fakeCore();
  });

  it("tells the core of the page only once every frame's recorder listens, and what a frame recorded before that comes after the page", async () => {
    const browser = fakeChrome([0, 5]);
    stop = recordInTabUnderTest(ide.core, tab);
    ide.startRecording();
    await settle();
    const top = framePort(0);
    const inner = framePort(5);
    browser.connect(top);
    browser.connect(inner);
    expect(top.fromWindow).toEqual([{ type: "recorder.start", settings: {} }]);

    inner.send({ type: "recorder.started" });
    inner.send({ type: "recorder.action", ...click });
    await settle();
    expect(ide.told).toEqual([]);

    top.send({ type: "recorder.started" });
    await settle();
    expect(ide.told.map((report) => report.type)).toEqual(["recorder.pageSeen", "recorder.commandRecorded"]);
    expect(ide.told[0]).toMatchObject({ url: "http://127.0.0.1/form", width: 1200, height: 800, tabId: 3 });

    top.send({ type: "recorder.action", ...click });
    expect(ide.told.map((report) => report.type)).toEqual(["recorder.pageSeen", "recorder.commandRecorded", "recorder.commandRecorded"]);
  });

  it("tells the core of a page the extension may not script at once", async () => {
    fakeChrome("not scriptable");
    stop = recordInTabUnderTest(ide.core, tab);
    ide.startRecording();
    await settle();
    expect(ide.told.map((report) => report.type)).toEqual(["recorder.pageSeen"]);
  });

  it("tells the core of the page after its wait when a frame's recorder never answers, and not at all when the recording stopped first", async () => {
    vi.useFakeTimers();
    const browser = fakeChrome([0]);
    stop = recordInTabUnderTest(ide.core, tab);
    ide.startRecording();
    await vi.advanceTimersByTimeAsync(2_000);
    browser.connect(framePort(0));
    expect(ide.told).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(ide.told.map((report) => report.type)).toEqual(["recorder.pageSeen"]);

    ide.stopRecording();
    ide.told.length = 0;
    ide.startRecording();
    await vi.advanceTimersByTimeAsync(100);
    ide.stopRecording();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(ide.told).toEqual([]);
  });
});
