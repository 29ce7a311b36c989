// side-runtime's classes as the host loads them, once, with its two gaps closed
// (sideRuntimeFixes.ts): the WebDriverExecutor a session plays through (browserSession.ts),
// whose `type` learns to upload files (fileUpload.ts), and the errors and variables that
// browserPage.ts reads its answers with. A room of its own so that these three share the
// classes without importing one another.
import WebDriverExecutorModule from "@seleniumhq/side-runtime/dist/webdriver.js";
import * as sideErrors from "@seleniumhq/side-runtime/dist/errors/index.js";
import VariablesModule from "@seleniumhq/side-runtime/dist/variables.js";
import { readVariable } from "../../services/playback/variables.ts";
import type { VariableValues } from "../../services/playback/variables.ts";
import { fixSideRuntime } from "./sideRuntimeFixes.ts";

// CommonJS modules with `exports.default`: Node's ESM loader hands over the exports object.
const unwrap = <T,>(module: T): T => (module as { default?: T }).default ?? module;
export const WebDriverExecutor = unwrap(WebDriverExecutorModule);
export const Variables = unwrap(VariablesModule);
export type SideExecutor = InstanceType<typeof WebDriverExecutor>;
export const { AssertionError, VerificationError } = unwrap(sideErrors as unknown as typeof import("@seleniumhq/side-runtime/dist/errors/index.js"));
fixSideRuntime(WebDriverExecutor, { AssertionError, VerificationError });

/** Selenium's `Variables` over a run's values; what commands store is kept apart, to be handed back. */
export class CommandVariables extends Variables {
  readonly stored: Record<string, unknown> = {};
  constructor(private readonly values: VariableValues) {
    super();
  }
  override get(key: string): unknown {
    if (Object.hasOwn(this.stored, key)) return this.stored[key];
    return readVariable(this.values, key).value;
  }
  override has(key: string): boolean {
    return Object.hasOwn(this.stored, key) || readVariable(this.values, key).found;
  }
  override set(key: string, value: unknown): void {
    this.stored[key] = value;
  }
}
