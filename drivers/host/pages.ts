// The pages the host's locators resolve against. By default the example page that ships
// with the project, parsed in this process by jsdom (scripts do not run). With `--page URL`,
// a live page in headless Chromium: there the project's own resolver (services/locators/) is
// bundled and run inside the page, so a live page answers with the same xpath forms as the
// built-in resolver, checked by the browser's own CSS and XPath engines.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { messageOf } from "../../services/errors.ts";
import { isLocatorErrorCode, LocatorError, parseLocator } from "../../services/locators/index.ts";
import { withTimeout } from "../../services/timeout.ts";
import type { ResolveLocator } from "../../core/ports.ts";
import { pageGlobalBundle } from "./bundle.ts";
import { launchChromium } from "./chromium.ts";

export const EXAMPLE_PAGE_PATH = fileURLToPath(new URL("../../examples/shop-page.html", import.meta.url));
const LOCATORS_ENTRY = fileURLToPath(new URL("../../services/locators/index.ts", import.meta.url));

/** The global the bundled resolver lives under inside a live page. */
export const PAGE_GLOBAL = "__ideCoreLocators";

/** A page that cannot be opened: a URL that is not one, or a page that does not load. */
export class PageLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PageLoadError";
  }
}

// ---- a page parsed in this process ---------------------------------------------------

/** An HTML file parsed by jsdom; its scripts do not run. */
export function documentFromFile(path: string): Document {
  let html: string;
  try {
    html = readFileSync(path, "utf8");
  } catch (error) {
    throw new PageLoadError(`Cannot read the page ${path}: ${messageOf(error)}`);
  }
  // jsdom is loaded at the first page parsed: a second of a start that parses none (npm run play).
  const { JSDOM } = createRequire(import.meta.url)("jsdom") as typeof import("jsdom");
  return new JSDOM(html, { url: pathToFileURL(path).href }).window.document;
}

/** examples/shop-page.html, the page the host resolves against when given no other. */
export function exampleDocument(): Document {
  return documentFromFile(EXAMPLE_PAGE_PATH);
}

// ---- a live page in Chromium ---------------------------------------------------------

export interface LivePage {
  /** The port for createIde/startHost: the xpath of what a locator matches in the page as it is now. */
  resolveLocator: ResolveLocator;
  /** The Playwright page, for tests and tools that drive it (navigate, click, reload). */
  page: Page;
  /** Closes Chromium; later resolutions answer NoPage. */
  close(): Promise<void>;
}

export interface LivePageOptions {
  /** How long the first load may take. */
  loadTimeoutMs?: number;
  /** How long one resolution may take before it fails (a page stuck in a script never answers). */
  resolveTimeoutMs?: number;
}

/** services/locators/index.ts bundled for a page, once per process; defines globalThis[PAGE_GLOBAL]. */
export async function locatorBundle(): Promise<string> {
  return pageGlobalBundle(LOCATORS_ENTRY, PAGE_GLOBAL);
}

