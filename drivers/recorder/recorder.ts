// The recorder (CONTRACT section 14): runs in a frame of the page under test and turns the
// user's actions there into Selenium IDE v3's commands, with v3's rules (its content/record.js):
// click, doubleClick, type on change, sendKeys for Enter and the arrow keys, select with
// label=, addSelection/removeSelection, editContent, dragAndDropToObject and the runScript
// scrollTo v3 records when scrolling loads more of the page; and before a command on an element
// the user waited for (it came after a request), `waitForElementVisible` (waits.ts). One module for both recorders:
// the extension's content script and the host's DevTools-injected script differ only in the
// `report` they give it. Besides commands it reports the typing in the focused field whose change
// has not come yet (PendingTyping), so a recording that stops first still records it.
//
// Only trusted events count (`event.isTrusted`): what the page's own scripts dispatch is not
// the user, so a hostile page cannot make commands appear. The recorder reads the page and
// never changes it; its listeners are on the window, in the capture phase, so a page that stops
// an event's propagation still has it recorded.
import { buildTargets } from "../../services/locators/builders.ts";
import type { BuildOptions, LocatorPair } from "../../services/locators/builders.ts";
import { fingerprintOf } from "../../services/healing/fingerprint.ts";
import type { Fingerprint } from "../../services/healing/fingerprint.ts";
import { frameLocators } from "./frames.ts";
import { hoverMenus } from "./hover.ts";
import { picking } from "./pick.ts";
import { eventElement, shadowRootListeners, UNCOMPOSED_EVENTS } from "./shadowRoots.ts";
import { RECORDED_WAIT_MS, watchAppearances } from "./waits.ts";

/** One recorded command, before the core gives it an id and puts it into the test. */
export interface RecordedAction {
  command: string;
  target: string;
  targets: Array<LocatorPair | [string]>;
  value: string;
  /** The frame it was done in: its index in window.frames at each level from the top; [] is the top. */
  frame: number[];
  /** Beside `frame`, each level's frame element's stable locator, or null (frames.ts). */
  frameTargets?: Array<LocatorPair | null>;
  /** A file chosen in a file input: `type` with the file's name, whose path the user must set (CONTRACT section 19). */
  upload?: true;
  /** The element's fingerprint, for relocation when the page changed (CONTRACT section 18). */
  fingerprint?: Fingerprint;
}

/**
 * What the user typed into the field that has the focus and that no `type` holds yet (its
 * change has not come), told as it changes; `field: null` once nothing is pending (the change
 * came, the focus left, the value is back to what was recorded). A recording that stops meanwhile
 * records it as the `type` the change would have recorded (CONTRACT round 4).
 */
export interface PendingTyping {
  pending: true;
  field: { target: string; targets: Array<LocatorPair | [string]>; value: string; fingerprint?: Fingerprint } | null;
  frame: number[];
  frameTargets?: Array<LocatorPair | null>;
}

/** What the recorder reports: a command, or the typing still pending in the focused field. */
export type RecorderReport = RecordedAction | PendingTyping;

/** v3's Recorder.inputTypes: the inputs whose value is typed. */
export const INPUT_TYPES = new Set([
  "text", "password", "file", "datetime", "datetime-local", "date", "month", "time", "week",
  "number", "range", "email", "url", "search", "tel", "color",
]);

// A label's click makes one on its control at once; a click on that control within this is it.
const CLICK_TWICE_MS = 30;
const AFTER_ENTER_MS = 500;
const SCROLL_MS = 500;
const AFTER_SCROLL_MS = 550;

/** Where `win` is among its ancestors' frames, from the top (cross-origin parents allow this much). */
export function framePath(win: Window): number[] {
  const path: number[] = [];
  let current: Window = win;
  while (current.parent !== current) {
    const parent = current.parent;
    let index = -1;
    for (let i = 0; i < parent.frames.length; i++) {
      if (parent.frames[i] === current) {
        index = i;
        break;
      }
    }
    if (index < 0) break;
    path.unshift(index);
    current = parent;
  }
  return path;
}

