/// <reference types="chrome" />
// Recording in the tab under test (CONTRACT section 14), the IDE window's side: when the
// core starts recording, the window picks the tab under test, tells the core the page
// (recorder.pageSeen: its url and the browser window's outer size, for open and
// setWindowSize), puts the recorder into every frame of the tab when it is not there yet
// (a tab opened before the extension), and tells every frame of it to record: a frame's
// recorder asks (recorder.hello) as it loads, and a frame of the recorded tab opens a port
// (recorderContent.ts) on which it is started and stopped and reports. It passes each command a frame of that tab
// reports to the core (ide.record, which checks it), with what is typed in a focused field
// before its change (so stopping the recording keeps it), and tells the core when the tab is
// closed. Tabs the recorded tabs open (chrome.tabs.onCreated with their openerTabId) are
// recorded too (CONTRACT section 19): the core hears each (recorder.windowOpened) and when one
// closes (recorder.windowClosed). Stopping tells every frame to stop. Each start carries the
// project's recording settings (locatorOrder, testIdAttributes: CONTRACT section 18), and a
// change of them during a recording is told to every recorded frame.
// As in the host, the core hears of the page (and shows open and setWindowSize) only once the
// recorder listens in every frame the window put it in (each says recorder.started), or after
// START_WAIT_MS: a click the user makes as soon as the test shows its first commands is recorded.
// What a frame reports before that waits, in order, behind the page.
import type { Ide } from "../../core/ide.ts";
import type { BuildOptions } from "../../services/locators/builders.ts";
import { coreReport, readRecorderSettings } from "../recorder/report.ts";
import type { RecorderReport } from "../recorder/recorder.ts";
import { findTabUnderTest } from "./tabs.ts";

export const RECORDER_SCRIPT = "recorder.js";
export const RECORDER_PORT = "ide-core-recorder";
/** How long after a tab opened from a recorded tab the core hears of it (the opening click first). */
const OPENED_DELAY_MS = 150;
/** How long a recording's start waits for the tab's frames to say their recorder listens before the core hears of the page anyway. */
const START_WAIT_MS = 3_000;

export type RecorderHelloMessage = { type: "recorder.hello" };
export type RecorderActionMessage = { type: "recorder.action"; action: RecorderReport };
/** A frame's recorder listens (its answer to each recorder.start). */
export type RecorderStartedMessage = { type: "recorder.started" };
/** Start (again, with the project's recording settings as they are now: CONTRACT section 18), or stop. */
export type RecorderControlMessage = { type: "recorder.start"; settings: BuildOptions } | { type: "recorder.stop" };

/** What the window tells a frame's recorder, or null when the message is not for it. */
export function readRecorderControl(value: unknown): { control: "start"; settings: BuildOptions } | { control: "stop" } | null {
  const message = value as { type?: unknown; settings?: unknown } | null;
  if (message?.type === "recorder.start") return { control: "start", settings: readRecorderSettings(message.settings) };
  return message?.type === "recorder.stop" ? { control: "stop" } : null;
}

