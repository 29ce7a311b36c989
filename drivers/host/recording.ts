// Recording in the host's page under test (CONTRACT section 14): the recorder of
// drivers/recorder/ put into every document and frame of the browser WebDriver drives, over the
// browser's one DevTools connection (devtoolsConnection.ts: the browser's own endpoint for a
// local chromedriver, the Grid's `se:cdp` for a Grid's browser), in a session of its own in
// each page: the window WebDriver drives, and while recording each window a recorded page opens,
// which WebDriver then follows (recorderWindows.ts, CONTRACT section 19). It runs in an isolated
// world and reports through a binding (`Runtime.addBinding`) that only that world has; the
// recorder listens to trusted events only. The user's clicks, keys and wheel on the IDE page's picture
// become trusted input in the window WebDriver drives (`Input.dispatchMouseEvent`,
// `Input.insertText`, `Input.dispatchKeyEvent`). What the recorder reports goes to `report` as
// it came, with its page's number as `tabId`; the core's door (ide.record) checks it. The
// project's recording settings (locatorOrder, testIdAttributes: CONTRACT section 18; the declared
// strategies the recorder can build: section 23) go into the
// recorder's world of every document of every such page, the ones open now and those to come
// (`configure`), before a recording starts and when they change.
import { fileURLToPath } from "node:url";
import type { WebDriver } from "selenium-webdriver";
import { withTimeout } from "../../services/timeout.ts";
import type { PageInput } from "../view/messages.ts";
import type { BuildOptions } from "../../services/locators/builders.ts";
import { coreReport, HOST_PICK, HOST_SETTINGS } from "../recorder/report.ts";
import { browserBundle } from "./bundle.ts";
import { devToolsOf } from "./devtoolsConnection.ts";
import { RecorderWindows } from "./recorderWindows.ts";

const WORLD = "ide-core-recorder";
const BINDING = "__ideCoreRecorded";
const CONNECT_TIMEOUT_MS = 10_000;
/** How long opening the page under test for a recording may take. */
const OPEN_TIMEOUT_MS = 30_000;

/** The recorder bundled for the page, once per process. */
async function recorderSource(): Promise<string> {
  return (await browserBundle({ entry: fileURLToPath(new URL("../recorder/hostEntry.ts", import.meta.url)), format: "iife" })).script;
}

/** Keys the recorder turns into `sendKeys` (v3's): their DevTools names. */
const KEYS: Record<string, { code: string; keyCode: number; text?: string }> = {
  Enter: { code: "Enter", keyCode: 13, text: "\r" },
  Tab: { code: "Tab", keyCode: 9 },
  Backspace: { code: "Backspace", keyCode: 8 },
  Escape: { code: "Escape", keyCode: 27 },
  ArrowUp: { code: "ArrowUp", keyCode: 38 },
  ArrowDown: { code: "ArrowDown", keyCode: 40 },
  ArrowLeft: { code: "ArrowLeft", keyCode: 37 },
  ArrowRight: { code: "ArrowRight", keyCode: 39 },
};

export interface HostRecorder {
  /** A click at CSS pixel x, y of the viewport of the window WebDriver drives, as trusted input; `clickCount` 2 is a double click's second. */
  click(x: number, y: number, clickCount?: 1 | 2): Promise<void>;
  /** Text typed into what has the focus. */
  type(text: string): Promise<void>;
  /** One of KEYS (Enter, Tab, the arrows, ...). */
  press(key: string): Promise<void>;
  /** The mouse wheel turned at CSS pixel x, y: the page scrolls what is under that point by deltaX, deltaY. */
  wheel(x: number, y: number, deltaX: number, deltaY: number): Promise<void>;
  /** The number the core knows the window WebDriver drives by (its `tabId`); the recorder is put there if it is not yet. */
  drivenTabId(): Promise<number | null>;
  /** The project's recording settings, for the recorder in every document of every page now and to come. */
  configure(settings: BuildOptions): Promise<void>;
  /**
   * Arms a pick (drivers/recorder/pick.ts) in every frame of the window WebDriver drives, or
   * disarms it there: its report comes as the recorder's do. In turn with the input, so a click
   * sent after `pick(true)` is the pick's.
   */
  pick(arm: boolean): Promise<void>;
  close(): void;
}

export interface RecordInPageOptions {
  /** Whether a recording is under way, so new windows are followed (recorderWindows.ts); always, unless told. */
  following?: () => boolean;
  /** WebDriver now drives another window: the picture should follow. */
  switched?: () => void;
}

/**
 * Puts the recorder into the page `driver` drives, and into the pages it opens while recording
 * (recorderWindows.ts); each report goes to `report`, with the number of its page as `tabId`.
 */
