// The fingerprint of a recorded element (CONTRACT section 18): what a person would know it by
// (tag, id, name, classes, type, visible text, test ids, aria attributes, label, href/src/alt,
// role and accessible name) and where it was (its absolute XPath, its index among its
// siblings, its box, the text around it). Playback relocates an element whose locators all
// broke by comparing every candidate with it (relocate.ts).
//
// DOM-only: it is bundled into the page with the recorder and the player. Its zod schema,
// for the door (a `.side` file read from disk), is in schema.ts, so the page does not carry zod.
// Bounded: every text is cut to a limit, and the JSON stays under MAX_FINGERPRINT_JSON.
import { shadowRootsOf } from "../locators/shadow.ts";
import { accessibleNameOf, labelTextOf, roleOf } from "./aria.ts";
import { cached, normalizeText, textOf } from "./text.ts";

export const TEST_ID_ATTRIBUTES = ["data-testid", "data-test", "data-test-id", "data-qa", "data-cy"] as const;
/** The aria attributes that say which element this is (not its state, as aria-expanded does). */
export const ARIA_ATTRIBUTES = ["aria-label", "aria-description", "aria-roledescription", "aria-placeholder", "aria-controls"] as const;

/** The most a fingerprint's JSON takes, in characters. */
export const MAX_FINGERPRINT_JSON = 2048;
const LIMITS = { text: 120, neighbours: 200, attribute: 160, classes: 10 };
const TIGHT = { text: 48, neighbours: 64, attribute: 64, classes: 4 };

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Fingerprint {
  tag: string;
  id?: string;
  name?: string;
  classes: string[];
  type?: string;
  /** What a person reads on it: its visible text, or a button input's value. */
  text?: string;
  /** Test-id attributes by name (data-testid, data-test, data-test-id, data-qa, data-cy). */
  testIds?: Record<string, string>;
  /** Identifying aria attributes by name (aria-label, ...). */
  aria?: Record<string, string>;
  /** A form control's <label> text. */
  label?: string;
  href?: string;
  src?: string;
  alt?: string;
  title?: string;
  placeholder?: string;
  /** The value attribute of a checkbox, radio or option (what tells a group's members apart). */
  value?: string;
  role?: string;
  accessibleName?: string;
  /** Positional steps from the document (`/html/body/div[2]/a`); through shadow roots, one path per root joined by " >>> ". */
  xpath: string;
  /** Its index among its parent's element children, from 0. */
  index: number;
  /** Its box in page coordinates (CSS pixels, rounded); all 0 where there is no layout. */
  box: Box;
  /** The text of the nearest ancestor that has text besides its own (without its own). */
  neighbourText?: string;
  /** When that is under 3 words: the text of the nearest ancestor with 3 words or more besides its own. */
  contextText?: string;
}

const CHOICES = /^(checkbox|radio|option)$/i;
const clip = (value: string, max: number) => (value.length > max ? value.slice(0, max) : value);

/** The fingerprint of `el` as it is now in its page. */
export function fingerprintOf(el: Element): Fingerprint {
  const full = capture(el, LIMITS);
  if (JSON.stringify(full).length <= MAX_FINGERPRINT_JSON) return full;
  let tight = capture(el, TIGHT);
  // A very deep XPath: keep its end, the steps nearest the element.
  if (tight.xpath.length > MAX_FINGERPRINT_JSON / 4) tight = { ...tight, xpath: tight.xpath.slice(-(MAX_FINGERPRINT_JSON / 4)) };
  // Every attribute long and set at once: each attribute's value cut shorter until it fits.
  for (let max = TIGHT.attribute / 2; JSON.stringify(tight).length > MAX_FINGERPRINT_JSON && max >= 4; max /= 2) {
    tight = { ...tight, testIds: clipAll(tight.testIds, max), aria: clipAll(tight.aria, max) };
    for (const key of ["id", "name", "type", "href", "src", "alt", "title", "placeholder", "value", "label", "accessibleName"] as const) {
      if (tight[key]) tight[key] = clip(tight[key]!, max);
    }
    tight.classes = tight.classes.map((c) => clip(c, max));
  }
  return tight;
}

function clipAll(values: Record<string, string> | undefined, max: number): Record<string, string> | undefined {
  return values && Object.fromEntries(Object.entries(values).map(([name, value]) => [name, clip(value, max)]));
}

