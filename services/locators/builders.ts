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
// An element inside open shadow roots (CONTRACT section 19) is out of reach of every locator
// of the document; its css builders step into the roots: `css=HOST >>> INNER`, each part
// @medv/finder's selector unique within its own root (shadowSteps.ts). The other builders give
// locators that cannot find it, which the rule above drops.
import { finder } from "@medv/finder";
import { findElement } from "./find.ts";
import { parseLocator } from "./parse.ts";
import { shadowCssSteps } from "./shadowSteps.ts";
import { xpathLiteral } from "./xpath.ts";

/** A recorded command's alternatives: `[locator, builderName]`, the first is its target. */
export type LocatorPair = [locator: string, builder: BuilderName];

export const BUILDER_ORDER = [
  "css:data-attr",
  "id",
  "linkText",
  "name",
  "css:finder",
  "xpath:link",
  "xpath:img",
  "xpath:attributes",
  "xpath:idRelative",
  "xpath:href",
  "xpath:position",
  "xpath:innerText",
] as const;
export type BuilderName = (typeof BUILDER_ORDER)[number];

type Builder = (el: Element) => string | null;

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

/** Every builder's locator for `el` that finds it first, in v3's order. */
export function buildTargets(el: Element): LocatorPair[] {
  const pairs: LocatorPair[] = [];
  for (const name of BUILDER_ORDER) {
    let locator: string | null;
    try {
      locator = BUILDERS[name](el);
    } catch {
      continue; // v3 skips a builder that throws (finder on a detached element, say)
    }
    if (locator && findsFirst(el, locator)) pairs.push([locator, name]);
  }
  return pairs;
}

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

/** A CSS string's body: backslashes and double quotes escaped. */
const cssString = (value: string) => value.replace(/[\\"]/g, (c) => `\\${c}`);

/** `css=` and the steps to the shadow root `el` is in (`HOST >>> `), or `css=` for an element of the document. */
function cssPrefix(el: Element): string {
  const steps = shadowCssSteps(el);
  return steps ? `css=${steps.selectors.slice(0, -1).join(" >>> ")} >>> ` : "css=";
}

const trimmed = (text: string) => text.replace(/^\s+/, "").replace(/\s+$/, "");

const BUILDERS: Record<BuilderName, Builder> = {
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
    const text = el.textContent ?? "";
    return /^\s*$/.test(text) ? null : `linkText=${trimmed(text.replace(/\xA0/g, " "))}`;
  },
  name: (el) => {
    const name = el.getAttribute("name");
    return name ? `name=${name}` : null;
  },
  "css:finder": (el) => {
    const steps = shadowCssSteps(el);
    return steps ? `css=${steps.selectors.join(" >>> ")}` : `css=${finder(el, { root: el.ownerDocument as unknown as Element })}`;
  },
  "xpath:link": (el) => {
    if (el.nodeName !== "A") return null;
    const text = el.textContent ?? "";
    return /^\s*$/.test(text) ? null : preciseXPath(`//a[contains(text(),${xpathLiteral(trimmed(text))})]`, el);
  },
  "xpath:img": (el) => {
    if (el.nodeName !== "IMG") return null;
    const alt = el.getAttribute("alt");
    if (alt) return preciseXPath(`//img[@alt=${xpathLiteral(alt)}]`, el);
    const title = el.getAttribute("title");
    if (title) return preciseXPath(`//img[@title=${xpathLiteral(title)}]`, el);
    const src = el.getAttribute("src");
    if (src) return preciseXPath(`//img[contains(@src,${xpathLiteral(src)})]`, el);
    return null;
  },
  "xpath:attributes": (el) => {
    const names: string[] = [];
    for (const name of PREFERRED_ATTRIBUTES) {
      if (!el.hasAttribute(name)) continue;
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
  "xpath:href": (el) => {
    const href = el.getAttribute("href");
    if (href === null) return null;
    return /^https?:\/\//.test(href)
      ? preciseXPath(`//a[@href=${xpathLiteral(href)}]`, el)
      : preciseXPath(`//a[contains(@href, ${xpathLiteral(href)})]`, el);
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
  "xpath:innerText": (el) => {
    const text = (el as HTMLElement).innerText;
    return typeof text === "string" && text ? `xpath=//${tagOf(el)}[contains(.,${xpathLiteral(text)})]` : null;
  },
};
