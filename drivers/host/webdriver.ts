// The host's page under test (the executor port of core/ports.ts): Selenium IDE's own
// `WebDriverExecutor` (@seleniumhq/side-runtime) over selenium-webdriver 4, driving headless
// Chromium through Debian's chromedriver, or any WebDriver endpoint (`webdriverUrl`: a
// Selenium Grid, a chromedriver started by hand). Each page command is called the way
// side-runtime's CommandNode calls it, so the implicit wait, the locator fallback and the
// error messages are Selenium IDE's; the run machine decides everything else.
//
// The browser starts once, at the first command that needs it, and is reused across runs.
// A browser or chromedriver that is gone rejects the command (the run ends `fatal`) and is
// dropped, so the next run starts a new one. `capturePage` gives the UI a picture of the page
// (devtools.ts), beside the run's commands, never in their way.
import webdriver from "selenium-webdriver";
import type { WebDriver } from "selenium-webdriver";
import WebDriverExecutorModule from "@seleniumhq/side-runtime/dist/webdriver.js";
import * as sideErrors from "@seleniumhq/side-runtime/dist/errors/index.js";
import VariablesModule from "@seleniumhq/side-runtime/dist/variables.js";
import { TimeoutError, withTimeout } from "../../core/ports.ts";
import type { Executor } from "../../core/ports.ts";
import type { PageOutcome } from "../../machines/testRunner.types.ts";
import { messageOf } from "../../services/errors.ts";
import { LocatorError, parseLocator } from "../../services/locators/index.ts";
import { readVariable } from "../../services/playback/variables.ts";
import type { VariableValues } from "../../services/playback/variables.ts";
import type { PageShot } from "../view/messages.ts";
import { sessionCapabilities } from "./capabilities.ts";
import type { Capabilities } from "./capabilities.ts";
import { CHROMEDRIVER_PATH, ChromedriverError, killBrowser, startChromedriver } from "./chromedriver.ts";
import type { Chromedriver } from "./chromedriver.ts";
import { pageCamera } from "./devtools.ts";
import type { PageCamera } from "./devtools.ts";
import { callResolver, fromPage, locatorBundle } from "./pages.ts";

// CommonJS modules with `exports.default`: Node's ESM loader hands over the exports object.
const unwrap = <T,>(module: T): T => (module as { default?: T }).default ?? module;
const WebDriverExecutor = unwrap(WebDriverExecutorModule);
const Variables = unwrap(VariablesModule);
type SideExecutor = InstanceType<typeof WebDriverExecutor>;
const { AssertionError, VerificationError } = unwrap(sideErrors as unknown as typeof import("@seleniumhq/side-runtime/dist/errors/index.js"));

export interface WebDriverPageOptions {
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
}

export interface WebDriverPage extends Executor {
  /** The URL that replaces the project's for `open` (options.baseUrl), if any: where recording opens the page too. */
  readonly baseUrl?: string;
  /** Whether a browser is running now (GET /playback/location resolves in it then). */
  hasPage(): boolean;
  /** The xpath of what a locator matches in the driven page. */
  resolveLocator(location: string): Promise<string>;
  /** The process id of the chromedriver this started, while it runs (tests kill it). */
  chromedriverPid(): number | null;
  /** The page as it is now (URL, title, small JPEG) for the UI; null while there is no browser. Rejects when it cannot be taken. */
  capturePage(): Promise<PageShot | null>;
  /**
   * The browser session and the side-runtime executor over it that commands play with,
   * started if need be: for the benchmark that sets side-runtime's own Playback beside the
   * IDE on the same executor and browser. Whoever plays with it must not quit the driver.
   */
  sideRuntime(): Promise<{ driver: WebDriver; executor: SideExecutor }>;
  /** Quits the browser and stops chromedriver. */
  close(): Promise<void>;
}