/** v3's getOptionLocator: `label=` the option's text, or a regexp when it holds a non-breaking space. */
export function optionLocator(option: HTMLOptionElement): string {
  const label = option.text.replace(/^ *(.*?) *$/, "$1");
  if (!/\xA0/.test(label)) return `label=${label}`;
  const escaped = label
    .replace(/[()[\]\\^$*+?.|{}]/g, (c) => `\\${c}`)
    .replace(/\s+/g, (run) => (/\xA0/.test(run) ? (run.length > 1 ? "\\s+" : "\\s") : run));
  return `label=regexp:${escaped}`;
}

const isTextInput = (el: Element): el is HTMLInputElement =>
  el.localName === "input" && INPUT_TYPES.has((el as HTMLInputElement).type);
const isFileInput = (el: Element): el is HTMLInputElement => el.localName === "input" && (el as HTMLInputElement).type === "file";
/** A file input, or a label whose control is one. */
const opensFileChooser = (el: Element | null): boolean => {
  const control = el?.localName === "label" ? (el as HTMLLabelElement).control : el;
  return control != null && isFileInput(control);
};
const isSelect = (el: Element): el is HTMLSelectElement => el.localName === "select";
const isTextArea = (el: Element): el is HTMLTextAreaElement => el.localName === "textarea";

/**
 * Starts recording in `win`; returns the function that stops it. `settings` gives the project's
 * recording settings (locatorOrder, testIdAttributes: CONTRACT section 18), read at each command,
 * so a change reaches a recording under way.
 */
