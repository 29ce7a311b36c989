import { parse as parseCss } from "css-what";
import xpathLib from "xpath";
import { LocatorError } from "./errors.ts";
import { shadowOutsideCss, splitShadowSteps } from "./shadow.ts";

export type LocatorStrategy = "id" | "name" | "css" | "xpath" | "linkText" | "partialLinkText";
export type ParsedLocator = {
  strategy: LocatorStrategy;
  value: string;
  /** css only, when the value steps into shadow roots (`A >>> B`): its parts, two or more. */
  shadowSteps?: string[];
};

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
      `The locator ${shown} uses the unknown strategy ${JSON.stringify(name)}: no plugin has declared it and the project does not carry it (locatorStrategies); use one of ${KNOWN}, or a declared strategy.`,
    );
  }
  if (value.trim() === "") {
    throw new LocatorError("InvalidLocator", `The locator ${shown} has no value after "${name}=".`);
  }
  if (strategy === "css") return parseCssValue(shown, value);
  // An id never holds spaces and a name rarely `>>>`: there it is a css chain written with the wrong strategy.
  if ((strategy === "id" || strategy === "name") && value.includes(">>>")) throw shadowOutsideCss(shown, strategy);
  if (strategy === "xpath") {
    try {
      checkSyntax(shown, "XPath expression", () => compileXPath(value));
    } catch (error) {
      throw value.includes(">>>") ? shadowOutsideCss(shown, strategy) : error;
    }
  }
  return { strategy, value };
}

/** A css value, a plain selector or a `>>>` chain of them (section 19), each part checked. */
function parseCssValue(shown: string, value: string): ParsedLocator {
  const steps = splitShadowSteps(value);
  if (steps.length === 1) {
    checkSyntax(shown, "CSS selector", () => parseCss(value));
    return { strategy: "css", value };
  }
  steps.forEach((step, i) => {
    if (step === "") {
      throw new LocatorError(
        "InvalidLocator",
        `The locator ${shown} has an empty part ${i + 1} of ${steps.length}: each side of ">>>" must be a CSS selector, as in css=my-host >>> button.`,
      );
    }
    checkSyntax(shown, `CSS selector in its part ${i + 1} (${JSON.stringify(step)})`, () => parseCss(step));
  });
  return { strategy: "css", value, shadowSteps: steps };
}

function checkSyntax(shown: string, what: string, parse: () => unknown): void {
  try {
    parse();
  } catch (err) {
    const detail = err instanceof Error && err.message ? ` (${err.message})` : "";
    throw new LocatorError("InvalidLocator", `The locator ${shown} is not a valid ${what}${detail}.`);
  }
}
