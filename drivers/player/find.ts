// Finding and waiting: Selenium's implicit wait inside the page. An element is looked for by
// the command's `target`, then by each of its alternative `targets` in order, every POLL_MS
// until the wait is over; the run's `signal` ends a wait at once. The locators are the
// project's own (services/locators/): the same strategies and messages as everywhere else.
// A match that no longer resembles the command's fingerprint (a positional locator now on a
// neighbour) does not count, the target's included. When none of them finds anything within the
// wait and the command keeps its element's fingerprint, the element is relocated by similarity (services/healing/, CONTRACT section 18):
// the best candidate is used only when it clears the threshold and the margin, and the command
// says it healed; otherwise it fails naming the nearest candidates with their scores.
// A command that acts on what a person sees (a click, typing) gives `usable`: a locator's first
// usable match is its match, and a locator whose matches are all hidden is waited on, as the
// element it found may yet be shown; once the wait is over it does not count as found, and the
// next locator, then relocation, is tried (CONTRACT section 18). Other commands take the first match.
import { findElement, findElements, LocatorError, parseLocator } from "../../services/locators/index.ts";
import type { ParsedLocator } from "../../services/locators/index.ts";
import { CommandAborted, CommandFailure } from "./errors.ts";
import type { CommandContext } from "./types.ts";
import { messageOf } from "../../services/errors.ts";
import { fingerprintOf, heal, refusalMessage, similarity, SURE_SCORE, WEIGHTS } from "../../services/healing/index.ts";
import type { Fingerprint } from "../../services/healing/index.ts";

export const POLL_MS = 50;
/** No wait in the page lasts longer than this, whatever a command's value asks. */
export const MAX_WAIT_MS = 300_000;

/** A wait, in ms, clamped to 0..MAX_WAIT_MS (a negative one, or NaN, is 0). */
export const clampWait = (ms: number): number => (ms > 0 ? Math.min(ms, MAX_WAIT_MS) : 0);

/** The parsed locator, or a failure saying why it is not one (an empty one too). */
export function parseTarget(location: string, what = "locator"): ParsedLocator {
  if (location.trim() === "") throw new CommandFailure(`The ${what} is empty; give a locator such as id=name, css=... or //xpath.`);
  try {
    return parseLocator(location);
  } catch (error) {
    throw new CommandFailure(messageOf(error));
  }
}

/** Every element `location` matches now (no wait); an invalid locator fails. */
export function matchesOf(doc: Document, location: ParsedLocator): Element[] {
  try {
    return findElements(doc, location);
  } catch (error) {
    throw new CommandFailure(messageOf(error));
  }
}

/** What the locators found: `match`, the element and which locator; `hidden`, the first match of a locator whose matches were none of them usable. */
interface Scan {
  match?: { el: Element; index: number };
  hidden?: Element;
}

/**
 * The locators tried in order: a locator's match is its first element (its first usable one
 * when `usable` is given). A locator whose matches are all unusable ends the scan (`hidden`),
 * unless `passOverHidden`, when the next is tried. The first locator's engine errors fail.
 */
function scan(doc: Document, locators: ParsedLocator[], usable?: (el: Element) => boolean, passOverHidden = false): Scan {
  let hidden: Element | undefined;
  for (const [index, locator] of locators.entries()) {
    let matches: Element[];
    try {
      // The first match is all most commands look at; all of them only when it is not usable.
      const first = findElement(doc, locator);
      matches = !usable || usable(first) ? [first] : findElements(doc, locator);
    } catch (error) {
      if (error instanceof LocatorError && error.errorCode === "ElementNotFound") continue;
      // An alternative the page's engine rejects is skipped; the command's own target is reported.
      if (index === 0) throw new CommandFailure(messageOf(error));
      continue;
    }
    if (matches.length === 0) continue;
    const el = usable ? matches.find(usable) : matches[0];
    if (el) return { match: { el, index }, hidden };
    hidden ??= matches[0];
    if (!passOverHidden) return { hidden };
  }
  return { hidden };
}

/** The request's fingerprint when it has the shape relocation reads (the .side file is the user's), else null. */
function recordedFingerprint(value: unknown): Fingerprint | null {
  if (typeof value !== "object" || value === null) return null;
  const fp = value as Partial<Fingerprint>;
  const box = fp.box as Partial<Fingerprint["box"]> | undefined;
  const shaped =
    typeof fp.tag === "string" && fp.tag !== "" && Array.isArray(fp.classes) && typeof fp.xpath === "string" && typeof fp.index === "number" &&
    typeof box === "object" && box !== null && ["x", "y", "width", "height"].every((k) => typeof (box as Record<string, unknown>)[k] === "number");
  return shaped ? (value as Fingerprint) : null;
}

