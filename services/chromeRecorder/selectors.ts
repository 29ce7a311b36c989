// Chrome Recorder's selectors and our locators, both ways. A flow's `selectors` are
// alternatives, each a string or a path of CSS parts into shadow roots (puppeteer steps into
// the shadow root of a host, else into the element: the Recorder writes paths only at shadow
// hosts, which is what our `css=A >>> B` steps into). Kinds: CSS, `xpath/`, `pierce/`
// (puppeteer looks in every shadow root at any depth, which `>>>` cannot say: it is kept as a
// light-DOM `css=` alternative only), `aria/` and `text/` (aria.ts). Locators written the way
// the export writes `id=`, `name=`, `linkText=` and `partialLinkText=` come back as those.
import { parseLocator } from "../locators/parse.ts";
import { xpathLiteral } from "../locators/xpath.ts";
import { ariaLocator, textLocator } from "./aria.ts";

export type ChromeSelector = string | string[];

/** One selector as a locator: its builder-style kind, and whether it finds what puppeteer finds. */
export interface MappedSelector {
  locator: string;
  kind: string;
  faithful: boolean;
}

const PREFIXES = ["aria", "text", "xpath", "pierce"] as const;

/** The kind a selector's prefix names (`aria/...`), or null for CSS. */
function prefixOf(selector: string): (typeof PREFIXES)[number] | null {
  for (const prefix of PREFIXES) if (selector.startsWith(prefix) && selector.charCodeAt(prefix.length) === 0x2f) return prefix;
  return null;
}

/** CSS.escape (CSSOM) for an identifier, written here since Node has no `CSS`. */
export function cssEscape(value: string): string {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const digit = c >= 0x30 && c <= 0x39;
    if (c === 0) out += "\uFFFD";
    else if ((c >= 1 && c <= 0x1f) || c === 0x7f || (i === 0 && digit) || (i === 1 && digit && value.charCodeAt(0) === 0x2d)) out += `\\${c.toString(16)} `;
    else if (i === 0 && value.length === 1 && c === 0x2d) out += "\\-";
    else if (c >= 0x80 || c === 0x2d || c === 0x5f || digit || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) out += value[i];
    else out += `\\${value[i]}`;
  }
  return out;
}

function cssUnescape(value: string): string {
  return value.replace(/\\([0-9a-fA-F]{1,6}) ?|\\([\s\S])/g, (_, hex: string | undefined, ch: string | undefined) =>
    hex !== undefined ? String.fromCodePoint(parseInt(hex, 16)) : ch!,
  );
}

const attributeValue = (value: string) => value.replace(/["\\]/g, "\\$&");
const linkXPath = (text: string) => `//a[normalize-space(.)=${xpathLiteral(text)}]`;
const partialLinkXPath = (text: string) => `//a[contains(normalize-space(.), ${xpathLiteral(text)})]`;

function plays(locator: string): boolean {
  try {
    parseLocator(locator);
    return true;
  } catch {
    return false;
  }
}

const PLAIN_ID = /^#[A-Za-z_][\w-]*$/;

/**
 * A CSS selector (or shadow path) as the locator the export would have written it from. `check`
 * parses it as the players will (a selector they cannot parse is no locator): done for a
 * target, not for the alternatives after it, which a player skips when they do not parse.
 */
function cssLocator(parts: readonly string[], check: boolean): MappedSelector | null {
  // Puppeteer's own pseudo-elements (`::-p-aria(...)`) and deep combinators mean nothing to the players.
  for (const p of parts) if (p.includes("::-p-") || p.includes(">>>") || p.trim() === "") return null;
  if (parts.length === 1 && parts[0].startsWith("#")) {
    // The id the Recorder most often writes needs no escape either way.
    if (PLAIN_ID.test(parts[0])) return { locator: `id=${parts[0].slice(1)}`, kind: "id", faithful: true };
    const id = /^#((?:[\w-]|[^\x00-\x7f]|\\[0-9a-fA-F]{1,6} ?|\\[^0-9a-fA-F\n])+)$/.exec(parts[0]);
    if (id && cssEscape(cssUnescape(id[1])) === id[1]) return { locator: `id=${cssUnescape(id[1])}`, kind: "id", faithful: true };
  } else if (parts.length === 1 && parts[0].startsWith("[name=")) {
    const name = /^\[name="((?:[^"\\]|\\.)*)"\]$/.exec(parts[0]);
    if (name) return { locator: `name=${name[1].replace(/\\(.)/g, "$1")}`, kind: "name", faithful: true };
  }
  const locator = `css=${parts.join(" >>> ")}`;
  return !check || plays(locator) ? { locator, kind: "css:chrome", faithful: true } : null;
}

/**
 * An xpath, or the link-text forms the export writes, as a locator. `check` compiles it (the
 * xpath library takes a millisecond or more): done for a target, not for the alternatives
 * after it, which the Recorder writes from the page and a player tries only as fallbacks.
 */
