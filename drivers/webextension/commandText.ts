// What the IDE window sends the tab under test for one page command: the command's target and
// value with `${...}` replaced from the run's variables (Selenium IDE's interpolation,
// services/playback/variables.ts), `${KEY_ENTER}` and the other keys in the value turned into
// WebDriver's key code points, and the command's alternative locators (`targets`). Pure.
import type { SideCommand } from "../../services/side/index.ts";
import { interpolate } from "../../services/playback/variables.ts";
import type { VariableValues } from "../../services/playback/variables.ts";
import type { InPageRequest } from "./page/index.ts";
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

/** The request for the content script, or why the command cannot be sent (a bad key). */
export function inPageRequest(
  command: SideCommand,
  variables: VariableValues,
  keys: Readonly<Record<string, string>>,
  implicitWaitMs: number,
): { ok: true; request: InPageRequest } | { ok: false; message: string } {
  try {
    const target = interpolate(command.target, variables);
    const value = interpolateValue(command.command, command.value, variables, keys);
    const targets = alternativeTargets(command, variables).filter((t) => t !== target);
    const fingerprint = (command as { fingerprint?: unknown }).fingerprint;
    const request: InPageRequest = { command: command.command, target, value, targets, implicitWaitMs };
    if (fingerprint !== undefined) request.fingerprint = fingerprint;
    return { ok: true, request };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}

/** setWindowSize's target, Selenium's "WIDTHxHEIGHT". */
export function parseWindowSize(text: string): { width: number; height: number } | null {
  const match = /^\s*(\d{1,5})\s*x\s*(\d{1,5})\s*$/i.exec(text);
  if (!match) return null;
  const [width, height] = [Number(match[1]), Number(match[2])];
  return width > 0 && height > 0 ? { width, height } : null;
}

/**
 * selectFrame's target: top, parent, a path of indexes (`index=0`, Selenium's `index=1\\..\\0`
 * with `..` for the parent), or a locator of a frame element in the selected frame.
 */
export type FrameTarget =
  | { kind: "top" }
  | { kind: "parent" }
  | { kind: "index"; steps: Array<number | ".."> }
  | { kind: "locator"; location: string };

export function parseFrameTarget(text: string): FrameTarget | { kind: "invalid"; message: string } {
  if (text === "relative=top") return { kind: "top" };
  if (text === "relative=parent") return { kind: "parent" };
  if (text.startsWith("index=")) {
    const steps: Array<number | ".."> = [];
    for (const part of text.slice("index=".length).split("\\")) {
      if (part === "..") steps.push("..");
      else if (/^\d+$/.test(part.trim())) steps.push(Number(part.trim()));
      else return { kind: "invalid", message: `selectFrame: "${text}" is not a frame index (index=0, index=1\\..\\0).` };
    }
    return { kind: "index", steps };
  }
  if (text.trim() === "") return { kind: "invalid", message: "selectFrame needs a target: relative=top, relative=parent, index=N or a locator of a frame." };
  return { kind: "locator", location: text };
}

/** Where a path of frame indexes leads from `from` (the indexes from the top frame down). */
export function followFrameSteps(from: readonly number[], steps: ReadonlyArray<number | "..">): number[] {
  const path = [...from];
  for (const step of steps) {
    if (step === "..") path.pop();
    else path.push(step);
  }
  return path;
}
