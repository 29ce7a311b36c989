// The whole way to a command's element (CONTRACT section 18): its `target`, then each of its
// `targets`, then relocation by similarity over its fingerprint. A locator's match counts only
// when it still resembles the fingerprint: at once when its score is SURE_SCORE or more, else
// when no element of the page resembles the fingerprint clearly more (by the margin for a
// locator that names the element, by a hair for a positional one: a positional locator that
// now finds the neighbour that took the place does not count, and the next one is tried). A
// locator whose only matches are hidden, when the recorded element was shown, does not count
// either; with `usable` (a command that needs its element seen), a locator's first usable match
// is its match, and only usable elements are relocated to. What the player calls when it looks
// for a command's element. DOM-only.
import { findElements, parseLocator } from "../locators/index.ts";
import { fingerprintOf } from "./fingerprint.ts";
import type { Fingerprint } from "./fingerprint.ts";
import { actionable, DEFAULT_MARGIN, DEFAULT_THRESHOLD, elementsOf, rank, relocate } from "./relocate.ts";
import type { Candidate, NamedCandidate, RelocateOptions } from "./relocate.ts";
import { similarity, WEIGHTS } from "./score.ts";

/** A match that scores this much is taken without ranking the page. */
export const SURE_SCORE = 0.97;
/** A positional locator's match this close to the page's best counts as the best (identical twins cannot be told apart). */
const TIE = 0.005;

export interface HealRequest {
  target: string;
  targets?: readonly string[];
  fingerprint?: Fingerprint;
}

export type HealResult =
  | {
      found: true;
      element: Element;
      /** The locator that found it; for a relocation, one that finds it now. */
      locator: string;
      /** 1 for a locator (CONTRACT: a `targets` entry's score is 1), the similarity for a relocation. */
      score: number;
      via: "target" | "targets" | "relocation";
    }
  | { found: false; candidates: NamedCandidate[]; why: "nothing" | "below threshold" | "too close" | "no fingerprint" };

/** The command's element now: by its locators in order, each checked against the fingerprint, then by relocation. */
export function heal(doc: Document, request: HealRequest, options: RelocateOptions = {}): HealResult {
  const { fingerprint } = request;
  const { weights = WEIGHTS, threshold = DEFAULT_THRESHOLD, margin = DEFAULT_MARGIN, usable, strategies } = options;
  const locators = [request.target, ...(request.targets ?? []).filter((t) => t !== request.target)];
  let ranked: Candidate[] | undefined;
  for (const [index, locator] of locators.entries()) {
    const el = firstMatch(doc, locator, usable ?? (fingerprint ? (el) => actionable(doc, fingerprint, el) : undefined));
    if (!el) continue;
    const via = index === 0 ? "target" : "targets";
    if (!fingerprint) return { found: true, element: el, locator, score: 1, via };
    if (similarity(fingerprint, fingerprintOf(el), weights) >= SURE_SCORE) return { found: true, element: el, locator, score: 1, via };
    ranked ??= rank(doc, fingerprint, usable ? elementsOf(doc).filter(usable) : elementsOf(doc), weights);
    const best = ranked[0];
    const score = ranked.find((c) => c.element === el)?.score ?? 0; // scored as the others were, rarity included
    const slack = positional(locator) ? TIE : margin;
    if (!best || best.element === el || (score >= threshold && score >= best.score - slack)) return { found: true, element: el, locator, score: 1, via };
  }
  if (!fingerprint) return { found: false, candidates: [], why: "no fingerprint" };
  const relocation = relocate(doc, fingerprint, { threshold, margin, weights, usable, strategies }, ranked);
  if (relocation.found) return { found: true, element: relocation.element, locator: relocation.locator, score: relocation.score, via: "relocation" };
  return { found: false, candidates: relocation.candidates, why: relocation.why };
}

/** A locator that picks by place (`:nth-of-type(3)`, `[2]`): its match may be a neighbour that took the place. */
const positional = (locator: string) => /:nth-(?:of-type|child|last-child|last-of-type)\(|\[\d+\]/.test(locator);

/**
 * The first element `locator` finds now that `usable` holds for (the first at all without it);
 * none for no such match or a locator the page cannot evaluate.
 */
function firstMatch(doc: Document, locator: string, usable: ((el: Element) => boolean) | undefined): Element | undefined {
  let matches: Element[];
  try {
    matches = findElements(doc, parseLocator(locator));
  } catch {
    return undefined;
  }
  return usable ? matches.find(usable) : matches[0];
}
