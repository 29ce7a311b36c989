// A project keeps the declarations of the locator strategies its commands use (CONTRACT section
// 23, `.side` field `locatorStrategies`), so it plays, heals and exports with their plugins gone.
// What it takes is read from the plugins' declarations when it is saved and when they leave;
// a name it carries already stays as it carries it.
import { strategiesUsed } from "../locators/strategies.ts";
import type { StrategyDeclaration } from "../locators/strategies.ts";
import type { SideProject } from "./schema.ts";
import { MAX_CARRIED_STRATEGIES } from "./strategies.ts";

/** Every locator the project's commands name: each target, and each locator of its `targets`. */
function* commandLocators(project: SideProject): Iterable<string> {
  for (const test of project.tests) {
    for (const command of test.commands) {
      yield command.target;
      const targets = (command as { targets?: unknown }).targets;
      if (!Array.isArray(targets)) continue;
      for (const pair of targets) if (Array.isArray(pair) && typeof pair[0] === "string") yield pair[0];
    }
  }
}

/** A declaration as the `.side` file keeps it: its own four fields, not who declared it. */
function asCarried({ name, css, xpath, attribute }: StrategyDeclaration): StrategyDeclaration {
  return { name, ...(css === undefined ? {} : { css }), ...(xpath === undefined ? {} : { xpath }), ...(attribute === undefined ? {} : { attribute }) };
}

/**
 * The declarations among `declared` of the strategies the project's commands use and it does
 * not carry yet, in the order the commands first use them, up to what a project may carry (a
 * strategy past it plays while its plugin is there, as a project without the field does).
 */
export function strategiesToCarry(project: SideProject, declared: ReadonlyArray<StrategyDeclaration>): StrategyDeclaration[] {
  if (declared.length === 0) return [];
  const carried = new Set((project.locatorStrategies ?? []).map((d) => d.name));
  const byName = new Map(declared.map((d) => [d.name, d]));
  return strategiesUsed(commandLocators(project))
    .filter((name) => !carried.has(name) && byName.has(name))
    .slice(0, Math.max(0, MAX_CARRIED_STRATEGIES - carried.size))
    .map((name) => asCarried(byName.get(name)!));
}

/** The project carrying those declarations too; the very same project when it needs none. */
export function carryingStrategies(project: SideProject, declared: ReadonlyArray<StrategyDeclaration>): SideProject {
  const missing = strategiesToCarry(project, declared);
  return missing.length === 0 ? project : { ...project, locatorStrategies: [...(project.locatorStrategies ?? []), ...missing] };
}
