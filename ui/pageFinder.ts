// "Find target in page" and the alternative locators' counts (CONTRACT section 21) as the page
// reads them: the IDE's answer (ide.findInPage: `{ count, shown }` or `{ error, errorCode }`),
// worded for the user. The finder reaches the page under test through the transport; App puts
// it in a context, with a key that changes when the page under test does (its URL, its title,
// a run starting or ending), so what shows counts can count again.
import { createContext } from "preact";

export type FindResult =
  | { ok: true; count: number; shown: boolean }
  | { ok: false; code: string | null; message: string };

export interface PageFinder {
  find(location: string, outline: boolean): Promise<FindResult>;
  /** Changes when the page under test may have changed. */
  pageKey: string;
  /** A run is playing: what counts by itself waits (its questions would sit between the run's commands). */
  busy: boolean;
}

export const PageFinderContext = createContext<PageFinder | null>(null);

/** ide.findInPage's answer, read for the page; anything else is an error the user can read. */
export function readFindReply(reply: unknown): FindResult {
  if (typeof reply === "object" && reply !== null) {
    const { count, shown, error, errorCode } = reply as Record<string, unknown>;
    if (typeof count === "number" && Number.isInteger(count) && count >= 0) return { ok: true, count, shown: shown === true };
    if (typeof error === "string") return { ok: false, code: typeof errorCode === "string" ? errorCode : null, message: error };
  }
  return { ok: false, code: null, message: "The IDE gave no count of the matches." };
}

/** The finder over a transport's `findInPage`, its failures to ask made answers too. */
export function pageFinder(ask: (location: string, outline: boolean) => Promise<unknown>, pageKey: string, busy = false): PageFinder {
  return {
    pageKey,
    busy,
    async find(location, outline) {
      try {
        return readFindReply(await ask(location, outline));
      } catch (error) {
        return { ok: false, code: null, message: `The page could not be asked: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}

/** What Find says: how many match, and what is outlined. */
export function findWording(result: FindResult): string {
  if (!result.ok) {
    if (result.code === "InvalidLocator") return `Not a locator: ${result.message}`;
    if (result.code === "NoPage") return `Nothing was outlined: ${result.message}`;
    return result.message;
  }
  const { count, shown } = result;
  if (count === 0) return "No element matches";
  const matches = count === 1 ? "1 element matches" : `${count} elements match`;
  if (!shown) return `${matches}, but ${count === 1 ? "it has" : "the first has"} no box on the page (hidden), so nothing is outlined`;
  return count === 1 ? `${matches}; it is outlined` : `${matches}; the first is outlined`;
}

/** An alternative's count, short, for the list. */
export function countWording(result: FindResult): string {
  if (!result.ok) return result.code === "InvalidLocator" ? "not a locator" : "not counted";
  return result.count === 1 ? "1 match" : `${result.count} matches`;
}
