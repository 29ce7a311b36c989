// "Find target in page" and the alternative locators' counts in the host's page under test
// (CONTRACT section 21): drivers/findInPage/ bundled once per process and run through
// WebDriver in the page, in the frame WebDriver is on, as the locator resolver is (pages.ts).
// A new document has no bundle yet: it is put there at the first question.
import { fileURLToPath } from "node:url";
import type { WebDriver } from "selenium-webdriver";
import { LocatorError } from "../../services/locators/index.ts";
import type { FindAnswer } from "../findInPage/index.ts";
import { pageGlobalBundle } from "./bundle.ts";

const ENTRY = fileURLToPath(new URL("../findInPage/index.ts", import.meta.url));
const GLOBAL = "__ideCoreFind";

/** The page's answer as the core's port gives it: the count and whether the first is shown; a LocatorError for the rest. */
export type Found = { count: number; shown: boolean };

async function findBundle(): Promise<string> {
  return pageGlobalBundle(ENTRY, GLOBAL);
}

// A string, as callResolver's (pages.ts): the JSON literals keep the locator's text inside it.
const call = (location: string, outline: boolean) =>
  `const lib = globalThis.${GLOBAL};
   return lib && typeof lib.findInDocument === "function" ? lib.findInDocument(document, ${JSON.stringify(location)}, ${outline}) : null;`;

/** How many elements `location` matches in the driver's page now, the first outlined for 2 s when `outline` says so. */
export async function findWith(driver: WebDriver, location: string, outline: boolean): Promise<Found> {
  let answer = (await driver.executeScript(call(location, outline))) as FindAnswer | null;
  if (answer === null) {
    await driver.executeScript(await findBundle());
    answer = (await driver.executeScript(call(location, outline))) as FindAnswer | null;
  }
  return readFound(answer, location);
}

/** The page's answer, or the LocatorError it stands for. */
export function readFound(answer: FindAnswer | null, location: string): Found {
  if (answer === null) throw new LocatorError("NoPage", `The page under test was replaced while ${JSON.stringify(location)} was looked for; try again.`);
  if (answer.ok) return { count: answer.count, shown: answer.shown };
  throw new LocatorError(answer.errorCode, answer.error);
}
