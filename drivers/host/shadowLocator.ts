// `css=A >>> B` (CONTRACT section 19) for side-runtime's WebDriverExecutor in the host.
// side-runtime turns `css=A >>> B` into By.css("A >>> B"), which no browser reads, and asks
// the driver for it (findElement, findElements) in every command that takes a locator. The
// executor gets a driver whose two finds read such a locator as steps through Selenium 4's
// getShadowRoot(): every match of A, the open shadow root of each (in document order), B in
// each of those, and so on, as the project's own resolver does (services/locators/shadow.ts).
// Everything else goes to the real driver untouched.
import webdriver from "selenium-webdriver";
import type { Locator, WebDriver, WebElement } from "selenium-webdriver";
import { splitShadowSteps } from "../../services/locators/index.ts";

const { By, WebElementPromise, error } = webdriver;

/** The steps of a css locator that steps into shadow roots, or null for any other locator. */
export function shadowStepsOf(locator: unknown): string[] | null {
  const by = locator as { using?: unknown; value?: unknown } | null;
  if (!by || by.using !== "css selector" || typeof by.value !== "string" || !by.value.includes(">>>")) return null;
  const steps = splitShadowSteps(by.value);
  return steps.length > 1 ? steps : null;
}

/** Every element the steps reach, in document order; `failure` says which step found nothing. */
export async function findThroughShadowRoots(driver: WebDriver, steps: string[]): Promise<{ elements: WebElement[]; failure?: string }> {
  let found: WebElement[] = await driver.findElements(By.css(steps[0]));
  if (found.length === 0) return { elements: [], failure: `no element matches ${JSON.stringify(steps[0])} in the document` };
  for (let i = 1; i < steps.length; i++) {
    const before = JSON.stringify(steps[i - 1]);
    const next: WebElement[] = [];
    let roots = 0;
    for (const host of found) {
      let root;
      try {
        root = await host.getShadowRoot();
      } catch (reason) {
        if ((reason as { name?: unknown } | null)?.name === "NoSuchShadowRootError") continue; // it has none
        throw reason;
      }
      roots++;
      next.push(...(await root.findElements(By.css(steps[i]))));
    }
    if (roots === 0) {
      const what = found.length === 1 ? "the element" : `none of the ${found.length} elements`;
      const has = found.length === 1 ? "has no open shadow root" : "has an open shadow root";
      return { elements: [], failure: `${what} ${before} found ${has} to look for ${JSON.stringify(steps[i])} in` };
    }
    if (next.length === 0) {
      return { elements: [], failure: `no element matches ${JSON.stringify(steps[i])} in the open shadow root of what ${before} found` };
    }
    found = next;
  }
  return { elements: found };
}

/** `driver` with findElement and findElements that step into open shadow roots for `A >>> B`. */
export function withShadowLocators(driver: WebDriver): WebDriver {
  const findElement = (locator: Locator) => {
    const steps = shadowStepsOf(locator);
    if (!steps) return driver.findElement(locator);
    const found = findThroughShadowRoots(driver, steps).then(({ elements, failure }) => {
      if (elements.length > 0) return elements[0];
      throw new error.NoSuchElementError(`No element matches the locator "css=${steps.join(" >>> ")}": ${failure}.`);
    });
    return new WebElementPromise(driver, found);
  };
  const findElements = async (locator: Locator) => {
    const steps = shadowStepsOf(locator);
    if (!steps) return driver.findElements(locator);
    return (await findThroughShadowRoots(driver, steps)).elements;
  };
  return new Proxy(driver, {
    get(target, key) {
      if (key === "findElement") return findElement;
      if (key === "findElements") return findElements;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
