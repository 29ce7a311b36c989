// Whether an element is shown, by the rules of Selenium's atoms (bot.dom.isShown, which
// selenium-webdriver's isDisplayed() runs and chromedriver's getText consults for every element
// it reads): the rules are learned from them and measured against them in real Chromium
// (tests/browser/gettext.browser.test.ts), not copied. This module imports nothing of the
// player's, so that dom.ts can re-export it without a cycle.

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
  width: number;
  height: number;
}

const box = (left: number, top: number, width: number, height: number): Box => ({ left, top, right: left + width, bottom: top + height, width, height });

const tag = (node: Node | null): string => (node && node.nodeType === 1 ? (node as Element).localName : "");

/**
 * One reading of a document: a text walk asks about every ancestor of every element it meets,
 * so computed styles, boxes and "displayed" are looked up once per element and kept for the
 * reading alone (the page moves between readings).
 */
export class Reading {
  /** Without layout (jsdom) boxes are all empty: only styles count, and size and overflow are not checked. */
  readonly layout: boolean;
  private readonly styles = new Map<Element, { computed: CSSStyleDeclaration; read: Map<string, string> }>();
  private readonly boxes = new Map<Element, Box>();
  private readonly displayedSeen = new Map<Element, boolean>();

  constructor(readonly doc: Document) {
    this.layout = typeof (doc.documentElement as Element & { checkVisibility?: unknown }).checkVisibility === "function";
  }

  // Each value is kept as read: asking a computed style again costs about as much as the first time.
  style(el: Element, property: string): string {
    let style = this.styles.get(el);
    if (!style) {
      style = { computed: this.doc.defaultView!.getComputedStyle(el), read: new Map() };
      this.styles.set(el, style);
    }
    let value = style.read.get(property);
    if (value === undefined) {
      value = style.computed.getPropertyValue(property);
      style.read.set(property, value);
    }
    return value;
  }

  /** The element's box; the root element's is the viewport, as WebDriver sees it. */
  rect(el: Element): Box {
    let found = this.boxes.get(el);
    if (!found) {
      const map = imageMapOf(this, el);
      if (map) found = map.rect;
      else if (el === this.doc.documentElement) found = box(0, 0, el.clientWidth, el.clientHeight);
      else {
        const r = el.getBoundingClientRect();
        found = box(r.left, r.top, r.right - r.left, r.bottom - r.top);
      }
      this.boxes.set(el, found);
    }
    return found;
  }

  /** No `display: none` or `content-visibility: hidden` on it or its composed ancestors, and not inside a closed <details> but for its summary. */
  displayed(el: Element): boolean {
    let seen = this.displayedSeen.get(el);
    if (seen === undefined) {
      seen = this.displayedUncached(el);
      this.displayedSeen.set(el, seen);
    }
    return seen;
  }

  private displayedUncached(el: Element): boolean {
    if (this.style(el, "display") === "none" || this.style(el, "content-visibility") === "hidden") return false;
    if (!this.layout && el.hasAttribute("hidden")) return false;
    // A light child the shadow tree puts in a slot hangs from the slot's parent; one it puts nowhere is not rendered.
    let parent: Node | null = el.parentNode;
    if (parent && (parent as Element).shadowRoot && el.assignedSlot !== undefined) parent = el.assignedSlot ? el.assignedSlot.parentNode : null;
    if (parent && parent.nodeType === 11 && (parent as ShadowRoot).host) parent = (parent as ShadowRoot).host;
    if (!parent) return false;
    if (parent.nodeType === 9 || parent.nodeType === 11) return true;
    if (tag(parent) === "details" && !(parent as HTMLDetailsElement).open && tag(el) !== "summary") return false;
    return this.displayed(parent as Element);
  }
}

/** The parent element, stopping at a shadow root (opacity and overflow do not cross it in the atoms). */
export function parentElementOf(node: Node): Element | null {
  let at = node.parentNode;
  while (at && at.nodeType !== 1 && at.nodeType !== 9 && at.nodeType !== 11) at = at.parentNode;
  return at && at.nodeType === 1 ? (at as Element) : null;
}

