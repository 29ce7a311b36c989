// Actionability (issue 27): before a command acts on an element, the player waits, within the
// command's wait, until the element can take the action as a person's would: attached, visible,
// stable (the same box in two animation frames: not sliding in; a page that changed nothing for
// a while but in answer to the player's own input, and runs no animation, is known to be still
// without waiting for a frame), enabled (for the commands a
// disabled control ignores), and not covered at the point it acts on (a spinner or an overlay on
// top of it). A late, disabled, covered or moving element is waited for, not acted on too early
// (a click WebDriver sends a disabled button is lost silently). When the wait is over, the
// command fails saying which of these did not hold. A command that needs its element visible
// acts on a locator's first visible match: hidden copies (a closed menu's) are passed over, and a
// locator with none is not found once the wait is over (find.ts). The same code plays in the host and in the
// extension. `InPageRequest.actionWaits: false` skips all but the element's wait, only to
// measure what these waits cost (bench/hostRun.ts).
import { describe, isDisabled, isDisplayed, windowOf } from "./dom.ts";
import { CommandAborted, CommandFailure } from "./errors.ts";
import { clampWait, waitForElement } from "./find.ts";
import type { ElementCondition, WaitOptions } from "./find.ts";
import { reachablePoint } from "./mouse.ts";
import type { Offset } from "./mouse.ts";
import type { CommandContext } from "./types.ts";

/** What a command needs of its element besides being there. */
export interface Needs {
  visible?: boolean;
  /** Not disabled (`:disabled`, or `aria-disabled="true"` on the element). */
  enabled?: boolean;
  /** The element, not another on top of it, gets a pointer at its centre (plus `offset`). */
  uncovered?: boolean;
  offset?: Offset;
  /** The same box in two animation frames. */
  stable?: boolean;
}

/** A click's needs: everything. */
export const POINTER: Needs = { visible: true, enabled: true, uncovered: true, stable: true };

/** No frame comes in a hidden tab: after this, the box is compared anyway. */
const FRAME_LIMIT_MS = 100;
/**
 * A busy machine may draw a frame later than FRAME_LIMIT_MS, and without a frame an animation
 * does not advance, so the box looks still: where an animation may move the element, a frame is
 * waited for this much longer before the box is compared anyway.
 */
const LATE_FRAME_LIMIT_MS = 1_000;
/** A page that changed nothing for this long (JS that moves an element changes it every frame), with no animation running, is still. */
const QUIET_MS = 34; // two frames
/** A frame at 60 Hz. */
const FRAME_MS = 16;

export const notVisible = (target: string) => `Element ${target} is not visible, so it cannot be interacted with`;
export const notEnabled = (target: string) => `Element ${target} is not interactable (it is disabled)`;
const stillMoving = (target: string) => `Element ${target} is still moving (its box changed between two animation frames), so it cannot be interacted with yet`;

const ariaDisabled = (el: Element) => el.getAttribute("aria-disabled") === "true";

/** The condition `needs` make, with `extra` (the command's own) checked last. */
export function actionCondition(needs: Needs, extra?: ElementCondition): ElementCondition {
  const covered = (el: Element) => (needs.uncovered ? reachablePoint(el, needs.offset) : { point: { x: 0, y: 0 }, blocker: null });
  return {
    holds: (el) =>
      (!needs.visible || isDisplayed(el)) &&
      (!needs.enabled || (!isDisabled(el) && !ariaDisabled(el))) &&
      (extra === undefined || extra.holds(el)) &&
      covered(el).blocker === null,
    why: (el, target) => {
      if (needs.visible && !isDisplayed(el)) return notVisible(target);
      if (needs.enabled && (isDisabled(el) || ariaDisabled(el))) return notEnabled(target);
      if (extra && !extra.holds(el)) return extra.why(el, target);
      const { point, blocker } = covered(el);
      return `Element ${target} is not clickable at point (${Math.floor(point.x)}, ${Math.floor(point.y)}). Other element would receive the click: ${blocker ? describe(blocker) : "another element"}`;
    },
  };
}

/** Resolves at the window's next animation frame (true), or after `limitMs` where none comes (false); rejects when `signal` aborts. */
function nextFrame(win: Window, signal?: AbortSignal, limitMs = FRAME_LIMIT_MS): Promise<boolean> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CommandAborted());
    // A window without frames (a DOM without layout) waits a frame's time.
    const frames = typeof win.requestAnimationFrame === "function";
    const done = () => {
      if (frames) win.cancelAnimationFrame(frame);
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      done();
      reject(new CommandAborted());
    };
    const frame = frames ? win.requestAnimationFrame(() => (done(), resolve(true))) : 0;
    const timer = setTimeout(() => (done(), resolve(false)), frames ? limitMs : FRAME_MS);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

