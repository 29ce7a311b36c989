// The `.side` field `locatorStrategies` (CONTRACT section 23): the declarations of the plugins'
// locator strategies a project's commands use, kept as the plugins declared them, so the project
// plays, heals and exports with the plugins gone. Each is checked as a plugin's declaration is:
// a template that is not valid CSS or XPath once filled refuses the whole project.
import { z } from "zod";
import { checkDeclaration } from "../locators/strategies.ts";
import type { StrategyDeclaration } from "../locators/strategies.ts";

export const locatorStrategiesSchema = z
  .array(z.unknown())
  .max(100)
  .transform((list, ctx): StrategyDeclaration[] => {
    const out: StrategyDeclaration[] = [];
    list.forEach((item, index) => {
      const checked = checkDeclaration(item);
      if (!checked.ok) ctx.addIssue({ code: "custom", path: [index], message: checked.problem });
      else if (out.some((d) => d.name === checked.declaration.name)) {
        ctx.addIssue({ code: "custom", path: [index], message: `declares "${checked.declaration.name}" a second time` });
      } else out.push(checked.declaration);
    });
    return out;
  });
