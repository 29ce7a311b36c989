// A run's variables and `${...}` (CONTRACT sections 9 and 11). The run machine keeps them as
// a plain object; Selenium IDE's own `Variables` and interpolation read them, through a view
// that adds what the contract asks and Selenium lacks: `${a.b}` reads a field of an object
// variable. It also refuses Selenium's `${env:NAME}`, which reads the process environment:
// a `.side` file is untrusted input, and a plugin command would carry the value away.
import VariablesModule from "@seleniumhq/side-runtime/dist/variables.js";
import { interpolateScript, interpolateString } from "@seleniumhq/side-runtime/dist/preprocessors.js";
import { messageOf } from "../errors.ts";

// A CommonJS module with `exports.default`: Node's ESM loader hands over the exports object,
// a bundler the class itself.
const Variables: typeof VariablesModule =
  (VariablesModule as unknown as { default?: typeof VariablesModule }).default ?? VariablesModule;

export type VariableValues = Readonly<Record<string, unknown>>;

const own = (object: unknown, key: string): object is Record<string, unknown> =>
  typeof object === "object" && object !== null && Object.hasOwn(object, key);

/** The value a name reads: `rows`, or `row.user` through objects and arrays; undefined if none. */
export function readVariable(values: VariableValues, name: string): { found: boolean; value?: unknown } {
  if (Object.hasOwn(values, name)) return { found: true, value: values[name] };
  const [head, ...path] = name.split(".");
  if (path.length === 0 || !Object.hasOwn(values, head)) return { found: false };
  let value: unknown = values[head];
  for (const key of path) {
    if (!own(value, key)) return { found: false };
    value = value[key];
  }
  return { found: true, value };
}

/** Selenium's Variables over a run's values, with dotted names and without `env:`. */
export class RunVariables extends Variables {
  constructor(private readonly values: VariableValues) {
    super();
  }
  override get(key: string): unknown {
    return readVariable(this.values, key).value;
  }
  override has(key: string): boolean {
    return readVariable(this.values, key).found;
  }
  override set(): void {
    throw new Error("a run's variables change only through the run machine");
  }
}

/** A target or value with `${...}` replaced, as Selenium IDE replaces it. */
export const interpolate = (text: string, values: VariableValues): string =>
  interpolateString(text, new RunVariables(values));

/** A script with each `${name}` turned into `arguments[i]`, and the arguments (Selenium's way). */
export const interpolateCondition = (script: string, values: VariableValues): { script: string; argv: unknown[] } =>
  interpolateScript(script, new RunVariables(values));

/**
 * `contents` of PUT /playback/var: JSON text, or a number, boolean or null taken as itself.
 * A problem is worded for the request's error.
 */
export function parseContents(contents: unknown): { ok: true; value: unknown } | { ok: false; problem: string } {
  if (contents === null || typeof contents === "number" || typeof contents === "boolean") return { ok: true, value: contents };
  if (typeof contents !== "string") {
    return { ok: false, problem: "contents must be a string of JSON text, a number, a boolean or null" };
  }
  try {
    return { ok: true, value: JSON.parse(contents) };
  } catch (error) {
    return { ok: false, problem: `contents is not JSON text (${messageOf(error)})` };
  }
}
