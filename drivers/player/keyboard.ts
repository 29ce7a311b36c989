// The keyboard as WebDriver's sendKeys drives it, replayed as DOM events on the focused element:
// keydown, keypress for keys that type, the edit (editing.ts), keyup; and the browser's own
// default action of a key that the page did not cancel: Enter submits a field's form (implicit
// submission) or activates a focused button or link, Space activates a button or checkbox, Tab
// moves focus, Backspace and Delete delete, arrows and letters choose in a select. Modifier keys
// toggle, and NULL lets go of them all, as in WebDriver; whatever is still held at the end is let go.
import { activeElementOf, isContentEditable, isDisabled, isDisplayed, isFocusable, isTextField, windowOf } from "./dom.ts";
import { caretToEnd, deleteText, insertText, moveCaret, selectAll } from "./editing.ts";
import { commitChange, focusElement, leaveFocus } from "./focus.ts";
import type { KeySpec, Keystroke, Modifier } from "./keys.ts";
import { stepOption, typeAhead } from "./options.ts";

type Modifiers = Record<Modifier, boolean>;

const noModifiers = (): Modifiers => ({ shiftKey: false, ctrlKey: false, altKey: false, metaKey: false });

/** The element key events go to: the focused one, else the element typed into. */
function keyTarget(el: Element): Element {
  const active = activeElementOf(el.ownerDocument);
  return active && active !== el.ownerDocument.body && active !== el.ownerDocument.documentElement ? active : el;
}

function keyEvent(target: Element, type: "keydown" | "keypress" | "keyup", spec: KeySpec, modifiers: Modifiers, charCode = 0): boolean {
  const win = windowOf(target);
  const keyCode = type === "keypress" ? charCode : spec.keyCode;
  const event = new win.KeyboardEvent(type, {
    key: spec.key,
    code: spec.code,
    keyCode,
    charCode: type === "keypress" ? charCode : 0,
    which: keyCode,
    location: spec.code.startsWith("Numpad") ? 3 : 0,
    bubbles: true,
    cancelable: true,
    composed: true,
    view: win,
    ...modifiers,
  });
  return target.dispatchEvent(event);
}

/** Presses `strokes` into `el` (focused first, the caret at the end of its text). */
export function sendKeys(el: Element, strokes: Keystroke[]): void {
  if (isFocusable(el)) {
    const wasFocused = activeElementOf(el.ownerDocument) === el;
    focusElement(el);
    if (!wasFocused) caretToEnd(el);
  } else {
    // Keys for an element that takes no focus (a page's shortcut on its body) go to it, not to
    // a field focused earlier.
    leaveFocus(el.ownerDocument);
  }
  const modifiers = noModifiers();
  typedInSelect = "";
  for (const stroke of strokes) {
    if (stroke.kind === "releaseModifiers") {
      releaseAll(el, modifiers);
      continue;
    }
    const { spec } = stroke;
    if (spec.modifier) {
      const target = keyTarget(el);
      const down = !modifiers[spec.modifier];
      modifiers[spec.modifier] = down;
      keyEvent(target, down ? "keydown" : "keyup", spec, modifiers);
      continue;
    }
    pressKey(el, spec, modifiers);
  }
  releaseAll(el, modifiers);
}

const MODIFIER_KEYS: Array<[Modifier, KeySpec]> = [
  ["shiftKey", { key: "Shift", code: "ShiftLeft", keyCode: 16 }],
  ["ctrlKey", { key: "Control", code: "ControlLeft", keyCode: 17 }],
  ["altKey", { key: "Alt", code: "AltLeft", keyCode: 18 }],
  ["metaKey", { key: "Meta", code: "MetaLeft", keyCode: 91 }],
];

function releaseAll(el: Element, modifiers: Modifiers): void {
  for (const [name, spec] of MODIFIER_KEYS) {
    if (!modifiers[name]) continue;
    modifiers[name] = false;
    keyEvent(keyTarget(el), "keyup", spec, modifiers);
  }
}

function withShift(spec: KeySpec, modifiers: Modifiers): KeySpec {
  if (!modifiers.shiftKey || !spec.text || spec.text.length !== 1 || spec.text.toUpperCase() === spec.text) return spec;
  const upper = spec.text.toUpperCase();
  return { ...spec, key: upper, text: upper };
}

// What one sendKeys has typed into a select so far: its type-ahead.
let typedInSelect = "";

