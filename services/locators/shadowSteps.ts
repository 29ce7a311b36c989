// The CSS steps into open shadow roots for an element inside them (CONTRACT section 19): for
// the recorder's `css=HOST >>> INNER` target and /playback/location's chain. Each selector is
// @medv/finder's, unique within its own root (the document, then each shadow root in turn).
// finder reads a page's globals (Node, document, CSS.escape), so this runs in a page.
import { finder } from "@medv/finder";
import { shadowRootsOf } from "./shadow.ts";

export interface ShadowCssSteps {
  /** The shadow hosts from the outermost (in the document) inwards, then the element itself. */
  elements: Element[];
  /** For each of `elements`, a selector that finds it alone in its root. */
  selectors: string[];
}

/** The steps to `el` through the open shadow roots it is inside; null for an element of the document itself. */
export function shadowCssSteps(el: Element): ShadowCssSteps | null {
  const roots = shadowRootsOf(el);
  if (roots.length === 0) return null;
  const elements = [...roots.map((root) => root.host), el];
  const selectors = elements.map((node, i) => {
    const root = i === 0 ? node.ownerDocument : roots[i - 1];
    return finder(node, { root: root as unknown as Element });
  });
  return { elements, selectors };
}
