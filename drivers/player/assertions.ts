// The assert and verify family, and the store commands that read the page. Each assertX has its
// verifyX twin with the same check and message (side-runtime makes them the same way); whether a
// failure ends the test is the run's business. Messages are side-runtime's, word for word where
// the check is the same: "Actual value 'x' did not match 'y'".
import { isDisplayed, isEditable, isSelected, valueOf, visibleText } from "./dom.ts";
import { CommandFailure, quoted } from "./errors.ts";
import { matchesOf, parseTarget, waitForElement } from "./find.ts";
import type { CommandContext, CommandHandler, InPageAnswer } from "./types.ts";

const mismatch = (actual: unknown, expected: unknown) => new CommandFailure(`Actual value ${quoted(actual)} did not match ${quoted(expected)}`);
const unwantedMatch = (actual: unknown, expected: unknown) => new CommandFailure(`Actual value ${quoted(actual)} did match ${quoted(expected)}`);

/** The label of a select's selected option, read as its text is read. */
function selectedLabel(context: CommandContext, el: Element): string {
  const select = el as HTMLSelectElement;
  const option = select.selectedOptions?.[0] ?? Array.from(el.querySelectorAll("option")).find((o) => o.selected);
  if (!option) throw new CommandFailure(`No option is selected in ${context.request.target}`);
  // A select the page hides behind its own widget still has a label; WebDriver would read "".
  return isDisplayed(option) ? visibleText(option) : option.text.trim();
}

const ASSERTIONS: Record<string, CommandHandler> = {
  async assertText(context) {
    const text = visibleText(await waitForElement(context));
    if (text !== context.request.value) throw mismatch(text, context.request.value);
  },
  async assertNotText(context) {
    const text = visibleText(await waitForElement(context));
    if (text === context.request.value) throw unwantedMatch(text, context.request.value);
  },
  async assertValue(context) {
    const value = valueOf(await waitForElement(context));
    if (value !== context.request.value) throw mismatch(value, context.request.value);
  },
  async assertNotValue(context) {
    const value = valueOf(await waitForElement(context));
    if (value === context.request.value) throw unwantedMatch(value, context.request.value);
  },
  async assertSelectedValue(context) {
    const value = valueOf(await waitForElement(context));
    if (value !== context.request.value) throw mismatch(value, context.request.value);
  },
  async assertNotSelectedValue(context) {
    const value = valueOf(await waitForElement(context));
    if (value === context.request.value) throw unwantedMatch(value, context.request.value);
  },
  async assertSelectedLabel(context) {
    const label = selectedLabel(context, await waitForElement(context));
    if (label !== context.request.value) throw mismatch(label, context.request.value);
  },
  async assertNotSelectedLabel(context) {
    const label = selectedLabel(context, await waitForElement(context));
    if (label === context.request.value) throw unwantedMatch(label, context.request.value);
  },
  async assertTitle({ win, request }) {
    const title = win.document.title;
    if (title !== request.target) throw mismatch(title, request.target);
  },
  async assertElementPresent(context) {
    await waitForElement(context);
  },
  async assertElementNotPresent({ win, request }) {
    if (matchesOf(win.document, parseTarget(request.target)).length > 0) throw new CommandFailure("Unexpected element was found in page");
  },
  async assertChecked(context) {
    if (!isSelected(await waitForElement(context))) throw new CommandFailure("Element is not checked, expected to be checked");
  },
  async assertNotChecked(context) {
    if (isSelected(await waitForElement(context))) throw new CommandFailure("Element is checked, expected to be unchecked");
  },
  async assertEditable(context) {
    if (!isEditable(await waitForElement(context))) throw new CommandFailure("Element is not editable");
  },
  async assertNotEditable(context) {
    if (isEditable(await waitForElement(context))) throw new CommandFailure("Element is editable");
  },
};

/** assertX and its twin verifyX. */
export const CHECKS: Record<string, CommandHandler> = Object.fromEntries(
  Object.entries(ASSERTIONS).flatMap(([name, handler]) => [
    [name, handler],
    [name.replace(/^assert/, "verify"), handler],
  ]),
);

// ---- store -----------------------------------------------------------------------------

/** The variable a store command writes: its value, which must be given. */
function variableName(context: CommandContext, from: "value" | "target" = "value"): string {
  const name = context.request[from].trim();
  if (name === "") throw new CommandFailure(`${context.request.command} needs the name of the variable to store into as its ${from}`);
  return name;
}

const stored = (name: string, value: unknown): InPageAnswer => ({ state: "passed", stored: { name, value } });

const BOOLEAN_ATTRIBUTES = new Set([
  "async", "autofocus", "autoplay", "checked", "controls", "default", "defer", "disabled", "hidden", "loop", "multiple",
  "muted", "novalidate", "open", "readonly", "required", "reversed", "selected",
]);

/**
 * WebDriver's getAttribute: a boolean attribute reads "true" or null; checked, selected and
 * value read the live state; href and src read the resolved URL; anything else the attribute.
 */
export function attributeOf(el: Element, name: string): string | null {
  const lower = name.toLowerCase();
  if (lower === "value") return valueOf(el);
  if (lower === "checked" || lower === "selected") return isSelected(el) ? "true" : null;
  if (BOOLEAN_ATTRIBUTES.has(lower)) return el.hasAttribute(lower) ? "true" : null;
  if ((lower === "href" || lower === "src") && el.hasAttribute(lower)) {
    const resolved = (el as HTMLAnchorElement & HTMLImageElement)[lower];
    if (typeof resolved === "string" && resolved !== "") return resolved;
  }
  if (lower === "class" || lower === "classname") return el.getAttribute("class");
  return el.getAttribute(name);
}

const STORES: Record<string, CommandHandler> = {
  async storeText(context) {
    const name = variableName(context);
    return stored(name, visibleText(await waitForElement(context)));
  },
  async storeValue(context) {
    const name = variableName(context);
    return stored(name, valueOf(await waitForElement(context)));
  },
  // Selenium IDE's storeTitle takes the variable as its target; an older .side has it in the value.
  async storeTitle(context) {
    const name = context.request.target.trim() !== "" ? variableName(context, "target") : variableName(context);
    return stored(name, context.win.document.title);
  },
  async storeAttribute(context) {
    const { target } = context.request;
    const name = variableName(context);
    const at = target.lastIndexOf("@");
    const attribute = at < 0 ? "" : target.slice(at + 1);
    if (at <= 0 || attribute === "") {
      throw new CommandFailure(`storeAttribute needs a target of the form locator@attribute (e.g. id=logo@src); got "${target}"`);
    }
    const el = await waitForElement(context, { target: target.slice(0, at) });
    return stored(name, attributeOf(el, attribute));
  },
  async storeElementCount(context) {
    const name = variableName(context);
    return stored(name, matchesOf(context.win.document, parseTarget(context.request.target)).length);
  },
  // Selenium 1's storeXpathCount: the target is an xpath, with or without its xpath= prefix.
  async storeXpathCount(context) {
    const name = variableName(context);
    const { target } = context.request;
    const locator = parseTarget(target.startsWith("xpath=") ? target : `xpath=${target}`, "xpath");
    return stored(name, matchesOf(context.win.document, locator).length);
  },
};

export const READS: Record<string, CommandHandler> = { ...CHECKS, ...STORES };
