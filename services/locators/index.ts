import { LocatorError } from "./errors.ts";
import { findElement } from "./find.ts";
import { parseLocator } from "./parse.ts";
import { buildXPath } from "./xpath.ts";

export { isLocatorErrorCode, LOCATOR_ERROR_CODES, LocatorError, type LocatorErrorCode } from "./errors.ts";
export { parseLocator, type ParsedLocator, type LocatorStrategy } from "./parse.ts";
export { findElement, findElements } from "./find.ts";
export { buildXPath, xpathLiteral } from "./xpath.ts";
export { locatorAsBy } from "./export.ts";

/** `GET /playback/location` against a document: the xpath of the element `location` matches. */
export function resolveInDocument(doc: Document | undefined, location: string): string {
  const locator = parseLocator(location); // InvalidLocator comes before NoPage
  if (!doc) {
    throw new LocatorError("NoPage", `There is no page to resolve the locator ${JSON.stringify(location)} against.`);
  }
  return buildXPath(findElement(doc, locator));
}
