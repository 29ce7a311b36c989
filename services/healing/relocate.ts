// Relocation by similarity (CONTRACT section 18): every element of the page, open shadow roots
// included, is scored against a recorded fingerprint (score.ts); the best is taken only when
// its score clears a threshold and beats the runner-up by a margin, else the three nearest are
// named. Elements of the recorded one's kind (clickable, field, image, else the same tag) are
// scored first; the rest of the page only when they decide nothing. Each candidate is given as
// a locator the project's resolver plays: the recorder's first target for it (the builders'
// locators are checked to find it first), else a unique CSS selector. DOM-only.
import { finder } from "@medv/finder";
import { buildTargets, findsFirst } from "../locators/builders.ts";
import { shadowCssSteps } from "../locators/shadowSteps.ts";
import type { StrategyDeclaration } from "../locators/templates.ts";
import { fingerprintOf } from "./fingerprint.ts";
import type { Fingerprint } from "./fingerprint.ts";
import { rarityIn, similarity, WEIGHTS } from "./score.ts";
import { withPageCache } from "./text.ts";
import type { Weights } from "./score.ts";

export interface RelocateOptions {
  /** The least score a relocated element has, 0..1. */
  threshold?: number;
  /** How far the best must be ahead of the runner-up. */
  margin?: number;
  weights?: Weights;
  /**
   * Only elements it holds for are candidates, and a locator's first such match is its match: a
   * command that acts on what a person sees passes "displayed", so a hidden copy of the element
   * (a closed menu's, a template's) is neither taken nor a runner-up that makes a tie.
   */
  usable?: (el: Element) => boolean;
  /** The run's declared locator strategies (CONTRACT section 23): a relocated element's new locator may be one, as the recorder would build it. */
  strategies?: readonly StrategyDeclaration[];
}

export const DEFAULT_THRESHOLD = 0.6;
export const DEFAULT_MARGIN = 0.08;

export interface Candidate {
  element: Element;
  score: number;
}

export interface NamedCandidate {
  /** A locator that finds this element first, in the project's syntax. */
  locator: string;
  score: number;
}

export type Relocation =
  | { found: true; element: Element; locator: string; score: number; candidates: NamedCandidate[] }
  | { found: false; why: "nothing" | "below threshold" | "too close"; candidates: NamedCandidate[] };

const SKIPPED = new Set(["html", "head", "meta", "link", "script", "style", "title", "noscript", "template", "base", "br", "wbr"]);
const CLICKABLE_INPUTS = new Set(["button", "submit", "reset", "image"]);
const CLICKABLE_ROLES = new Set(["button", "link", "menuitem", "tab", "option", "checkbox", "radio", "switch"]);

/** What kind of element a person sees: clickable, a field, an image, else its tag. */
export function kindOf(tag: string, type: string | undefined, role: string | undefined): string {
  if (tag === "a" || tag === "button" || tag === "summary" || (tag === "input" && CLICKABLE_INPUTS.has(type ?? ""))) return "clickable";
  if (tag === "input" || tag === "textarea" || tag === "select") return "field";
  if (role && CLICKABLE_ROLES.has(role)) return "clickable";
  if (tag === "img" || tag === "svg" || tag === "picture" || tag === "canvas") return "image";
  return `tag:${tag}`;
}

const kindOfFingerprint = (fp: Fingerprint) => kindOf(fp.tag, fp.type, fp.role);

