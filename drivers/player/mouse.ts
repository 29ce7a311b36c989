// The mouse as WebDriver's actions move it, replayed as DOM events: pointer and mouse events
// at the element's centre (or an offset from it), focus on press, `click` dispatched so the
// browser runs the element's own activation (a checkbox toggles, a link follows, a submit
// button submits). The element last hovered is kept per document, so moving elsewhere sends
// it the out/leave events.
import { focusByPointer } from "./focus.ts";
import { containsComposed, inShadowTree, windowOf } from "./dom.ts";

export interface Point {
  x: number;
  y: number;
}

export interface Offset {
  x: number;
  y: number;
}

const hovered = new WeakMap<Document, Element>();

/** Scrolls `el` into view when needed and gives its centre (plus `offset`) in viewport coordinates. */
export function pointOn(el: Element, offset: Offset = { x: 0, y: 0 }): Point {
  const win = windowOf(el);
  let rect = el.getBoundingClientRect();
  const outside = rect.bottom < 0 || rect.right < 0 || rect.top > win.innerHeight || rect.left > win.innerWidth;
  if (outside && typeof el.scrollIntoView === "function") {
    el.scrollIntoView({ block: "center", inline: "center" });
    rect = el.getBoundingClientRect();
  }
  return { x: rect.left + rect.width / 2 + offset.x, y: rect.top + rect.height / 2 + offset.y };
}

/** The element that would get a click at `point` instead of `el`, or null when `el` would (or no layout to tell). */
export function interceptor(el: Element, point: Point): Element | null {
  const doc = el.ownerDocument;
  if (typeof doc.elementFromPoint !== "function") return null;
  const rect = el.getBoundingClientRect();
  if (rect.width === 0 && rect.height === 0) return null;
  let hit = doc.elementFromPoint(point.x, point.y);
  // The document's hit on a shadow tree is its host: for an element inside that tree, the hit
  // is looked for again inside it.
  for (let root = hit?.shadowRoot; hit && root && inShadowTree(el, root) && !containsComposed(el, hit); root = hit.shadowRoot) {
    const inner = typeof root.elementFromPoint === "function" ? root.elementFromPoint(point.x, point.y) : null;
    if (!inner || inner === hit) break;
    hit = inner;
  }
  if (!hit || containsComposed(el, hit)) return null;
  // A label clicked for its control is the control's click; a shadow host is what the document
  // sees of its shadow tree, which may render over the host's own children (a slotted label).
  if (hit.localName === "label" && (hit as HTMLLabelElement).control === el) return null;
  if (hit.shadowRoot && containsComposed(hit, el)) return null;
  return hit;
}

/** Where to click `el` so the click reaches it: scrolled into the middle of its scroll boxes when something is in the way. */
export function reachablePoint(el: Element, offset?: Offset): { point: Point; blocker: Element | null } {
  let point = pointOn(el, offset);
  let blocker = interceptor(el, point);
  if (blocker && typeof el.scrollIntoView === "function") {
    // Clipped by a scrolled container, or under a sticky header: WebDriver scrolls it into view first.
    el.scrollIntoView({ block: "center", inline: "center" });
    point = pointOn(el, offset);
    blocker = interceptor(el, point);
  }
  return { point, blocker };
}

interface Buttons {
  button?: number;
  buttons?: number;
  detail?: number;
}

function fire(el: Element, type: string, point: Point, extra: Buttons = {}, bubbles = true): boolean {
  const win = windowOf(el);
  const init: MouseEventInit = {
    bubbles,
    cancelable: bubbles,
    composed: true,
    view: win,
    clientX: point.x,
    clientY: point.y,
    screenX: point.x + (win.screenX ?? 0),
    screenY: point.y + (win.screenY ?? 0),
    button: extra.button ?? 0,
    buttons: extra.buttons ?? 0,
    detail: extra.detail ?? 0,
  };
  const isPointer = type.startsWith("pointer");
  const PointerEventClass = (win as unknown as { PointerEvent?: typeof PointerEvent }).PointerEvent;
  if (isPointer && !PointerEventClass) return true; // an engine without pointer events (jsdom) gets the mouse events alone
  const event = isPointer
    ? new PointerEventClass!(type, { ...init, pointerId: 1, pointerType: "mouse", isPrimary: true })
    : new win.MouseEvent(type, init);
  return el.dispatchEvent(event);
}

