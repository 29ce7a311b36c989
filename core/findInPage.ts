// ide.findInPage (CONTRACT section 21): the command form's "Find" and its alternative locators'
// counts, read at the door (zod), asked of the page through the `findInPage` port within
// deliverTimeoutMs, and answered as data: a count, or `{ error, errorCode }`. It never rejects.
// A declared `NAME=VALUE` (CONTRACT section 23) is asked as the css= or xpath= it stands for.
import { z } from "zod";
import { messageOf } from "../services/errors.ts";
import { isLocatorErrorCode, parseLocator } from "../services/locators/index.ts";
import { expandLocator } from "../services/locators/strategies.ts";
import type { StrategyTable } from "../services/locators/strategies.ts";
import { withTimeout } from "../services/timeout.ts";
import { describeZodIssue } from "../services/validation.ts";
import type { FindInPage } from "./ports.ts";

export type FindQuestion = { location: string; outline?: boolean };
export type FindReply =
  | { count: number; shown: boolean }
  | { error: string; errorCode: "InvalidRequest" | "InvalidLocator" | "NoPage" | "ElementNotFound" };

const questionSchema = z.strictObject({ location: z.string().max(64 * 1024), outline: z.boolean().optional() });

/** The answerer for one IDE: `port` is the page under test's, if the IDE has one; `strategies`, what a locator may use now. */
export function pageFinder(port: FindInPage | undefined, timeoutMs: number, strategies: () => StrategyTable = () => new Map()) {
  return async (question: unknown): Promise<FindReply> => {
    const read = questionSchema.safeParse(question, { reportInput: true });
    if (!read.success) return { error: describeZodIssue(read.error, "question"), errorCode: "InvalidRequest" };
    const { location: written, outline = false } = read.data;
    try {
      if (written.trim() === "") return { error: "The locator is empty; give one such as id=name, css=... or //xpath.", errorCode: "InvalidLocator" };
      const location = expandLocator(written, strategies());
      parseLocator(location); // InvalidLocator before NoPage, as GET /playback/location
      if (!port) return { error: "No page is open: this IDE has no page under test to look in.", errorCode: "NoPage" };
      const found = await withTimeout(port(location, outline), timeoutMs, "the page under test");
      return { count: found.count, shown: found.shown };
    } catch (error) {
      const code = (error as { errorCode?: unknown } | null)?.errorCode;
      if (isLocatorErrorCode(code)) return { error: messageOf(error), errorCode: code };
      return { error: `The page under test could not be searched for "${written}": ${messageOf(error)}`, errorCode: "NoPage" };
    }
  };
}
