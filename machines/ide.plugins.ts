// The plugin session's locator strategies (CONTRACT section 23), decided by the root, which
// keeps the registry: a declaration (POST /locator/strategy) goes into its plugin's entry or
// is refused, and when plugins leave, the project keeps the declarations its commands use.
import { declareStrategy, pluginStrategies } from "../services/plugins/index.ts";
import type { PluginRegistry } from "../services/plugins/index.ts";
import type { StrategyDeclaration } from "../services/locators/strategies.ts";
import { fail, ok } from "./replies.ts";
import type { Reply } from "./shared.types.ts";
import type { IdeEvent } from "./ide.types.ts";

/** POST /locator/strategy: the registry with the declaration in it and `true`, or the registry unchanged and why not. */
export function strategyDeclared(
  plugins: PluginRegistry,
  request: Extract<IdeEvent, { type: "request.declareStrategy" }>,
): { registry: PluginRegistry; reply: Reply } {
  const { name } = request.declaration;
  const result = declareStrategy(plugins, request.sender, request.declaration);
  if (result.ok) return { registry: result.registry, reply: ok(true) };
  const { refusal } = result;
  const reply =
    refusal.kind === "taken"
      ? fail("StrategyTaken", `The locator strategy "${name}" is already declared by the plugin ${refusal.owner}; nothing was declared.`)
      : refusal.kind === "tooMany"
        ? fail("InvalidRequest", `The plugin ${request.sender} has declared ${refusal.limit} locator strategies, as many as a plugin may; "${name}" was not declared.`)
        : fail("MissingPlugin", `The plugin ${request.sender} is not registered; send POST /register first.`);
  return { registry: plugins, reply };
}

/**
 * The plugin session after it ends (the window) or restarts (a granted control: the controller
 * alone, keeping the strategies it declared), and the declarations of the plugins that left.
 */
export function sessionAfter(plugins: PluginRegistry, event: IdeEvent): { plugins: PluginRegistry; left: StrategyDeclaration[] } {
  if (event.type !== "control.granted") return { plugins: [], left: asDeclared(plugins) };
  const strategies = plugins.find((p) => p.id === event.controller)?.strategies;
  const controller = { id: event.controller, registration: event.registration, ...(strategies ? { strategies } : {}) };
  return { plugins: [controller], left: asDeclared(plugins.filter((p) => p.id !== event.controller)) };
}

/** The declarations of the plugins' strategies as a project carries them: without the declaring plugin. */
const asDeclared = (plugins: PluginRegistry): StrategyDeclaration[] => pluginStrategies(plugins).map(({ plugin: _, ...declaration }) => declaration);