/** Opens `url` in headless Chromium and resolves locators inside it, across navigations. */
export async function openLivePage(url: string, options: LivePageOptions = {}): Promise<LivePage> {
  const { loadTimeoutMs = 30_000, resolveTimeoutMs = 10_000 } = options;
  const target = pageUrl(url);
  const bundle = await locatorBundle();
  const browser = await launchChromium(); // ChromiumMissingError says what to install
  let page: Page;
  try {
    page = await browser.newPage();
    await load(page, target, url, loadTimeoutMs);
  } catch (error) {
    await browser.close().catch(() => {});
    throw error;
  }

  let closed = false;
  let crashed = false;
  page.on("crash", () => {
    crashed = true;
  });
  const gone = (location: string) => {
    const why = closed ? "was closed" : crashed ? "crashed" : "is closed";
    return new LocatorError("NoPage", `The page ${url} ${why}, so the locator ${JSON.stringify(location)} cannot be resolved.`);
  };

  const resolveInPage = async (location: string): Promise<string> => {
    for (let attempt = 1; ; attempt++) {
      if (closed || crashed || page.isClosed()) throw gone(location);
      let answer: unknown;
      try {
        answer = await page.evaluate(callResolver(location));
        if (answer === null) {
          // A new document (first use, reload, link click) has no resolver yet.
          await page.evaluate(bundle);
          answer = await page.evaluate(callResolver(location));
        }
      } catch (error) {
        if (closed || crashed || page.isClosed()) throw gone(location);
        if (attempt < MAX_ATTEMPTS && isNavigationRace(error)) {
          await page.waitForLoadState("domcontentloaded").catch(() => {});
          continue;
        }
        throw new Error(`Resolving ${JSON.stringify(location)} in the page ${url} failed: ${firstLine(error)}`);
      }
      if (answer === null && attempt < MAX_ATTEMPTS) continue; // navigated between injecting and calling
      return fromPage(answer, location, url);
    }
  };

  return {
    page,
    resolveLocator: async (location) => {
      parseLocator(location); // InvalidLocator comes before any page work
      return withTimeout(resolveInPage(location), resolveTimeoutMs, `the page ${url}`);
    },
    close: async () => {
      closed = true;
      await browser.close();
    },
  };
}

const MAX_ATTEMPTS = 5;

type PageAnswer = { xpath: string } | { errorCode: string | null; message: string };

// A string, not a function: page.evaluate serialises a function's source, and under tsx that
// source calls the __name helper, which the page does not have. The JSON literal keeps any
// locator text inside the string. A LocatorError cannot cross into Node, so its code travels as data.
export function callResolver(location: string): string {
  return `((location) => {
    const lib = globalThis.${PAGE_GLOBAL};
    if (!lib || typeof lib.resolveInDocument !== "function") return null;
    try {
      return { xpath: lib.resolveInDocument(document, location) };
    } catch (error) {
      const code = error && typeof error.errorCode === "string" ? error.errorCode : null;
      return { errorCode: code, message: error instanceof Error ? error.message : String(error) };
    }
  })(${JSON.stringify(location)})`;
}

export function fromPage(answer: unknown, location: string, url: string): string {
  const a = answer as PageAnswer | null;
  if (a && "xpath" in a && typeof a.xpath === "string") return a.xpath;
  if (a && "message" in a) {
    if (isLocatorErrorCode(a.errorCode)) {
      throw new LocatorError(a.errorCode, String(a.message));
    }
    throw new Error(`The page ${url} failed to resolve ${JSON.stringify(location)}: ${String(a.message)}`);
  }
  throw new Error(`The page ${url} kept replacing its document, so ${JSON.stringify(location)} could not be resolved.`);
}

function pageUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PageLoadError(`The page URL ${JSON.stringify(url)} is not a valid URL; give a full address such as http://localhost:3000/.`);
  }
  if (!["http:", "https:", "file:"].includes(parsed.protocol)) {
    throw new PageLoadError(
      `The page URL ${JSON.stringify(url)} is not an http, https or file URL; give a full address such as http://localhost:3000/.`,
    );
  }
  return parsed;
}

async function load(page: Page, target: URL, url: string, timeoutMs: number): Promise<void> {
  let response;
  try {
    response = await page.goto(target.href, { waitUntil: "load", timeout: timeoutMs });
  } catch (error) {
    // Playwright's text is "page.goto: net::ERR_… at URL" and then a call log.
    const reason = firstLine(error).replace(/^page\.goto:\s*/, "").replace(` at ${target.href}`, "");
    throw new PageLoadError(`Cannot load the page ${url}: ${reason}`);
  }
  if (response && response.status() >= 400) {
    throw new PageLoadError(`Cannot load the page ${url}: it answered HTTP ${response.status()} ${response.statusText()}`.trimEnd());
  }
}

function isNavigationRace(error: unknown): boolean {
  return /Execution context was destroyed|Cannot find context|navigat/i.test(messageOf(error));
}

const firstLine = (error: unknown): string => messageOf(error).split("\n")[0].trim();
