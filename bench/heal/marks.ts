// Which element a benchmark pair is about: marked in the page's HTML by data-heal-key, the
// mark moved off the element into a property the builders and the fingerprint never read.
export const KEY_ATTRIBUTE = "data-heal-key";
const KEY = Symbol("healKey");

type Marked = Element & { [KEY]?: string };

export const keyOf = (el: Element): string | undefined => (el as Marked)[KEY];
export const setKey = (el: Element, key: string): void => {
  (el as Marked)[KEY] = key;
};

/** Every element of the document and of the open shadow roots in it, in document order. */
export function allElements(doc: Document): Element[] {
  const found: Element[] = [];
  const walk = (root: Document | ShadowRoot) => {
    for (const el of Array.from(root.querySelectorAll("*"))) {
      found.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(doc);
  return found;
}
