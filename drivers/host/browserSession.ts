// One browser session of the host's page under test: a WebDriver session (at the endpoint
// given, or at a chromedriver started here) with side-runtime's \`WebDriverExecutor\` over it,
// and the run's variables as side-runtime's \`Variables\` see them; one opened ahead for a
// suite's next test (sessionAhead); a command played as side-runtime's CommandNode plays it.
// browserPage.ts decides when a session opens, is reused or is dropped.
import webdriver from "selenium-webdriver";
import type { WebDriver } from "selenium-webdriver";
import { createRequire } from "node:module";
import { messageOf } from "../../services/errors.ts";
import { TimeoutError, withTimeout } from "../../services/timeout.ts";
import { sessionCapabilities } from "./capabilities.ts";
import type { Capabilities } from "./capabilities.ts";
import { ChromedriverError, startChromedriver } from "./chromedriver.ts";
import type { Chromedriver } from "./chromedriver.ts";
import type { PageCamera } from "./devtools.ts";
import type { PageWitness } from "./pageWitness.ts";
import { isGone, PageGoneError } from "./pageGone.ts";
import { withShadowLocators } from "./shadowLocator.ts";
import { withFileUploads } from "./fileUpload.ts";
import { AssertionError, Variables, VerificationError, WebDriverExecutor } from "./sideRuntime.ts";
import type { SideExecutor } from "./sideRuntime.ts";
import { UploadError } from "../../services/playback/uploads.ts";
import type { UploadPlaces } from "../../services/playback/uploads.ts";

// selenium-webdriver's remote module has no ESM path its types are declared for: it is required.
const { FileDetector } = createRequire(import.meta.url)("selenium-webdriver/remote") as typeof import("selenium-webdriver/remote");

export interface Session {
  driver: WebDriver;
  runner: SideExecutor;
  chromedriver: Chromedriver | null;
  dead: boolean;
  /** The browser's profile folder, by which its processes are found when chromedriver died without them. */
  userDataDir: string | null;
  /** The run that used it last: if it dies, that run hears so; another run starts a new one. */
  runId: string | undefined;
  /**
   * The test session it serves (PageCommandInput's `session`): a command naming another is played
   * in a fresh browser instead, so a suite's tests share nothing unless they share the name.
   */
  key: string | undefined;
  /** What takes the UI's pictures of the page, made at the first capture. */
  camera: Promise<PageCamera> | null;
  /** What hears the page's console errors for traces, made at the first trace's command. */
  witness?: Promise<PageWitness | null> | null;
}

