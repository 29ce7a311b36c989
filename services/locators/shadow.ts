// Shadow DOM locators (CONTRACT section 19): `css=A >>> B >>> C`. Each `>>>` steps into the
// open shadow roots of what the part before it found. "What it found" is every match, in
// document order: step 1 is every element matching A in the document, step 2 every element
// matching B inside the open shadow root of any of those (host by host, in document order),
// and so on; the first element of the last step is the one a command acts on. A host with a
// closed shadow root, or none, gives nothing to step into.
import { LocatorError } from "./errors.ts";

/** The parts of a CSS value split at each `>>>` outside quotes, brackets and parentheses. */
export function splitShadowSteps(value: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quote: string | null = null;
  let depth = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === "\\") {
      i++; // an escaped character is never a quote, a bracket or a `>`
    } else if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === "[" || c === "(") {
      depth++;
    } else if ((c === "]" || c === ")") && depth > 0) {
      depth--;
    } else if (depth === 0 && value.startsWith(">>>", i)) {
      parts.push(value.slice(start, i).trim());
      i += 2;
      start = i + 1;
    }
  }
  parts.push(value.slice(start).trim());
  return parts;
}

/** What the steps matched, or which step matched nothing and why. */
export interface ShadowSearch {
  elements: Element[];
  /** Set when `elements` is empty: which step found nothing, in words. */
  failure?: string;
}

/**
 * Every element the steps reach from `root`, in document order. `select` runs one CSS part
 * in one root (the document or a shadow root) and throws what the engine throws.
 */
export function searchShadowSteps(
  root: Document,
  steps: readonly string[],
  select: (scope: ParentNode, selector: string) => Element[],
): ShadowSearch {
  let found = select(root, steps[0]);
  if (found.length === 0) return { elements: [], failure: `no element matches ${JSON.stringify(steps[0])} in the document` };
  for (let i = 1; i < steps.length; i++) {
    const roots = found.map((el) => el.shadowRoot).filter((r): r is ShadowRoot => r !== null);
    const before = JSON.stringify(steps[i - 1]);
    if (roots.length === 0) {
      const what = found.length === 1 ? "the element" : `none of the ${found.length} elements`;
      const has = found.length === 1 ? "has no open shadow root" : "has an open shadow root";
      return { elements: [], failure: `${what} ${before} found ${has} to look for ${JSON.stringify(steps[i])} in` };
    }
    found = roots.flatMap((shadow) => select(shadow, steps[i]));
    if (found.length === 0) {
      return { elements: [], failure: `no element matches ${JSON.stringify(steps[i])} in the open shadow root of what ${before} found` };
    }
  }
  return { elements: found };
}

/** The shadow roots `el` is inside, outermost first ([] for an element of the document itself). */
export function shadowRootsOf(el: Element): ShadowRoot[] {
  const roots: ShadowRoot[] = [];
  for (let root = el.getRootNode(); isShadowRoot(root); root = root.host.getRootNode()) roots.unshift(root);
  return roots;
}

export const isShadowRoot = (node: Node): node is ShadowRoot => node.nodeType === 11 && "host" in node && !!(node as ShadowRoot).host;

/** A LocatorError for a locator whose value uses `>>>` where only css can. */
export function shadowOutsideCss(shown: string, strategy: string): LocatorError {
  return new LocatorError(
    "InvalidLocator",
    `The locator ${shown} uses ">>>" in a ${strategy} locator; only css= steps into shadow roots, as in css=my-host >>> button.`,
  );
}
