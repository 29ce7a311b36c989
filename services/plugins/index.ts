export { parseRegistration, pluginCommandSchema, registrationSchema } from "./registration.ts";
export type { PluginCommand, Registration, RegistrationParseResult } from "./registration.ts";
export {
  emptyRegistry,
  findPlugin,
  isRegistered,
  pluginStrategies,
  pluginSummaries,
  registerPlugin,
  removePlugin,
} from "./registry.ts";
export type { CommandConflict, PluginRegistry, RegisteredPlugin, RegisterResult } from "./registry.ts";