const sameBox = (a: DOMRect, b: DOMRect) => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

/**
 * The events a command's own input makes (trusted, from the player): what the page changes in
 * their handlers is its answer to the command, done at once, not motion. A handler that starts
 * motion starts an animation (seen running) or changes the page again in a later frame (seen).
 */
const INPUT_EVENTS = ["pointerdown", "mousedown", "pointerup", "mouseup", "click", "dblclick", "keydown", "keypress", "beforeinput", "input", "keyup", "change"];

/** Per document: when it last changed by itself, and whether its input's events are being handled now. */
interface Watch {
  at: number;
  answering: boolean;
}

/** When each document last changed: its nodes, attributes or text, or a scroll (what can move an element without an animation). */
const lastChange = new WeakMap<Document, Watch>();

/**
 * When `doc` last changed other than in its handlers of input events, or null where that is not
 * known yet (the watch starts at the first ask).
 */
function changedAt(doc: Document): number | null {
  const seen = lastChange.get(doc);
  if (seen) return seen.at;
  const win = doc.defaultView;
  if (!win || typeof win.MutationObserver !== "function") return null;
  const watch: Watch = { at: performance.now(), answering: false };
  const changed = () => {
    if (!watch.answering) watch.at = performance.now();
  };
  // The observer's callback runs in the task that changed the page (a microtask), so a change an
  // input event's handler makes is seen while `answering` holds; it ends with that task.
  const answering = () => {
    if (watch.answering) return;
    watch.answering = true;
    win.setTimeout(() => (watch.answering = false), 0);
  };
  for (const type of INPUT_EVENTS) win.addEventListener(type, answering, { capture: true, passive: true });
  new win.MutationObserver(changed).observe(doc, { subtree: true, childList: true, attributes: true, characterData: true });
  doc.addEventListener("scroll", changed, { capture: true, passive: true });
  lastChange.set(doc, watch);
  return null;
}

/**
 * Whether `el` cannot be moving: nothing in its document changed or scrolled for QUIET_MS, but
 * in answer to the player's input, and no animation runs there. Then no frame need be waited for;
 * else (or inside a shadow tree, whose changes the document's watch does not see) the box is
 * compared across a frame.
 */
function stillForSure(el: Element): boolean {
  const doc = el.ownerDocument;
  if (el.getRootNode() !== doc) return false;
  const at = changedAt(doc);
  if (at === null || performance.now() - at < QUIET_MS) return false;
  return typeof doc.getAnimations !== "function" || doc.getAnimations().every((animation) => animation.playState !== "running");
}

/** Whether an animation runs on `el` or on an element it is in (one that can move it). */
function animated(el: Element): boolean {
  const doc = el.ownerDocument;
  if (typeof doc.getAnimations !== "function") return false;
  return doc.getAnimations().some((animation) => {
    // A keyframe effect's target (read by shape: the animation may be another frame's realm's).
    const target = animation.playState === "running" ? ((animation.effect as { target?: Element | null } | null)?.target ?? null) : null;
    return target !== null && (target === el || target.contains(el));
  });
}

/** Whether `el`'s box changed from now to the next animation frame (a late one, where an animation may move it). */
async function moves(el: Element, signal?: AbortSignal): Promise<boolean> {
  if (stillForSure(el)) return false;
  const before = el.getBoundingClientRect();
  const win = windowOf(el);
  if (!(await nextFrame(win, signal)) && animated(el)) await nextFrame(win, signal, LATE_FRAME_LIMIT_MS);
  return !sameBox(before, el.getBoundingClientRect());
}

/**
 * The command's element once it can take the action `needs` say, within the command's wait (the
 * request's implicit wait, or `options.timeoutMs`); fails with what did not hold at the end.
 */
export async function waitForActionable(context: CommandContext, needs: Needs, options: WaitOptions = {}): Promise<Element> {
  const usable = options.usable ?? (needs.visible ? isDisplayed : undefined);
  if (context.request.actionWaits === false) return waitForElement(context, { ...options, usable });
  const condition = actionCondition(needs, options.condition);
  const target = options.target ?? context.request.target;
  const deadline = Date.now() + clampWait(options.timeoutMs ?? context.request.implicitWaitMs);
  for (;;) {
    const el = await waitForElement(context, { ...options, condition, usable, timeoutMs: Math.max(0, deadline - Date.now()) });
    if (!needs.stable) return el;
    const moving = await moves(el, context.signal);
    if (!moving && el.isConnected && condition.holds(el)) return el;
    if (Date.now() >= deadline) throw new CommandFailure(moving ? stillMoving(target) : el.isConnected ? condition.why(el, target) : `Element ${target} not found`);
  }
}
