import type { StrategyDeclaration } from "../locators/strategies.ts";
import type { Registration } from "./registration.ts";

// An array rather than an object keyed by sender id, so any id (`__proto__`,
// `constructor`) is just a value; order is first-registration order.
// `strategies`: the locator strategies it declared (POST /locator/strategy, CONTRACT section 23).
export type RegisteredPlugin = Readonly<{ id: string; registration: Registration; strategies?: ReadonlyArray<StrategyDeclaration> }>;
export type PluginRegistry = ReadonlyArray<RegisteredPlugin>;

export type CommandConflict = { commandId: string; owner: string };
export type RegisterResult = { ok: true; registry: PluginRegistry } | { ok: false; conflict: CommandConflict };

export const emptyRegistry: PluginRegistry = Object.freeze([]);

export function findPlugin(registry: PluginRegistry, id: string): RegisteredPlugin | undefined {
  return registry.find((plugin) => plugin.id === id);
}

export function isRegistered(registry: PluginRegistry, id: string): boolean {
  return registry.some((plugin) => plugin.id === id);
}

/**
 * Adds `id`'s registration, or replaces its earlier one in place. All or nothing:
 * a command id that another plugin already registered leaves the registry as it was.
 * The sender's own earlier commands never clash, since they are being replaced.
 */
export function registerPlugin(registry: PluginRegistry, id: string, registration: Registration): RegisterResult {
  const owners = new Map<string, string>();
  for (const plugin of registry) {
    if (plugin.id === id) continue;
    for (const command of plugin.registration.commands ?? []) owners.set(command.id, plugin.id);
  }
  for (const command of registration.commands ?? []) {
    const owner = owners.get(command.id);
    if (owner !== undefined) return { ok: false, conflict: { commandId: command.id, owner } };
  }
  const index = registry.findIndex((plugin) => plugin.id === id);
  // Registering again keeps the strategies the plugin declared.
  const strategies = index === -1 ? undefined : registry[index].strategies;
  const entry: RegisteredPlugin = Object.freeze(strategies ? { id, registration, strategies } : { id, registration });
  const next = index === -1 ? [...registry, entry] : registry.map((plugin, i) => (i === index ? entry : plugin));
  return { ok: true, registry: Object.freeze(next) };
}

/** A plugin may declare this many locator strategies; the .side file carries as many. */
export const MAX_STRATEGIES_PER_PLUGIN = 100;

export type DeclareResult =
  | { ok: true; registry: PluginRegistry }
  | { ok: false; refusal: { kind: "taken"; owner: string } | { kind: "notRegistered" } | { kind: "tooMany"; limit: number } };

/**
 * `id` declares a locator strategy (CONTRACT section 23): added to its own, or replacing its
 * earlier declaration of the same name in place. A name another plugin declared leaves the
 * registry as it was, and so does a declaration from a sender that is not registered.
 */
export function declareStrategy(registry: PluginRegistry, id: string, declaration: StrategyDeclaration): DeclareResult {
  const owner = registry.find((plugin) => plugin.id !== id && plugin.strategies?.some((d) => d.name === declaration.name));
  if (owner) return { ok: false, refusal: { kind: "taken", owner: owner.id } };
  const index = registry.findIndex((plugin) => plugin.id === id);
  if (index === -1) return { ok: false, refusal: { kind: "notRegistered" } };
  const own = registry[index].strategies ?? [];
  const at = own.findIndex((d) => d.name === declaration.name);
  if (at === -1 && own.length >= MAX_STRATEGIES_PER_PLUGIN) return { ok: false, refusal: { kind: "tooMany", limit: MAX_STRATEGIES_PER_PLUGIN } };
  const strategies = Object.freeze(at === -1 ? [...own, declaration] : own.map((d, i) => (i === at ? declaration : d)));
  const entry: RegisteredPlugin = Object.freeze({ ...registry[index], strategies });
  return { ok: true, registry: Object.freeze(registry.map((plugin, i) => (i === index ? entry : plugin))) };
}

/** The registry without `id`; the same registry when `id` was not in it. */
export function removePlugin(registry: PluginRegistry, id: string): PluginRegistry {
  return isRegistered(registry, id) ? Object.freeze(registry.filter((plugin) => plugin.id !== id)) : registry;
}

export function pluginSummaries(registry: PluginRegistry): Array<{ id: string; name: string; version: string }> {
  return registry.map(({ id, registration }) => ({ id, name: registration.name, version: registration.version }));
}

/** Every plugin's declared locator strategies, with the declaring plugin's id, in registration order. */
export function pluginStrategies(registry: PluginRegistry): Array<StrategyDeclaration & { plugin: string }> {
  return registry.flatMap((plugin) => (plugin.strategies ?? []).map((d) => ({ ...d, plugin: plugin.id })));
}
