// Focus as a user moves it, and the `change` event a browser fires when a user leaves a field
// they edited. A value set from script never makes the browser fire `change` itself, so the
// field being edited and its value when editing began are kept here, per document, and `change`
// is fired when focus leaves it (a click elsewhere, Tab, another field typed into) or when Enter
// commits it.
import { activeElementOf, isFocusable, isTextField, valueOf, windowOf } from "./dom.ts";

interface Editing {
  el: Element;
  before: string | null;
}

const editing = new WeakMap<Document, Editing>();

/** Starts watching `el` for a change if it is a text field and not watched yet. */
export function watchEdits(el: Element): void {
  if (!isTextField(el)) return;
  const current = editing.get(el.ownerDocument);
  if (current?.el !== el) editing.set(el.ownerDocument, { el, before: valueOf(el) });
}

/** Fires `change` on the watched field when its value differs from where editing began. */
export function commitChange(doc: Document): void {
  const current = editing.get(doc);
  if (!current || !current.el.isConnected) return;
  const now = valueOf(current.el);
  if (now === current.before) return;
  current.before = now;
  fireChange(current.el);
}

/** Marks the watched field's value as committed, when a command fired `change` itself. */
export function markCommitted(el: Element): void {
  const current = editing.get(el.ownerDocument);
  if (current?.el === el) current.before = valueOf(el);
}

export function fireChange(el: Element): void {
  const win = windowOf(el);
  el.dispatchEvent(new win.Event("change", { bubbles: true }));
}

/** Focuses `el` as a user would reach it: the field left gets its change, then `el` gets focus. */
export function focusElement(el: Element): void {
  const doc = el.ownerDocument;
  if (activeElementOf(doc) !== el) {
    commitChange(doc);
    const before = activeElementOf(doc);
    withFocusEvents(el, before, () => (el as HTMLElement).focus?.({ preventScroll: true }));
  }
  watchEdits(el);
}

/**
 * A tab whose window is not the focused one (the IDE window is) moves its focus without firing
 * focus events; the page's handlers of blur and focus get them all the same, once.
 */
function withFocusEvents(to: Element | null, from: Element | null, move: () => void): void {
  const doc = (to ?? from)!.ownerDocument;
  const fired = new Set<string>();
  const note = (event: Event) => fired.add(`${event.type}@${event.target === to ? "to" : "from"}`);
  const watched = [to, from].filter((el): el is Element => el !== null && el !== doc.body && el !== doc.documentElement);
  for (const el of watched) {
    el.addEventListener("focus", note, true);
    el.addEventListener("blur", note, true);
  }
  try {
    move();
  } finally {
    for (const el of watched) {
      el.removeEventListener("focus", note, true);
      el.removeEventListener("blur", note, true);
    }
  }
  const win = windowOf(watched[0] ?? doc.body);
  const focusEvent = (el: Element, type: string, related: Element | null) =>
    el.dispatchEvent(new win.FocusEvent(type, { bubbles: type.endsWith("in") || type.endsWith("out"), composed: true, relatedTarget: related }));
  if (from && watched.includes(from) && activeElementOf(doc) !== from && !fired.has("blur@from")) {
    focusEvent(from, "blur", to);
    focusEvent(from, "focusout", to);
  }
  if (to && watched.includes(to) && activeElementOf(doc) === to && !fired.has("focus@to")) {
    focusEvent(to, "focus", from);
    focusEvent(to, "focusin", from);
  }
}

/**
 * What a mouse press focuses: the element or its nearest focusable ancestor; pressing on
 * nothing focusable takes focus away from the field that had it.
 */
export function focusByPointer(el: Element): void {
  const doc = el.ownerDocument;
  let focusable: Element | null = el;
  while (focusable && !isFocusable(focusable)) focusable = focusable.parentElement;
  if (focusable) {
    focusElement(focusable);
    return;
  }
  leaveFocus(doc);
}

/** Takes focus away from the focused element, which gets its change first. */
export function leaveFocus(doc: Document): void {
  const active = activeElementOf(doc);
  if (active && active !== doc.body && active !== doc.documentElement) {
    commitChange(doc);
    withFocusEvents(null, active, () => (active as HTMLElement).blur?.());
  }
}