function pressKey(el: Element, pressed: KeySpec, modifiers: Modifiers): void {
  const spec = withShift(pressed, modifiers);
  const target = keyTarget(el);
  const chord = modifiers.ctrlKey || modifiers.metaKey || modifiers.altKey;
  const allowed = keyEvent(target, "keydown", spec, modifiers);
  const enter = spec.key === "Enter";
  const typesText = spec.text !== undefined && !chord;
  let activate = false;
  if (allowed && (typesText || enter)) {
    const charCode = enter ? 13 : spec.text!.codePointAt(0)!;
    if (keyEvent(target, "keypress", spec, modifiers, charCode)) {
      if (enter) enterDefault(target);
      else if (spec.key === " " && !isTextField(target) && !isContentEditable(target) && activatedBySpace(target)) activate = true;
      else if (target.localName === "select") typeAhead(target as HTMLSelectElement, (typedInSelect += spec.text!));
      else insertText(target, spec.text!);
    }
  } else if (allowed) {
    otherDefault(target, spec, modifiers);
  }
  keyEvent(keyTarget(el), "keyup", spec, modifiers);
  // A button is clicked when Space comes up (Enter clicked it already).
  if (activate) (target as HTMLElement).click();
}

function activatedBySpace(el: Element): boolean {
  if (el.localName === "button" || el.localName === "summary") return true;
  if (el.localName !== "input") return false;
  return ["button", "submit", "reset", "checkbox", "radio", "image"].includes((el as HTMLInputElement).type);
}

/** Enter's default action on `target`: a new line, the form submitted, or a button or link clicked. */
function enterDefault(target: Element): void {
  if (target.localName === "textarea" || isContentEditable(target)) {
    insertText(target, "\n");
  } else if (target.localName === "input") {
    const input = target as HTMLInputElement;
    if (["button", "submit", "reset", "image"].includes(input.type)) {
      input.click();
      return;
    }
    // The browser commits the field's value (its change event) before it submits.
    commitChange(target.ownerDocument);
    if (input.form) submitImplicitly(input.form);
  } else if (target.localName === "button" || target.localName === "summary" || (target.localName === "a" && target.hasAttribute("href"))) {
    (target as HTMLElement).click();
  }
}

const BLOCKING_TYPES = new Set(["text", "search", "url", "tel", "email", "password", "date", "month", "week", "time", "datetime-local", "number"]);

/**
 * HTML's implicit submission: the form's default button is clicked (nothing happens when it is
 * disabled); a form without one is submitted when it has at most one field that blocks it.
 */
export function submitImplicitly(form: HTMLFormElement): void {
  const controls = Array.from(form.elements);
  const defaultButton = controls.find((control) => {
    if (control.localName === "button") return ((control as HTMLButtonElement).type || "submit") === "submit";
    return control.localName === "input" && ["submit", "image"].includes((control as HTMLInputElement).type);
  }) as HTMLElement | undefined;
  if (defaultButton) {
    if (!isDisabled(defaultButton)) defaultButton.click();
    return;
  }
  const blocking = controls.filter((control) => control.localName === "input" && BLOCKING_TYPES.has((control as HTMLInputElement).type));
  if (blocking.length > 1) return;
  submitForm(form);
}

/** Submits a form as a user would: with validation and the submit event (requestSubmit), where the engine has it. */
export function submitForm(form: HTMLFormElement): void {
  if (typeof form.requestSubmit === "function") {
    form.requestSubmit();
    return;
  }
  const win = windowOf(form);
  if (form.dispatchEvent(new win.Event("submit", { bubbles: true, cancelable: true }))) form.submit();
}

function otherDefault(target: Element, spec: KeySpec, modifiers: Modifiers): void {
  switch (spec.key) {
    case "Backspace":
      deleteText(target, "backward");
      return;
    case "Delete":
      deleteText(target, "forward");
      return;
    case "ArrowLeft":
    case "ArrowRight":
    case "ArrowUp":
    case "ArrowDown":
    case "Home":
    case "End":
      if (target.localName === "select") stepOption(target as HTMLSelectElement, spec.key);
      else moveCaret(target, spec.key, modifiers.shiftKey);
      return;
    case "Tab":
      moveFocusByTab(target, modifiers.shiftKey);
      return;
    default:
      if ((modifiers.ctrlKey || modifiers.metaKey) && spec.key.toLowerCase() === "a") selectAll(target);
  }
}

/** Tab: focus goes to the next (Shift: previous) element in tab order, the field left gets its change. */
function moveFocusByTab(from: Element, backwards: boolean): void {
  const doc = from.ownerDocument;
  const all = Array.from(doc.querySelectorAll("*")).filter(
    (el) => isFocusable(el) && (el as HTMLElement).tabIndex >= 0 && isDisplayed(el),
  );
  const positive = all.filter((el) => (el as HTMLElement).tabIndex > 0).sort((a, b) => (a as HTMLElement).tabIndex - (b as HTMLElement).tabIndex);
  const order = [...positive, ...all.filter((el) => (el as HTMLElement).tabIndex === 0)];
  if (order.length === 0) return;
  const at = order.indexOf(from);
  const next = at < 0 ? order[backwards ? order.length - 1 : 0] : order[at + (backwards ? -1 : 1)];
  commitChange(doc);
  // Past the last (or before the first) element, focus leaves the page for the browser's own.
  if (next) focusElement(next);
  else leaveFocus(doc);
}
