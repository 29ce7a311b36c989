// Pointing at the page (CONTRACT section 21): one mechanism for every use of "the element the
// user points at" (a check recorded while recording, Select target in page), in both hosts: the
// host's recorder world (hostEntry.ts) and the extension's content script (recorderContent.ts).
//
// While armed, the element under the pointer is outlined (an overlay that takes no pointer
// events, so it is never the element found, and that no locator names); the next click is taken
// in the capture phase of the window and goes no further: pointerdown, mousedown, pointerup,
// mouseup, click and dblclick are stopped there (preventDefault, stopImmediatePropagation), so
// neither the page nor the recorder (which skips every event while a pick is armed in its
// window, `picking`) sees it. The clicked element is described with the recorder's own builders
// and fingerprint (`describeElement`), and what happens with it is the caller's: the pick only
// tells. Esc cancels; disarming (a stop of the recording, another pick) leaves nothing behind.
import { buildTargets } from "../../services/locators/builders.ts";
import type { BuildOptions, LocatorPair } from "../../services/locators/builders.ts";
import { fingerprintOf } from "../../services/healing/fingerprint.ts";
import type { Fingerprint } from "../../services/healing/fingerprint.ts";
import { isSelected, valueOf, visibleText } from "../player/dom.ts";
import { frameLocators } from "./frames.ts";
import { eventElement } from "./shadowRoots.ts";

/** What the page says of the element pointed at: where it is (as a click's command would name it) and what a check reads from it. */
export interface PickedElement {
  target: string;
  targets: LocatorPair[];
  fingerprint: Fingerprint;
  /** Its text as WebDriver's getText reads it (drivers/player/dom.ts's visibleText). */
  text: string;
  /** Its value (a field's), or null when it has none. */
  value: string | null;
  /** The title of the window it is in (the top document's when that can be read). */
  title: string;
  /** A checkbox or radio button: whether it is checked; null for any other element. */
  checked: boolean | null;
  /** Its tag, for messages ("a <div> with no text"). */
  tag: string;
  /** Its frame, as the recorder's commands give it: indexes from the top, and each level's frame element locator. */
  frame: number[];
  frameTargets?: Array<LocatorPair | null>;
}

/** What a pick tells: the element, why no element could be taken, or that the user cancelled (Esc). */
export type PickReport = { pick: "picked"; element: PickedElement } | { pick: "failed"; problem: string } | { pick: "cancelled" };

/** The events of a click that the pick takes: none of them reaches the page. */
const CLICK_EVENTS = ["pointerdown", "mousedown", "pointerup", "mouseup", "click", "dblclick", "auxclick", "contextmenu"];
const OUTLINE_COLOR = "#e8590c";

/** The windows a pick is armed in: the recorder records nothing there meanwhile. */
const armed = new WeakSet<Window>();

/** Whether a pick is armed in `win` (the recorder then leaves every event to it). */
export function picking(win: Window): boolean {
  return armed.has(win);
}

/** The window's top title when it can be read (a frame of the same origin), else its own. */
function titleOf(win: Window): string {
  try {
    return win.top?.document.title ?? win.document.title;
  } catch {
    return win.document.title;
  }
}

/**
 * The element as a pick gives it, with the recorder's builders (its project settings) and
 * fingerprint; or why it cannot be pointed at (no builder could name it).
 */
export function describeElement(el: Element, settings: BuildOptions = {}, frame: number[] = []): PickedElement | { problem: string } {
  const tag = el.localName;
  const targets = buildTargets(el, settings);
  const first = targets[0];
  if (!first) {
    return { problem: `No locator could be built for the <${tag}> pointed at (no id, name, link text, css or xpath builder finds it and nothing else); nothing was taken. Point at another element.` };
  }
  const win = el.ownerDocument.defaultView;
  const type = tag === "input" ? (el as HTMLInputElement).type : "";
  return {
    target: first[0],
    targets,
    fingerprint: fingerprintOf(el),
    text: visibleText(el),
    value: valueOf(el),
    title: win ? titleOf(win) : el.ownerDocument.title,
    checked: type === "checkbox" || type === "radio" ? isSelected(el) : null,
    tag,
    frame,
    ...(frame.length > 0 && win ? { frameTargets: frameLocators(win, frame.length) } : {}),
  };
}

export interface PickOptions {
  /** The project's recording settings, read when the element is taken. */
  settings?: () => BuildOptions;
  /** The window's frame path (recorder.ts's framePath), told with the element. */
  frame?: number[];
}

/**
 * Arms a pick in `win`: the next click there is taken and told to `tell` (once: picked, failed
 * or cancelled), and the pick disarms itself. The function returned disarms it before that,
 * telling nothing; calling it again does nothing. Arming a window already armed disarms the
 * pick before (one pick at a time).
 */
export function armPick(win: Window, tell: (report: PickReport) => void, options: PickOptions = {}): () => void {
  const doc = win.document;
  const scope = win as Window & { __ideCorePickDisarm?: () => void };
  scope.__ideCorePickDisarm?.();
  const overlay = doc.createElement("div");
  overlay.setAttribute("aria-hidden", "true");
  overlay.style.cssText = `position:fixed;pointer-events:none;z-index:2147483647;box-sizing:border-box;border:2px solid ${OUTLINE_COLOR};background:rgba(232,89,12,0.12);display:none;margin:0;padding:0;`;

  let done = false;
  const outline = (el: Element | null) => {
    if (!el || el === overlay) return void (overlay.style.display = "none");
    const box = el.getBoundingClientRect();
    Object.assign(overlay.style, { display: "block", left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`, height: `${box.height}px` });
    if (!overlay.isConnected) (doc.documentElement ?? doc).appendChild(overlay);
  };
  const stop = (event: Event) => {
    event.preventDefault();
    event.stopImmediatePropagation();
  };
  const take = (event: Event) => {
    if (!event.isTrusted) return;
    stop(event);
    if (event.type !== "click") return;
    const el = eventElement(event);
    disarm();
    if (!el) return tell({ pick: "failed", problem: "The click was on no element of the page; nothing was taken." });
    // Read once the click is over: a checkbox toggles before its click's listeners and is put
    // back only after them (the click was cancelled), so it is read as it stays.
    setTimeout(() => {
      try {
        const found = describeElement(el, options.settings?.() ?? {}, options.frame ?? []);
        tell("problem" in found ? { pick: "failed", problem: found.problem } : { pick: "picked", element: found });
      } catch (error) {
        tell({ pick: "failed", problem: `The element pointed at could not be read (${error instanceof Error ? error.message : String(error)}); nothing was taken.` });
      }
    }, 0);
  };
  const aim = (event: Event) => {
    if (event.isTrusted) outline(eventElement(event));
  };
  const key = (event: Event) => {
    if (!event.isTrusted || (event as KeyboardEvent).key !== "Escape") return;
    stop(event);
    disarm();
    tell({ pick: "cancelled" });
  };
  const listeners: Array<[string, (event: Event) => void]> = [
    ...CLICK_EVENTS.map((type): [string, (event: Event) => void] => [type, take]),
    ["pointermove", aim],
    ["mouseover", aim],
    ["keydown", key],
  ];
  for (const [type, listener] of listeners) win.addEventListener(type, listener, true);
  armed.add(win);

  function disarm() {
    if (done) return;
    done = true;
    armed.delete(win);
    for (const [type, listener] of listeners) win.removeEventListener(type, listener, true);
    overlay.remove();
    if (scope.__ideCorePickDisarm === disarm) delete scope.__ideCorePickDisarm;
  }
  scope.__ideCorePickDisarm = disarm;
  return disarm;
}
