// What a key does to a field's text: insert at the caret (over the selection), delete before or
// after it, move it. Each edit goes the way a browser's own does: `beforeinput` (a page may
// cancel it), the value set through the native setter, then `input`. A field's maxlength is
// kept, as the browser keeps it for a user.
//
// A number or email field's value is sanitised on every set ("1." reads as "", a trailing space
// is trimmed) while the browser keeps what the user typed; so the text typed so far is kept here
// and edited instead, for as long as the field's value is still the one this code left in it.
import { activeElementOf, isContentEditable, isTextField, setNativeValue, windowOf } from "./dom.ts";

type TextField = HTMLInputElement | HTMLTextAreaElement;

function inputEvent(el: Element, type: "beforeinput" | "input", inputType: string, data: string | null): boolean {
  const win = windowOf(el);
  const InputEventClass = (win as unknown as { InputEvent?: typeof InputEvent }).InputEvent;
  const init = { bubbles: true, cancelable: type === "beforeinput", composed: true, inputType, data };
  const event = InputEventClass ? new InputEventClass(type, init) : new win.Event(type, init);
  return el.dispatchEvent(event);
}

const typed = new WeakMap<Element, { text: string; value: string }>();

/** The text in a field as typed: what this code typed, unless the value has changed since. */
function textOf(el: TextField): string {
  const kept = typed.get(el);
  return kept && kept.value === el.value ? kept.text : el.value;
}

/** The selection of a field, or the end of its text for types without one (email, number). */
function selectionOf(el: TextField): { start: number; end: number } {
  try {
    const start = el.selectionStart;
    const end = el.selectionEnd;
    if (start !== null && end !== null) return { start, end };
  } catch {
    // a type without a selection
  }
  const length = textOf(el).length;
  return { start: length, end: length };
}

function placeCaret(el: TextField, at: number): void {
  try {
    el.setSelectionRange(at, at);
  } catch {
    // a type without a selection keeps the caret at the end
  }
}

/** Puts the caret at the end of the field's text, as WebDriver does when it focuses an element to type. */
export function caretToEnd(el: Element): void {
  if (isTextField(el)) {
    placeCaret(el, el.value.length);
    return;
  }
  const selection = el.ownerDocument.getSelection?.();
  if (!isContentEditable(el) || !selection) return;
  const range = el.ownerDocument.createRange();
  range.selectNodeContents(el);
  range.collapse(false);
  selection.removeAllRanges();
  selection.addRange(range);
}

function replaceRange(el: TextField, start: number, end: number, text: string, inputType: string, data: string | null): void {
  if (el.readOnly || el.disabled) return;
  const current = textOf(el);
  let insert = text;
  const room = el.maxLength >= 0 ? el.maxLength - (current.length - (end - start)) : Infinity;
  if (insert.length > room) insert = insert.slice(0, Math.max(0, room));
  if (insert === "" && start === end) return;
  if (!inputEvent(el, "beforeinput", inputType, data)) return;
  const next = current.slice(0, start) + insert + current.slice(end);
  setNativeValue(el, next);
  typed.set(el, { text: next, value: el.value });
  placeCaret(el, start + insert.length);
  inputEvent(el, "input", inputType, data);
}

/** Types `text` into `el` at its caret (a field or an editable element); other elements take no text. */
export function insertText(el: Element, text: string): void {
  if (isTextField(el)) {
    const { start, end } = selectionOf(el);
    const clean = el.localName === "input" ? text.replace(/[\r\n]/g, "") : text;
    replaceRange(el, start, end, clean, text === "\n" ? "insertLineBreak" : "insertText", text);
    return;
  }
  if (isContentEditable(el)) editContent(el, text === "\n" ? "insertLineBreak" : "insertText", text);
}

/** Deletes the selection, or one character before (backward) or after (forward) the caret. */
export function deleteText(el: Element, direction: "backward" | "forward"): void {
  const inputType = direction === "backward" ? "deleteContentBackward" : "deleteContentForward";
  if (isTextField(el)) {
    let { start, end } = selectionOf(el);
    if (start === end) {
      if (direction === "backward") start = Math.max(0, start - 1);
      else end = Math.min(textOf(el).length, end + 1);
    }
    if (start !== end) replaceRange(el, start, end, "", inputType, null);
    return;
  }
  if (isContentEditable(el)) editContent(el, inputType, null);
}

/** Moves the caret of a field for an arrow, Home or End key. */
export function moveCaret(el: Element, key: string, extend: boolean): void {
  if (!isTextField(el)) return;
  const { start, end } = selectionOf(el);
  const length = el.value.length;
  const to =
    key === "ArrowLeft" ? (start === end || extend ? Math.max(0, start - 1) : start)
    : key === "ArrowRight" ? (start === end || extend ? Math.min(length, end + 1) : end)
    : key === "Home" || key === "ArrowUp" ? 0
    : length;
  try {
    if (extend) el.setSelectionRange(Math.min(start, to), Math.max(end, to));
    else el.setSelectionRange(to, to);
  } catch {
    // a type without a selection
  }
}

/** Selects all of a field's text (Control+A). */
export function selectAll(el: Element): void {
  if (isTextField(el)) el.select();
}

/** Empties a field or an editable element, with its input event, as WebDriver's clear does. */
export function clearField(el: Element): void {
  if (isTextField(el)) {
    typed.delete(el);
    if (el.value === "") return;
    setNativeValue(el, "");
    inputEvent(el, "input", "deleteContent", null);
    return;
  }
  if (isContentEditable(el) && el.textContent !== "") {
    el.textContent = "";
    inputEvent(el, "input", "deleteContent", null);
  }
}

// An editable element is edited with the browser's own editing commands where it has them
// (the caret, undo and the page's editor all follow); elsewhere the text is put at the end.
function editContent(el: HTMLElement, inputType: string, data: string | null): void {
  const doc = el.ownerDocument;
  const command =
    inputType === "insertText" ? "insertText"
    : inputType === "insertLineBreak" ? "insertLineBreak"
    : inputType === "deleteContentBackward" ? "delete"
    : "forwardDelete";
  if (typeof doc.execCommand === "function" && activeElementOf(doc) === el) {
    try {
      if (doc.execCommand(command, false, data ?? undefined)) return;
    } catch {
      // fall through to the plain edit
    }
  }
  if (!inputEvent(el, "beforeinput", inputType, data)) return;
  if (data !== null) el.append(doc.createTextNode(data));
  else if (inputType === "deleteContentBackward" && el.lastChild?.nodeType === 3) {
    const last = el.lastChild as Text;
    last.data = last.data.slice(0, -1);
  }
  inputEvent(el, "input", inputType, data);
}
