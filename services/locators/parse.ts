import { parse as parseCss } from "css-what";
import xpathLib from "xpath";
import { LocatorError } from "./errors.ts";

export type LocatorStrategy = "id" | "name" | "css" | "xpath" | "linkText" | "partialLinkText";
export type ParsedLocator = { strategy: LocatorStrategy; value: string };

const STRATEGIES: Record<string, LocatorStrategy> = {
  id: "id",
  name: "name",
  css: "css",
  xpath: "xpath",
  linkText: "linkText",
  link: "linkText",
  partialLinkText: "partialLinkText",
};
const KNOWN = "id, name, css, xpath, linkText (or link), partialLinkText";

// The package's typings leave out parse(), which compiles an expression without any document.
const compileXPath = (xpathLib as unknown as { parse(expression: string): unknown }).parse;

/** Splits `strategy=value` and checks that the value parses; needs no document. */
export function parseLocator(location: string): ParsedLocator {
  const shown = JSON.stringify(location);
  // A bare xpath may itself hold "=" (//a[@id='x']), so it is recognised before splitting.
  const bare = location.startsWith("//") || location.startsWith("(");
  const at = location.indexOf("=");
  if (!bare && at < 0) {
    throw new LocatorError(
      "InvalidLocator",
      `The locator ${shown} is not of the form strategy=value; use one of ${KNOWN}, or an xpath starting with // or (.`,
    );
  }
  const name = bare ? "xpath" : location.slice(0, at);
  const value = bare ? location : location.slice(at + 1);
  const strategy = Object.hasOwn(STRATEGIES, name) ? STRATEGIES[name] : undefined;
  if (!strategy) {
    throw new LocatorError(
      "InvalidLocator",
      `The locator ${shown} uses the unknown strategy ${JSON.stringify(name)}; use one of ${KNOWN}.`,
    );
  }
  if (value.trim() === "") {
    throw new LocatorError("InvalidLocator", `The locator ${shown} has no value after "${name}=".`);
  }
  if (strategy === "css") checkSyntax(shown, "CSS selector", () => parseCss(value));
  if (strategy === "xpath") checkSyntax(shown, "XPath expression", () => compileXPath(value));
  return { strategy, value };
}

function checkSyntax(shown: string, what: string, parse: () => unknown): void {
  try {
    parse();
  } catch (err) {
    const detail = err instanceof Error && err.message ? ` (${err.message})` : "";
    throw new LocatorError("InvalidLocator", `The locator ${shown} is not a valid ${what}${detail}.`);
  }
}
