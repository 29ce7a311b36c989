// How much a candidate element resembles a fingerprint, 0..1: a weighted sum of per-attribute
// similarities (the Similo family: Nass et al., ACM TOSEM 2023) over the attributes the
// fingerprint has, divided by their weights. Attributes a developer rarely changes and a
// person reads (tag, test ids, id, name, text, label, the text around it) weigh most, as in
// Similo; the layout (path, place, size, classes) weighs least, since a restyle moves it all.
// The weights were tuned on `npm run bench -- --only heal` (docs/healing.md).
import type { Fingerprint } from "./fingerprint.ts";
import {
  editSimilarity, exact, identifierSimilarity, indexSimilarity, locationSimilarity, pathSimilarity, setJaccard, sizeSimilarity, textSimilarity,
  weightedWordJaccard, wordJaccard, wordsOf,
} from "./similarity.ts";

export const WEIGHTS = {
  tag: 1.5,
  testIds: 2,
  id: 1.5,
  name: 1.5,
  text: 1.5,
  label: 1.5,
  aria: 1.5,
  accessibleName: 1,
  role: 1,
  type: 1,
  placeholder: 1,
  value: 1,
  neighbourText: 1.5,
  contextText: 2,
  classes: 0.5,
  href: 0.5,
  src: 0.5,
  alt: 0.5,
  title: 0.5,
  xpath: 0.5,
  index: 0.25,
  location: 0.5,
  size: 0.5,
} as const;

export type Weights = { [K in keyof typeof WEIGHTS]: number };

/** Centres this far apart (CSS pixels) are as far as location can tell. */
export const LOCATION_SCALE = 400;

const IDENTIFIER_FIELDS = ["id", "name", "value"] as const;
const STRING_FIELDS = ["label", "accessibleName", "placeholder", "href", "src", "alt", "title"] as const;

/**
 * How much `candidate` resembles `recorded`, 0..1; the fingerprint's own empty attributes do
 * not count. `rarity`, when the whole page is being ranked, weighs the words of the surrounding
 * texts by how rare they are among the candidates' (see rarityIn).
 */
export function similarity(recorded: Fingerprint, candidate: Fingerprint, weights: Weights = WEIGHTS, rarity?: (word: string) => number): number {
  const around = (a: string, b: string) => (rarity ? weightedWordJaccard(a, b, rarity) : wordJaccard(a, b));
  let sum = 0;
  let total = 0;
  const add = (weight: number, value: number) => {
    sum += weight * value;
    total += weight;
  };
  add(weights.tag, exact(recorded.tag, candidate.tag));
  for (const field of IDENTIFIER_FIELDS) {
    const value = recorded[field];
    if (value) add(weights[field], candidate[field] ? identifierSimilarity(value, candidate[field]!) : 0);
  }
  for (const field of STRING_FIELDS) {
    const value = recorded[field];
    if (value) add(weights[field], candidate[field] ? editSimilarity(value, candidate[field]!) : 0);
  }
  if (recorded.text) add(weights.text, candidate.text ? textSimilarity(recorded.text, candidate.text) : 0);
  if (recorded.role) add(weights.role, candidate.role ? exact(recorded.role, candidate.role) : 0);
  if (recorded.type) add(weights.type, candidate.type ? exact(recorded.type, candidate.type) : 0);
  if (recorded.testIds) add(weights.testIds, byName(recorded.testIds, candidate.testIds, exact));
  if (recorded.aria) add(weights.aria, byName(recorded.aria, candidate.aria, editSimilarity));
  if (recorded.neighbourText) {
    add(weights.neighbourText, candidate.neighbourText ? around(recorded.neighbourText, candidate.neighbourText) : 0);
  }
  if (recorded.contextText) {
    const text = candidate.contextText ?? candidate.neighbourText; // its near text may already be as wide
    add(weights.contextText, text ? around(recorded.contextText, text) : 0);
  }
  if (recorded.classes.length > 0) add(weights.classes, setJaccard(new Set(recorded.classes), new Set(candidate.classes)));
  add(weights.xpath, pathSimilarity(recorded.xpath, candidate.xpath));
  add(weights.index, indexSimilarity(recorded.index, candidate.index));
  const { box } = recorded;
  if (box.width > 0 && box.height > 0) {
    add(weights.location, locationSimilarity(box, candidate.box, LOCATION_SCALE));
    add(weights.size, sizeSimilarity(box, candidate.box));
  }
  return total === 0 ? 0 : sum / total;
}

/** The mean over the recorded names of how each compares with the candidate's value of that name. */
function byName(
  recorded: Record<string, string>,
  candidate: Record<string, string> | undefined,
  compare: (a: string, b: string) => number,
): number {
  const names = Object.keys(recorded);
  let sum = 0;
  for (const name of names) {
    const other = candidate?.[name];
    if (other) sum += compare(recorded[name], other);
  }
  return names.length === 0 ? 0 : sum / names.length;
}

/**
 * How rare each word is in the candidates' surrounding texts: log(1 + N / (1 + the number of
 * candidates whose surroundings have it)), an inverse document frequency.
 */
export function rarityIn(candidates: readonly Fingerprint[]): (word: string) => number {
  const counts = new Map<string, number>();
  for (const fp of candidates) {
    for (const word of wordsOf(`${fp.neighbourText ?? ""} ${fp.contextText ?? ""}`)) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const n = candidates.length;
  return (word) => Math.log(1 + n / (1 + (counts.get(word) ?? 0)));
}
