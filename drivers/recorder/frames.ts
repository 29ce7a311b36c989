// The frame elements a recorded command's frame path goes through (CONTRACT section 19):
// selectFrame plays best by a locator of the frame element when it has a stable one, so the
// recorder tells, for each level of its frame path, the first of the frame element's
// test-id, css:data-attr, id and name locators that finds it and nothing else in its parent's document,
// or null where there is none or the parent is out of reach (another origin: frameElement is null).
import { buildTargets } from "../../services/locators/builders.ts";
import type { LocatorPair } from "../../services/locators/builders.ts";
import { findElements } from "../../services/locators/find.ts";
import { parseLocator } from "../../services/locators/parse.ts";

/** The builders whose locators name a frame element by what the page gave it, not by where it is. */
const STABLE: ReadonlySet<string> = new Set(["css:testId", "css:data-attr", "id", "name"]);

/** The frame element's stable locator that finds it alone (a duplicate id gives none), or null. */
export function frameElementLocator(frame: Element | null): LocatorPair | null {
  if (!frame) return null;
  const unique = ([locator]: LocatorPair) => {
    try {
      return findElements(frame.ownerDocument, parseLocator(locator)).length === 1;
    } catch {
      return false;
    }
  };
  return buildTargets(frame).find((pair) => STABLE.has(pair[1]) && unique(pair)) ?? null;
}

/**
 * For each of the `depth` levels above `win` (the frame path's length), from the top: the
 * locator of the frame element holding that level's window in its parent, or null.
 */
export function frameLocators(win: Window, depth: number): Array<LocatorPair | null> {
  const locators: Array<LocatorPair | null> = [];
  let current: Window | null = win;
  for (let level = 0; level < depth; level++) {
    let locator: LocatorPair | null = null;
    try {
      locator = frameElementLocator(current?.frameElement ?? null);
      current = current === null || current.parent === current ? null : current.parent;
    } catch {
      current = null; // an ancestor of another origin: its frame element is out of reach
    }
    locators.unshift(locator);
  }
  return locators;
}
