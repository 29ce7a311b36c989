// The host's page under test (the executor port of core/ports.ts): a page in a browser the host
// drives, headless Chromium through Debian's chromedriver or any WebDriver endpoint
// (`webdriverUrl`: a Selenium Grid, a chromedriver started by hand). WebDriver opens the
// session and plays what only it can; with the default player, "devtools", the page's own
// commands are played by the one player in the page with trusted input (playerRoute.ts,
// devtoolsPlayer.ts), and only what it declines comes to Selenium IDE's own
// `WebDriverExecutor` (@seleniumhq/side-runtime) over selenium-webdriver 4, called the way
// side-runtime's CommandNode calls it, so the implicit wait, the locator fallback and the
// error messages are Selenium IDE's (player "webdriver": every command goes there). The run
// machine decides everything else.
//
// The browser starts once, at the first command that needs it, and is reused across runs; a
// test that must have a session of its own replaces it with a fresh one, which a local
// chromedriver's page opened ahead while the test before played (sessionAhead).
// A browser or chromedriver that is gone rejects the command (the run ends `fatal`) and is
// dropped, so the next run starts a new one (a session: browserSession.ts; what "gone" is:
// pageGone.ts). `capturePage` gives the UI a picture of the page (devtools.ts), beside the
// run's commands, never in their way.
import type { WebDriver } from "selenium-webdriver";
import { TimeoutError, withTimeout } from "../../services/timeout.ts";
import type { Executor } from "../../core/ports.ts";
import type { PageOutcome } from "../../machines/testRunner.types.ts";
import { messageOf } from "../../services/errors.ts";
import { LocatorError, parseLocator } from "../../services/locators/index.ts";
import { unknownCommand } from "../../services/playback/unknownCommand.ts";
import type { PageShot } from "../view/messages.ts";
import { abortable, openSession, playAsCommandNode, sessionAhead } from "./browserSession.ts";
import type { Session, SessionSettings } from "./browserSession.ts";
import { CommandVariables, WebDriverExecutor } from "./sideRuntime.ts";
import type { SideExecutor } from "./sideRuntime.ts";
import type { Capabilities } from "./capabilities.ts";
import type { UploadPlaces } from "../../services/playback/uploads.ts";
import { CHROMEDRIVER_PATH, killBrowser } from "./chromedriver.ts";
import { pageCamera } from "./devtools.ts";
import { pageWitness } from "./pageWitness.ts";
import type { PageWitness } from "./pageWitness.ts";
import { liveScreencast } from "./screencast.ts";
import type { LiveAnswer, LiveSink } from "../view/pageFeed.ts";
import { closeDevTools } from "./devtoolsConnection.ts";
import { callResolver, fromPage, locatorBundle } from "./pages.ts";
import { findWith } from "./findInPage.ts";
import type { Found } from "./findInPage.ts";
import { commandMessage, isGone, PageGoneError } from "./pageGone.ts";
import { playerRoute } from "./playerRoute.ts";
import { inPlayerWords } from "./playerWording.ts";
import { interpolate } from "../../services/playback/variables.ts";

export interface BrowserPageOptions {
  /** A remote end (a Selenium Grid, a chromedriver started by hand); default: start chromedriver here. */
  webdriverUrl?: string;
  /** The chromedriver to start when there is no `webdriverUrl`. Default: CHROMEDRIVER_PATH or /usr/bin/chromedriver. */
  chromedriverPath?: string;
  /** The browser binary. Default: CHROMIUM_PATH or /usr/bin/chromium; with `webdriverUrl`, only CHROMIUM_PATH (the remote end picks its own). */
  chromiumPath?: string;
  /** Replaces the project's `url` for `open` (the example site, `--base-url`). */
  baseUrl?: string;
  /** Selenium IDE's implicit wait for elements (default 5,000 ms, as there). */
  implicitWaitMs?: number;
  /** How long starting the browser may take. */
  startTimeoutMs?: number;
  /** The session's capabilities (`--capabilities`); default: Chromium headless (capabilities.ts). */
  capabilities?: Capabilities;
  /** Where `type` on a file input looks for a relative path (`--files DIR`, the .side file's folder); default: nowhere. */
  uploads?: UploadPlaces;
  /**
   * Who plays the page commands (CONTRACT section 19): "devtools" (the default where the
   * browser has a DevTools endpoint), the one player, in the page with trusted input;
   * "webdriver", side-runtime's WebDriverExecutor, every command (`--executor webdriver`).
   */
  player?: PlayerKind;
  /** false skips the player's actionability waits (attached, visible, stable, enabled, uncovered): only to measure what they cost (bench/hostRun.ts). */
  actionWaits?: false;
}