/** Selenium's `Variables` over a run's values; what commands store is kept apart, to be handed back. */
class CommandVariables extends Variables {
  readonly stored: Record<string, unknown> = {};
  constructor(private readonly values: VariableValues) {
    super();
  }
  override get(key: string): unknown {
    if (Object.hasOwn(this.stored, key)) return this.stored[key];
    return readVariable(this.values, key).value;
  }
  override has(key: string): boolean {
    return Object.hasOwn(this.stored, key) || readVariable(this.values, key).found;
  }
  override set(key: string, value: unknown): void {
    this.stored[key] = value;
  }
}

/** The page under test is gone: the run cannot go on. */
export class PageGoneError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PageGoneError";
  }
}

const GONE = /ECONNREFUSED|ECONNRESET|EPIPE|socket hang up|invalid session id|session deleted|no such session|chrome not reachable|disconnected: not connected to DevTools|target crashed|session not created|Unable to receive message from renderer/i;

/** A browser, chromedriver or remote end that is not there any more. */
export function isGone(error: unknown): boolean {
  if (error instanceof PageGoneError) return true;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === "NoSuchSessionError" || name === "SessionNotCreatedError") return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ECONNREFUSED" || code === "ECONNRESET") return true;
  return GONE.test(messageOf(error));
}

/** A failed command's message without chromedriver's "(Session info: chrome=…)" line, which says nothing of the command. */
export function commandMessage(error: unknown): string {
  return messageOf(error).replace(/\n\s*\(Session info: [^)\n]*\)\s*$/, "");
}

/** How long a browser kept from an earlier run has to answer before a new run uses it (else it is replaced). */
const KEPT_BROWSER_ANSWER_MS = 10_000;

// Commands side-runtime retries until the implicit wait, as its CommandNode does.
const RETRIED = new Set(["click", "check", "select", "type", "sendKeys", "uncheck"]);

interface Session {
  driver: WebDriver;
  runner: SideExecutor;
  chromedriver: Chromedriver | null;
  dead: boolean;
  /** The browser's profile folder, by which its processes are found when chromedriver died without them. */
  userDataDir: string | null;
  /** The run that used it last: if it dies, that run hears so; another run starts a new one. */
  runId: string | undefined;
  /** What takes the UI's pictures of the page, made at the first capture. */
  camera: Promise<PageCamera> | null;
}

