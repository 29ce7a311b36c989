// GET /export/location (CONTRACT section 13): a locator as code. Only Selenium's `By`
// expression is made now; the value goes into the quotes as a JSON string, so quotes,
// backslashes and control characters are escaped the way JavaScript, Java and C# read them.
import { parseLocator } from "./parse.ts";
import type { LocatorStrategy } from "./parse.ts";

const BY: Record<LocatorStrategy, string> = {
  id: "By.id",
  name: "By.name",
  css: "By.css",
  xpath: "By.xpath",
  linkText: "By.linkText",
  partialLinkText: "By.partialLinkText",
};

/** `id=user` → `By.id("user")`; throws a LocatorError (InvalidLocator) as parseLocator does. */
export function locatorAsBy(location: string): string {
  const { strategy, value } = parseLocator(location);
  return `${BY[strategy]}(${JSON.stringify(value)})`;
}
