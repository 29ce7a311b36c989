// Finding and waiting: Selenium's implicit wait inside the page. An element is looked for by
// the command's `target`, then by each of its alternative `targets` in order, every POLL_MS
// until the wait is over; the run's `signal` ends a wait at once. The locators are the
// project's own (services/locators/): the same strategies and messages as everywhere else.
// A match that no longer resembles the command's fingerprint (a positional locator now on a
// neighbour) does not count, the target's included. When none of them finds anything within the
// wait and the command keeps its element's fingerprint, the element is relocated by similarity (services/healing/, CONTRACT section 18):
// the best candidate is used only when it clears the threshold and the margin, and the command
// says it healed; otherwise it fails naming the nearest candidates with their scores.
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

/** The first element the locators match now, trying them in order, and which locator found it; the first locator's engine errors fail. */
function firstMatch(doc: Document, locators: ParsedLocator[]): { el: Element; index: number } | undefined {
  for (const [index, locator] of locators.entries()) {
    try {
      return { el: findElement(doc, locator), index };
    } catch (error) {
      if (error instanceof LocatorError && error.errorCode === "ElementNotFound") continue;
      // An alternative the page's engine rejects is skipped; the command's own target is reported.
      if (index === 0) throw new CommandFailure(messageOf(error));
    }
  }
  return undefined;
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
  let seen: Element | undefined;
  const found = await poll(options.timeoutMs ?? request.implicitWaitMs, signal, () => {
    const match = firstMatch(win.document, locators);
    if (!match) return undefined;
    seen = match.el;
    return !options.condition || options.condition.holds(match.el) ? match : undefined;
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
    const healed = heal(win.document, { target, targets: written.slice(1), fingerprint });
    if (!healed.found) throw new CommandFailure(`Element ${target} not found. ${refusalMessage({ found: false, why: healed.why === "no fingerprint" ? "nothing" : healed.why, candidates: healed.candidates })}`);
    if (options.condition && !options.condition.holds(healed.element)) throw new CommandFailure(options.condition.why(healed.element, healed.locator));
    if (healed.via !== "target") context.healed = { locator: healed.locator, score: healed.score, fingerprint: fingerprintOf(healed.element) };
    return healed.element;
  }
  if (seen?.isConnected && options.condition) throw new CommandFailure(options.condition.why(seen, target));
  throw new CommandFailure(options.notFound ? options.notFound(target) : `Element ${target} not found`);
}
