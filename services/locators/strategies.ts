// Locator strategies that plugins declare (CONTRACT section 23): `NAME=VALUE` stands for a CSS
// or XPath template with `{value}` filled in. Everything that finds, heals, records or exports
// reads a declared locator through `expandLocator`, which turns it into the `css=` or `xpath=`
// locator the players, WebDriver and the export already know; nothing else learns the names.
import { z } from "zod";
import { parseLocator } from "./parse.ts";
import { BUILT_IN, fillTemplate, PLACEHOLDER } from "./templates.ts";
import type { StrategyDeclaration } from "./templates.ts";

export { declaredName, expandLocator, fillTemplate, PLACEHOLDER, strategiesUsed, strategyTable } from "./templates.ts";
export type { StrategyDeclaration, StrategyTable } from "./templates.ts";

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
