// Gaps of side-runtime's WebDriverExecutor that the in-page player does not have, closed on
// its prototype once, so both players of CONTRACT section 19 give the same results (the
// conformance suite, tests/browser/conformance.browser.test.ts, holds them to it):
// - assertNotSelectedLabel (and verifyNotSelectedLabel) is composed over assertSelectedLabel's
//   body in side-runtime 4, so it passed exactly when the label matched; here it fails then.
// - storeXpathCount (Selenium 1's, which Selenium IDE still accepts in a .side file) is missing;
//   here it counts what the xpath (with or without its xpath= prefix) matches, as storeElementCount.
// - Selenium IDE v3's dialog commands are unknown to side-runtime 4; here they play as v3's own
//   WebDriver playback played them (below).
import webdriver from "selenium-webdriver";
import { composePreprocessors, interpolateString, preprocessArray } from "@seleniumhq/side-runtime/dist/preprocessors.js";
import type { WebDriverExecutor } from "@seleniumhq/side-runtime";

type Executor = InstanceType<typeof WebDriverExecutor>;
type Errors = { AssertionError: new (message: string) => Error; VerificationError: new (message: string) => Error };
type Fallbacks = { targetFallback?: unknown; targets?: unknown; fallbackTargets?: unknown };

export function fixSideRuntime(Executor: { prototype: Executor }, errors: Errors): void {
  const proto = Executor.prototype as unknown as Record<string, unknown>;

  async function doAssertNotSelectedLabel(this: Executor, locator: string, label: string, commandObject: Fallbacks = {}) {
    const element = await this.waitForElement(locator, commandObject.targetFallback as never, commandObject.targets as never, commandObject.fallbackTargets as never);
    const selectedValue = await element.getAttribute("value");
    const option = await element.findElement(webdriver.By.xpath(`option[@value="${selectedValue}"]`));
    const text = await option.getText();
    if (text === label) throw new errors.AssertionError(`Actual value '${text}' did match '${label}'`);
  }
  proto.doAssertNotSelectedLabel = composePreprocessors(interpolateString, interpolateString, { targetFallback: preprocessArray(interpolateString) }, doAssertNotSelectedLabel);
  proto.doVerifyNotSelectedLabel = async function (this: Executor, ...args: unknown[]) {
    try {
      return await (proto.doAssertNotSelectedLabel as (...a: unknown[]) => Promise<void>).apply(this, args);
    } catch (error) {
      if (error instanceof errors.AssertionError) throw new errors.VerificationError(error.message);
      throw error;
    }
  };

  proto.doStoreXpathCount = function (this: Executor, xpath: string, variable: string) {
    return this.doStoreElementCount(xpath.startsWith("xpath=") ? xpath : `xpath=${xpath}`, variable);
  };

  // Selenium IDE v3's dialog commands, as v3 recorded them and its own WebDriver playback and
  // code export read them: `chooseOkOnNextConfirmation` (and the other "on next" ones) readied
  // v3's extension page for the dialog a click would open and does nothing over WebDriver; the
  // click opens it; `assertConfirmation` reads it; `webdriverChooseOkOnVisibleConfirmation` (and
  // the other "on visible" ones) answers it, as v4's acceptConfirmation and the others do.
  for (const name of ["ChooseOkOnNextConfirmation", "ChooseCancelOnNextConfirmation", "AnswerOnNextPrompt", "ChooseCancelOnNextPrompt"]) proto[`do${name}`] = async () => {};
  proto.doWebdriverChooseOkOnVisibleConfirmation = proto.doAcceptConfirmation;
  proto.doWebdriverChooseCancelOnVisibleConfirmation = proto.doDismissConfirmation;
  proto.doWebdriverAnswerOnVisiblePrompt = proto.doAnswerPrompt;
  proto.doWebdriverChooseCancelOnVisiblePrompt = proto.doDismissPrompt;
}
