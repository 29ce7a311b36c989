// One browser session of the host's page under test: a WebDriver session (at the endpoint
// given, or at a chromedriver started here) with side-runtime's \`WebDriverExecutor\` over it,
// and the run's variables as side-runtime's \`Variables\` see them. browserPage.ts decides when a
// session opens, is reused or is dropped.
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
import { PageGoneError } from "./pageGone.ts";
import { withShadowLocators } from "./shadowLocator.ts";
import { withFileUploads } from "./fileUpload.ts";
import { Variables, WebDriverExecutor } from "./sideRuntime.ts";
import type { SideExecutor } from "./sideRuntime.ts";
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