/** Who plays a page's commands: the one player over DevTools, or side-runtime's WebDriverExecutor. */
export type PlayerKind = "devtools" | "webdriver";

export interface BrowserPage extends Executor {
  /** The URL that replaces the project's for `open` (options.baseUrl), if any: where recording opens the page too. */
  readonly baseUrl?: string;
  /** Whether a browser is running now (GET /playback/location resolves in it then). */
  hasPage(): boolean;
  /** The xpath of what a locator matches in the driven page. */
  resolveLocator(location: string): Promise<string>;
  /** How many elements a locator matches in the driven page, the first outlined for 2 s with `outline` (findInPage.ts). */
  findInPage(location: string, outline: boolean): Promise<Found>;
  /** The process id of the chromedriver this started, while it runs (tests kill it). */
  chromedriverPid(): number | null;
  /** The page as it is now (URL, title, small JPEG) for the UI; null while there is no browser. Rejects when it cannot be taken. */
  capturePage(): Promise<PageShot | null>;
  /** The page live for the UI (DevTools' screencast, screencast.ts) into `sink`, or following the window WebDriver drives now; "none" while there is no browser. */
  livePage(sink: LiveSink, runId?: string): Promise<LiveAnswer>;
  /** No more live frames. */
  stopLivePage(): void;
  /**
   * The browser session and the side-runtime executor over it that commands play with,
   * started if need be: for the benchmark that sets side-runtime's own Playback beside the
   * IDE on the same executor and browser. Whoever plays with it must not quit the driver.
   */
  sideRuntime(): Promise<{ driver: WebDriver; executor: SideExecutor }>;
  /** How many commands the one player played in the page so far (the rest went through WebDriver); for tests and benchmarks. */
  playedInPage(): number;
  /** What hears the console errors of the page under test and gives its HTML (traces); null while there is no browser or no DevTools. */
  witness(): Promise<PageWitness | null>;
  /** Quits the browser and stops chromedriver. */
  close(): Promise<void>;
}

/** How long a browser kept from an earlier run has to answer before a new run uses it (else it is replaced). */
const KEPT_BROWSER_ANSWER_MS = 10_000;
/** How long a page still loading may hold the next page command (WebDriver's page load timeout). */
const LOAD_TIMEOUT_MS = 30_000;