/** Every element of `doc` and of the open shadow roots inside it, in document order, but those never acted on. */
export function elementsOf(doc: Document): Element[] {
  const found: Element[] = [];
  const walk = (root: Document | ShadowRoot) => {
    for (const el of Array.from(root.querySelectorAll("*"))) {
      if (!SKIPPED.has(el.localName)) found.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(doc);
  return found;
}

/** True when the page lays elements out (a browser); jsdom does not. */
const hasLayout = (doc: Document) => (doc.documentElement?.getBoundingClientRect().width ?? 0) > 0;
const rendered = (el: Element) => el.getClientRects().length > 0;

/** False for an element that is not rendered when the recorded one was (in a page with layout); else true. */
export function actionable(doc: Document, fingerprint: Fingerprint, el: Element): boolean {
  if (!(fingerprint.box.width > 0 && hasLayout(doc))) return true;
  return rendered(el) && doc.defaultView?.getComputedStyle(el).visibility !== "hidden";
}

/** Every candidate scored against `fingerprint`, best first (rendered ones only, in a page with layout and a recorded box). */
export function rank(doc: Document, fingerprint: Fingerprint, elements: Element[], weights: Weights = WEIGHTS): Candidate[] {
  return withPageCache(() => rankNow(doc, fingerprint, elements, weights));
}

function rankNow(doc: Document, fingerprint: Fingerprint, elements: Element[], weights: Weights): Candidate[] {
  const layout = fingerprint.box.width > 0 && hasLayout(doc);
  const shown = layout ? elements.filter(rendered) : elements;
  const fingerprints = shown.map(fingerprintOf);
  const rarity = rarityIn(fingerprints);
  return shown
    .map((element, i) => ({ element, score: similarity(fingerprint, fingerprints[i], weights, rarity) }))
    .sort((a, b) => b.score - a.score);
}

/**
 * The element of `doc` that resembles `fingerprint` best, when it is both close enough and
 * clearly ahead. `rankedPage`, when given, is rank() over every element of `doc` as it is now
 * (heal() has it already), so nothing is scored twice.
 */
export function relocate(doc: Document, fingerprint: Fingerprint, options: RelocateOptions = {}, rankedPage?: Candidate[]): Relocation {
  const { threshold = DEFAULT_THRESHOLD, margin = DEFAULT_MARGIN, weights = WEIGHTS, usable, strategies } = options;
  const kind = kindOfFingerprint(fingerprint);
  const sameKind = (el: Element) => {
    const type = el.getAttribute("type")?.toLowerCase();
    return kindOf(el.localName, type, roleLike(el)) === kind;
  };
  const all = rankedPage ? [] : usable ? elementsOf(doc).filter(usable) : elementsOf(doc);
  const first = rankedPage ? rankedPage.filter((c) => sameKind(c.element)) : rank(doc, fingerprint, all.filter(sameKind), weights);
  let ranked = first;
  let decision = decide(first, threshold, margin);
  if (!decision.found) {
    ranked = rankedPage ?? [...first, ...rank(doc, fingerprint, all.filter((el) => !sameKind(el)), weights)].sort((a, b) => b.score - a.score);
    decision = decide(ranked, threshold, margin);
  }
  const candidates = ranked.slice(0, 3).map((candidate) => named(candidate, strategies));
  if (decision.found) {
    const best = ranked[0];
    return { found: true, element: best.element, locator: candidates[0].locator, score: round(best.score), candidates };
  }
  return { found: false, why: decision.why, candidates };
}

function decide(ranked: Candidate[], threshold: number, margin: number): { found: true } | { found: false; why: "nothing" | "below threshold" | "too close" } {
  const [best, second] = ranked;
  if (!best) return { found: false, why: "nothing" };
  if (best.score < threshold) return { found: false, why: "below threshold" };
  if (second && best.score - second.score < margin) return { found: false, why: "too close" };
  return { found: true };
}

// The role attribute only: the implicit roles are the tags kindOf already reads.
const roleLike = (el: Element) => el.getAttribute("role")?.trim().split(/\s+/)[0]?.toLowerCase();

const round = (score: number) => Math.round(score * 1000) / 1000;

function named({ element, score }: Candidate, strategies?: readonly StrategyDeclaration[]): NamedCandidate {
  let locator: string;
  try {
    locator = locatorFor(element, strategies);
  } catch {
    locator = `xpath=${fingerprintOf(element).xpath}`; // shown in a message; no unique locator exists
  }
  return { locator, score: round(score) };
}

/** A locator that finds `el` first: the recorder's first target for it (a declared strategy's among them), else a unique CSS selector (through shadow roots). */
export function locatorFor(el: Element, strategies?: readonly StrategyDeclaration[]): string {
  const first = buildTargets(el, { strategies })[0];
  if (first) return first[0];
  const steps = shadowCssSteps(el);
  const css = steps ? `css=${steps.selectors.join(" >>> ")}` : `css=${finder(el, { root: el.ownerDocument as unknown as Element })}`;
  if (findsFirst(el, css)) return css;
  throw new Error(`No locator finds the <${el.localName}> element first.`);
}

/** "css=... (0.71), id=... (0.66)": the candidates for a message. */
export function describeCandidates(candidates: readonly NamedCandidate[]): string {
  return candidates.length === 0 ? "no element to compare" : candidates.map((c) => `${c.locator} (${c.score.toFixed(2)})`).join(", ");
}

/** Why a relocation found nothing, naming the nearest candidates. */
export function refusalMessage(relocation: Extract<Relocation, { found: false }>, threshold = DEFAULT_THRESHOLD, margin = DEFAULT_MARGIN): string {
  const nearest = `nearest: ${describeCandidates(relocation.candidates)}`;
  switch (relocation.why) {
    case "nothing":
      return "No element in the page to relocate to.";
    case "below threshold":
      return `No element resembles the recorded one closely enough (score ${threshold} needed); ${nearest}.`;
    case "too close":
      return `More than one element resembles the recorded one (the best is not ${margin} ahead of the next); ${nearest}.`;
  }
}