function opacityOf(reading: Reading, el: Element): number {
  let product = 1;
  for (let at: Element | null = el; at; at = parentElementOf(at)) {
    const own = reading.style(at, "opacity");
    if (own) product *= Number(own);
  }
  return product;
}

/** A <map> or <area> is as big as the part of the image that uses it. */
function imageMapOf(reading: Reading, el: Element): { image: Element | null; rect: Box } | null {
  const name = tag(el);
  if (name !== "map" && name !== "area") return null;
  const map = name === "map" ? el : tag(el.parentNode) === "map" ? (el.parentNode as HTMLMapElement) : null;
  const mapName = (map as HTMLMapElement | null)?.name;
  if (!map || !mapName) return { image: null, rect: box(0, 0, 0, 0) };
  const image = el.ownerDocument.querySelector(`[usemap="#${mapName.replace(/["\\]/g, "\\$&")}"]`);
  if (!image) return { image: null, rect: box(0, 0, 0, 0) };
  const whole = reading.rect(image);
  if (name === "map" || (el as HTMLAreaElement).shape.toLowerCase() === "default") return { image, rect: whole };
  const part = areaRect(el as HTMLAreaElement);
  const x = Math.min(Math.max(part.left, 0), whole.width);
  const y = Math.min(Math.max(part.top, 0), whole.height);
  return { image, rect: box(whole.left + x, whole.top + y, Math.min(part.width, whole.width - x), Math.min(part.height, whole.height - y)) };
}