export function browserPage(options: BrowserPageOptions = {}): BrowserPage {
  const implicitWaitMs = options.implicitWaitMs ?? 5_000;
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  const chromedriverPath = options.chromedriverPath ?? CHROMEDRIVER_PATH;
  const chromiumPath = options.chromiumPath ?? process.env.CHROMIUM_PATH ?? (options.webdriverUrl ? undefined : "/usr/bin/chromium");
  const route = options.player === "webdriver" ? null : playerRoute({ implicitWaitMs, loadTimeoutMs: LOAD_TIMEOUT_MS, actionWaits: options.actionWaits });
  let session: Promise<Session> | null = null;
  let playedInPage = 0;
  let current: Session | null = null;
  const live = liveScreencast();
  const settings: SessionSettings = {
    webdriverUrl: options.webdriverUrl,
    chromedriverPath,
    chromiumPath,
    baseUrl: options.baseUrl ?? "",
    implicitWaitMs,
    startTimeoutMs,
    capabilities: options.capabilities,
    uploads: options.uploads ?? { filesDir: null, projectDir: null },
  };

  /** A new session, the player set up in its window (playerRoute's prepare) while its first command goes through WebDriver. */
  async function openFresh(): Promise<Session> {
    const opened = await openSession(settings);
    const handle = route ? await opened.driver.getWindowHandle().catch(() => null) : null;
    if (route && handle !== null) route.prepare(opened, handle);
    return opened;
  }

  // Through a remote end none is opened ahead: a Grid's slots are few and shared, and one held
  // for a next test would keep another worker's test waiting in the Grid's queue.
  const ahead = sessionAhead(openFresh, (unused) => retire(unused));

  async function acquire(signal: AbortSignal, runId: string | undefined, key?: string): Promise<Session> {
    const before = current;
    if (before?.dead) {
      drop(before);
      // The test that was using it cannot go on in a new browser (its page is lost); the next can,
      // the next test of the same suite run included (its session has another key).
      if (runId === undefined || (before.runId === runId && before.key === key)) throw new PageGoneError(goneMessage(new Error("the browser or chromedriver exited")));
    }
    // A test that must not share another's session (CONTRACT section 22) gets a fresh browser:
    // cookies, storage and windows of the test before are gone with the one it replaces.
    if (key !== undefined && current !== null && current.key !== key) drop(current);
    const kept = session !== null;
    const early = kept ? null : ahead.take();
    session ??= (early ? early.then((spare) => (spare && !spare.dead ? spare : (spare && void retire(spare), openFresh()))) : openFresh()).then(
      (opened) => (current = opened),
      (error) => {
        session = null;
        throw error;
      },
    );
    const opened = await abortable(session, signal, () => {});
    // A browser kept from before this run (an earlier run's, or one opened to record) may have
    // died while idle (a remote session dropped, a Chromium that crashed): before this run sends
    // it anything it is asked once, and replaced if it is gone, since nothing of this run was in
    // it. Once the run has used it, a browser that dies ends the run (see execute).
    if (runId !== undefined && kept && opened.runId !== runId && !(await answers(opened, signal))) {
      drop(opened);
      return acquire(signal, runId, key);
    }
    if (opened.key !== key && key !== undefined && opened.key !== undefined) {
      // Another test's session opened while this one waited: this test takes a fresh one.
      drop(opened);
      return acquire(signal, runId, key);
    }
    if (runId !== undefined) opened.runId = runId;
    if (key !== undefined) opened.key = key;
    // A session of the test's own (a persistSession suite's is named by the suite's run, its
    // tests' runId): the suite's next test will want a fresh one too.
    if (!kept && key !== undefined && key !== runId && !options.webdriverUrl) ahead.open();
    return opened;
  }

  /** Whether a kept browser still answers WebDriver (a window closed by a test still counts as answering). */
  async function answers(opened: Session, signal: AbortSignal): Promise<boolean> {
    if (opened.dead) return false;
    try {
      await abortable(withTimeout(opened.driver.getWindowHandle(), KEPT_BROWSER_ANSWER_MS, "the kept browser's answer"), signal, () => {});
      return true;
    } catch (error) {
      if (signal.aborted) throw error;
      return !(error instanceof TimeoutError || isGone(error));
    }
  }

  function closeCamera(session: Session) {
    void session.camera?.then((camera) => camera.close(), () => {});
    session.camera = null;
  }

  function closeWitness(session: Session) {
    void session.witness?.then((witness) => witness?.close());
    session.witness = null;
  }

  /** Lets go of everything over the session; with `quit`, quits it without waiting, and ends its processes. */
  function retire(gone: Session, quit = true): Promise<void> {
    gone.dead = true;
    route?.close(gone);
    closeCamera(gone);
    closeWitness(gone);
    closeDevTools(gone.driver);
    if (!quit) return Promise.resolve();
    const quitting = gone.driver.quit().catch(() => {});
    gone.chromedriver?.kill("SIGKILL");
    return quitting.then(() => {
      if (gone.chromedriver) killBrowser(gone.userDataDir);
    });
  }

  function drop(gone: Session) {
    void retire(gone, current === gone);
    if (current !== gone) return;
    current = null;
    session = null;
  }

  const goneMessage = (error: unknown) =>
    error instanceof PageGoneError
      ? error.message
      : `The browser under test is gone (${options.webdriverUrl ? `WebDriver endpoint ${options.webdriverUrl}` : "chromedriver"}): ${messageOf(error).split("\n")[0]}. The next run starts a new one.`;

  /** The xpath of what `location` matches in the session's page (its frame, as WebDriver is on it); rejects when nothing does. */
  async function resolveIn(opened: Session, location: string): Promise<string> {
    const bundle = await locatorBundle();
    let answer = await opened.driver.executeScript(`return ${callResolver(location)};`);
    if (answer === null) {
      await opened.driver.executeScript(bundle); // its footer sets globalThis[PAGE_GLOBAL]
      answer = await opened.driver.executeScript(`return ${callResolver(location)};`);
    }
    return fromPage(answer, location, "under test");
  }

  /** The run's session, its executor set to the command's variables and base URL; a browser that cannot be had is PageGoneError. */
  async function sessionFor(signal: AbortSignal, runId: string | undefined, variables: CommandVariables, baseUrl: string, key?: string): Promise<Session> {
    let opened: Session;
    try {
      opened = await acquire(signal, runId, key);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new PageGoneError(goneMessage(error));
    }
    opened.runner.variables = variables;
    opened.runner.baseUrl = options.baseUrl ?? baseUrl;
    return opened;
  }

  return {
    baseUrl: options.baseUrl,
    async execute({ command, variables, baseUrl, runId, session: key, strategies }, signal): Promise<PageOutcome> {
      let method: string;
      try {
        method = command.command ? WebDriverExecutor.prototype.nameTransform.call(null, command.command) : "skip";
        if (typeof (WebDriverExecutor.prototype as unknown as Record<string, unknown>)[method] !== "function") throw new Error();
      } catch {
        return { state: "failed", message: unknownCommand(command.command, "it is none of Selenium IDE's commands, which the page under test plays") };
      }
      ahead.touch();
      const values = new CommandVariables(variables);
      const opened = await sessionFor(signal, runId, values, baseUrl, key);
      const inPage = route ? await route.play(opened, command, variables, runId, signal, strategies) : null;
      if (inPage) {
        playedInPage += 1;
        return inPage;
      }
      const { runner } = opened;
      try {
        await abortable(playAsCommandNode(runner, method, command, implicitWaitMs, signal), signal, () => void runner.cancel().catch(() => {}));
        route?.played(opened, command);
      } catch (error) {
        if (signal.aborted) throw error;
        if (opened.dead || isGone(error)) {
          drop(opened);
          throw new PageGoneError(goneMessage(error));
        }
        const failed = { command: command.command, target: interpolate(command.target, variables), value: interpolate(command.value, variables) };
        return { state: "failed", message: await inPlayerWords(commandMessage(error), failed, (target) => resolveIn(opened, target).then(() => true)) };
      }
      return Object.keys(values.stored).length > 0 ? { state: "passed", variables: values.stored } : { state: "passed" };
    },

    async evaluate({ script, argv, baseUrl, runId, session: key }, signal) {
      const opened = await sessionFor(signal, runId, new CommandVariables({}), baseUrl, key);
      const { runner } = opened;
      try {
        const { value } = await abortable(runner.evaluateConditional({ script, argv } as never), signal, () => {});
        return value;
      } catch (error) {
        if (!signal.aborted && (opened.dead || isGone(error))) {
          drop(opened);
          throw new PageGoneError(goneMessage(error));
        }
        throw error;
      }
    },

    hasPage: () => current !== null && !current.dead,

    async resolveLocator(location) {
      parseLocator(location);
      const opened = current;
      if (!opened || opened.dead) throw new LocatorError("NoPage", `There is no page under test to resolve ${JSON.stringify(location)} in.`);
      return resolveIn(opened, location);
    },

    async findInPage(location, outline) {
      const opened = current;
      if (!opened || opened.dead) throw new LocatorError("NoPage", "No page is open: play or record a test to open the page under test.");
      return findWith(opened.driver, location, outline);
    },

    playedInPage: () => playedInPage,

    chromedriverPid: () => (current && !current.dead ? (current.chromedriver?.pid() ?? null) : null),

    async capturePage() {
      const opened = current;
      if (!opened || opened.dead) return null;
      opened.camera ??= pageCamera(opened.driver);
      const camera = opened.camera;
      try {
        return await (await camera).capture();
      } catch (error) {
        // A camera whose connection dropped is made anew at the next picture; the browser may be fine.
        if (opened.camera === camera && !(await camera.then((c) => c.usable(), () => false))) closeCamera(opened);
        throw error;
      }
    },

    witness() {
      const opened = current;
      if (!opened || opened.dead) return Promise.resolve(null);
      opened.witness ??= pageWitness(opened.driver).catch(() => null);
      return opened.witness;
    },
    livePage: (sink) => live.follow(current && !current.dead ? current.driver : null, sink),

    stopLivePage: () => live.stop(),

    async sideRuntime() {
      const opened = await acquire(new AbortController().signal, undefined);
      return { driver: opened.driver, executor: opened.runner };
    },

    async close() {
      const unused = ahead.close();
      const opened = current ?? (session ? await session.catch(() => null) : null);
      session = null;
      current = null;
      await unused;
      if (!opened) return;
      void retire(opened, false);
      await opened.driver.quit().catch(() => {});
      opened.chromedriver?.kill("SIGTERM");
      if (opened.chromedriver) killBrowser(opened.userDataDir);
    },
  };
}
