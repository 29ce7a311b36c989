// The locator builders of a recorded command (CONTRACT section 14): Selenium IDE v3's builders,
// in v3's order, each giving the form v3 gives. One module for both recorders (the extension's
// content script and the host's injected script); it runs in the page, against the recorded
// element's own document.
//
// A builder's locator is kept only when the project's own resolver (find.ts, the one every
// run uses) finds the recorded element as its first match in that document now: a builder
// that cannot do that gives no pair, so every pair of `targets` plays back.
//
// Where v3 slips, its intent is the rule:
// - css:data-attr tests the attribute's value (v3 tested its name, so never gave data-test-id);
// - text and attribute values go into xpaths as XPath literals (v3 wrote `'${text}'` raw in
//   xpath:link and xpath:innerText, which breaks on an apostrophe); without a `'` the form is
//   v3's own;
// - xpath:href takes http and https urls as absolute (v3's /^http?:\/\// missed https);
// - xpath:img's contains(@src, ...) uses the attribute as written (v3 used the resolved url,
//   which a relative src never contains).
//
// Beyond v3's (stableBuilders.ts, CONTRACT section 18): css:testId, css:aria-label, xpath:label
// and xpath:text. The project's `locatorOrder` orders the pairs (DEFAULT_LOCATOR_ORDER: test ids
// first, positional xpaths last); a builder it does not name comes after those it names, in the
// default order. Every recorded locator is whitespace-normalised (no line break, no run of
// spaces: a text goes through normalize-space() on the page's side) and none holds the page's own
// origin (a url of it becomes its path). A pair whose locator an earlier pair already gave (the
// same css with or without v3's `*`) is left out when either is beyond v3's (v3's own repeat as in v3).
//
// A declared locator strategy with an `attribute` (CONTRACT section 23) is a builder too, named by
// the strategy's name: for an element carrying the attribute it gives `NAME=VALUE`, kept when the
// filled template finds the element first. By default it comes right after the test-id builders.
//
// An element inside open shadow roots (CONTRACT section 19) is out of reach of every locator
// of the document; its css builders step into the roots: `css=HOST >>> INNER`, each part
// @medv/finder's selector unique within its own root (shadowSteps.ts). The other builders give
// locators that cannot find it, which the rule above drops.
import { finder } from "@medv/finder";
import { findElement } from "./find.ts";
import { parseLocator } from "./parse.ts";
import { shadowCssSteps } from "./shadowSteps.ts";
import { xpathLiteral } from "./xpath.ts";
import { normalizeText } from "./dom.ts";
import {
  ariaLabelLocator, cssPrefix, cssString, DEFAULT_TEST_ID_ATTRIBUTES, isNormalised, labelLocator, pageOrigin,
  testIdLocator, textLocator, urlAsWritten,
} from "./stableBuilders.ts";

import { fillTemplate } from "./templates.ts";
import type { StrategyDeclaration } from "./templates.ts";
import { BUILDER_NAMES, DEFAULT_LOCATOR_ORDER, fullLocatorOrder, STABLE_BUILDERS } from "./builderNames.ts";
import type { BuilderName } from "./builderNames.ts";

export { DEFAULT_TEST_ID_ATTRIBUTES } from "./stableBuilders.ts";
export { BUILDER_NAMES, DEFAULT_LOCATOR_ORDER, STABLE_BUILDERS, V3_BUILDER_ORDER, type BuilderName } from "./builderNames.ts";

/** A recorded command's alternatives: `[locator, builderName]` (a builder's or a declared strategy's name), the first is its target. */
export type LocatorPair = [locator: string, builder: string];

/** What the project sets for recording (CONTRACT section 18): the builders' order and the test-id attributes. */
export interface BuildOptions {
  /** Builder names, first first; unknown names are ignored, builders it leaves out come after in the default order. */
  locatorOrder?: readonly string[];
  /** The attributes css:testId tries, in order. */
  testIdAttributes?: readonly string[];
  /** The declared locator strategies; those with an `attribute` are builders, named as the strategy is. */
  strategies?: readonly StrategyDeclaration[];
}

type Builder = (el: Element, options: Pick<Required<BuildOptions>, "testIdAttributes">) => string | null;

const ELEMENT_NODE = 1;
const DATA_ATTRIBUTES = ["data-test", "data-test-id"];
const PREFERRED_ATTRIBUTES = ["id", "name", "value", "type", "action", "onclick"];

/** True when `locator` finds `el` as its first match in el's document (an invalid one never does). */
export function findsFirst(el: Element, locator: string): boolean {
  try {
    return findElement(el.ownerDocument, parseLocator(locator)) === el;
  } catch {
    return false;
  }
}