function xpathLocator(value: string, check: boolean): MappedSelector | null {
  const link = /^\/\/a\[normalize-space\(\.\)=(?:'([^']*)'|"([^"]*)")\]$/.exec(value);
  if (link) return { locator: `linkText=${link[1] ?? link[2]}`, kind: "linkText", faithful: true };
  const partial = /^\/\/a\[contains\(normalize-space\(\.\), (?:'([^']*)'|"([^"]*)")\)\]$/.exec(value);
  if (partial) return { locator: `partialLinkText=${partial[1] ?? partial[2]}`, kind: "partialLinkText", faithful: true };
  const locator = `xpath=${value}`;
  return !check || plays(locator) ? { locator, kind: "xpath:chrome", faithful: true } : null;
}

/** One Chrome selector as a locator the players play, or null when none says it (CSS and xpath are compiled unless `check` is false). */
export function selectorToLocator(selector: ChromeSelector, check = true): MappedSelector | null {
  if (typeof selector !== "string") {
    if (selector.length === 0) return null;
    if (selector.length > 1) return selector.some((p) => prefixOf(p) !== null) ? null : cssLocator(selector, check);
    return selectorToLocator(selector[0], check);
  }
  const prefix = prefixOf(selector);
  if (prefix === null) return cssLocator([selector], check);
  const rest = selector.slice(prefix.length + 1);
  if (prefix === "xpath") return xpathLocator(rest, check);
  if (prefix === "pierce") {
    const css = cssLocator([rest], check);
    return css && { locator: css.locator, kind: "css:pierce", faithful: false };
  }
  // Built from xpathLiteral's quoted values, so it needs no compiling.
  const locator = prefix === "aria" ? ariaLocator(rest) : textLocator(rest);
  return locator ? { locator, kind: prefix === "aria" ? "xpath:aria" : "xpath:text", faithful: true } : null;
}

export type TargetsResult =
  | { ok: true; target: string; targets: [string, string][]; notes: string[] }
  | { ok: false; problem: string };

const shown = (selector: ChromeSelector) => JSON.stringify(selector);

/**
 * What a caller wants of a step's selectors: "targets" (import: the target and every
 * alternative), "target" (the target alone, found as import finds it), or "unchecked" (the
 * target alone, each selector taken as it is written without parsing it: export's quick look
 * at whether a command is still what import made, which "target" settles when it is not).
 */
export type SelectorsWanted = "targets" | "target" | "unchecked";

/**
 * A step's selectors as a command's `target` (the first the players find as puppeteer does,
 * else a light-DOM `pierce/` with a note) and `targets` (every one that maps, in order, as
 * `[locator, kind]` pairs like the recorder's). `notes` name the selectors that have no locator.
 */
export function selectorsToTargets(selectors: readonly ChromeSelector[], wanted: SelectorsWanted = "targets"): TargetsResult {
  const mapped: MappedSelector[] = [];
  const notes: string[] = [];
  let found = false;
  for (const selector of selectors) {
    if (found && wanted !== "targets") break;
    const one = selectorToLocator(selector, !found && wanted !== "unchecked");
    if (!one) notes.push(`its selector ${shown(selector)} has no locator the players play (kept for export)`);
    else if (!mapped.some((m) => m.locator === one.locator)) {
      mapped.push(one);
      found ||= one.faithful;
    }
  }
  const first = mapped.find((m) => m.faithful) ?? mapped[0];
  if (!first) return { ok: false, problem: `none of its selectors (${selectors.map(shown).join(", ")}) can be said as a locator the players play` };
  if (!first.faithful) notes.push(`its only usable selector is pierce/, looked for as ${first.locator} outside shadow roots only`);
  const ordered = [first, ...mapped.filter((m) => m !== first)];
  return { ok: true, target: first.locator, targets: ordered.map((m) => [m.locator, m.kind]), notes };
}

/** One locator as a Chrome selector (a path of parts), or null for a strategy the format has no form of. */
export function locatorToSelector(location: string): string[] | null {
  let parsed;
  try {
    parsed = parseLocator(location);
  } catch {
    return null;
  }
  const { strategy, value } = parsed;
  if (strategy === "id") return [`#${cssEscape(value)}`];
  if (strategy === "name") return [`[name="${attributeValue(value)}"]`];
  if (strategy === "css") return parsed.shadowSteps ?? [value];
  if (strategy === "xpath") return [`xpath/${value}`];
  if (strategy === "linkText") return [`xpath/${linkXPath(value)}`];
  if (strategy === "partialLinkText") return [`xpath/${partialLinkXPath(value)}`];
  return null;
}

/** A command's target then its targets as a step's selectors, duplicates and strategies with no form left out. */
export function commandSelectors(target: string, targets: unknown): string[][] {
  const pairs = Array.isArray(targets) ? targets : [];
  const locations = [target, ...pairs.map((pair) => (Array.isArray(pair) && typeof pair[0] === "string" ? pair[0] : ""))];
  const out: string[][] = [];
  for (const location of locations) {
    const selector = location === "" ? null : locatorToSelector(location);
    if (selector && !out.some((s) => s.join("\u0000") === selector.join("\u0000"))) out.push(selector);
  }
  return out;
}
