// What the recorder needs to see into open shadow roots (CONTRACT section 19). At the window,
// an event from inside a shadow tree has the tree's host as its target; its composed path
// still starts at the element the user acted on. And `change` is not composed at all: it never
// leaves the shadow root it happened in, so the recorder listens on each open shadow root an
// event of the user's has passed through, as it does on the window.

/** The element the user acted on, inside open shadow roots too; null when that is no element. */
export function eventElement(event: Event): Element | null {
  const first = typeof event.composedPath === "function" ? (event.composedPath()[0] ?? event.target) : event.target;
  return first && (first as Node).nodeType === 1 ? (first as Element) : null;
}

/** The events that stay inside the shadow root they happen in, and so are listened to there. */
export const UNCOMPOSED_EVENTS = new Set(["change"]);

type Listener = readonly [type: string, listener: (event: Event) => void];

/** Adds `listeners` (capture phase) to every open shadow root an event passes through, once each; `detach` removes them all. */
export function shadowRootListeners(own: ReadonlyArray<Listener>): { reach(event: Event): void; detach(): void } {
  const roots = new Set<ShadowRoot>();
  // Only an event that ends in its shadow root: one that goes on to the window (from an element
  // slotted into the tree, say) is the window's listeners' to record.
  const listeners = own.map(([type, listener]): Listener => [
    type,
    (event) => {
      const path = event.composedPath();
      if ((path[path.length - 1] as Node | undefined)?.nodeType === 11) listener(event);
    },
  ]);
  return {
    reach(event) {
      if (typeof event.composedPath !== "function") return;
      for (const node of event.composedPath()) {
        const root = node as ShadowRoot;
        if ((root as unknown as Node).nodeType !== 11 || !root.host || roots.has(root)) continue;
        roots.add(root);
        for (const [type, listener] of listeners) root.addEventListener(type, listener, true);
      }
    },
    detach() {
      for (const root of roots) for (const [type, listener] of listeners) root.removeEventListener(type, listener, true);
      roots.clear();
    },
  };
}
