// The `.side` field `locatorStrategies` (CONTRACT section 23): the declarations of the plugins'
// locator strategies a project's commands use, kept as the plugins declared them, so the project
// plays, heals and exports with the plugins gone. Each is checked as a plugin's declaration is:
// a template that is not valid CSS or XPath once filled refuses the whole project. The list has
// room for the strategies of ten plugins at their limit (100 each): a project carries no more
// than it may load (carryStrategies.ts), so what was saved loads back as it was; the bound keeps a
// hostile file from making the door check declarations for minutes.
import { z } from "zod";
import { checkDeclaration } from "../locators/strategies.ts";
import type { StrategyDeclaration } from "../locators/strategies.ts";

/** The most declarations a project carries and loads. */
export const MAX_CARRIED_STRATEGIES = 1_000;

export const locatorStrategiesSchema = z
  .array(z.unknown())
  .max(MAX_CARRIED_STRATEGIES)
  .transform((list, ctx): StrategyDeclaration[] => {
    const out: StrategyDeclaration[] = [];
    const names = new Set<string>();
    list.forEach((item, index) => {
      const checked = checkDeclaration(item);
      if (!checked.ok) ctx.addIssue({ code: "custom", path: [index], message: checked.problem });
      else if (names.has(checked.declaration.name)) {
        ctx.addIssue({ code: "custom", path: [index], message: `declares "${checked.declaration.name}" a second time` });
      } else {
        names.add(checked.declaration.name);
        out.push(checked.declaration);
      }
    });
    return out;
  });
