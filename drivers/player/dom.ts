// What WebDriver reads from an element, read from the live DOM instead: whether it is displayed,
// its visible text, its value, whether it is selected or editable. Every function takes the
// element alone and finds its window through ownerDocument, so the same code runs in a content
// script (an isolated world over the page's DOM) and in jsdom for the unit tests.

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

const INPUT_TYPES_WITHOUT_BOX = new Set(["hidden"]);

/**
 * WebDriver's "is displayed", as far as the page can tell: connected, no `display: none`,
 * `visibility: hidden` or `opacity: 0` on it or above it, and a box with an area (its own or a
 * child's). Options are displayed when their select is. Without layout (jsdom) only styles count.
 */
export function isDisplayed(el: Element): boolean {
  if (!el.isConnected) return false;
  if (el.localName === "option" || el.localName === "optgroup") {
    const select = el.closest("select");
    return select !== null && isDisplayed(select);
  }
  if (el.localName === "input" && INPUT_TYPES_WITHOUT_BOX.has((el as HTMLInputElement).type)) return false;
  if (typeof el.checkVisibility === "function") {
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
    return hasArea(el, 0);
  }
  return styledVisible(el);
}

// WebDriver counts a zero-size element as displayed when something inside it has a size.
function hasArea(el: Element, depth: number): boolean {
  const rect = el.getBoundingClientRect();
  if (rect.width > 0 && rect.height > 0) return true;
  if (depth > 8) return false;
  return Array.from(el.children).some((child) => hasArea(child, depth + 1));
}

function styledVisible(el: Element): boolean {
  const win = windowOf(el);
  const own = win.getComputedStyle(el);
  if (own.visibility === "hidden" || own.visibility === "collapse") return false;
  for (let node: Element | null = el; node; node = composedParent(node)) {
    if (node.hasAttribute("hidden")) return false;
    const style = node === el ? own : win.getComputedStyle(node);
    if (style.display === "none" || style.opacity === "0") return false;
  }
  return true;
}

/**
 * WebDriver's element text: the rendered text (innerText) with each line trimmed, blank lines
 * between blocks dropped and non-breaking spaces read as spaces; "" for an element not displayed.
 * Without layout (jsdom has no innerText) it is the text content with white space collapsed.
 */
export function visibleText(el: Element): string {
  if (!isDisplayed(el)) return "";
  const inner = (el as HTMLElement).innerText;
  if (typeof inner !== "string") return (el.textContent ?? "").replace(/[\s\u00a0]+/g, " ").trim();
  return inner
    .split("\n")
    .map((line) => line.replace(/^[^\S\u00a0]+|[^\S\u00a0]+$/g, ""))
    .filter((line) => line !== "")
    .join("\n")
    .replace(/\u00a0/g, " ")
    .trim();
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
