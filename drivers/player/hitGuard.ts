// The hit guard (issue 27): a trusted click is sent at a point, and the page can move between the
// player's last look and the browser's hit test (a late element inserted above pushes the target
// down). While the click's events are dispatched, the guard looks where the press landed: on the
// element (or inside it), the click goes on as the page would have it; anywhere else, every
// event of that click is stopped before the page's own listeners see it, and the player tries
// again. So a click never lands on the wrong element without a word.
import { containsComposed, windowOf } from "./dom.ts";

const GUARDED = ["pointerdown", "mousedown", "pointerup", "mouseup", "click", "dblclick", "auxclick", "contextmenu"];
const PRESSES = new Set(["pointerdown", "mousedown"]);

export interface HitGuard {
  /** The element a press landed on instead of the one meant, if one did. */
  missedOn(): Element | null;
  /** Stops guarding (after the click's input was taken). */
  release(): void;
}

/** Guards the click about to be sent at `el` (in its window, before the page's own window listeners registered later). */
export function guardHits(el: Element): HitGuard {
  const win = windowOf(el);
  let judged = false;
  let missed: Element | null = null;
  const listener = (event: Event) => {
    const landed = (event.composedPath()[0] ?? event.target) as Element | null;
    if (!judged && PRESSES.has(event.type)) {
      judged = true;
      if (landed instanceof win.Element && !containsComposed(el, landed)) missed = landed;
    }
    if (missed) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  };
  for (const type of GUARDED) win.addEventListener(type, listener, { capture: true });
  return {
    missedOn: () => missed,
    release: () => {
      for (const type of GUARDED) win.removeEventListener(type, listener, { capture: true });
    },
  };
}
