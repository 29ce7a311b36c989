// Locator strategies that plugins declare (CONTRACT section 23): `NAME=VALUE` stands for a CSS
// or XPath template with `{value}` filled in. Everything that finds, heals, records or exports
// reads a declared locator through `expandLocator`, which turns it into the `css=` or `xpath=`
// locator the players, WebDriver and the export already know; nothing else learns the names.
import { z } from "zod";
import { parseLocator } from "./parse.ts";
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
const BUILT_IN = new Set(["id", "name", "css", "xpath", "linktext", "link", "partiallinktext"]);

// A field given as something other than text is named as missing or mistyped, not in zod's words.
const text = (max: number) =>
  z
    .string({ error: (issue) => (issue.code !== "invalid_type" ? undefined : issue.input === undefined ? "is missing" : "must be a string") })
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters long`);

export const strategyDeclarationSchema = z
  .object({
    name: text(64)
      .regex(/^[a-z0-9-]+$/, "must be lowercase letters, digits and -")
      .refine((n) => !BUILT_IN.has(n), "is a built-in strategy"),
    css: text(2000).optional(),
    xpath: text(2000).optional(),
    attribute: text(200)
      .regex(/^[A-Za-z_:][-A-Za-z0-9_:.]*$/, "must be an attribute name")
      .optional(),
  })
  .strict()
  .refine((d) => (d.css === undefined) !== (d.xpath === undefined), { message: "needs exactly one of css and xpath" })
  .refine((d) => (d.css ?? d.xpath ?? "").includes(PLACEHOLDER), { message: `template must hold ${PLACEHOLDER}` });

// Values that try every escape a template must survive: both quotes, a backslash, brackets.
const PROBES = ["plain", `it's "quoted" \\ [x]`];

export type DeclarationCheck = { ok: true; declaration: StrategyDeclaration } | { ok: false; problem: string };

/** Checks the fields and that the template, filled with awkward values, is valid CSS or XPath. */
export function checkDeclaration(input: unknown): DeclarationCheck {
  const parsed = strategyDeclarationSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length > 0 ? `${issue.path.join(".")} ` : "";
    return { ok: false, problem: `The locator strategy ${where}${issue.message}.` };
  }
  const declaration = dropUndefined(parsed.data);
  for (const probe of PROBES) {
    try {
      parseLocator(fillTemplate(declaration, probe));
    } catch (error) {
      const kind = declaration.css !== undefined ? "CSS selector" : "XPath expression";
      const detail = error instanceof Error ? error.message : String(error);
      return { ok: false, problem: `The ${kind} template of "${declaration.name}" is not valid once filled with ${JSON.stringify(probe)}: ${detail}` };
    }
  }
  return { ok: true, declaration };
}

function dropUndefined(d: StrategyDeclaration): StrategyDeclaration {
  return Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined)) as unknown as StrategyDeclaration;
}

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
