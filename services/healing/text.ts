// Text as a person reads it on an element, for fingerprints and their comparison. DOM-only.

/** Whitespace collapsed and trimmed. */
export const normalizeText = (text: string): string => text.replace(/\s+/g, " ").trim();

const BUTTON_INPUTS = new Set(["button", "submit", "reset"]);
/** Longer texts are cut before they are normalised: a container's text is only read for its start. */
const READ_LIMIT = 2000;

/**
 * What a person reads on `el`: its rendered text (innerText where the page has layout, its
 * text content where it has none, as in jsdom), or a button input's value; normalised.
 */
export function textOf(el: Element): string {
  return cached("text", el, readText);
}

type Store = "text" | "step";
let cache: Record<Store, Map<Element, string>> | undefined;

/** `read(el)`, read once per element while withPageCache runs, else each time. */
export function cached(store: Store, el: Element, read: (el: Element) => string): string {
  if (!cache) return read(el);
  let value = cache[store].get(el);
  if (value === undefined) cache[store].set(el, (value = read(el)));
  return value;
}

/**
 * Runs `fn` with each element's text and path step read once: ranking a page reads the same
 * ancestors for every candidate inside them. The page must not change meanwhile.
 */
export function withPageCache<T>(fn: () => T): T {
  if (cache) return fn();
  cache = { text: new Map(), step: new Map() };
  try {
    return fn();
  } finally {
    cache = undefined;
  }
}

function readText(el: Element): string {
  if (el.localName === "input") {
    const input = el as HTMLInputElement;
    return BUTTON_INPUTS.has((input.getAttribute("type") ?? "").toLowerCase()) ? normalizeText(input.value ?? "") : "";
  }
  const inner = (el as HTMLElement).innerText;
  const raw = typeof inner === "string" ? inner : spacedText(el);
  return normalizeText(raw.length > READ_LIMIT ? raw.slice(0, READ_LIMIT) : raw);
}

/** Without layout (jsdom): the text nodes' texts joined by spaces, so blocks do not run together. */
function spacedText(el: Element): string {
  const parts: string[] = [];
  let length = 0;
  const walk = (node: Node) => {
    for (let child = node.firstChild; child && length < READ_LIMIT; child = child.nextSibling) {
      if (child.nodeType === 3) {
        parts.push(child.nodeValue ?? "");
        length += child.nodeValue?.length ?? 0;
      } else if (child.nodeType === 1 && !NOT_TEXT.has((child as Element).localName)) walk(child);
    }
  };
  walk(el);
  return parts.join(" ");
}

const NOT_TEXT = new Set(["script", "style", "template", "noscript"]);
