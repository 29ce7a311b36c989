// What WebDriver reads from an element, read from the live DOM instead: whether it is displayed,
// its visible text, its value, whether it is selected or editable. Every function takes the
// element alone and finds its window through ownerDocument, so the same code runs in a content
// script (an isolated world over the page's DOM) and in jsdom for the unit tests.
import { isShown } from "./shown.ts";
import { seleniumText } from "./visibleText.ts";

/** The window an element lives in. */
export function windowOf(el: Element): Window & typeof globalThis {
  const view = el.ownerDocument.defaultView;
  if (!view) throw new Error("The element's document has no window.");
  return view as Window & typeof globalThis;
}

// Open shadow roots (CONTRACT section 19): the document sees a shadow tree's focus and hits as
// its host, and parentElement stops at the root; these read through them.

/** The element's parent in the composed tree: its parent, or the host of the shadow root it tops. */
export function composedParent(el: Element): Element | null {
  if (el.parentElement) return el.parentElement;
  const root = el.parentNode as (Node & { host?: Element }) | null;
  return root && root.nodeType === 11 && root.host ? root.host : null;
}

/** Whether `inner` is `outer` or inside it, through shadow roots too. */
export function containsComposed(outer: Element, inner: Element): boolean {
  for (let node: Element | null = inner; node; node = composedParent(node)) if (node === outer) return true;
  return false;
}

/** The focused element, inside open shadow roots too (the document's activeElement is their host). */
export function activeElementOf(doc: Document): Element | null {
  let active = doc.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** Whether `el` is inside the shadow tree of `root`, directly or in a tree nested in it. */
export function inShadowTree(el: Element, root: ShadowRoot): boolean {
  for (let at = el.getRootNode(); at.nodeType === 11; at = (at as ShadowRoot).host.getRootNode()) if (at === root) return true;
  return false;
}

/**
 * WebDriver's "is displayed", by Selenium's own rules (shown.ts): not `display: none`,
 * `visibility: hidden`, fully transparent, inside a closed <details>, of no size or clipped away
 * by an ancestor's overflow; options when their select is. Without layout (jsdom) only styles count.
 */
export function isDisplayed(el: Element): boolean {
  return isShown(el);
}

/**
 * WebDriver's element text, as chromedriver's getText reads it (visibleText.ts): the text of the
 * shown elements inside, hidden children left out, white space as Selenium normalises it, the
 * text-transform applied; what "Assert text" records and assertText compares.
 */
export function visibleText(el: Element): string {
  return seleniumText(el);
}

/** WebDriver's getAttribute("value"): the live value of a form control, else the attribute (null when absent). */
export function valueOf(el: Element): string | null {
  if ("value" in el && el.localName !== "li") {
    const value = (el as HTMLInputElement).value;
    if (value !== undefined && value !== null) return String(value);
  }
  return el.getAttribute("value");
}

/** WebDriver's isSelected: a checked checkbox or radio button, a selected option. */
export function isSelected(el: Element): boolean {
  if (el.localName === "input") {
    const type = (el as HTMLInputElement).type;
    return (type === "checkbox" || type === "radio") && (el as HTMLInputElement).checked;
  }
  if (el.localName === "option") return (el as HTMLOptionElement).selected;
  return false;
}

/** Selenium IDE's "editable": not disabled (itself or by its fieldset) and not read-only. */
export function isEditable(el: Element): boolean {
  return !isDisabled(el) && (el as HTMLInputElement).readOnly !== true;
}

export function isDisabled(el: Element): boolean {
  try {
    if (el.matches(":disabled")) return true;
  } catch {
    // an engine without :disabled falls back to the property
  }
  return (el as HTMLInputElement).disabled === true;
}

const TEXT_INPUT_TYPES = new Set(["text", "search", "url", "tel", "email", "password", "number", ""]);

/** An input or textarea whose value is typed character by character. */
export function isTextField(el: Element): el is HTMLInputElement | HTMLTextAreaElement {
  if (el.localName === "textarea") return true;
  return el.localName === "input" && TEXT_INPUT_TYPES.has((el as HTMLInputElement).type);
}

/** An input whose value is picked rather than typed (date, time, color, range...): typing sets it whole. */
export function isPickedField(el: Element): el is HTMLInputElement {
  if (el.localName !== "input") return false;
  const type = (el as HTMLInputElement).type;
  return ["date", "datetime-local", "month", "week", "time", "color", "range"].includes(type);
}

export function isContentEditable(el: Element): el is HTMLElement {
  return (el as HTMLElement).isContentEditable === true || el.getAttribute("contenteditable") === "true" || el.getAttribute("contenteditable") === "";
}

/**
 * Sets a form control's value through the setter of its own prototype (HTMLInputElement's, not
 * the element's): frameworks that wrap `value` on the element (React's value tracker) then see
 * the change as a user's when the input event comes.
 */
export function setNativeValue(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void {
  const win = windowOf(el);
  const proto =
    el.localName === "textarea" ? win.HTMLTextAreaElement.prototype : el.localName === "select" ? win.HTMLSelectElement.prototype : win.HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, "value")?.set;
  if (setter) setter.call(el, value);
  else el.value = value;
}

/** Focusable by a click or by Tab: a form control, a link with href, or anything with a tabindex or contenteditable. */
export function isFocusable(el: Element): boolean {
  if (isDisabled(el) && ["input", "select", "textarea", "button"].includes(el.localName)) return false;
  if (["input", "select", "textarea", "button", "iframe", "summary"].includes(el.localName)) {
    return !(el.localName === "input" && (el as HTMLInputElement).type === "hidden");
  }
  if ((el.localName === "a" || el.localName === "area") && el.hasAttribute("href")) return true;
  return el.hasAttribute("tabindex") || isContentEditable(el);
}

/** A short description of an element for messages: <button id="go" class="primary">. */
export function describe(el: Element): string {
  const attrs = ["id", "name", "class", "type"]
    .map((name) => [name, el.getAttribute(name)] as const)
    .filter(([, value]) => value)
    .map(([name, value]) => ` ${name}="${value}"`)
    .join("");
  return `<${el.localName}${attrs}>`;
}