export async function recordInPage(driver: WebDriver, report: (value: unknown) => void, options: RecordInPageOptions = {}): Promise<HostRecorder> {
  const devtools = await withTimeout(devToolsOf(driver), CONNECT_TIMEOUT_MS, "the page's DevTools connection");
  if (!devtools) throw new Error("The browser under test has no DevTools endpoint this host can reach, so nothing can be recorded in it.");
  const source = await recorderSource();
  // The settings as JSON once configured, and each page session's script that sets them.
  let configured: string | null = null;
  const settingsScripts = new Map<string, string | null>();
  const setSettings = async (sessionId: string) => {
    const before = settingsScripts.get(sessionId);
    if (before) await devtools.send("Page.removeScriptToEvaluateOnNewDocument", { identifier: before }, sessionId, CONNECT_TIMEOUT_MS);
    settingsScripts.set(sessionId, null);
    if (configured === null) return;
    // runImmediately: the documents open now take them as well as every document to come.
    const added = await devtools.send(
      "Page.addScriptToEvaluateOnNewDocument",
      { source: `globalThis[${JSON.stringify(HOST_SETTINGS)}] = ${configured};`, worldName: WORLD, runImmediately: true },
      sessionId,
      CONNECT_TIMEOUT_MS,
    );
    settingsScripts.set(sessionId, typeof added.identifier === "string" ? added.identifier : null);
  };
  // A session of the recorder's own in each page: closing it takes the recorder's script and binding away.
  const windows = new RecorderWindows(
    devtools,
    driver,
    {
      async setUp(sessionId) {
        const send = (method: string, params: Record<string, unknown> = {}) => devtools.send(method, params, sessionId, CONNECT_TIMEOUT_MS);
        await send("Runtime.enable");
        await send("Page.enable");
        await send("Runtime.addBinding", { name: BINDING, executionContextName: WORLD });
        await send("Page.addScriptToEvaluateOnNewDocument", { source, worldName: WORLD, runImmediately: true });
        await setSettings(sessionId);
      },
      report,
      following: options.following ?? (() => true),
      switched: options.switched ?? (() => {}),
    },
    CONNECT_TIMEOUT_MS,
  );
  const stopListening = devtools.listen((method, params, from) => {
    const tabId = windows.tabIdOfSession(from);
    if (tabId === undefined || method !== "Runtime.bindingCalled" || params.name !== BINDING || typeof params.payload !== "string") return;
    try {
      report(coreReport(JSON.parse(params.payload), tabId));
    } catch {
      // not JSON: not the recorder's
    }
  });
  const stop = () => {
    stopListening();
    windows.close();
  };
  try {
    // An endpoint that will not tell of new pages still records in the window WebDriver drives.
    await windows.discover().catch(() => {});
    await windows.sessionOf(await driver.getWindowHandle());
  } catch (error) {
    stop();
    throw error;
  }

  // Input goes where the picture is taken: the window WebDriver drives. Inputs find it one after
  // the other, so they reach the page in the order they came; a click's and a key's events are
  // sent in order and not waited for (a click that opens an alert is answered only once the alert
  // is gone); typed text is waited for, within the limit, so what follows it finds it in the page.
  let previous: Promise<unknown> = Promise.resolve();
  const inDriven = () => {
    const found = previous.then(async () => {
      if (!devtools.isOpen) throw new Error("The page's DevTools connection closed.");
      const sessionId = await windows.sessionOf(await windows.driven());
      const post = (method: string, params: Record<string, unknown>) => void devtools.send(method, params, sessionId, CONNECT_TIMEOUT_MS).catch(() => {});
      return Object.assign(post, { sessionId, waited: (method: string, params: Record<string, unknown>) => devtools.send(method, params, sessionId, CONNECT_TIMEOUT_MS).then(() => {}, () => {}) });
    });
    previous = found.catch(() => {});
    return found;
  };
  return {
    async click(x, y, clickCount = 1) {
      const post = await inDriven();
      const mouse = (type: string) => post("Input.dispatchMouseEvent", { type, x, y, button: "left", buttons: type === "mousePressed" ? 1 : 0, clickCount });
      post("Input.dispatchMouseEvent", { type: "mouseMoved", x, y });
      mouse("mousePressed");
      mouse("mouseReleased");
    },
    // Text is waited for (within the limit): the browser answers once the page took it, so a Stop
    // recording right after it finds it in the field even while the page is busy drawing frames.
    // The browser may answer before the page's main thread handled the text, so a round trip
    // through that thread follows: the recorder's report of the text (a binding call from its
    // input listener) comes before its answer, and so reaches the core before a stop does.
    async type(text) {
      const post = await inDriven();
      await post.waited("Input.insertText", { text });
      await post.waited("Runtime.evaluate", { expression: "0", returnByValue: true });
    },
    async press(key) {
      const known = KEYS[key];
      if (!known) throw new TypeError(`The page panel sends no key ${JSON.stringify(key)}; it knows ${Object.keys(KEYS).join(", ")}.`);
      const post = await inDriven();
      const base = { key, code: known.code, windowsVirtualKeyCode: known.keyCode, nativeVirtualKeyCode: known.keyCode };
      post("Input.dispatchKeyEvent", { type: "keyDown", ...base, ...(known.text ? { text: known.text } : {}) });
      post("Input.dispatchKeyEvent", { type: "keyUp", ...base });
    },
    async wheel(x, y, deltaX, deltaY) {
      const post = await inDriven();
      post("Input.dispatchMouseEvent", { type: "mouseWheel", x, y, deltaX, deltaY });
    },
    async configure(settings) {
      const json = JSON.stringify({ locatorOrder: settings.locatorOrder, testIdAttributes: settings.testIdAttributes, strategies: settings.strategies });
      if (json === configured) return;
      configured = json;
      await Promise.all([...settingsScripts.keys()].map((sessionId) => setSettings(sessionId).catch(() => {})));
    },
    // A script run at once in the recorder's world of every frame of the page (and taken back
    // at once, so documents to come are not armed): the one way to reach that world in each frame.
    async pick(arm) {
      const { sessionId } = await inDriven();
      const source = `globalThis[${JSON.stringify(HOST_PICK)}]?.${arm ? "arm" : "disarm"}();`;
      const added = await devtools.send("Page.addScriptToEvaluateOnNewDocument", { source, worldName: WORLD, runImmediately: true }, sessionId, CONNECT_TIMEOUT_MS);
      if (typeof added.identifier === "string") {
        await devtools.send("Page.removeScriptToEvaluateOnNewDocument", { identifier: added.identifier }, sessionId, CONNECT_TIMEOUT_MS);
      }
    },
    drivenTabId: async () => windows.tabIdOf(await windows.driven()),
    close: stop,
  };
}

