// The reference "Assert text" is measured against (issue 34): what Selenium's
// WebElement.getText() returns through Debian's chromedriver, beside what the player's
// visibleText (drivers/player/dom.ts, which the recorder and assertText use) reads from the same
// element in the same session. isDisplayed is set beside selenium-webdriver's isDisplayed(),
// which runs Selenium's own is-displayed atom in the page. Pages: the text torture page
// (tests/support/gettext/torture.html) and saved pages (the heal benchmark's, ../shared's
// fixture page and tests/support/gettext/saved/). The test (tests/browser/gettext.browser.test.ts)
// and the benchmark (bench/gettext.ts) share it.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import webdriver from "selenium-webdriver";
import type { WebDriver, WebElement } from "selenium-webdriver";
import { defaultCapabilities, sessionCapabilities } from "../../drivers/host/capabilities.ts";
import { chromiumExecutable } from "../../drivers/host/chromium.ts";
import { CHROMEDRIVER_PATH, startChromedriver } from "../../drivers/host/chromedriver.ts";
import type { Chromedriver } from "../../drivers/host/chromedriver.ts";
import { bundleForPage, servePages } from "./browserPages.ts";
import { SHARED_DIR } from "./shared.ts";

const HERE = fileURLToPath(new URL("./gettext/", import.meta.url));
const HEAL_PAGES = fileURLToPath(new URL("../../bench/heal/pages/", import.meta.url));

export const TORTURE_PAGE = "torture";

/** A page by name, its HTML. */
export interface ReferencePage {
  name: string;
  html: string;
}

const htmlFiles = (dir: string, prefix: string): ReferencePage[] =>
  readdirSync(dir)
    .filter((file) => file.endsWith(".html"))
    .sort()
    .map((file) => ({ name: `${prefix}${basename(file, ".html")}`, html: readFileSync(dir + file, "utf8") }));

export const torturePage = (): ReferencePage => ({ name: TORTURE_PAGE, html: readFileSync(HERE + "torture.html", "utf8") });

/** The saved pages: ours, the heal benchmark's (read at each run: the benchmark gains pages) and ../shared's fixture page. */
export const savedPages = (): ReferencePage[] => [
  ...htmlFiles(HERE + "saved/", ""),
  ...htmlFiles(HEAL_PAGES, "heal/"),
  { name: "shared/page", html: readFileSync(SHARED_DIR + "fixtures/page.html", "utf8") },
];

/** One element read both ways. */
export interface Compared {
  page: string;
  /** The element as a short path, e.g. `div#sizes > span.far`. */
  element: string;
  webdriver: { text: string; displayed: boolean };
  ours: { text: string; displayed: boolean };
  /** The baseline: innerText with each line trimmed and blank lines dropped, as the player read text before. */
  innerText: string;
}

export const innerTextMatches = (c: Compared): boolean => c.webdriver.text === c.innerText;

export const textMatches = (c: Compared): boolean => c.webdriver.text === c.ours.text;
export const displayedMatches = (c: Compared): boolean => c.webdriver.displayed === c.ours.displayed;

/** A difference as a line: the page, the element, both readings. */
export function describeDifference(c: Compared): string {
  const parts = [`${c.page}: ${c.element}`];
  if (!textMatches(c)) parts.push(`text: chromedriver ${JSON.stringify(c.webdriver.text)}, visibleText ${JSON.stringify(c.ours.text)}`);
  if (!displayedMatches(c)) parts.push(`displayed: Selenium ${c.webdriver.displayed}, isDisplayed ${c.ours.displayed}`);
  return parts.join("; ");
}

const GLOBAL = "__getTextReference";

// selenium-webdriver's isDisplayed() sends this atom with each call (lib/http.js); it is run here
// once for all the elements of a page instead, which gives the same answers in a fraction of the time.
const IS_DISPLAYED_ATOM = String(createRequire(import.meta.url)("selenium-webdriver/lib/atoms/is-displayed.js"));

