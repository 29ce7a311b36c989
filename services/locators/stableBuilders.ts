// The builders beyond Selenium IDE v3's twelve (CONTRACT section 18): locators that name an
// element by what its page gave it for people and for tests, so they last when the layout
// changes. Each is still a plain Selenium locator (css= or xpath=), so exports and Selenium IDE
// play it:
// - css:testId: the first of the project's test-id attributes (default data-testid, data-test,
//   data-test-id, data-qa, data-cy) whose `css=[attr="value"]` finds the element first;
// - css:aria-label: `css=[aria-label="…"]`, with the tag when the attribute alone finds another
//   element first;
// - xpath:label: a form control by its <label>'s text, `//input[@id=//label[normalize-space()='Email']/@for]`
//   for a label tied by `for`, `//label[normalize-space()='Email']//input` for a wrapping one;
// - xpath:text: a button's or link's own text, `//button[normalize-space()='Save']`.
// Texts are whitespace-normalised (XPath's normalize-space() on the page's side), so no locator
// holds a line break. Like v3's, a builder's locator is kept only when it finds the element first
// (builders.ts checks).
import { normalizeText } from "./dom.ts";
import { shadowCssSteps } from "./shadowSteps.ts";
import { xpathLiteral } from "./xpath.ts";

export { DEFAULT_TEST_ID_ATTRIBUTES } from "./builderNames.ts";

/** Texts longer than this name an element poorly (a paragraph is no name): no text locator is built from them. */
const MAX_TEXT = 100;

/** A value usable as written in a locator: one line, single spaces, not blank. */
export const isNormalised = (value: string | null): value is string => value !== null && value !== "" && value === normalizeText(value);

/** A CSS string's body: backslashes and double quotes escaped. */
export const cssString = (value: string) => value.replace(/[\\"]/g, (c) => `\\${c}`);

/** `css=` and the steps to the shadow root `el` is in (`HOST >>> `), or `css=` for an element of the document. */
export function cssPrefix(el: Element): string {
  const steps = shadowCssSteps(el);
  return steps ? `css=${steps.selectors.slice(0, -1).join(" >>> ")} >>> ` : "css=";
}

const tagOf = (el: Element) => el.nodeName.toLowerCase();

/** What the stable builders need from builders.ts: its check, and its way to make an xpath precise. */
export interface BuilderTools {
  findsFirst(el: Element, locator: string): boolean;
  preciseXPath(xpath: string, el: Element): string;
}

export function testIdLocator(el: Element, attributes: readonly string[], tools: BuilderTools): string | null {
  for (const attr of attributes) {
    const value = el.getAttribute(attr);
    if (!isNormalised(value)) continue;
    const locator = `${cssPrefix(el)}[${attr}="${cssString(value)}"]`;
    if (tools.findsFirst(el, locator)) return locator;
  }
  return null;
}

export function ariaLabelLocator(el: Element, tools: BuilderTools): string | null {
  const label = el.getAttribute("aria-label");
  if (!isNormalised(label)) return null;
  const prefix = cssPrefix(el);
  const bare = `${prefix}[aria-label="${cssString(label)}"]`;
  return tools.findsFirst(el, bare) ? bare : `${prefix}${tagOf(el)}[aria-label="${cssString(label)}"]`;
}

const LABELLED = new Set(["input", "select", "textarea"]);
/** Elements whose text is their value or their options, not their name. */
const NOT_LABEL_TEXT = new Set(["select", "textarea", "option", "script", "style"]);

/** The label's own text: what a person reads in it, without the control's (a wrapped select's options). */
function labelText(label: Element, control: Element): string {
  let text = "";
  const walk = (node: Node) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === 3) text += child.textContent ?? "";
      else if (child.nodeType === 1 && child !== control && !NOT_LABEL_TEXT.has(tagOf(child as Element))) walk(child);
    }
  };
  walk(label);
  return normalizeText(text);
}

export function labelLocator(el: Element, tools: BuilderTools): string | null {
  const tag = tagOf(el);
  if (!LABELLED.has(tag) || (tag === "input" && /^(hidden|submit|button|reset|image)$/i.test(el.getAttribute("type") ?? ""))) return null;
  const label = (el as HTMLInputElement).labels?.[0];
  if (!label) return null;
  const text = labelText(label, el);
  if (text === "" || text.length > MAX_TEXT) return null;
  // normalize-space() of the whole label is its text when the control adds none; else the text is looked for in it.
  const test = normalizeText(label.textContent ?? "") === text ? `normalize-space()=${xpathLiteral(text)}` : `contains(normalize-space(),${xpathLiteral(text)})`;
  const id = el.getAttribute("id");
  if (id && label.getAttribute("for") === id && !label.contains(el)) return tools.preciseXPath(`//${tag}[@id=//label[${test}]/@for]`, el);
  if (label.contains(el)) return tools.preciseXPath(`//label[${test}]//${tag}`, el);
  return null;
}

export function textLocator(el: Element, tools: BuilderTools): string | null {
  const tag = tagOf(el);
  if (tag !== "button" && tag !== "a") return null;
  const text = normalizeText(el.textContent ?? "");
  if (text === "" || text.length > MAX_TEXT) return null;
  return tools.preciseXPath(`//${tag}[normalize-space()=${xpathLiteral(text)}]`, el);
}

/** The origin of el's document when it is a web page's (http or https), else null. */
export function pageOrigin(el: Element): string | null {
  try {
    const origin = el.ownerDocument.defaultView?.location.origin ?? el.ownerDocument.location?.origin;
    return origin && /^https?:/.test(origin) ? origin : null;
  } catch {
    return null;
  }
}

/**
 * An attribute's url as a locator may name it: a url of the page's own origin becomes its path,
 * query and fragment (the recording's origin is not the one tests play on), any other stays.
 */
export function urlAsWritten(el: Element, url: string): { absolute: boolean; value: string } {
  const origin = pageOrigin(el);
  if (origin && url.startsWith(`${origin}/`)) return { absolute: false, value: url.slice(origin.length) };
  if (origin && url === origin) return { absolute: false, value: "/" };
  return { absolute: /^https?:\/\//.test(url), value: url };
}