/** Where `open` plays: the project's url, and the base URL that replaces it (`--base-url`, the example site) if any. */
export interface PlayedUrls {
  project: string;
  base?: string;
}

/**
 * The page's URL as the project's: a page at the base URL that stands in for the project's url
 * is at the project's url, so the recorded `open` is a path that plays wherever the base is.
 */
export function asProjectUrl(url: string, base: string | undefined, project: string): string {
  try {
    const page = new URL(url);
    if (!base || !project || page.origin !== new URL(base).origin) return url;
    const stand = new URL(project);
    return new URL(page.pathname + page.search + page.hash, stand.origin).href;
  } catch {
    return url;
  }
}

/**
 * The page panel of the host (`npm start`): the user's input on its picture done in the page
 * under test, and the recorder in that page while a recording is under way. `driver` gives the
 * session shown (started if need be); a recorder is put into each session once. `windows` says
 * when a recording is under way (new windows are followed only then) and hears when WebDriver
 * follows one; `settings` gives the project's recording settings, told to the recorder at each
 * input and recording start.
 */
export function pagePanelRecorder(
  driver: () => Promise<WebDriver>,
  report: (value: unknown) => void,
  urls: () => PlayedUrls = () => ({ project: "" }),
  windows: RecordInPageOptions = {},
  settings: () => BuildOptions = () => ({}),
) {
  const recorders = new WeakMap<WebDriver, Promise<HostRecorder>>();
  const recorderOf = async () => {
    const current = await driver();
    let recorder = recorders.get(current);
    if (!recorder) {
      recorder = recordInPage(current, report, windows);
      recorder.catch(() => recorders.delete(current));
      recorders.set(current, recorder);
    }
    // The project's settings as they are now (configure does nothing when they did not change).
    const ready = await recorder;
    await ready.configure(settings());
    return { current, recorder: ready };
  };
  return {
    /** The user clicked, typed or turned the wheel on the picture: done in the page, as trusted input. */
    async input(input: PageInput): Promise<void> {
      const { recorder } = await recorderOf();
      if (input.kind === "click") await recorder.click(input.x, input.y, input.double ? 2 : 1);
      else if (input.kind === "type") await recorder.type(input.text);
      else if (input.kind === "wheel") await recorder.wheel(input.x, input.y, input.deltaX, input.deltaY);
      else await recorder.press(input.key);
    },
    /** A pick (CONTRACT section 21) armed in the page shown, or disarmed: the recorder goes there first if it is not yet. */
    async pick(arm: boolean): Promise<void> {
      const { recorder } = await recorderOf();
      await recorder.pick(arm);
    },
    /**
     * A recording starts: the recorder is in the page, and the core hears where the page is (for
     * open and setWindowSize). With no page open yet (a browser just started, on no web page),
     * the page under test is opened first at `startUrl` (the project's url), when there is one.
     */
    async recordingStarted(): Promise<void> {
      const { current, recorder } = await recorderOf();
      let url = await current.getCurrentUrl();
      const { base, project } = urls();
      const start = base || project;
      if (!/^https?:/.test(url) && /^https?:/.test(start)) {
        await withTimeout(current.get(start), OPEN_TIMEOUT_MS, `opening the page under test at ${start}`);
        url = await current.getCurrentUrl();
      }
      url = asProjectUrl(url, base, project);
      const { width, height } = await current.manage().window().getRect();
      // The window the recording starts in is the first one (win_ser_local) for the core.
      const tabId = await recorder.drivenTabId();
      report({ type: "recorder.pageSeen", url: /^https?:/.test(url) ? url : "", width, height, tabId });
    },
  };
}
