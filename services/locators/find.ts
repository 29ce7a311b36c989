import { LocatorError } from "./errors.ts";
import type { ParsedLocator } from "./parse.ts";
import { ELEMENT_NODE, normalizeText, selectNodes } from "./dom.ts";

/** The first element `locator` matches in `doc`, in document order. */
export function findElement(doc: Document, locator: ParsedLocator): Element {
  const el = lookup(doc, locator);
  if (!el) {
    throw new LocatorError("ElementNotFound", `No element matches the locator ${show(locator)}.`);
  }
  return el;
}

function lookup(doc: Document, locator: ParsedLocator): Element | undefined {
  const { strategy, value } = locator;
  switch (strategy) {
    // A tree walk rather than getElementById, so id and name behave alike in HTML and XML documents.
    case "id":
      return first(doc, "*", (el) => el.getAttribute("id") === value);
    case "name":
      return first(doc, "*", (el) => el.getAttribute("name") === value);
    case "linkText":
      return first(doc, "a", (el) => normalizeText(el.textContent ?? "") === normalizeText(value));
    case "partialLinkText":
      return first(doc, "a", (el) => normalizeText(el.textContent ?? "").includes(normalizeText(value)));
    case "css":
      return engine(locator, "CSS selector", () => doc.querySelector(value) ?? undefined);
    case "xpath":
      return engine(locator, "XPath expression", () =>
        selectNodes(doc, value).find((node): node is Element => node.nodeType === ELEMENT_NODE),
      );
  }
}

function first(doc: Document, tag: string, test: (el: Element) => boolean): Element | undefined {
  return Array.prototype.find.call(doc.getElementsByTagName(tag), test) as Element | undefined;
}

// The parser checked the syntax already; what the page's own engine still rejects (e.g. css=#1,
// or an xpath whose result is a number) is an invalid locator too, not a missing element.
function engine(locator: ParsedLocator, what: string, run: () => Element | undefined): Element | undefined {
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
