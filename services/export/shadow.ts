// `css=A >>> B` in exported code (CONTRACT section 19): Selenium 4's getShadowRoot() chain.
// The packages write any css= locator as one By (`By.css("A >>> B")`), which no browser reads,
// and their command emitters call their location emitter directly, so the one place to change
// it is the command's code: each `driver.findElement(<that By>)` and `driver.findElements(...)`
// becomes the chain through each part's shadow root, in the package's own syntax for each
// part's locator. Exported code follows the first match of each part, as a chain of Selenium
// calls does (a host that is missing fails the command, even where findElements would give
// none). A shadow locator left anywhere else (a wait on a By, in some languages) cannot be
// written as a chain there, and the export says so rather than write code that cannot work.
import type { ExportFlexCommandShape } from "side-code-export";
import type { CommandShape } from "@seleniumhq/side-model";
import { parseLocator } from "../locators/index.ts";
import type { ExportLanguage } from "./languages.ts";

interface ChainSyntax {
  /** How the package's code calls the driver's find of one element and of all. */
  findOne: string;
  findAll: string;
  /** The chain: the first part's element from the driver, then each next part in the shadow root of the one before. */
  chain(parts: string[], last: "one" | "all"): string;
  /** Other code that takes the locator (a wait's condition), rewritten with the chains. */
  others?: Array<(code: string, locator: string, one: string, all: string) => string>;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Rewrites `${before}${locator}` and then what `after` (a regexp source, one group at most) matches, as `write(one, group)`. */
const condition =
  (before: string, after: string, write: (one: string, group: string) => string) =>
  (code: string, locator: string, one: string): string =>
    code.replace(new RegExp(escaped(before + locator) + after, "g"), (_match, group: unknown) => write(one, typeof group === "string" ? group : ""));

/** `driver.findElement(P1).getShadowRoot().findElement(P2)...`, for languages whose calls chain. */
const chained = (driver: string, root: string, one: string, all: string) => (parts: string[], last: "one" | "all") =>
  parts.slice(1).reduce((code, part, i) => `${code}${root}.${i === parts.length - 2 && last === "all" ? all : one}(${part})`, `${driver}.${one}(${parts[0]})`);

const JAVA: ChainSyntax = {
  findOne: "driver.findElement",
  findAll: "driver.findElements",
  chain: chained("driver", ".getShadowRoot()", "findElement", "findElements"),
  // wait.until takes any function of the driver: the conditions on a located element become lambdas over the chain.
  others: [
    condition("ExpectedConditions.presenceOfElementLocated(", "\\)", (one) => `d -> ${one}`),
    condition("ExpectedConditions.visibilityOfElementLocated(", "\\)", (one) => `d -> ${one}.isDisplayed()`),
    condition("ExpectedConditions.elementToBeClickable(", "\\)", (one) => `d -> ${one}.isEnabled()`),
    condition("ExpectedConditions.textToBe(", ', ("(?:[^"\\\\]|\\\\.)*")\\)', (one, text) => `d -> ${one}.getText().equals(${text})`),
  ],
};
const CSHARP: ChainSyntax = {
  findOne: "driver.FindElement",
  findAll: "driver.FindElements",
  chain: chained("driver", ".GetShadowRoot()", "FindElement", "FindElements"),
};

const SYNTAX: Record<ExportLanguage, ChainSyntax> = {
  "javascript-mocha": {
    findOne: "driver.findElement",
    findAll: "driver.findElements",
    // selenium-webdriver's getShadowRoot() and a shadow root's find give promises to await, one by one.
    chain: (parts, last) =>
      parts
        .slice(1)
        .reduce(
          (code, part, i) => `(await (await ${code}.getShadowRoot()).${i === parts.length - 2 && last === "all" ? "findElements" : "findElement"}(${part}))`,
          `driver.findElement(${parts[0]})`,
        ),
    // A wait on a locator takes a function locator that gives the elements, none while a part is missing.
    others: [(code, locator, _one, all) => code.split(`until.elementLocated(${locator})`).join(`until.elementLocated(async (driver) => { try { return ${all} } catch { return [] } })`)],
  },
  "python-pytest": {
    findOne: "self.driver.find_element",
    findAll: "self.driver.find_elements",
    chain: chained("self.driver", ".shadow_root", "find_element", "find_elements"),
    // WebDriverWait takes any callable: the conditions on a located element become lambdas over the chain.
    others: [
      condition("expected_conditions.presence_of_element_located((", "\\)\\)", (one) => `lambda driver: ${one}`),
      condition("expected_conditions.visibility_of_element_located((", "\\)\\)", (one) => `lambda driver: ${one}.is_displayed()`),
      condition("expected_conditions.element_to_be_clickable((", "\\)\\)", (one) => `lambda driver: ${one}.is_enabled()`),
      condition("expected_conditions.text_to_be_present_in_element((", '\\), ("(?:[^"\\\\]|\\\\.)*")\\)', (one, text) => `lambda driver: ${text} in ${one}.text`),
    ],
  },
  "java-junit": JAVA,
  "csharp-nunit": CSHARP,
  "csharp-xunit": CSHARP,
  "ruby-rspec": {
    findOne: "@driver.find_element",
    findAll: "@driver.find_elements",
    chain: chained("@driver", ".shadow_root", "find_element", "find_elements"),
  },
};

/** The command's locators that step into shadow roots: its target (without storeAttribute's `@name`) and its value. */
function shadowLocatorsOf(command: CommandShape): Array<{ location: string; steps: string[] }> {
  const candidates = [command.target ?? "", command.value ?? ""];
  const at = (command.target ?? "").lastIndexOf("@");
  if (at > 0) candidates.push(command.target!.slice(0, at));
  const found: Array<{ location: string; steps: string[] }> = [];
  for (const location of new Set(candidates)) {
    try {
      const parsed = parseLocator(location);
      if (parsed.shadowSteps) found.push({ location, steps: parsed.shadowSteps });
    } catch {
      // not a locator: nothing to chain
    }
  }
  return found;
}

/**
 * The command's code with each shadow locator written as the getShadowRoot() chain; `locate`
 * is the package's own location emitter. Throws when a shadow locator is left where no chain fits.
 */
export async function withShadowChains(
  language: ExportLanguage,
  command: CommandShape,
  emitted: ExportFlexCommandShape,
  locate: (location: string) => Promise<string>,
): Promise<ExportFlexCommandShape> {
  const locators = shadowLocatorsOf(command);
  if (locators.length === 0) return emitted;
  const syntax = SYNTAX[language];
  const rewrites: Array<(code: string) => string> = [];
  const written: Array<{ location: string; code: string }> = [];
  for (const { location, steps } of locators) {
    const code = await locate(location);
    const parts = await Promise.all(steps.map((step) => locate(`css=${step}`)));
    const one = syntax.chain(parts, "one");
    const all = syntax.chain(parts, "all");
    rewrites.push((text) => text.split(`${syntax.findOne}(${code})`).join(one).split(`${syntax.findAll}(${code})`).join(all));
    for (const other of syntax.others ?? []) rewrites.push((text) => other(text, code, one, all));
    written.push({ location, code });
  }
  const rewrite = (text: string): string => {
    const out = rewrites.reduce((current, apply) => apply(current), text);
    const left = written.find(({ code }) => out.includes(code));
    if (left) {
      throw new Error(
        `'${command.command}' with the shadow DOM locator ${JSON.stringify(left.location)} cannot be exported to ${language}: its code takes a single locator there, which cannot step into shadow roots`,
      );
    }
    return out;
  };
  if (typeof emitted === "string") return rewrite(emitted);
  if ("statement" in emitted) return { ...emitted, statement: rewrite(emitted.statement) };
  return { ...emitted, commands: emitted.commands.map((line) => (typeof line === "string" ? rewrite(line) : { ...line, statement: rewrite(line.statement) })) };
}