const silentLogger = { info() {}, log() {}, warn() {}, error() {}, debug() {} } as unknown as Console;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function abortable<T>(work: Promise<T>, signal: AbortSignal, onAbort: () => void): Promise<T> {
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

/** What opening a session needs of the page's options. */
interface SessionSettings {
  webdriverUrl: string | undefined;
  chromedriverPath: string;
  chromiumPath: string | undefined;
  baseUrl: string;
  implicitWaitMs: number;
  startTimeoutMs: number;
  capabilities: Capabilities | undefined;
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
async function openSession(settings: SessionSettings): Promise<Session> {
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
  const runner = new WebDriverExecutor({ driver, implicitWait: settings.implicitWaitMs });
  await runner.init({ baseUrl: settings.baseUrl, logger: silentLogger, variables: new Variables() });
  const chromeCaps = (await driver.getCapabilities().catch(() => null))?.get("chrome") as { userDataDir?: string } | undefined;
  const opened: Session = { driver, runner, chromedriver, dead: false, runId: undefined, userDataDir: chromeCaps?.userDataDir ?? null, camera: null };
  chromedriver?.onExit(() => (opened.dead = true));
  return opened;
}

export function webdriverPage(options: WebDriverPageOptions = {}): WebDriverPage {
  const implicitWaitMs = options.implicitWaitMs ?? 5_000;
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  const chromedriverPath = options.chromedriverPath ?? CHROMEDRIVER_PATH;
  const chromiumPath = options.chromiumPath ?? process.env.CHROMIUM_PATH ?? (options.webdriverUrl ? undefined : "/usr/bin/chromium");
  let session: Promise<Session> | null = null;
  let current: Session | null = null;
  const settings: SessionSettings = {
    webdriverUrl: options.webdriverUrl,
    chromedriverPath,
    chromiumPath,
    baseUrl: options.baseUrl ?? "",
    implicitWaitMs,
    startTimeoutMs,
    capabilities: options.capabilities,
  };

  async function acquire(signal: AbortSignal, runId: string | undefined): Promise<Session> {
    const before = current;
    if (before?.dead) {
      drop(before);
      // The run that was using it cannot go on in a new browser (its page is lost); the next can.
      if (runId === undefined || before.runId === runId) throw new PageGoneError(goneMessage(new Error("the browser or chromedriver exited")));
    }
    const kept = session !== null;
    session ??= openSession(settings).then(
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
      return acquire(signal, runId);
    }
    if (runId !== undefined) opened.runId = runId;
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

  function drop(gone: Session) {
    gone.dead = true;
    closeCamera(gone);
    if (current !== gone) return;
    current = null;
    session = null;
    const quitting = gone.driver.quit().catch(() => {});
    gone.chromedriver?.kill("SIGKILL");
    if (gone.chromedriver) void quitting.then(() => killBrowser(gone.userDataDir));
  }

  const goneMessage = (error: unknown) =>
    error instanceof PageGoneError
      ? error.message
      : `The browser under test is gone (${options.webdriverUrl ? `WebDriver endpoint ${options.webdriverUrl}` : "chromedriver"}): ${messageOf(error).split("\n")[0]}. The next run starts a new one.`;

  /** One command as side-runtime's CommandNode runs it, with its retries. */
  async function call(runner: SideExecutor, method: string, command: { command: string; target: string; value: string }, signal: AbortSignal) {
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
          isGone(error) ||
          signal.aborted ||
          Date.now() > deadline;
        if (final) throw error;
        await sleep(100);
      }
    }
  }

  /** The run's session, its executor set to the command's variables and base URL; a browser that cannot be had is PageGoneError. */
  async function sessionFor(signal: AbortSignal, runId: string | undefined, variables: CommandVariables, baseUrl: string): Promise<Session> {
    let opened: Session;
    try {
      opened = await acquire(signal, runId);
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
    async execute({ command, variables, baseUrl, runId }, signal): Promise<PageOutcome> {
      let method: string;
      try {
        method = command.command ? WebDriverExecutor.prototype.nameTransform.call(null, command.command) : "skip";
        if (typeof (WebDriverExecutor.prototype as unknown as Record<string, unknown>)[method] !== "function") throw new Error();
      } catch {
        return { state: "failed", message: `Unknown command ${command.command}: no registered plugin has it, and the page under test (Selenium IDE's WebDriver executor) cannot play it.` };
      }
      const values = new CommandVariables(variables);
      const opened = await sessionFor(signal, runId, values, baseUrl);
      const { runner } = opened;
      try {
        await abortable(call(runner, method, command, signal), signal, () => void runner.cancel().catch(() => {}));
      } catch (error) {
        if (signal.aborted) throw error;
        if (opened.dead || isGone(error)) {
          drop(opened);
          throw new PageGoneError(goneMessage(error));
        }
        return { state: "failed", message: commandMessage(error) };
      }
      return Object.keys(values.stored).length > 0 ? { state: "passed", variables: values.stored } : { state: "passed" };
    },

    async evaluate({ script, argv, baseUrl, runId }, signal) {
      const opened = await sessionFor(signal, runId, new CommandVariables({}), baseUrl);
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
      const bundle = await locatorBundle();
      let answer = await opened.driver.executeScript(`return ${callResolver(location)};`);
      if (answer === null) {
        await opened.driver.executeScript(bundle); // its footer sets globalThis[PAGE_GLOBAL]
        answer = await opened.driver.executeScript(`return ${callResolver(location)};`);
      }
      return fromPage(answer, location, "under test");
    },

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

    async sideRuntime() {
      const opened = await acquire(new AbortController().signal, undefined);
      return { driver: opened.driver, executor: opened.runner };
    },

    async close() {
      const opened = current ?? (session ? await session.catch(() => null) : null);
      session = null;
      current = null;
      if (!opened) return;
      opened.dead = true;
      closeCamera(opened);
      await opened.driver.quit().catch(() => {});
      opened.chromedriver?.kill("SIGTERM");
      if (opened.chromedriver) killBrowser(opened.userDataDir);
    },
  };
}