/** The builders in `order`'s order, then those it does not name in the default order, the strategies it does not name after the test-id builders. */
export function orderedBuilders(order: readonly string[] = DEFAULT_LOCATOR_ORDER, strategies: readonly string[] = []): string[] {
  return fullLocatorOrder(order, strategies);
}

/** The declared strategies that can be recorded (those naming an attribute), by name; a name a builder has is no strategy's. */
function recordable(strategies: readonly StrategyDeclaration[] = []): Map<string, StrategyDeclaration & { attribute: string }> {
  const builders = new Set<string>(BUILDER_NAMES);
  const found = new Map<string, StrategyDeclaration & { attribute: string }>();
  for (const d of strategies) if (d.attribute && !builders.has(d.name)) found.set(d.name, d as StrategyDeclaration & { attribute: string });
  return found;
}

/** `NAME=VALUE` of the element's attribute when the filled template finds the element first. */
function strategyLocator(el: Element, declaration: StrategyDeclaration & { attribute: string }): string | null {
  const value = el.getAttribute(declaration.attribute);
  if (!isNormalised(value) || !findsFirst(el, fillTemplate(declaration, value))) return null;
  return `${declaration.name}=${value}`;
}

/** A css locator with v3's `*` before an attribute test is the same locator without it. */
const sameAs = (locator: string) => locator.replace(/(^css=|>>> )\*\[/g, "$1[");

/** Every builder's locator for `el` that finds it first, in the project's order (the default: test ids first). */
export function buildTargets(el: Element, options: BuildOptions = {}): LocatorPair[] {
  const settings = { testIdAttributes: options.testIdAttributes ?? DEFAULT_TEST_ID_ATTRIBUTES };
  const strategies = recordable(options.strategies);
  const origin = pageOrigin(el);
  const pairs: LocatorPair[] = [];
  // Canonical locator -> whether a builder beyond v3's gave it (two of v3's repeat each other as v3 did).
  const given = new Map<string, boolean>();
  // Beyond v3's: the stable builders and the declared strategies.
  const stable = new Set<string>([...STABLE_BUILDERS, ...strategies.keys()]);
  const repeats = (locator: string, name: string) => given.has(sameAs(locator)) && (stable.has(name) || given.get(sameAs(locator)));
  for (const name of orderedBuilders(options.locatorOrder ?? DEFAULT_LOCATOR_ORDER, [...strategies.keys()])) {
    const strategy = strategies.get(name);
    let locator: string | null;
    try {
      locator = strategy ? strategyLocator(el, strategy) : BUILDERS[name as BuilderName](el, settings);
    } catch {
      continue; // v3 skips a builder that throws (finder on a detached element, say)
    }
    if (!locator || !isNormalised(locator) || (origin && locator.includes(origin)) || repeats(locator, name)) continue;
    if (!strategy && !findsFirst(el, locator)) continue;
    given.set(sameAs(locator), given.get(sameAs(locator)) || stable.has(name));
    pairs.push([locator, name]);
  }
  return pairs;
}

const tools = { findsFirst, preciseXPath: (xpath: string, el: Element) => preciseXPath(xpath, el) };

const tagOf = (el: Element) => el.nodeName.toLowerCase();

/** The xpath as written when it finds `el` first, else its first positional form that does. */
function preciseXPath(xpath: string, el: Element): string {
  const plain = `xpath=${xpath}`;
  if (findsFirst(el, plain)) return plain;
  let count = 0;
  try {
    count = el.ownerDocument.evaluate(xpath, el.ownerDocument, null, 7, null).snapshotLength;
  } catch {
    return plain;
  }
  for (let i = 1; i <= count; i++) {
    const indexed = `xpath=(${xpath})[${i}]`;
    if (findsFirst(el, indexed)) return indexed;
  }
  return plain;
}

/** `/tag` or `/tag[n]`: el among its parent's children of the same name (v3's relativeXPathFromParent). */
function stepFromParent(el: Element): string {
  const siblings = el.parentNode ? Array.from(el.parentNode.childNodes).filter((n) => n.nodeName === el.nodeName) : [el];
  const index = siblings.indexOf(el);
  return `/${tagOf(el)}${index > 0 ? `[${index + 1}]` : ""}`;
}

/** The first of `xpaths` (each made precise) that finds `el` first, else the last one's try. */
function firstFinding(el: Element, ...xpaths: string[]): string {
  let locator = "";
  for (const xpath of xpaths) {
    locator = preciseXPath(xpath, el);
    if (findsFirst(el, locator)) return locator;
  }
  return locator;
}

const BUILDERS: Record<BuilderName, Builder> = {
  "css:testId": (el, { testIdAttributes }) => testIdLocator(el, testIdAttributes, tools),
  "css:aria-label": (el) => ariaLabelLocator(el, tools),
  "xpath:label": (el) => labelLocator(el, tools),
  "xpath:text": (el) => textLocator(el, tools),
  "css:data-attr": (el) => {
    for (const attr of DATA_ATTRIBUTES) {
      const value = el.getAttribute(attr);
      if (value) return `${cssPrefix(el)}*[${attr}="${cssString(value)}"]`;
    }
    return null;
  },
  id: (el) => (el.id ? `id=${el.id}` : null),
  linkText: (el) => {
    if (el.nodeName !== "A") return null;
    const text = normalizeText(el.textContent ?? "");
    return text ? `linkText=${text}` : null;
  },
  name: (el) => {
    const name = el.getAttribute("name");
    return name ? `name=${name}` : null;
  },
  "css:finder": (el) => {
    const steps = shadowCssSteps(el);
    return steps ? `css=${steps.selectors.join(" >>> ")}` : `css=${finder(el, { root: el.ownerDocument as unknown as Element })}`;
  },
  // v3's contains(text(), …) reads the first text child as written; a text with a line break or
  // a run of spaces in it is read through normalize-space() instead.
  "xpath:link": (el) => {
    if (el.nodeName !== "A") return null;
    const text = xpathLiteral(normalizeText(el.textContent ?? ""));
    return text === "''" ? null : firstFinding(el, `//a[contains(text(),${text})]`, `//a[contains(normalize-space(text()),${text})]`);
  },
  "xpath:img": (el) => {
    if (el.nodeName !== "IMG") return null;
    const alt = el.getAttribute("alt");
    if (isNormalised(alt)) return preciseXPath(`//img[@alt=${xpathLiteral(alt)}]`, el);
    const title = el.getAttribute("title");
    if (isNormalised(title)) return preciseXPath(`//img[@title=${xpathLiteral(title)}]`, el);
    const src = el.getAttribute("src");
    if (src) return preciseXPath(`//img[contains(@src,${xpathLiteral(urlAsWritten(el, src).value)})]`, el);
    return null;
  },
  // An attribute whose value is not one line of single spaces, or is a url of the page's origin
  // (a form's action), is passed over: the locator would hold a line break or the origin.
  "xpath:attributes": (el) => {
    const names: string[] = [];
    for (const name of PREFERRED_ATTRIBUTES) {
      const value = el.getAttribute(name);
      if (!isNormalised(value) || urlAsWritten(el, value).value !== value) continue;
      names.push(name);
      const test = names.map((n) => `@${n}=${xpathLiteral(el.getAttribute(n)!)}`).join(" and ");
      const locator = preciseXPath(`//${tagOf(el)}[${test}]`, el);
      if (findsFirst(el, locator)) return locator;
    }
    return null;
  },
  "xpath:idRelative": (el) => {
    let path = "";
    for (let current: Element = el; current.parentNode; ) {
      path = stepFromParent(current) + path;
      const parent = current.parentNode;
      if (parent.nodeType !== ELEMENT_NODE) return null;
      const id = (parent as Element).getAttribute("id");
      if (id) return preciseXPath(`//${tagOf(parent as Element)}[@id=${xpathLiteral(id)}]${path}`, el);
      current = parent as Element;
    }
    return null;
  },
  // A url of the page's own origin is looked for by its path, as a relative href is.
  "xpath:href": (el) => {
    const href = el.getAttribute("href");
    if (href === null) return null;
    const { absolute, value } = urlAsWritten(el, href);
    return absolute
      ? preciseXPath(`//a[@href=${xpathLiteral(value)}]`, el)
      : preciseXPath(`//a[contains(@href, ${xpathLiteral(value)})]`, el);
  },
  "xpath:position": (el) => {
    let path = "";
    for (let current: Node | null = el; current && current.nodeType === ELEMENT_NODE; current = current.parentNode) {
      const step = current.parentNode ? stepFromParent(current as Element) : `/${tagOf(current as Element)}`;
      path = step + path;
      const locator = `xpath=/${path}`;
      if (findsFirst(el, locator)) return locator;
    }
    return null;
  },
  // v3's contains(., …) with the text as innerText gives it; a text with a line break or a run
  // of spaces is normalised and read through normalize-space().
  "xpath:innerText": (el) => {
    const raw = (el as HTMLElement).innerText;
    if (typeof raw !== "string" || !raw) return null;
    const text = normalizeText(raw);
    if (!text) return null;
    const literal = xpathLiteral(text);
    return text === raw ? `xpath=//${tagOf(el)}[contains(.,${literal})]` : `xpath=//${tagOf(el)}[contains(normalize-space(.),${literal})]`;
  },
};
