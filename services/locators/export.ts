// GET /export/location (CONTRACT section 13): a locator as code. Only Selenium's `By`
// expression is made now; the value goes into the quotes as a JSON string, so quotes,
// backslashes and control characters are escaped the way JavaScript, Java and C# read them.
import { parseLocator } from "./parse.ts";
import type { LocatorStrategy } from "./parse.ts";
import { expandLocator } from "./templates.ts";
import type { StrategyTable } from "./templates.ts";

const BY: Record<LocatorStrategy, string> = {
  id: "By.id",
  name: "By.name",
  css: "By.css",
  xpath: "By.xpath",
  linkText: "By.linkText",
  partialLinkText: "By.partialLinkText",
};

/**
 * `id=user` → `By.id("user")`; a declared `NAME=VALUE` of `table` (CONTRACT section 23) as the
 * `By.css`/`By.xpath` of its filled template. Throws a LocatorError (InvalidLocator) as
 * parseLocator does, for an undeclared NAME too.
 */
export function locatorAsBy(location: string, table: StrategyTable = new Map()): string {
  const { strategy, value } = parseLocator(expandLocator(location, table));
  return `${BY[strategy]}(${JSON.stringify(value)})`;
}
