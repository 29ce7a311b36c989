// The part of the declared locator strategies (CONTRACT section 23) that runs where a locator
// is used: filling a template, the table of declarations, and `expandLocator`. No zod here:
// the recorder in the page (builders.ts) fills templates too, and the host puts its script into
// every document, so it stays small. Declarations are checked at the door (strategies.ts).
import { xpathLiteral } from "./xpath.ts";

/** One declaration, as a plugin posts it and a `.side` file's `locatorStrategies` keeps it. */
export interface StrategyDeclaration {
  name: string;
  css?: string;
  xpath?: string;
  /** The attribute whose value the recorder writes as `NAME=VALUE`. */
  attribute?: string;
}

/** The strategies a locator may use, by name: the project's, then the plugins' over them. */
export type StrategyTable = ReadonlyMap<string, StrategyDeclaration>;

export const PLACEHOLDER = "{value}";

/** The built-in strategies (parse.ts) in lower case: no plugin may take one. */
export const BUILT_IN = new Set(["id", "name", "css", "xpath", "linktext", "link", "partiallinktext"]);

/** `css=…` or `xpath=…`: the declaration's template with `value` in it, escaped for its quotes. */
export function fillTemplate(declaration: StrategyDeclaration, value: string): string {
  if (declaration.css !== undefined) return `css=${declaration.css.split(PLACEHOLDER).join(cssEscape(value))}`;
  return `xpath=${fillXPath(declaration.xpath!, value)}`;
}

/** Inside a CSS string either quote and the backslash are escaped; any other character stands as itself. */
function cssEscape(value: string): string {
  return value.replace(/[\\"']/g, (c) => `\\${c}`).replace(/\n/g, "\\a ");
}

/** An XPath 1.0 string has no escapes: a quoted `{value}` whose value holds the quote becomes concat(). */
function fillXPath(template: string, value: string): string {
  const parts = template.split(PLACEHOLDER);
  let out = parts[0];
  for (let i = 1; i < parts.length; i++) {
    const before = out.at(-1);
    const after = parts[i][0];
    if ((before === "'" || before === '"') && after === before) {
      out = out.slice(0, -1) + (value.includes(before) ? xpathLiteral(value) : `${before}${value}${before}`) + parts[i].slice(1);
    } else {
      out += value + parts[i];
    }
  }
  return out;
}

/** A table from declarations; later ones (the plugins') win over earlier ones (the project's). */
export function strategyTable(...lists: ReadonlyArray<ReadonlyArray<StrategyDeclaration> | undefined>): StrategyTable {
  const table = new Map<string, StrategyDeclaration>();
  for (const list of lists) for (const d of list ?? []) table.set(d.name, d);
  return table;
}

/** The strategy name of `NAME=VALUE` when NAME is not built in; null for a built-in or bare xpath. */
export function declaredName(location: string): string | null {
  if (location.startsWith("//") || location.startsWith("(")) return null;
  const at = location.indexOf("=");
  if (at <= 0) return null;
  const name = location.slice(0, at);
  return /^[a-z0-9-]+$/.test(name) && !BUILT_IN.has(name) ? name : null;
}

/**
 * The locator the players know: a declared `NAME=VALUE` as its filled template, anything else
 * unchanged (so a built-in locator costs one look at its name). An undeclared NAME stays as it
 * is and parseLocator refuses it (InvalidLocator naming NAME).
 */
export function expandLocator(location: string, table: StrategyTable): string {
  if (table.size === 0) return location;
  const name = declaredName(location);
  if (name === null) return location;
  const declaration = table.get(name);
  return declaration ? fillTemplate(declaration, location.slice(name.length + 1)) : location;
}

/** The strategy names `locations` use, in first-use order. */
export function strategiesUsed(locations: Iterable<string>): string[] {
  const names = new Set<string>();
  for (const location of locations) {
    const name = declaredName(location);
    if (name !== null) names.add(name);
  }
  return [...names];
}