/** Follows the core's recording in the tab under test; returns what stops following. */
export function recordInTabUnderTest(core: Ide, findTab: () => Promise<chrome.tabs.Tab | null> = findTabUnderTest): () => void {
  let recording = false;
  let tabId: number | null = null;
  /** The tabs recorded: the tab under test and those opened from them while recording. */
  const recorded = new Set<number>();
  /** Every frame's recorder that connected, by tab. */
  const ports = new Map<number, Set<chrome.runtime.Port>>();

  const tell = (id: number, message: RecorderControlMessage) => {
    for (const port of ports.get(id) ?? []) {
      try {
        port.postMessage(message);
      } catch {
        // That frame's document is gone; its disconnect removes it.
      }
    }
  };

  /** Which recording start this is: a stop or another start while one waits makes its wait moot. */
  let generation = 0;
  /** Whether the core has heard of the page this recording: what frames report before waits here. */
  let announced = false;
  const early: Array<Record<string, unknown>> = [];
  /** The frames of the tab under test whose recorder said it listens, since this start. */
  const startedFrames = new Set<number>();
  /** The start waiting for its frames' answers: which frames, and what ends the wait. */
  let waiting: { frames: number[]; done: () => void } | null = null;
  const hear = (report: Record<string, unknown>) => {
    if (announced) core.record(report);
    else early.push(report);
  };
  const allStarted = () => waiting?.frames.every((frame) => startedFrames.has(frame)) === true;
  const framesStarted = (frames: number[]) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (waiting?.done === done) waiting = null;
        resolve();
      };
      const timer = setTimeout(done, START_WAIT_MS);
      waiting = { frames, done };
      if (allStarted()) waiting.done();
    });

  async function begin() {
    const started = ++generation;
    const found = await findTab();
    if (!recording || started !== generation || !found?.id) return;
    const id = found.id;
    tabId = id;
    recorded.add(id);
    startedFrames.clear();
    let width = 0;
    let height = 0;
    try {
      const win = await chrome.windows.get(found.windowId);
      width = win.width ?? 0;
      height = win.height ?? 0;
    } catch {
      // The window went away with the tab; onRemoved says so.
    }
    tell(id, startMessage());
    let frames: number[] = [];
    try {
      // Frames whose recorder has no port (loaded before the recording) ask again, connect, and are told on connecting.
      const injected = await chrome.scripting.executeScript({ target: { tabId: id, allFrames: true }, files: [RECORDER_SCRIPT] });
      frames = injected.map((result) => result.frameId);
    } catch {
      // A page the extension may not script (the browser's own pages): nothing can be recorded there.
    }
    await framesStarted(frames);
    if (!recording || started !== generation || tabId !== id) return;
    core.record({ type: "recorder.pageSeen", url: found.url ?? "", width, height, tabId: id });
    announced = true;
    for (const report of early.splice(0)) core.record(report);
  }

  // The project's recording settings go with each start; a change while recording starts every recorded frame again with them.
  let settings = core.getSnapshot().recordingSettings;
  const startMessage = (): RecorderControlMessage => ({ type: "recorder.start", settings: { ...settings } });
  const subscription = core.subscribe((view) => {
    const now = view.recording !== null;
    if (view.recordingSettings !== settings && JSON.stringify(view.recordingSettings) !== JSON.stringify(settings)) {
      settings = view.recordingSettings;
      if (now && recording) for (const id of recorded) tell(id, startMessage());
    }
    if (now === recording) return;
    recording = now;
    if (now) void begin();
    else {
      // A start still waiting for its frames is moot, and what they reported meanwhile goes with it.
      generation += 1;
      announced = false;
      early.length = 0;
      waiting?.done();
      if (tabId !== null) {
        for (const id of recorded) tell(id, { type: "recorder.stop" });
        recorded.clear();
        tabId = null;
      }
    }
  });

  const onConnect = (port: chrome.runtime.Port) => {
    const id = port.sender?.tab?.id;
    if (port.name !== RECORDER_PORT || port.sender?.id !== chrome.runtime.id || id === undefined) return;
    const ofTab = ports.get(id) ?? new Set();
    ports.set(id, ofTab.add(port));
    port.onDisconnect.addListener(() => {
      ofTab.delete(port);
      if (ofTab.size === 0 && ports.get(id) === ofTab) ports.delete(id);
    });
    port.onMessage.addListener((value: unknown) => {
      const type = (value as { type?: unknown } | null)?.type;
      if (!recording || !recorded.has(id)) return;
      if (type === "recorder.started" && id === tabId && port.sender?.frameId !== undefined) {
        startedFrames.add(port.sender.frameId);
        if (allStarted()) waiting?.done();
      }
      // A command, or the typing still pending in the focused field (recorded if the recording stops first).
      if (type === "recorder.action") hear(coreReport((value as RecorderActionMessage).action, id));
    });
    if (recording && recorded.has(id)) port.postMessage(startMessage());
  };
  const onRemoved = (id: number) => {
    ports.delete(id);
    if (recording && id === tabId) {
      tabId = null;
      recorded.clear();
      core.record({ type: "recorder.tabClosed" });
    } else if (recording && recorded.delete(id)) hear({ type: "recorder.windowClosed", tabId: id });
  };
  const onCreated = (tab: chrome.tabs.Tab) => {
    if (!recording || tab.id === undefined || tab.openerTabId === undefined || !recorded.has(tab.openerTabId)) return;
    const { id, openerTabId } = tab;
    recorded.add(id);
    // The click that opened it reaches the window over its tab's port, which may come after this
    // event: the core hears of the tab a moment later, once that click is recorded.
    setTimeout(() => {
      if (recording && recorded.has(id)) hear({ type: "recorder.windowOpened", tabId: id, openerTabId });
    }, OPENED_DELAY_MS);
  };
  const onMessage = (value: unknown, sender: chrome.runtime.MessageSender, sendResponse: (answer: unknown) => void) => {
    if (sender.id !== chrome.runtime.id || (value as { type?: unknown } | null)?.type !== "recorder.hello") return false;
    sendResponse({ record: recording && sender.tab?.id !== undefined && recorded.has(sender.tab.id) });
    return false;
  };
  chrome.runtime.onConnect.addListener(onConnect);
  chrome.runtime.onMessage.addListener(onMessage);
  chrome.tabs.onRemoved.addListener(onRemoved);
  chrome.tabs.onCreated.addListener(onCreated);
  return () => {
    subscription.unsubscribe();
    chrome.runtime.onConnect.removeListener(onConnect);
    chrome.runtime.onMessage.removeListener(onMessage);
    chrome.tabs.onRemoved.removeListener(onRemoved);
    chrome.tabs.onCreated.removeListener(onCreated);
  };
}
