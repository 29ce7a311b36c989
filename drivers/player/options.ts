// Selenium's option locators, for select, addSelection and removeSelection: `label=` (the
// option's text; a locator with no known prefix is a label, as in Selenium), `value=`, `id=`,
// and `index=`, which side-runtime resolves as the CSS `:nth-child(n)`, so it counts from 1
// among the option's siblings. A chosen option fires input and change on its select, as a
// user's choice does.
import { isDisabled, windowOf } from "./dom.ts";
import { CommandFailure } from "./errors.ts";
import { focusElement } from "./focus.ts";

export type OptionLocator = { kind: "label" | "value" | "index" | "id"; value: string; text: string };

const KINDS = new Set(["label", "value", "index", "id"]);

export function parseOptionLocator(text: string): OptionLocator {
  if (text === "") throw new CommandFailure("The option locator is empty; use label=..., value=..., id=... or index=....");
  const at = text.indexOf("=");
  const kind = at < 0 ? "" : text.slice(0, at);
  const value = at < 0 ? "" : text.slice(at + 1);
  if (at < 0 || value === "") return { kind: "label", value: at < 0 ? text : kind, text };
  if (!KINDS.has(kind)) throw new CommandFailure(`Unknown selection locator ${kind}`);
  if (kind === "index" && !/^[1-9]\d*$/.test(value)) {
    throw new CommandFailure(`The option locator ${text} is not an index; index= counts options from 1 (index=1 is the first).`);
  }
  return { kind: kind as OptionLocator["kind"], value, text };
}

const collapse = (text: string) => text.replace(/[\s\u00a0]+/g, " ").trim();

/** The first option inside `container` the locator matches, or undefined. */
export function findOption(container: Element, locator: OptionLocator): HTMLOptionElement | undefined {
  const options = Array.from(container.querySelectorAll("option"));
  switch (locator.kind) {
    case "label":
      return options.find((o) => o.textContent === locator.value || collapse(o.text) === collapse(locator.value));
    case "value":
      return options.find((o) => o.value === locator.value);
    case "id":
      return options.find((o) => o.getAttribute("id") === locator.value);
    case "index":
      return options.find((o) => o.matches(`:nth-child(${locator.value})`));
  }
}

/**
 * The option `type` chooses in a select, as @puppeteer/replay's `change` does (a Chrome Recorder
 * `change` is imported as `type`): the one whose value is `text`, else the one whose label is.
 */
export function optionTyped(select: Element, text: string): HTMLOptionElement | undefined {
  return findOption(select, { kind: "value", value: text, text }) ?? findOption(select, { kind: "label", value: text, text });
}

/** Why `type` cannot choose `text` in the select `target` yet; "" when it can. */
export function whyNotTyped(select: Element, target: string, text: string): string {
  const option = optionTyped(select, text);
  if (!option) return `Element ${target} is a select with no option whose value or label is "${text}"`;
  return optionDisabled(option) ? `Option "${text}" of the select ${target} is disabled` : "";
}

export function optionDisabled(option: HTMLOptionElement): boolean {
  return option.disabled || isDisabled(option) || (option.closest("select") !== null && isDisabled(option.closest("select")!));
}

/**
 * Chooses `option` as a click on it does (WebDriver's element click): in a single select it
 * becomes the selected one, in a multiple select it is toggled; "add" and "remove" only add or
 * only take away. Fires input and change when the selection changed.
 */
export function chooseOption(option: HTMLOptionElement, how: "click" | "add" | "remove"): void {
  const select = option.closest("select");
  if (!select) throw new CommandFailure("The option is not in a select.");
  focusElement(select);
  const selected =
    how === "add" ? true
    : how === "remove" ? false
    : select.multiple ? !option.selected
    : true;
  if (option.selected === selected) return;
  option.selected = selected;
  const win = windowOf(select);
  select.dispatchEvent(new win.Event("input", { bubbles: true, composed: true }));
  select.dispatchEvent(new win.Event("change", { bubbles: true }));
}

/** Up, Down, Home and End on a focused single select: the previous, next, first or last enabled option. */
export function stepOption(select: HTMLSelectElement, key: string): void {
  if (select.multiple) return;
  const options = Array.from(select.options).filter((option) => !optionDisabled(option));
  if (options.length === 0) return;
  const at = options.indexOf(select.options[select.selectedIndex]);
  const next =
    key === "ArrowDown" ? options[Math.min(at + 1, options.length - 1)]
    : key === "ArrowUp" ? options[Math.max(at - 1, 0)]
    : key === "Home" ? options[0]
    : key === "End" ? options[options.length - 1]
    : undefined;
  if (next) chooseOption(next, "click");
}

/** Letters typed on a focused single select choose the first enabled option whose label starts with them. */
export function typeAhead(select: HTMLSelectElement, typed: string): void {
  if (select.multiple) return;
  const prefix = collapse(typed).toLowerCase();
  const match = Array.from(select.options).find((option) => !optionDisabled(option) && collapse(option.text).toLowerCase().startsWith(prefix));
  if (match) chooseOption(match, "click");
}
