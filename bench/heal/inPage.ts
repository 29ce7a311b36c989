// The heal benchmark's code inside the page under test (bundled by bench/heal.ts): it takes
// the marks off the elements to find (so the builders and the fingerprint never see them),
// records an element as the recorder does, changes the page by one mutation, and plays the
// recorded locators three ways, and once more as the player looks for a click's element. Mutations are deterministic: the same page and mutation give
// the same changed page.
import { buildTargets } from "../../services/locators/builders.ts";
import { findElement, parseLocator } from "../../services/locators/index.ts";
import { fingerprintOf, heal } from "../../services/healing/index.ts";
import { waitForActionable } from "../../drivers/player/actionable.ts";
import type { Fingerprint, RelocateOptions } from "../../services/healing/index.ts";
import { MUTATIONS } from "./mutations.ts";
import type { MutationName } from "./mutations.ts";
import { allElements, keyOf, KEY_ATTRIBUTE, setKey } from "./marks.ts";

export interface Recorded {
  key: string;
  target: string;
  targets: string[];
  fingerprint: Fingerprint;
}

export type Outcome = "correct" | "wrong" | "not found";

export interface Played {
  primary: Outcome;
  fallback: Outcome;
  healing: Outcome;
  /** The player's own search for a click's element (drivers/player/): its locators, heal(), what it needs of the element. */
  player: Outcome;
  /** How healing found it (target, targets, relocation) or why it did not. */
  via: string;
  score: number | null;
  /** How long heal() took in the page, in ms. */
  ms: number;
}

/** Takes the marks off the page's elements, keeping them out of sight; the keys found. */
export function prepare(): string[] {
  const keys: string[] = [];
  for (const el of allElements(document)) {
    const key = el.getAttribute(KEY_ATTRIBUTE);
    if (key === null) continue;
    el.removeAttribute(KEY_ATTRIBUTE);
    setKey(el, key);
    keys.push(key);
  }
  return keys;
}

const byKey = (key: string) => {
  const el = allElements(document).find((e) => keyOf(e) === key);
  if (!el) throw new Error(`No element has the key ${key}.`);
  return el;
};

/** What the recorder keeps for the element `key`: its target, all its targets, its fingerprint. */
export function record(key: string): Recorded {
  const el = byKey(key);
  const pairs = buildTargets(el);
  if (pairs.length === 0) throw new Error(`No builder gave a locator for ${key}.`);
  return { key, target: pairs[0][0], targets: pairs.map(([locator]) => locator), fingerprint: fingerprintOf(el) };
}

/** Applies one mutation for the element `key`; false when it changes nothing for it (the pair is not counted). */
export function mutate(name: MutationName, key: string): boolean {
  return MUTATIONS[name](document, byKey(key));
}

function outcome(el: Element | undefined, key: string): Outcome {
  if (!el) return "not found";
  return keyOf(el) === key ? "correct" : "wrong";
}

function first(locators: readonly string[]): Element | undefined {
  for (const locator of locators) {
    try {
      return findElement(document, parseLocator(locator));
    } catch {
      // not found, or an engine error: the next one
    }
  }
  return undefined;
}

/**
 * The element the player would click: its element wait (find.ts) with what a click needs of the
 * element to be seen (actionable.ts), the wait 0 (the page does not change any more).
 */
async function playerClick(recorded: Recorded): Promise<Element | undefined> {
  const request = { command: "click", target: recorded.target, value: "", targets: recorded.targets, implicitWaitMs: 0, fingerprint: recorded.fingerprint };
  try {
    return await waitForActionable({ win: window, request }, { visible: true });
  } catch {
    return undefined;
  }
}

/** The recorded element looked for four ways in the page as it is now. */
export async function play(recorded: Recorded, options: RelocateOptions = {}): Promise<Played> {
  const t0 = performance.now();
  const healed = heal(document, recorded, options);
  const ms = performance.now() - t0;
  return {
    primary: outcome(first([recorded.target]), recorded.key),
    fallback: outcome(first([recorded.target, ...recorded.targets]), recorded.key),
    healing: outcome(healed.found ? healed.element : undefined, recorded.key),
    player: outcome(await playerClick(recorded), recorded.key),
    via: healed.found ? healed.via : healed.why,
    score: healed.found ? healed.score : (healed.candidates[0]?.score ?? null),
    ms,
  };
}