// Every element of the body (the body too), through open shadow roots, in document order with a
// shadow tree right after its host; scripts, styles and templates are never rendered, so they
// are left out rather than counted as easy matches.
const COLLECT = `
const skip = new Set(["script", "style", "template"]);
const found = [];
const visit = (el) => {
  if (!skip.has(el.localName)) found.push(el);
  if (el.shadowRoot) for (const child of el.shadowRoot.children) visit(child);
  for (const child of el.children) visit(child);
};
visit(document.body);
const name = (el) => el.localName + (el.id ? "#" + el.id : "") + (typeof el.className === "string" && el.className.trim() ? "." + el.className.trim().split(/\\s+/).join(".") : "");
const path = (el) => {
  const steps = [];
  for (let at = el; at && at !== document.body && steps.length < 3; at = at.parentElement || (at.parentNode && at.parentNode.host)) steps.unshift(name(at));
  return steps.join(" > ") || "body";
};
const read = window.${GLOBAL};
const seleniumDisplayed = ${IS_DISPLAYED_ATOM};
const innerText = (el) => typeof el.innerText !== "string" ? "" : el.innerText.split("\\n").map((line) => line.replace(/^[^\\S\\u00a0]+|[^\\S\\u00a0]+$/g, "")).filter((line) => line !== "").join("\\n").replace(/\\u00a0/g, " ").trim();
return {
  elements: found,
  names: found.map(path),
  ours: found.map((el) => [read.visibleText(el), read.isDisplayed(el)]),
  displayed: found.map((el) => seleniumDisplayed(el)),
  innerText: found.map(innerText),
};`;

interface Collected {
  elements: WebElement[];
  names: string[];
  ours: Array<[string, boolean]>;
  displayed: boolean[];
  innerText: string[];
}

/** getText requests in flight at once: chromedriver answers them in turn, the round trips overlap. */
const IN_FLIGHT = 16;

/** A chromedriver session and a site serving the pages, for reading elements both ways. */
export interface Reference {
  /** Loads page `name` and reads every element both ways. */
  compare(name: string): Promise<Compared[]>;
  close(): Promise<void>;
}

export async function openReference(pages: ReferencePage[]): Promise<Reference> {
  const bundle = await bundleForPage(`export { visibleText, isDisplayed } from "./drivers/player/dom.ts";`, GLOBAL);
  const site = await servePages(Object.fromEntries(pages.map((p) => [`/${p.name}`, p.html])));
  let chromedriver: Chromedriver | undefined;
  let driver: WebDriver | undefined;
  try {
    chromedriver = await startChromedriver(CHROMEDRIVER_PATH, 20_000);
    driver = await new webdriver.Builder().usingServer(chromedriver.url).withCapabilities(sessionCapabilities(defaultCapabilities(), chromiumExecutable())).build();
  } catch (error) {
    chromedriver?.kill("SIGKILL");
    await site.close();
    throw error;
  }
  const session = driver;
  return {
    async compare(name) {
      await session.get(`${site.origin}/${name}`);
      await session.executeScript(`${bundle}; window.${GLOBAL} = ${GLOBAL};`);
      const collected = (await session.executeScript(COLLECT)) as Collected;
      const texts: string[] = [];
      for (let from = 0; from < collected.elements.length; from += IN_FLIGHT) {
        texts.push(...(await Promise.all(collected.elements.slice(from, from + IN_FLIGHT).map((element) => element.getText()))));
      }
      return texts.map((text, i) => ({
        page: name,
        element: collected.names[i],
        webdriver: { text, displayed: collected.displayed[i] },
        ours: { text: collected.ours[i][0], displayed: collected.ours[i][1] },
        innerText: collected.innerText[i],
      }));
    },
    async close() {
      await session.quit().catch(() => {});
      chromedriver?.kill("SIGTERM");
      await site.close();
    },
  };
}

/** How many of `compared` match by `matches`, and the share. */
export function share(compared: Compared[], matches: (c: Compared) => boolean): { matched: number; of: number; share: number } {
  const matched = compared.filter(matches).length;
  return { matched, of: compared.length, share: compared.length === 0 ? 0 : matched / compared.length };
}
