import { LocatorError } from "./errors.ts";
import { findElement } from "./find.ts";
import { parseLocator } from "./parse.ts";
import { shadowCssSteps } from "./shadowSteps.ts";
import { buildXPath } from "./xpath.ts";

export { isLocatorErrorCode, LOCATOR_ERROR_CODES, LocatorError, type LocatorErrorCode } from "./errors.ts";
export { parseLocator, type ParsedLocator, type LocatorStrategy } from "./parse.ts";
export { findElement, findElements } from "./find.ts";
export { buildXPath, xpathLiteral } from "./xpath.ts";
export { locatorAsBy } from "./export.ts";
export { splitShadowSteps } from "./shadow.ts";
export { checkDeclaration, expandLocator, fillTemplate, strategiesUsed, strategyTable, strategyDeclarationSchema, declaredName } from "./strategies.ts";
export type { StrategyDeclaration, StrategyTable } from "./strategies.ts";

/**
 * `GET /playback/location` against a document: the xpath of the element `location` matches.
 * An element inside open shadow roots (section 19) has no xpath from the document (and no
 * browser evaluates an xpath in a shadow root), so its reply is a chain as its locator is: the
 * outermost host's xpath, then for each shadow root a CSS selector that finds the next host (at
 * last the element) alone in that root, joined by " >>> ".
 */
export function resolveInDocument(doc: Document | undefined, location: string): string {
  const locator = parseLocator(location); // InvalidLocator comes before NoPage
  if (!doc) {
    throw new LocatorError("NoPage", `There is no page to resolve the locator ${JSON.stringify(location)} against.`);
  }
  const el = findElement(doc, locator);
  const steps = shadowCssSteps(el);
  if (!steps) return buildXPath(el);
  return [buildXPath(steps.elements[0]), ...steps.selectors.slice(1)].join(" >>> ");
}
