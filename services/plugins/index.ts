export { parseRegistration, pluginCommandSchema, registrationSchema } from "./registration.ts";
export type { PluginCommand, Registration, RegistrationParseResult } from "./registration.ts";
export {
  declareStrategy,
  emptyRegistry,
  findPlugin,
  MAX_STRATEGIES_PER_PLUGIN,
  isRegistered,
  pluginStrategies,
  pluginSummaries,
  registerPlugin,
  removePlugin,
} from "./registry.ts";
export type { CommandConflict, DeclareResult, PluginRegistry, RegisteredPlugin, RegisterResult } from "./registry.ts";
