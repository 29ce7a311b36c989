// XPathResult.ORDERED_NODE_SNAPSHOT_TYPE; jsdom's XPathResult is not a Node global, so the number is used.
const ORDERED_NODE_SNAPSHOT_TYPE = 7;
export const ELEMENT_NODE = 1;

/** Every node `expression` selects in `doc`, in document order. Throws what the engine throws. */
export function selectNodes(doc: Document, expression: string): Node[] {
  const result = doc.evaluate(expression, doc, null, ORDERED_NODE_SNAPSHOT_TYPE, null);
  const nodes: Node[] = [];
  for (let i = 0; i < result.snapshotLength; i++) {
    const node = result.snapshotItem(i);
    if (node) nodes.push(node);
  }
  return nodes;
}

/** True when `expression` selects exactly one node in el's document and that node is `el`. */
export function selectsOnly(el: Element, expression: string): boolean {
  try {
    const nodes = selectNodes(el.ownerDocument, expression);
    return nodes.length === 1 && nodes[0] === el;
  } catch {
    return false;
  }
}

/** Whitespace collapsed and trimmed, as a person reads a link's text. */
export function normalizeText(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