/** Resolves after `ms`, or rejects with CommandAborted when `signal` aborts first. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CommandAborted());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CommandAborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Calls `check` at once and every POLL_MS until it gives something or `timeoutMs` is over (then undefined). */
export async function poll<T>(timeoutMs: number, signal: AbortSignal | undefined, check: () => T | undefined): Promise<T | undefined> {
  const deadline = Date.now() + clampWait(timeoutMs);
  for (;;) {
    if (signal?.aborted) throw new CommandAborted();
    const result = check();
    if (result !== undefined) return result;
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    await pause(Math.min(POLL_MS, left), signal);
  }
}

/** A state the element must reach too (displayed, editable...): `why` says what is wrong when it does not. */
export interface ElementCondition {
  holds(el: Element): boolean;
  why(el: Element, target: string): string;
}

export interface WaitOptions {
  /** Whether the alternative `targets` are tried (Selenium's negative waits use the target alone). */
  alternatives?: boolean;
  /** The wait; the request's implicit wait when left out. */
  timeoutMs?: number;
  condition?: ElementCondition;
  /** The message when nothing is found; Selenium's "Element X not found" when left out. */
  notFound?: (target: string) => string;
  /** The locator to use instead of the request's target (storeAttribute's element part). */
  target?: string;
  /**
   * What a match must be for the command to act on it (displayed, for a click): a locator's first
   * such match is its match, and one with none counts as not found once the wait is over.
   */
  usable?: (el: Element) => boolean;
}

/** The command's element, waited for; fails with Selenium's "Element X not found" or the condition's reason. */
export async function waitForElement(context: CommandContext, options: WaitOptions = {}): Promise<Element> {
  const { win, request, signal } = context;
  const target = options.target ?? request.target;
  const locators = [parseTarget(target)];
  const written = [target];
  if (options.alternatives !== false && options.target === undefined) {
    for (const alternative of request.targets) {
      if (alternative === target) continue;
      try {
        locators.push(parseLocator(alternative));
        written.push(alternative);
      } catch {
        // an alternative that is no locator is not one to try
      }
    }
  }
  const { usable, condition } = options;
  let seen: Element | undefined;
  let hidden: Element | undefined;
  const found = await poll(options.timeoutMs ?? request.implicitWaitMs, signal, () => {
    // A locator whose matches are all hidden holds the wait: what it found may be shown yet.
    const now = scan(win.document, locators, usable);
    hidden = now.hidden;
    if (!now.match) return undefined;
    seen = now.match.el;
    return !condition || condition.holds(now.match.el) ? now.match : undefined;
  });
  const fingerprint = options.target === undefined && options.alternatives !== false && (found || !seen) ? recordedFingerprint(request.fingerprint) : null;
  // The target's match counts at once when it plainly is the recorded element (or nothing was
  // recorded of it); else heal() judges it as it judges `targets` (CONTRACT section 18).
  if (found?.index === 0 && (!fingerprint || similarity(fingerprint, fingerprintOf(found.el), WEIGHTS) >= SURE_SCORE)) return found.el;
  if (found && !fingerprint) {
    // Found by one of `targets`, not by the target: the command is healed (CONTRACT section 18).
    context.healed = { locator: written[found.index], score: 1 };
    return found.el;
  }
  if (fingerprint) {
    // `targets` whose match no longer resembles the recorded element (a positional locator now
    // on its neighbour) do not count; then relocation by similarity.
    const healed = heal(win.document, { target, targets: written.slice(1), fingerprint }, { usable, strategies: request.strategies });
    if (!healed.found) {
      const refusal = refusalMessage({ found: false, why: healed.why === "no fingerprint" ? "nothing" : healed.why, candidates: healed.candidates });
      throw new CommandFailure(`${hidden && condition ? condition.why(hidden, target) : `Element ${target} not found`}. ${refusal}`);
    }
    if (condition && !condition.holds(healed.element)) throw new CommandFailure(condition.why(healed.element, healed.locator));
    if (healed.via !== "target") context.healed = { locator: healed.locator, score: healed.score, fingerprint: fingerprintOf(healed.element) };
    return healed.element;
  }
  if (hidden && !found && !seen) {
    // The wait is over and each locator that found something found only hidden elements: the
    // first locator with a usable match is the element (no fingerprint to judge it by, as v3).
    const { match } = scan(win.document, locators, usable, true);
    if (match && (!condition || condition.holds(match.el))) {
      if (match.index > 0) context.healed = { locator: written[match.index], score: 1 };
      return match.el;
    }
    if (condition) throw new CommandFailure(condition.why(match?.el ?? hidden, match ? written[match.index] : target));
  }
  if (seen?.isConnected && condition) throw new CommandFailure(condition.why(seen, target));
  throw new CommandFailure(options.notFound ? options.notFound(target) : `Element ${target} not found`);
}