/** Moves the mouse onto `el`: out/leave for the element it leaves, then over/enter/move (with `buttons` held). */
export function hover(el: Element, point: Point, buttons = 0): void {
  const doc = el.ownerDocument;
  const before = hovered.get(doc);
  if (before !== el) {
    if (before?.isConnected) leave(before, point);
    fire(el, "pointerover", point);
    fire(el, "pointerenter", point, {}, false);
    fire(el, "mouseover", point);
    fire(el, "mouseenter", point, {}, false);
    hovered.set(doc, el);
  }
  fire(el, "pointermove", point, { buttons });
  fire(el, "mousemove", point, { buttons });
}

function leave(el: Element, point: Point): void {
  fire(el, "pointerout", point);
  fire(el, "pointerleave", point, {}, false);
  fire(el, "mouseout", point);
  fire(el, "mouseleave", point, {}, false);
}

/** Moves the mouse off `el` to a point outside it (Selenium's mouseOut). */
export function moveOut(el: Element, point: Point): void {
  leave(el, point);
  const doc = el.ownerDocument;
  if (hovered.get(doc) === el) hovered.delete(doc);
}

/** Presses the left button on `el`; a press that is not cancelled focuses what it lands on. */
export function press(el: Element, point: Point, detail = 1): void {
  fire(el, "pointerdown", point, { buttons: 1, detail });
  if (fire(el, "mousedown", point, { buttons: 1, detail })) focusByPointer(el);
}

export function release(el: Element, point: Point, detail = 1): void {
  fire(el, "pointerup", point, { detail });
  fire(el, "mouseup", point, { detail });
}

/** A whole click: hover, press, release, click (whose default action the browser runs). */
export function click(el: Element, point: Point, detail = 1): void {
  hover(el, point);
  press(el, point, detail);
  release(el, point, detail);
  fire(el, "click", point, { detail });
}

export function doubleClick(el: Element, point: Point): void {
  click(el, point, 1);
  press(el, point, 2);
  release(el, point, 2);
  fire(el, "click", point, { detail: 2 });
  fire(el, "dblclick", point, { detail: 2 });
}

/**
 * Drags `source` onto `target`: press, move, release, as WebDriver's actions do; and when the
 * source is `draggable`, HTML's drag and drop events in their place once dragstart is allowed
 * (a browser sends no mouse events during such a drag). The drop comes only when the target's
 * dragover is cancelled, which is how a page says it accepts drops.
 */
export function dragAndDrop(source: Element, target: Element): void {
  const from = pointOn(source);
  hover(source, from);
  press(source, from);
  const win = windowOf(source);
  const html = win as unknown as { DragEvent?: typeof DragEvent; DataTransfer?: typeof DataTransfer };
  const dataTransfer = (source as HTMLElement).draggable === true && html.DragEvent && html.DataTransfer ? new html.DataTransfer() : undefined;
  const drag = (el: Element, type: string, point: Point) =>
    el.dispatchEvent(
      new html.DragEvent!(type, {
        bubbles: true,
        cancelable: type !== "dragend" && type !== "dragleave",
        composed: true,
        view: win,
        clientX: point.x,
        clientY: point.y,
        buttons: 1,
        dataTransfer,
      }),
    );
  if (dataTransfer && drag(source, "dragstart", from)) {
    const to = pointOn(target);
    drag(source, "drag", to);
    drag(target, "dragenter", to);
    const refused = drag(target, "dragover", to);
    if (!refused) drag(target, "drop", to);
    drag(source, "dragend", to);
    hovered.set(source.ownerDocument, target);
    return;
  }
  const to = pointOn(target);
  hover(target, to, 1);
  release(target, to);
}
