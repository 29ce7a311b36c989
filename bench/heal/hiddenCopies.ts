// The hidden duplicates real sites carry (issue 34): a closed suggestions box holding a second
// copy of the search button, a hidden mobile menu with copies of the nav links, a display:none
// template copy of a form. Two mutations a next release makes: it adds such a copy just before
// the element's part of the page, or it moves the page's own hidden copy there. Either way the
// recorded locator's first match may now be a hidden element while the element itself is still
// shown, which is where a player that acts on the first match fails "is not visible".

/** Whether a person can see `el` (rendered, not `visibility: hidden`, not transparent). */
const shown = (el: Element) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true });

/** The part of the page a release copies for another layout: the element's form, its menu, else the element itself. */
const blockOf = (target: Element): Element => target.closest("form") ?? target.closest("nav, ul, ol, menu") ?? target;

/**
 * A hidden copy of the element's form (a template for a dialog, display:none), of its menu (a
 * closed mobile menu, the `hidden` attribute) or of the element itself (a closed suggestions box,
 * `visibility: hidden` out of the flow), put just before it. Copies drop their ids, as a page
 * with valid HTML does; every other attribute and text stays.
 */
export function addHiddenCopy(doc: Document, target: Element): boolean {
  const block = blockOf(target);
  const copy = block.cloneNode(true) as Element;
  for (const el of [copy, ...Array.from(copy.querySelectorAll("[id]"))]) el.removeAttribute("id");
  const box = doc.createElement("div");
  if (block.localName === "form") {
    box.className = "dialog-template";
    box.style.display = "none";
  } else if (block !== target) {
    box.className = "mobile-menu";
    box.hidden = true;
  } else {
    box.className = "suggestions";
    box.style.cssText = "position:absolute;visibility:hidden";
  }
  box.append(copy);
  block.before(box);
  return true;
}

/** What tells a copy of `el` from anything else: its tag with its text, name, value, href or label. */
function twins(a: Element, b: Element): boolean {
  if (a === b || a.localName !== b.localName) return false;
  const same = (name: string) => a.getAttribute(name) !== null && a.getAttribute(name) === b.getAttribute(name);
  const text = (a.textContent ?? "").trim();
  return (text !== "" && text === (b.textContent ?? "").trim()) || same("name") || same("aria-label") || (a.localName === "a" && same("href"));
}

/** The outermost element that hides `el` (its own or an ancestor's display, hidden or visibility), below the body. */
function hiderOf(el: Element): Element {
  let hider = el;
  for (let node = el.parentElement; node && node.localName !== "body"; node = node.parentElement) if (!shown(node)) hider = node;
  return hider;
}

/**
 * The page's own hidden copy of the element (a closed menu's link, a template form's field)
 * moved, with all that hides it, to just before the element's branch of the page, so it comes
 * first in document order; false when the page has no hidden copy of it.
 */
export function moveHiddenCopyFirst(doc: Document, target: Element): boolean {
  const twin = Array.from(doc.body.querySelectorAll(target.localName)).find((el) => !shown(el) && twins(target, el));
  if (!twin) return false;
  const hider = hiderOf(twin);
  if (hider.contains(target)) return false;
  // Before the child of the common ancestor that holds the element.
  let branch: Element = target;
  while (branch.parentElement && !branch.parentElement.contains(hider)) branch = branch.parentElement;
  branch.before(hider);
  return true;
}
