// The changes a next release makes to a page, each applied for one element (the target):
// ids and classes renamed (page-wide, as a build's new hashes do) or dropped (the target's),
// its text edited, a wrapper put around it, a sibling like it inserted before it, it moved,
// every element's attributes reordered, the page restyled, a release doing several at once,
// and a hidden copy of it coming first (hiddenCopies.ts). Each returns false when it changes
// nothing for this target, and that pair is not counted.
import { addHiddenCopy, moveHiddenCopyFirst } from "./hiddenCopies.ts";
import { allElements } from "./marks.ts";

export type Mutation = (doc: Document, target: Element) => boolean;

/** A short stable token for `text` (FNV-1a), the "hash" a build puts in a renamed id or class. */
function token(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36).slice(0, 5);
}

const ancestorsAndSelf = (el: Element): Element[] => {
  const list: Element[] = [];
  for (let node: Element | null = el; node; node = node.parentElement ?? ((node.getRootNode() as ShadowRoot).host ?? null)) list.push(node);
  return list;
};

function renameIds(doc: Document): boolean {
  const renamed = new Map<string, string>();
  for (const el of allElements(doc)) {
    if (!el.id) continue;
    const fresh = `c${token(el.id)}`;
    renamed.set(el.id, fresh);
    el.id = fresh;
  }
  // A consistent app renames the references too.
  for (const el of allElements(doc)) {
    const forId = el.getAttribute("for");
    if (forId && renamed.has(forId)) el.setAttribute("for", renamed.get(forId)!);
    const by = el.getAttribute("aria-labelledby");
    if (by) el.setAttribute("aria-labelledby", by.split(/\s+/).map((id) => renamed.get(id) ?? id).join(" "));
  }
  return renamed.size > 0;
}

function renameClasses(doc: Document): boolean {
  const names = new Set<string>();
  for (const el of allElements(doc)) for (const c of Array.from(el.classList)) names.add(c);
  if (names.size === 0) return false;
  const fresh = (c: string) => `${c.slice(0, 2)}_${token(c)}`;
  for (const el of allElements(doc)) {
    if (el.classList.length > 0) el.setAttribute("class", Array.from(el.classList).map(fresh).join(" "));
  }
  // The stylesheets follow, so the page looks the same.
  const roots: Array<Document | ShadowRoot> = [doc, ...allElements(doc).flatMap((el) => (el.shadowRoot ? [el.shadowRoot] : []))];
  for (const root of roots) {
    for (const style of Array.from(root.querySelectorAll("style"))) {
      style.textContent = (style.textContent ?? "").replace(/\.([A-Za-z][\w-]*)/g, (whole, c: string) => (names.has(c) ? `.${fresh(c)}` : whole));
    }
  }
  return true;
}

const WORDS = ["Orion", "maple", "delta", "Quartz", "harbour", "velvet", "Nimbus", "copper", "lantern", "Tundra", "saffron", "pixel"];
let wordAt = 0;
const newWords = (count: number) => Array.from({ length: Math.max(1, count) }, () => WORDS[wordAt++ % WORDS.length]).join(" ");

/** The edited form of a text: a word added, or one more word for a single word. */
const edited = (text: string) => {
  const words = text.trim().split(/\s+/);
  return words.length > 1 ? `${words.join(" ")} now` : `${words[0]} item`;
};

function ownTextNodes(el: Element): Text[] {
  const nodes: Text[] = [];
  const walker = el.ownerDocument.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.nodeValue?.trim()) nodes.push(node as Text);
  return nodes;
}

function editText(doc: Document, target: Element): boolean {
  const texts = ownTextNodes(target);
  if (texts.length > 0) {
    const longest = texts.reduce((a, b) => ((b.nodeValue ?? "").length > (a.nodeValue ?? "").length ? b : a));
    longest.nodeValue = edited(longest.nodeValue ?? "");
    return true;
  }
  for (const name of ["alt", "aria-label", "placeholder", "value"]) {
    const value = target.getAttribute(name);
    if (value && !(name === "value" && target.localName === "input" && target.getAttribute("type") !== "submit")) {
      target.setAttribute(name, edited(value));
      return true;
    }
  }
  // A field without text: its label's text is what the page shows for it.
  const labels = (target as HTMLInputElement).labels;
  const label = labels?.[0] ?? null;
  const shown = label ? ownTextNodes(label)[0] : undefined;
  if (shown) {
    shown.nodeValue = edited(shown.nodeValue ?? "");
    return true;
  }
  void doc;
  return false;
}