// Commands side-runtime retries until the implicit wait, as its CommandNode does.
const RETRIED = new Set(["click", "check", "select", "type", "sendKeys", "uncheck"]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `work`, or a rejection as soon as `signal` aborts (`onAbort` told first). */
export function abortable<T>(work: Promise<T>, signal: AbortSignal, onAbort: () => void): Promise<T> {
  if (signal.aborted) {
    onAbort();
    return Promise.reject(new Error("the run let go of the command"));
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      onAbort();
      reject(new Error("the run let go of the command"));
    };
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/** One command on side-runtime's executor as its CommandNode runs it, with its retries until the implicit wait. */
export async function playAsCommandNode(runner: SideExecutor, method: string, command: { command: string; target: string; value: string }, implicitWaitMs: number, signal: AbortSignal) {
  const fn = (runner as unknown as Record<string, (t: string, v: string, c: unknown) => Promise<unknown>>)[method];
  const deadline = Date.now() + implicitWaitMs;
  for (;;) {
    try {
      await runner.beforeCommand(command as never);
      await fn.call(runner, command.target, command.value, command);
      await runner.afterCommand(command as never);
      return;
    } catch (error) {
      const final =
        !RETRIED.has(command.command) ||
        error instanceof AssertionError ||
        error instanceof VerificationError ||
        error instanceof UploadError ||
        isGone(error) ||
        signal.aborted ||
        Date.now() > deadline;
      if (final) throw error;
      await sleep(100);
    }
  }
}

const silentLogger = { info() {}, log() {}, warn() {}, error() {}, debug() {} } as unknown as Console;

/** What opening a session needs of the page's options. */
export interface SessionSettings {
  webdriverUrl: string | undefined;
  chromedriverPath: string;
  chromiumPath: string | undefined;
  baseUrl: string;
  implicitWaitMs: number;
  startTimeoutMs: number;
  capabilities: Capabilities | undefined;
  /** Where `type` on a file input looks for a relative path. */
  uploads: UploadPlaces;
}

/** The endpoint to open a session at: the one given, or a chromedriver started here (null: none started). */
async function webdriverEndpoint(settings: SessionSettings): Promise<{ server: string; chromedriver: Chromedriver | null }> {
  if (settings.webdriverUrl) return { server: settings.webdriverUrl, chromedriver: null };
  try {
    const chromedriver = await startChromedriver(settings.chromedriverPath, settings.startTimeoutMs);
    return { server: chromedriver.url, chromedriver };
  } catch (error) {
    throw error instanceof ChromedriverError ? new PageGoneError(error.message) : error;
  }
}

/** A browser session with side-runtime's executor over it, ready for commands. */
export async function openSession(settings: SessionSettings): Promise<Session> {
  const { server, chromedriver } = await webdriverEndpoint(settings);
  const capabilities = sessionCapabilities(settings.capabilities, settings.chromiumPath);
  let driver: WebDriver;
  // A Grid whose slots are all busy queues the request: the wait has the start's limit, and a
  // session that comes after it is quit at once.
  const building = new webdriver.Builder().usingServer(server).withCapabilities(capabilities).build();
  try {
    driver = await withTimeout(building, settings.startTimeoutMs, "the new browser session");
  } catch (error) {
    if (error instanceof TimeoutError) void building.then((late) => late.quit(), () => {});
    chromedriver?.kill("SIGKILL");
    throw new PageGoneError(`The browser could not be started through ${settings.webdriverUrl ? `the WebDriver endpoint ${server}` : `chromedriver (${settings.chromedriverPath})`}: ${messageOf(error).split("\n")[0]}`);
  }
  // Through a remote end, a file input's path names a file here: the detector uploads it to the node first.
  if (settings.webdriverUrl) driver.setFileDetector(new FileDetector());
  const runner = withFileUploads(new WebDriverExecutor({ driver: withShadowLocators(driver), implicitWait: settings.implicitWaitMs }), settings.uploads);
  await runner.init({ baseUrl: settings.baseUrl, logger: silentLogger, variables: new Variables() });
  const chromeCaps = (await driver.getCapabilities().catch(() => null))?.get("chrome") as { userDataDir?: string } | undefined;
  const opened: Session = { driver, runner, chromedriver, dead: false, runId: undefined, key: undefined, userDataDir: chromeCaps?.userDataDir ?? null, camera: null };
  chromedriver?.onExit(() => (opened.dead = true));
  return opened;
}

/** How long a session opened ahead waits for a test after the page's last command before it is quit. */
export const AHEAD_IDLE_MS = 15_000;

export interface SessionAhead {
  /** Opens the next session now, unless one is open or opening already. */
  open(): void;
  /** The session opened ahead (resolving to null if it could not be opened), taken for a test; null when there is none. */
  take(): Promise<Session | null> | null;
  /** The page played a command: a session opened ahead is still wanted. */
  touch(): void;
  /** Quits the session opened ahead, if any. */
  close(): Promise<void>;
}

/**
 * The next test's browser session, opened while the test before plays: each test of a suite
 * without persistSession gets a fresh session (CONTRACT section 22), and a browser's start
 * (about a second of a local Chromium's, several through a busy Grid) is then off the tests'
 * path, the sessions of two workers no longer starting at the same moment between their tests.
 * Nothing plays in it before it is taken, so it is as fresh as one opened on demand. One the
 * page stopped needing (no command for AHEAD_IDLE_MS) is quit.
 */
export function sessionAhead(open: () => Promise<Session>, end: (session: Session) => Promise<void>): SessionAhead {
  let ahead: Promise<Session | null> | null = null;
  let idle: NodeJS.Timeout | undefined;
  const take = () => {
    clearTimeout(idle);
    const taken = ahead;
    ahead = null;
    return taken;
  };
  const quit = async () => {
    const opened = await take();
    if (opened) await end(opened);
  };
  const touch = () => {
    if (!ahead) return;
    clearTimeout(idle);
    idle = setTimeout(() => void quit(), AHEAD_IDLE_MS);
    idle.unref();
  };
  return {
    open() {
      if (ahead) return;
      ahead = open().catch(() => null);
      touch();
    },
    take,
    touch,
    close: quit,
  };
}
