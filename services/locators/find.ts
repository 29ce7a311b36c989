import { LocatorError } from "./errors.ts";
import type { LocatorStrategy, ParsedLocator } from "./parse.ts";
import { ELEMENT_NODE, normalizeText, selectNodes } from "./dom.ts";
import { searchShadowSteps } from "./shadow.ts";

/** The first element `locator` matches in `doc`, in document order. */
export function findElement(doc: Document, locator: ParsedLocator): Element {
  if (locator.shadowSteps) {
    const { elements, failure } = shadowSearch(doc, locator, locator.shadowSteps);
    if (elements.length > 0) return elements[0];
    throw new LocatorError("ElementNotFound", `No element matches the locator ${show(locator)}: ${failure}.`);
  }
  const el = lookup(doc, locator);
  if (!el) {
    throw new LocatorError("ElementNotFound", `No element matches the locator ${show(locator)}.`);
  }
  return el;
}

/** Every element `locator` matches in `doc`, in document order (none is an empty list, not an error). */
export function findElements(doc: Document, locator: ParsedLocator): Element[] {
  const { strategy, value } = locator;
  switch (strategy) {
    case "id":
    case "name":
    case "linkText":
    case "partialLinkText":
      return Array.from(doc.getElementsByTagName(tagOf(strategy))).filter(predicate(locator));
    case "css":
      if (locator.shadowSteps) return shadowSearch(doc, locator, locator.shadowSteps).elements;
      return engine(locator, "CSS selector", () => Array.from(doc.querySelectorAll(value)));
    case "xpath":
      return engine(locator, "XPath expression", () =>
        selectNodes(doc, value).filter((node): node is Element => node.nodeType === ELEMENT_NODE),
      );
  }
}

// findElement and findElements share these, so the first of the list is always the one found.
const tagOf = (strategy: LocatorStrategy) => (strategy === "linkText" || strategy === "partialLinkText" ? "a" : "*");

function predicate({ strategy, value }: ParsedLocator): (el: Element) => boolean {
  switch (strategy) {
    case "id":
      return (el) => el.getAttribute("id") === value;
    case "name":
      return (el) => el.getAttribute("name") === value;
    case "linkText":
      return (el) => normalizeText(el.textContent ?? "") === normalizeText(value);
    default:
      return (el) => normalizeText(el.textContent ?? "").includes(normalizeText(value));
  }
}

function lookup(doc: Document, locator: ParsedLocator): Element | undefined {
  const { strategy, value } = locator;
  switch (strategy) {
    // A tree walk rather than getElementById, so id and name behave alike in HTML and XML documents.
    case "id":
    case "name":
    case "linkText":
    case "partialLinkText":
      return first(doc, tagOf(strategy), predicate(locator));
    case "css":
      return engine(locator, "CSS selector", () => doc.querySelector(value) ?? undefined);
    case "xpath":
      return engine(locator, "XPath expression", () =>
        selectNodes(doc, value).find((node): node is Element => node.nodeType === ELEMENT_NODE),
      );
  }
}

// Each step of a `>>>` chain (shadow.ts) runs in the page's own engine, as a plain css= does.
function shadowSearch(doc: Document, locator: ParsedLocator, steps: string[]) {
  return searchShadowSteps(doc, steps, (scope, selector) =>
    engine(locator, "CSS selector", () => Array.from(scope.querySelectorAll(selector))),
  );
}

function first(doc: Document, tag: string, test: (el: Element) => boolean): Element | undefined {
  return Array.prototype.find.call(doc.getElementsByTagName(tag), test) as Element | undefined;
}

// The parser checked the syntax already; what the page's own engine still rejects (e.g. css=#1,
// or an xpath whose result is a number) is an invalid locator too, not a missing element.
function engine<T>(locator: ParsedLocator, what: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    const detail = err instanceof Error && err.message ? ` (${err.message})` : "";
    throw new LocatorError(
      "InvalidLocator",
      `The locator ${show(locator)} is not a ${what} this page can evaluate${detail}.`,
    );
  }
}

function show({ strategy, value }: ParsedLocator): string {
  return JSON.stringify(`${strategy}=${value}`);
}
