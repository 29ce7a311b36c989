// Plugins left (the window closed, a controller restarted the plugin session): the project keeps
// the declarations of their locator strategies its commands use (CONTRACT section 23), so a run,
// an export or a save after that still reads `NAME=VALUE`. It is an edit like any other: the
// project is unsaved after it, and Undo takes it back.
import { strategiesToCarry } from "../services/side/index.ts";
import type { SideProject } from "../services/side/index.ts";
import type { StrategyDeclaration } from "../services/locators/strategies.ts";
import type { Planned } from "./editor.edits.ts";

/** The edit that keeps what the project needs of `declared`, or null when it needs none. */
export function planKeptStrategies(project: SideProject, declared: ReadonlyArray<StrategyDeclaration>): Planned | null {
  const missing = strategiesToCarry(project, declared);
  if (missing.length === 0) return null;
  const names = missing.map((d) => `"${d.name}"`).join(", ");
  return {
    ok: true,
    edit: {
      label: `Keep the locator ${missing.length === 1 ? "strategy" : "strategies"} ${names} of plugins that left`,
      recipe: (p) => {
        p.locatorStrategies = [...(p.locatorStrategies ?? []), ...missing];
      },
    },
  };
}