/** The repeated thing the target is in (a row, a card, a list item), or the target itself. */
export function itemOf(target: Element): Element {
  for (let node: Element | null = target; node && node.parentElement; node = node.parentElement) {
    const alike = Array.from(node.parentElement.children).filter(
      (s) => s !== node && s.localName === node!.localName && s.className === node!.className && (s.localName === target.localName || s.querySelector(target.localName)),
    );
    if (alike.length > 0) return node;
    if (node.localName === "body") break;
  }
  return target;
}

function insertSibling(doc: Document, target: Element): boolean {
  const item = itemOf(target);
  const clone = item.cloneNode(true) as Element;
  const path: number[] = [];
  for (let node: Element = target; node !== item; node = node.parentElement!) path.unshift(Array.prototype.indexOf.call(node.parentElement!.children, node));
  let twin: Element = clone;
  for (const i of path) twin = twin.children[i];
  const ownText = (target.textContent ?? "").trim();
  const siblings = item.parentElement ? Array.from(item.parentElement.children) : [];
  const repeated = item !== target && ownText !== "" && siblings.filter((s) => (s.textContent ?? "").includes(ownText)).length > 1;
  for (const el of [clone, ...Array.from(clone.querySelectorAll("*"))]) {
    el.removeAttribute("id");
    for (const name of ["alt", "title", "aria-label", "value", "placeholder", "name"]) {
      if (el.hasAttribute(name) && !(repeated && twin.contains(el)) && !(name === "value" && el.localName === "input" && el.getAttribute("type") !== "submit")) el.setAttribute(name, newWords(1));
    }
    if (el.hasAttribute("href")) el.setAttribute("href", `/new/${token(el.getAttribute("href")!)}`);
  }
  for (const text of ownTextNodes(clone)) {
    if (repeated && twin.contains(text)) continue;
    text.nodeValue = newWords(text.nodeValue!.trim().split(/\s+/).length);
  }
  item.before(clone);
  void doc;
  return true;
}

function move(doc: Document, target: Element): boolean {
  const item = itemOf(target);
  const parent = item.parentElement;
  if (!parent || parent.children.length < 2) return false;
  if (parent.lastElementChild === item) parent.prepend(item);
  else parent.append(item);
  void doc;
  return true;
}

function wrap(doc: Document, target: Element): boolean {
  const wrapper = doc.createElement(target.parentElement?.localName === "p" ? "span" : "div");
  wrapper.className = "wrapper";
  target.replaceWith(wrapper);
  wrapper.append(target);
  return true;
}

function reorderAttributes(doc: Document): boolean {
  for (const el of allElements(doc)) {
    const attributes = Array.from(el.attributes).map((a) => [a.name, a.value] as const);
    for (const [name] of attributes) el.removeAttribute(name);
    for (const [name, value] of attributes.reverse()) el.setAttribute(name, value);
  }
  return true;
}

const RESTYLE = `body{font-size:19px;line-height:1.7;padding:30px 50px}button{padding:10px 20px;margin:4px}
div,section,article,li,tr,fieldset,header,form{margin-top:8px;padding:6px}h1{font-size:40px;margin:30px 0}img{width:120px!important;height:90px!important}`;

function restyle(doc: Document): boolean {
  const style = doc.createElement("style");
  style.textContent = RESTYLE;
  doc.head.append(style);
  return true;
}

export const MUTATIONS = {
  "id renamed": (doc: Document) => renameIds(doc),
  "id dropped": (_doc: Document, target: Element) => {
    const withId = ancestorsAndSelf(target).filter((el) => el.id);
    for (const el of withId) el.removeAttribute("id");
    return withId.length > 0;
  },
  "class renamed": (doc: Document) => renameClasses(doc),
  "class dropped": (_doc: Document, target: Element) => {
    if (!target.hasAttribute("class")) return false;
    target.removeAttribute("class");
    return true;
  },
  "text edited": editText,
  "wrapper added": wrap,
  "sibling inserted": insertSibling,
  moved: move,
  "attributes reordered": (doc: Document) => reorderAttributes(doc),
  restyled: (doc: Document) => restyle(doc),
  "a release (ids, classes, wrapper, restyle)": (doc: Document, target: Element) => {
    renameIds(doc);
    renameClasses(doc);
    wrap(doc, target);
    return restyle(doc);
  },
  "a hidden copy added before it": addHiddenCopy,
  "its hidden copy moved first": moveHiddenCopyFirst,
} satisfies Record<string, Mutation>;

export type MutationName = keyof typeof MUTATIONS;
export const MUTATION_NAMES = Object.keys(MUTATIONS) as MutationName[];
