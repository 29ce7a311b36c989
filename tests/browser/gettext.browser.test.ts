// The reference "Assert text" is held to (issue 34, CONTRACT section 21): on every element of
// the text torture page and of the saved pages, the player's visibleText (what the recorder
// records and assertText compares) equals what Selenium's WebElement.getText() returns through
// Debian's chromedriver for the same element in the same session, and isDisplayed equals
// selenium-webdriver's isDisplayed(). Targets: every element of the torture page, and at least
// 98% of at least 50 elements of saved pages; each difference is printed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDifference, displayedMatches, innerTextMatches, openReference, savedPages, share, textMatches, torturePage } from "../support/getTextReference.ts";
import type { Compared, Reference } from "../support/getTextReference.ts";

const SAVED_TARGET = 0.98;
const SAVED_AT_LEAST = 50;

let reference: Reference | undefined;
let torture: Compared[] = [];
const saved: Compared[] = [];

beforeAll(async () => {
  const pages = savedPages();
  reference = await openReference([torturePage(), ...pages]);
  torture = await reference.compare(torturePage().name);
  for (const page of pages) saved.push(...(await reference.compare(page.name)));
}, 240_000);

afterAll(async () => {
  await reference?.close();
});

function report(what: string, compared: Compared[]): string[] {
  const differences = compared.filter((c) => !textMatches(c) || !displayedMatches(c)).map(describeDifference);
  if (differences.length > 0) console.log(`${what}: ${differences.length} difference(s) from Selenium\n  ${differences.join("\n  ")}`);
  return differences;
}

describe("the text Assert text records, against Selenium's getText through chromedriver", () => {
  it("reads every element of the text torture page as chromedriver's getText does", () => {
    expect(torture.length).toBeGreaterThan(200);
    const differences = report("torture page", torture.filter((c) => !textMatches(c)));
    expect(differences).toEqual([]);
  });

  it("says an element of the torture page is displayed exactly where Selenium's isDisplayed does", () => {
    const differences = report("torture page, displayed", torture.filter((c) => !displayedMatches(c)));
    expect(differences).toEqual([]);
  });

  it(`reads at least ${SAVED_TARGET * 100}% of the saved pages' elements as chromedriver's getText does`, () => {
    report("saved pages", saved);
    const text = share(saved, textMatches);
    expect(text.of).toBeGreaterThanOrEqual(SAVED_AT_LEAST);
    expect(text.share, `${text.matched} of ${text.of} match`).toBeGreaterThanOrEqual(SAVED_TARGET);
    expect(share(saved, displayedMatches).share).toBeGreaterThanOrEqual(SAVED_TARGET);
  });

  it("holds the hard cases on the torture page where Selenium reads unlike innerText: transparency, pre, a shown child of a hidden parent, shadow trees", () => {
    // The page is only a reference if the rules matter on it: elements whose text Selenium reads unlike the eye-level innerText.
    const named = (id: string) => torture.find((c) => c.element.endsWith(`#${id}`) || c.element.includes(`#${id}.`));
    expect(named("opacity-half")?.webdriver.text).toBe("Half shown");
    expect(named("pre")?.ours.text).toBe("  line one\n    indented line\n\n  after a blank tab");
    expect(named("vis-hidden")?.ours.text).toBe("but this child is visible");
    expect(named("card")?.ours.text).toBe("Card: Slotted name\nShadow body\nlight text");
    expect(share(torture, innerTextMatches).share).toBeLessThan(0.8);
  });
});