function capture(el: Element, limits: typeof LIMITS): Fingerprint {
  const attr = (name: string) => {
    const value = el.getAttribute(name);
    return value ? clip(normalizeText(value), limits.attribute) : undefined;
  };
  const some = (names: readonly string[]) => {
    const found: Record<string, string> = {};
    for (const name of names) {
      const value = attr(name);
      if (value) found[name] = value;
    }
    return Object.keys(found).length > 0 ? found : undefined;
  };
  const own = textOf(el);
  const around = surroundingsOf(el, own);
  const fingerprint: Fingerprint = {
    tag: el.localName.toLowerCase(),
    id: attr("id"),
    name: attr("name"),
    classes: Array.from(el.classList).slice(0, limits.classes).map((c) => clip(c, limits.attribute)),
    type: attr("type")?.toLowerCase(),
    text: own ? clip(own, limits.text) : undefined,
    testIds: some(TEST_ID_ATTRIBUTES),
    aria: some(ARIA_ATTRIBUTES),
    label: clipped(labelTextOf(el), limits.text),
    href: attr("href"),
    src: attr("src"),
    alt: attr("alt"),
    title: attr("title"),
    placeholder: attr("placeholder"),
    value: CHOICES.test(el.localName === "option" ? "option" : (el.getAttribute("type") ?? "")) ? attr("value") : undefined,
    role: roleOf(el),
    accessibleName: clipped(accessibleNameOf(el), limits.text),
    xpath: absoluteXPath(el),
    index: el.parentElement ? Array.prototype.indexOf.call(el.parentElement.children, el) : 0,
    box: boxOf(el),
    neighbourText: clipped(around.near, limits.neighbours),
    contextText: clipped(around.wide, limits.neighbours),
  };
  for (const key of Object.keys(fingerprint) as Array<keyof Fingerprint>) {
    if (fingerprint[key] === undefined) delete fingerprint[key];
  }
  return fingerprint;
}

const clipped = (value: string | undefined, max: number) => (value ? clip(value, max) : undefined);

/** `/html/body/div[2]/a`: a tag and, when it has same-named siblings, its place among them; one path per root. */
export function absoluteXPath(el: Element): string {
  const roots = shadowRootsOf(el);
  const hosts = [...roots.map((root) => root.host), el];
  return hosts.map(pathInRoot).join(" >>> ");
}

function pathInRoot(el: Element): string {
  let path = "";
  for (let node: Element | null = el; node; node = node.parentElement) path = cached("step", node, stepOf) + path;
  return path;
}

/** `/tag`, or `/tag[n]` when its parent has other children of its name. */
function stepOf(el: Element): string {
  const tag = el.localName.toLowerCase();
  let before = 0;
  for (let s = el.previousElementSibling; s; s = s.previousElementSibling) if (s.localName === el.localName) before++;
  let after = false;
  for (let s = el.nextElementSibling; s && !after; s = s.nextElementSibling) after = s.localName === el.localName;
  return before > 0 || after ? `/${tag}[${before + 1}]` : `/${tag}`;
}

/** Its box in page coordinates, rounded; zeros where the page has no layout (jsdom). */
export function boxOf(el: Element): Box {
  const rect = el.getBoundingClientRect();
  const view = el.ownerDocument.defaultView;
  const sx = view?.scrollX ?? 0;
  const sy = view?.scrollY ?? 0;
  return { x: Math.round(rect.left + sx), y: Math.round(rect.top + sy), width: Math.round(rect.width), height: Math.round(rect.height) };
}

/** Around an element, this many words tell it from its look-alikes (a row's name beside its "Delete"). */
const CONTEXT_WORDS = 3;

export interface Surroundings {
  /** The text of the nearest ancestor with any text besides the element's own (a label, the next cell). */
  near?: string;
  /** The text of the nearest ancestor with at least CONTEXT_WORDS words besides it (the row, the card), when that is more than `near`. */
  wide?: string;
}

/** The text around `el` at two distances, its own text taken out once; ancestors below the body, across shadow hosts. */
export function surroundingsOf(el: Element, own = textOf(el)): Surroundings {
  let near: string | undefined;
  let wide: string | undefined;
  for (let node = parentOf(el); node && node.localName !== "body"; node = parentOf(node)) {
    const text = textOf(node);
    if (text.length <= own.length) continue;
    const at = own ? text.indexOf(own) : -1;
    const rest = normalizeText(at >= 0 ? `${text.slice(0, at)} ${text.slice(at + own.length)}` : text);
    if (!rest) continue;
    near ??= rest;
    wide = rest;
    if (rest.split(" ").length >= CONTEXT_WORDS) break;
  }
  return { near, wide: wide === near ? undefined : wide };
}

function parentOf(el: Element): Element | null {
  if (el.parentElement) return el.parentElement;
  const root = el.parentNode;
  return root && root.nodeType === 11 && "host" in root ? (root as ShadowRoot).host : null;
}
