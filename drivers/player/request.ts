// What a caller sends the one player for one page command (the extension's window to its tab
// under test, the host's route to the page it drives): the command's target and value with
// `${...}` replaced from the run's variables (Selenium IDE's interpolation,
// services/playback/variables.ts), `${KEY_ENTER}` and the other keys in the value turned into
// WebDriver's key code points, and the command's alternative locators (`targets`). Pure.
import type { SideCommand } from "../../services/side/index.ts";
import { interpolate } from "../../services/playback/variables.ts";
import type { VariableValues } from "../../services/playback/variables.ts";
import type { InPageRequest } from "./index.ts";
import type { StrategyDeclaration } from "../../services/locators/templates.ts";
import { messageOf } from "../../services/errors.ts";

/** The locator strings of a command's `targets` (`[["id=user", "id"], ...]` in a .side file), with `${...}` replaced. */
export function alternativeTargets(command: SideCommand, variables: VariableValues = {}): string[] {
  const listed = (command as { targets?: unknown }).targets;
  if (!Array.isArray(listed)) return [];
  const found: string[] = [];
  for (const entry of listed) {
    const locator = Array.isArray(entry) ? entry[0] : entry;
    if (typeof locator !== "string" || locator === "") continue;
    const text = interpolate(locator, variables);
    if (text !== "" && !found.includes(text)) found.push(text);
  }
  return found;
}

const KEY_REFERENCE = /\$\{(KEY_\w+)\}/g;

/**
 * The value with variables replaced, then every `${KEY_NAME}` that names a key turned into its
 * code point (a variable of that name wins, as in Selenium IDE, where keys are looked up last).
 * An unknown `${KEY_...}` is left as written, except for sendKeys, where it is an error.
 */
export function interpolateValue(command: string, value: string, variables: VariableValues, keys: Readonly<Record<string, string>>): string {
  const replaced = interpolate(value, variables);
  return replaced.replace(KEY_REFERENCE, (whole, name: string) => {
    if (Object.hasOwn(keys, name)) return keys[name];
    if (command === "sendKeys") throw new Error(`Unrecognised key ${name.slice("KEY_".length)}`);
    return whole;
  });
}

/** The request for the player in the page, or why the command cannot be sent (a bad key). */
export function inPageRequest(
  command: SideCommand,
  variables: VariableValues,
  keys: Readonly<Record<string, string>>,
  implicitWaitMs: number,
  strategies: readonly StrategyDeclaration[] = [],
): { ok: true; request: InPageRequest } | { ok: false; message: string } {
  try {
    const target = interpolate(command.target, variables);
    const value = interpolateValue(command.command, command.value, variables, keys);
    const targets = alternativeTargets(command, variables).filter((t) => t !== target);
    const fingerprint = (command as { fingerprint?: unknown }).fingerprint;
    const request: InPageRequest = { command: command.command, target, value, targets, implicitWaitMs };
    if (fingerprint !== undefined) request.fingerprint = fingerprint;
    // Only relocation reads them, and only those that name an attribute it can build from.
    const buildable = fingerprint !== undefined ? strategies.filter((d) => d.attribute) : [];
    if (buildable.length > 0) request.strategies = buildable;
    return { ok: true, request };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}
