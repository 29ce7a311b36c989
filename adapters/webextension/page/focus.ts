// Focus as a user moves it, and the `change` event a browser fires when a user leaves a field
// they edited. A value set from script never makes the browser fire `change` itself, so the
// field being edited and its value when editing began are kept here, per document, and `change`
// is fired when focus leaves it (a click elsewhere, Tab, another field typed into) or when Enter
// commits it.
import { isFocusable, isTextField, valueOf, windowOf } from "./dom.ts";

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
  if (doc.activeElement !== el) {
    commitChange(doc);
    (el as HTMLElement).focus?.({ preventScroll: true });
  }
  watchEdits(el);
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
  const active = doc.activeElement;
  if (active && active !== doc.body && active !== doc.documentElement) {
    commitChange(doc);
    (active as HTMLElement).blur?.();
  }
}
