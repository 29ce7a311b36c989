// Declared locator strategies in a run (CONTRACT section 23). A run takes its table once, at
// its start (the project's `locatorStrategies`, the plugins' over them), so a plugin that goes
// away mid-run does not take its strategies from the run. Each page command is handed to the
// executor with its declared `NAME=VALUE` locators (target, `targets`, a drag's destination)
// turned into the `css=`/`xpath=` every player, WebDriver and a Grid already know; what the
// executor says back (the locator it healed by, a message naming a locator) is put back as
// written, so the view, the trace and an accepted repair keep `NAME=VALUE`. Pure.
import { parseLocator } from "../locators/parse.ts";
import { declaredName, expandLocator, strategyTable } from "../locators/strategies.ts";
import type { StrategyDeclaration, StrategyTable } from "../locators/strategies.ts";
import { messageOf } from "../errors.ts";
import type { SideCommand } from "../side/index.ts";
import { interpolate } from "./variables.ts";
import type { VariableValues } from "./variables.ts";

/**
 * The page commands whose target is a locator: those Selenium IDE's command reference
 * (@seleniumhq/side-model) gives a locator, and the player's own (submit, the negated value
 * and label checks). A test holds this list to side-model's.
 */
export const LOCATOR_TARGET_COMMANDS: ReadonlySet<string> = new Set([
  "addSelection", "removeSelection", "select", "check", "uncheck", "click", "clickAt", "doubleClick", "doubleClickAt",
  "dragAndDropToObject", "editContent", "mouseDown", "mouseDownAt", "mouseMoveAt", "mouseOut", "mouseOver", "mouseUp",
  "mouseUpAt", "selectFrame", "sendKeys", "type", "submit", "storeAttribute", "storeElementCount", "storeText", "storeValue",
  "assertChecked", "assertNotChecked", "assertEditable", "assertNotEditable", "assertElementPresent", "assertElementNotPresent",
  "assertText", "assertNotText", "assertValue", "assertNotValue", "assertSelectedValue", "assertNotSelectedValue",
  "assertSelectedLabel", "assertNotSelectedLabel",
  "verifyChecked", "verifyNotChecked", "verifyEditable", "verifyNotEditable", "verifyElementPresent", "verifyElementNotPresent",
  "verifyText", "verifyNotText", "verifyValue", "verifyNotValue", "verifySelectedValue", "verifyNotSelectedValue",
  "verifySelectedLabel", "verifyNotSelectedLabel",
  "waitForElementEditable", "waitForElementNotEditable", "waitForElementPresent", "waitForElementNotPresent",
  "waitForElementVisible", "waitForElementNotVisible", "waitForText",
]);

/** The commands whose value is a locator too. */
const LOCATOR_VALUE_COMMANDS: ReadonlySet<string> = new Set(["dragAndDropToObject"]);

/** selectFrame's own forms, which are no locator whatever a plugin declares. */
const FRAME_FORMS = new Set(["index", "relative"]);

/** A command as the executor gets it, and how to put what it says back as written. */
export type DeclaredCommand =
  | { ok: true; command: SideCommand; written: ReadonlyMap<string, string> }
  | { ok: false; message: string };

const tables = new WeakMap<readonly StrategyDeclaration[], StrategyTable>();
const NONE: readonly StrategyDeclaration[] = Object.freeze([]);

/** The table of a run's declarations (already resolved: later ones won), built once per list. */
function tableOf(declarations: readonly StrategyDeclaration[]): StrategyTable {
  let table = tables.get(declarations);
  if (!table) tables.set(declarations, (table = strategyTable(declarations)));
  return table;
}

/** The declarations a run keeps: the table's entries, as plain data a snapshot can hold. */
export const runStrategies = (table: StrategyTable): StrategyDeclaration[] => [...table.values()];

/**
 * `command` with each declared locator expanded, after `${...}` is replaced in it (the value is
 * escaped for the template, so a variable cannot break out of its quotes); `written` maps each
 * expansion back to the locator as written. A target that names a strategy nobody declared
 * fails the command (InvalidLocator, naming it), the same for every executor. A command that
 * uses no declared locator comes back as it was.
 */
export function declaredCommand(command: SideCommand, variables: VariableValues, declarations: readonly StrategyDeclaration[] | undefined): DeclaredCommand {
  const name = command.command;
  if (!LOCATOR_TARGET_COMMANDS.has(name)) return { ok: true, command, written: new Map() };
  const table = tableOf(declarations ?? NONE);
  const written = new Map<string, string>();
  const expand = (location: string): string => {
    const text = location.includes("${") ? interpolate(location, variables) : location;
    const used = declaredName(text);
    if (used === null || !table.has(used)) return location;
    const expanded = expandLocator(text, table);
    written.set(expanded, text);
    return expanded;
  };

  const [element, attribute] = name === "storeAttribute" ? splitAttribute(command.target) : [command.target, ""];
  const elementText = element.includes("${") ? interpolate(element, variables) : element;
  const used = declaredName(elementText);
  const frameForm = name === "selectFrame" && used !== null && FRAME_FORMS.has(used);
  if (used !== null && !table.has(used) && !frameForm) return { ok: false, message: refusal(elementText) };
  const target = frameForm ? command.target : expand(element) + attribute;
  const value = LOCATOR_VALUE_COMMANDS.has(name) ? expand(command.value) : command.value;
  const targets = expandTargets((command as { targets?: unknown }).targets, expand);
  if (written.size === 0) return { ok: true, command, written };
  const out: SideCommand = { ...command, target, value };
  if (targets !== undefined) (out as { targets?: unknown }).targets = targets;
  return { ok: true, command: out, written };
}

/** storeAttribute's `locator@attribute`: the locator, and `@attribute` (the last `@`). */
function splitAttribute(target: string): [string, string] {
  const at = target.lastIndexOf("@");
  return at > 0 ? [target.slice(0, at), target.slice(at)] : [target, ""];
}

/** The `targets` of a .side command (`[["id=x", "id"], …]`, or plain strings) with each locator expanded; undefined when it has none. */
function expandTargets(listed: unknown, expand: (location: string) => string): unknown {
  if (!Array.isArray(listed)) return undefined;
  return listed.map((entry: unknown) => {
    if (typeof entry === "string") return expand(entry);
    if (Array.isArray(entry) && typeof entry[0] === "string") return [expand(entry[0]), ...entry.slice(1)];
    return entry;
  });
}

/** parseLocator's own words for a locator whose strategy nobody declared: it names the strategy. */
function refusal(location: string): string {
  try {
    parseLocator(location);
  } catch (error) {
    return messageOf(error);
  }
  return `The locator ${JSON.stringify(location)} uses a strategy no plugin has declared.`;
}

/** What the executor said of an expanded command, with its locators back as written. */
export function asWritten<T extends { message?: string | null; healed?: { locator: string } }>(outcome: T, written: ReadonlyMap<string, string>): T {
  if (written.size === 0) return outcome;
  let result = outcome;
  const healedBy = outcome.healed && written.get(outcome.healed.locator);
  if (outcome.healed && healedBy !== undefined) result = { ...result, healed: { ...outcome.healed, locator: healedBy } };
  if (typeof outcome.message === "string" && outcome.message !== "") {
    let message = outcome.message;
    // The longest first, so an expansion inside another is not replaced in part.
    for (const [expanded, as] of [...written].sort((a, b) => b[0].length - a[0].length)) message = message.split(expanded).join(as);
    if (message !== outcome.message) result = { ...result, message };
  }
  return result;
}