function areaRect(area: HTMLAreaElement): Box {
  const c = area.coords.split(",").map((n) => Number(n.trim()));
  const shape = area.shape.toLowerCase();
  if (shape === "rect" && c.length === 4) return box(c[0], c[1], c[2] - c[0], c[3] - c[1]);
  if (shape === "circle" && c.length === 3) return box(c[0] - c[2], c[1] - c[2], 2 * c[2], 2 * c[2]);
  if (shape === "poly" && c.length > 2) {
    const xs = c.filter((_, i) => i % 2 === 0);
    const ys = c.filter((_, i) => i % 2 === 1);
    return box(Math.min(...xs), Math.min(...ys), Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
  }
  return box(0, 0, 0, 0);
}

/** Has an area of its own, or (unless it clips with overflow hidden) a child that has one or a text that is not only line breaks. */
function hasSize(reading: Reading, el: Element): boolean {
  const rect = reading.rect(el);
  if (rect.width > 0 && rect.height > 0) return true;
  // A straight SVG path has no area but is drawn when its stroke has a width.
  if (tag(el) === "path" && (rect.width > 0 || rect.height > 0)) return parseInt(reading.style(el, "stroke-width"), 10) > 0;
  const visibility = reading.style(el, "visibility");
  if (visibility === "hidden" || visibility === "collapse" || !reading.displayed(el)) return false;
  if (reading.style(el, "overflow") === "hidden") return false;
  for (const child of el.childNodes) {
    if (child.nodeType === 3) {
      const text = child.nodeValue ?? "";
      if (!(/^\s*$/.test(text) && /[\n\r\t]/.test(text))) return true;
    } else if (child.nodeType === 1 && hasSize(reading, child as Element)) return true;
  }
  return false;
}

type Overflow = "none" | "scroll" | "hidden";

/** Whether the element lies outside an ancestor that clips (hidden) or scrolls (scroll) it; a zero-size clipping ancestor hides everything. */
function overflowOf(reading: Reading, el: Element): Overflow {
  const doc = el.ownerDocument;
  const html = doc.documentElement;
  const body = doc.body;
  const htmlOverflow = reading.style(html, "overflow") || "visible";
  const region = reading.rect(el);
  let fixed = false;

  const clipsFor = (container: Element, position: string): boolean => {
    if (container === html) return true;
    const display = reading.style(container, "display");
    if (display.startsWith("inline") || display === "contents") return false;
    return !(position === "absolute" && reading.style(container, "position") === "static");
  };
  const overflowParent = (at: Element): Element | null => {
    const position = reading.style(at, "position");
    if (position === "fixed") {
      fixed = true;
      return at === html ? null : html;
    }
    let parent = parentElementOf(at);
    while (parent && !clipsFor(parent, position)) parent = parentElementOf(parent);
    return parent;
  };
  // The root's `visible` means the body's overflow (and then the body clips nothing); the viewport itself always scrolls.
  const overflowStyles = (at: Element): { x: string; y: string } => {
    let source = at;
    if (htmlOverflow === "visible") {
      if (at === html && body) source = body;
      else if (at === body) return { x: "visible", y: "visible" };
    }
    const x = reading.style(source, "overflow-x") || "visible";
    const y = reading.style(source, "overflow-y") || "visible";
    return at === html ? { x: x === "visible" ? "auto" : x, y: y === "visible" ? "auto" : y } : { x, y };
  };
  const scrollOf = (at: Element) => (at === html ? { x: doc.defaultView!.scrollX, y: doc.defaultView!.scrollY } : { x: at.scrollLeft, y: at.scrollTop });

  for (let container = overflowParent(el); container; container = overflowParent(container)) {
    const overflow = overflowStyles(container);
    if (overflow.x === "visible" && overflow.y === "visible") continue;
    const rect = reading.rect(container);
    if (rect.width === 0 || rect.height === 0) return "hidden";
    const beforeX = region.right < rect.left;
    const beforeY = region.bottom < rect.top;
    if ((beforeX && overflow.x === "hidden") || (beforeY && overflow.y === "hidden")) return "hidden";
    if ((beforeX && overflow.x !== "visible") || (beforeY && overflow.y !== "visible")) {
      // Left of or above a scrolling container: hidden when no scrolling brings it back.
      const scroll = scrollOf(container);
      if ((region.right < rect.left - scroll.x && overflow.x !== "visible") || (region.bottom < rect.top - scroll.y && overflow.y !== "visible")) return "hidden";
      return overflowOf(reading, container) === "hidden" ? "hidden" : "scroll";
    }
    const afterX = region.left >= rect.left + rect.width;
    const afterY = region.top >= rect.top + rect.height;
    if ((afterX && overflow.x === "hidden") || (afterY && overflow.y === "hidden")) return "hidden";
    if ((afterX && overflow.x !== "visible") || (afterY && overflow.y !== "visible")) {
      if (fixed) {
        const scroll = scrollOf(container);
        if (region.left >= html.scrollWidth - scroll.x || region.right >= html.scrollHeight - scroll.y) return "hidden";
      }
      return overflowOf(reading, container) === "hidden" ? "hidden" : "scroll";
    }
  }
  return "none";
}

/** Clipped away, and so is every child that has a size. */
function hiddenByOverflow(reading: Reading, el: Element): boolean {
  if (overflowOf(reading, el) !== "hidden") return false;
  for (const child of el.children) if (!hiddenByOverflow(reading, child) && hasSize(reading, child)) return false;
  return true;
}

/**
 * Selenium's "shown": the body always; an option when its select is; never a hidden input or a
 * noscript; else not `visibility: hidden`, displayed (see Reading.displayed), not fully
 * transparent with its ancestors (unless `ignoreOpacity`), of some size and not clipped away.
 */
export function isShown(el: Element, reading = new Reading(el.ownerDocument), ignoreOpacity = false): boolean {
  if (!el.isConnected) return false;
  const name = tag(el);
  if (name === "body") return true;
  if (name === "option" || name === "optgroup") {
    const select = el.closest("select");
    return select !== null && isShown(select, reading, true);
  }
  const map = reading.layout ? imageMapOf(reading, el) : null;
  if (map) return map.image !== null && map.rect.width > 0 && map.rect.height > 0 && isShown(map.image, reading, ignoreOpacity);
  if (name === "input" && (el as HTMLInputElement).type.toLowerCase() === "hidden") return false;
  if (name === "noscript") return false;
  const visibility = reading.style(el, "visibility");
  if (visibility === "hidden" || visibility === "collapse") return false;
  if (!reading.displayed(el)) return false;
  if (!ignoreOpacity && opacityOf(reading, el) === 0) return false;
  if (!reading.layout) return true;
  return hasSize(reading, el) && !hiddenByOverflow(reading, el);
}