export function attachRecorder(win: Window, reportTo: (report: RecorderReport) => void, settings: () => BuildOptions = () => ({})): () => void {
  const doc = win.document;
  const targetsOf = (el: Element) => buildTargets(el, settings());
  const frame = framePath(win);
  // Read at each report: a frame element's id may come after the recorder does.
  const report = (told: RecorderReport) => reportTo(frame.length === 0 ? told : { ...told, frameTargets: frameLocators(win, frame.length) });
  // When the user's action being recorded began (the event's time; for typing, its first key),
  // and when the previous one did: an element that came after that one, and after a request it
  // made, is waited for first. One wait per action (a click after the menus it hovers is one).
  const appearances = watchAppearances(win);
  let eventAt = win.performance.now();
  let previousAt = eventAt;
  let currentAt = eventAt;
  let waitedAt = NaN;
  const record = (command: string, el: Element | null, value: string, at = eventAt) => {
    at = Math.max(at, currentAt);
    if (at !== currentAt) [previousAt, currentAt] = [currentAt, at];
    const found = el ? targetsOf(el) : [];
    const fingerprint = el ? { fingerprint: fingerprintOf(el) } : {};
    if (el && waitedAt !== at && appearances.cameAfterRequest(el, previousAt)) {
      waitedAt = at;
      report({ command: "waitForElementVisible", target: found[0]?.[0] ?? "", targets: found, value: String(RECORDED_WAIT_MS), frame, ...fingerprint });
    }
    report({ command, target: found[0]?.[0] ?? "", targets: found, value, frame, ...fingerprint });
  };

  // What v3 keeps between events (its recordingState), per element where it can be several.
  const valueAtFocus = new WeakMap<Element, string>();
  const typingSince = new WeakMap<Element, number>();
  const typedValue = new WeakMap<Element, string>();
  const wasSelected = new WeakMap<HTMLSelectElement, boolean[]>();
  // The control a label's click just went to, and when (the event's time, not a timer: a timer
  // can fire late on a busy page and swallow the user's next click).
  let labelClick: { control: Element; at: number } | null = null;
  let afterEnter = false;
  let arrowTarget: Element | null = null;
  let dragSource: Element | null = null;
  let editing: { el: Element; html: string } | null = null;
  let scrolledAt = -Infinity;
  let quietUntil = 0;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  // The field whose typing is pending (told to the core), and its locators, built once per focus.
  let pendingIn: Element | null = null;
  const pendingTargets = new WeakMap<Element, RecordedAction["targets"]>();
  const tellPending = (el: HTMLInputElement | HTMLTextAreaElement | null) => {
    if (el === null) {
      if (pendingIn === null) return;
      pendingIn = null;
      report({ pending: true, field: null, frame });
      return;
    }
    let targets = pendingTargets.get(el);
    if (!targets) {
      targets = targetsOf(el);
      pendingTargets.set(el, targets);
    }
    pendingIn = el;
    report({ pending: true, field: { target: targets[0]?.[0] ?? "", targets, value: el.value, fingerprint: fingerprintOf(el) }, frame });
  };

  /** `type` with the field's value, unless that value was already recorded for it. */
  const recordTyped = (el: HTMLInputElement | HTMLTextAreaElement) => {
    if (pendingIn === el) tellPending(null);
    if (typedValue.get(el) === el.value) return;
    typedValue.set(el, el.value);
    record("type", el, el.value, typingSince.get(el));
    typingSince.delete(el);
  };

  /** A file chosen: `type` with its name (several on lines of their own), not the browser's C:\fakepath\ value. */
  const recordUpload = (el: HTMLInputElement) => {
    const names = Array.from(el.files ?? [], (file) => file.name).join("\n");
    if (names === "") return; // the chooser was cancelled, or the files cleared
    const found = targetsOf(el);
    report({ command: "type", target: found[0]?.[0] ?? "", targets: found, value: names, frame, upload: true, fingerprint: fingerprintOf(el) });
  };

  const handlers: Array<[string, (event: Event) => void]> = [
    [
      "focus",
      (event) => {
        const el = eventElement(event);
        if (!el) return;
        if (isTextInput(el) || isTextArea(el)) {
          valueAtFocus.set(el, el.value);
          typedValue.delete(el);
          typingSince.delete(el);
          pendingTargets.delete(el);
        }
        if (isSelect(el) && el.multiple) wasSelected.set(el, Array.from(el.options, (o) => o.selected));
        if ((el as HTMLElement).contentEditable === "true") editing = { el, html: el.innerHTML };
      },
    ],
    [
      "blur",
      (event) => {
        const el = eventElement(event);
        // The change, if any, came before the blur: nothing of this field is pending any more.
        if (el !== null && el === pendingIn) tellPending(null);
        if (!editing || el !== editing.el) return;
        if (el.innerHTML !== editing.html) record("editContent", el, el.innerHTML);
        editing = null;
      },
    ],
    [
      "click",
      (event) => {
        const mouse = event as MouseEvent;
        const el = eventElement(event);
        // The click that opens a file chooser is not played: the chosen file's `type` is.
        // A label's click is followed by the one it makes on its control: one command, as in v3.
        const fromLabel = labelClick !== null && el === labelClick.control && event.timeStamp - labelClick.at < CLICK_TWICE_MS;
        labelClick = null;
        if (mouse.button !== 0 || afterEnter || fromLabel || opensFileChooser(el)) return;
        // The menus a CSS :hover opened to show it come first, so playback opens them too.
        for (const menu of hoverMenus(el)) record("mouseOver", menu, "");
        record("click", el, "");
        const control = el?.closest("label")?.control;
        if (control && control !== el) labelClick = { control, at: event.timeStamp };
      },
    ],
    ["dblclick", (event) => record("doubleClick", eventElement(event), "")],
    [
      "input",
      (event) => {
        const el = eventElement(event);
        if (!el || !(isTextInput(el) || isTextArea(el)) || el.type === "file") return;
        const recorded = typedValue.get(el) ?? valueAtFocus.get(el) ?? "";
        if (el.value !== recorded && !typingSince.has(el)) typingSince.set(el, event.timeStamp);
        if (el.value !== recorded) tellPending(el);
        else if (pendingIn === el) tellPending(null);
      },
    ],
    [
      "change",
      (event) => {
        const el = eventElement(event);
        if (!el) return;
        if (isFileInput(el)) return recordUpload(el);
        if (isTextInput(el) || isTextArea(el)) return recordTyped(el);
        if (!(isSelect(el))) return;
        if (!el.multiple) {
          const option = el.options[el.selectedIndex];
          if (option) record("select", el, optionLocator(option));
          return;
        }
        const before = wasSelected.get(el) ?? [];
        Array.from(el.options).forEach((option, i) => {
          if ((before[i] ?? false) === option.selected) return;
          record(option.selected ? "addSelection" : "removeSelection", el, optionLocator(option));
        });
        wasSelected.set(el, Array.from(el.options, (o) => o.selected));
      },
    ],
    [
      "keydown",
      (event) => {
        const key = event as KeyboardEvent;
        const el = eventElement(event);
        if (!el || !isTextInput(el)) return;
        if (key.key === "Enter") {
          // The value typed so far first (the page may submit before any change event), then the key.
          if (el.value !== (valueAtFocus.get(el) ?? "")) recordTyped(el);
          record("sendKeys", el, "${KEY_ENTER}");
          afterEnter = true;
          later(AFTER_ENTER_MS, () => (afterEnter = false));
        } else if ((key.key === "ArrowUp" || key.key === "ArrowDown") && el.value !== "") {
          if (el.value !== (valueAtFocus.get(el) ?? "")) recordTyped(el);
          record("sendKeys", el, key.key === "ArrowUp" ? "${KEY_UP}" : "${KEY_DOWN}");
          arrowTarget = el;
        } else if (key.key === "Tab" && arrowTarget === el) {
          record("sendKeys", el, "${KEY_TAB}");
          arrowTarget = null;
        }
      },
    ],
    ["dragstart", (event) => (dragSource = eventElement(event))],
    [
      "drop",
      (event) => {
        const target = eventElement(event);
        if (dragSource && target && dragSource !== target) {
          record("dragAndDropToObject", dragSource, targetsOf(target)[0]?.[0] ?? "");
        }
        dragSource = null;
      },
    ],
    ["scroll", () => (scrolledAt = Date.now())],
  ];

  const trusted = (handle: (event: Event) => void) => (event: Event) => {
    // A pick armed here (pick.ts) takes the click and the keys it needs: the user is pointing, not acting.
    if (!event.isTrusted || picking(win)) return;
    eventAt = event.timeStamp;
    try {
      shadowRoots.reach(event);
      handle(event);
    } catch {
      // A page the recorder cannot read (a detached node, say) loses one command, never the page's own handling.
    }
  };
  const listeners = handlers.map(([type, handle]) => [type, trusted(handle)] as const);
  for (const [type, listener] of listeners) win.addEventListener(type, listener, true);
  const shadowRoots = shadowRootListeners(listeners.filter(([type]) => UNCOMPOSED_EVENTS.has(type)));

  // v3's runScript: scrolling that makes the page add content (an endless list) is recorded, so
  // playing the test loads the same content.
  const Observer = (win as unknown as { MutationObserver: typeof MutationObserver }).MutationObserver;
  const observer = new Observer((mutations) => {
    const now = Date.now();
    if (now - scrolledAt > SCROLL_MS || now < quietUntil || picking(win)) return;
    if (!mutations.some((m) => m.addedNodes.length > 0)) return;
    const script = `window.scrollTo(0,${Math.round(win.scrollY)})`;
    report({ command: "runScript", target: script, targets: [], value: "", frame });
    scrolledAt = -Infinity;
    quietUntil = now + AFTER_SCROLL_MS;
  });
  // The document itself: at document start (the host's recorder) it has no element yet.
  observer.observe(doc, { childList: true, subtree: true });

  return () => {
    for (const [type, listener] of listeners) win.removeEventListener(type, listener, true);
    shadowRoots.detach();
    observer.disconnect();
    appearances.stop();
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
}
