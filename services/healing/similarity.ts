// The comparisons relocation scores with (the Similo family): exact match, normalised edit
// distance, word-set Jaccard, steps of a path, and boxes by distance. Each gives 0..1.
import type { Box } from "./fingerprint.ts";

/** Longer strings are compared by their first this many characters (edit distance is quadratic). */
const EDIT_LIMIT = 64;

export const exact = (a: string, b: string): number => (a === b ? 1 : 0);

/** Edit distance between two sequences (strings or arrays of steps). */
export function editDistance<T>(a: ArrayLike<T>, b: ArrayLike<T>): number {
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = new Array<number>(b.length + 1);
  let current = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length];
}

/** 1 - edit distance / the longer length, case-insensitive; 1 for equal strings. */
export function editSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const x = a.toLowerCase().slice(0, EDIT_LIMIT);
  const y = b.toLowerCase().slice(0, EDIT_LIMIT);
  const longest = Math.max(x.length, y.length);
  return longest === 0 ? 1 : 1 - editDistance(x, y) / longest;
}

export const wordsOf = (text: string): Set<string> => new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean));

/** |A ∩ B| / |A ∪ B| of the two texts' word sets (letters and digits, case-insensitive). */
export function wordJaccard(a: string, b: string): number {
  return setJaccard(wordsOf(a), wordsOf(b));
}

export function setJaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / (a.size + b.size - shared);
}

/** A text compared both ways: the better of edit similarity and word-set Jaccard (an edited word, or words moved). */
export const textSimilarity = (a: string, b: string): number => Math.max(editSimilarity(a, b), wordJaccard(a, b));

/** Two positional paths compared by their steps (`/html/body/div[2]` is three steps). */
export function pathSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const x = a.split("/").filter(Boolean);
  const y = b.split("/").filter(Boolean);
  return 1 - editDistance(x, y) / Math.max(x.length, y.length, 1);
}

/** Closeness of two boxes' centres: 1 at the same place, 0 at `scale` pixels or more apart. */
export function locationSimilarity(a: Box, b: Box, scale: number): number {
  const dx = a.x + a.width / 2 - (b.x + b.width / 2);
  const dy = a.y + a.height / 2 - (b.y + b.height / 2);
  return Math.max(0, 1 - Math.hypot(dx, dy) / scale);
}

/** Closeness of two boxes' sizes: the smaller area over the larger, times the narrower shape over the wider. */
export function sizeSimilarity(a: Box, b: Box): number {
  const areaA = a.width * a.height;
  const areaB = b.width * b.height;
  if (areaA === 0 || areaB === 0) return areaA === areaB ? 1 : 0;
  const area = Math.min(areaA, areaB) / Math.max(areaA, areaB);
  const shapeA = a.width / a.height;
  const shapeB = b.width / b.height;
  return Math.sqrt(area * (Math.min(shapeA, shapeB) / Math.max(shapeA, shapeB)));
}

/** A number's closeness: 1 when equal, 1/2 one apart, 1/3 two apart... */
export const indexSimilarity = (a: number, b: number): number => 1 / (1 + Math.abs(a - b));

/** The words of an identifier: `firstName`, `first-name` and `first_name` are all {first, name}. */
const identifierWords = (id: string): Set<string> =>
  new Set(id.replace(/([a-z\d])([A-Z])/g, "$1 $2").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean));

/** Ids and names: 1 when equal, else the Jaccard of their words (a renamed `submit-login` is `login-submit`; `firstName` is not `lastName`). */
export const identifierSimilarity = (a: string, b: string): number => (a === b ? 1 : setJaccard(identifierWords(a), identifierWords(b)));

/**
 * The Jaccard of two texts' word sets with each word weighed by `weigh` (how rare it is in the
 * page): words every row shares ("Edit", "example.com") count little, a row's own name much.
 */
export function weightedWordJaccard(a: string, b: string, weigh: (word: string) => number): number {
  const x = wordsOf(a);
  const y = wordsOf(b);
  if (x.size === 0 && y.size === 0) return 1;
  let shared = 0;
  let all = 0;
  for (const word of x) {
    const w = weigh(word);
    all += w;
    if (y.has(word)) shared += w;
  }
  for (const word of y) if (!x.has(word)) all += weigh(word);
  return all === 0 ? 1 : shared / all;
}
