// `type` on a <select> for side-runtime's WebDriverExecutor (a Chrome Recorder `change` is
// imported as `type`, CONTRACT section 23): side-runtime clears the element first, which
// chromedriver refuses for a select. Here the option whose value, else whose label, is the text
// is chosen in the page, with the in-page player's events (drivers/player/options.ts): focus,
// then input and change when the selection changed. No option, or a disabled one, fails saying so.
import type { WebDriver, WebElement } from "selenium-webdriver";

const CHOOSE_TYPED = `const [select, text] = arguments;
  const options = [...select.options];
  const option = options.find((o) => o.value === text) ?? options.find((o) => o.text.replace(/\\s+/g, " ").trim() === text);
  if (!option) return "none";
  const group = option.parentElement && option.parentElement.localName === "optgroup" ? option.parentElement : null;
  if (option.disabled || select.disabled || (group && group.disabled)) return "disabled";
  select.focus();
  if (option.selected) return "ok";
  option.selected = true;
  select.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  select.dispatchEvent(new Event("change", { bubbles: true }));
  return "ok";`;

/** Whether the element is a `<select>`. */
export async function isSelect(element: WebElement): Promise<boolean> {
  return (await element.getTagName()).toLowerCase() === "select";
}

/** Chooses the option `text` names in the select `element`, or throws naming `locator` and `text`. */
export async function chooseTypedOption(driver: WebDriver, element: WebElement, locator: string, text: string): Promise<void> {
  const chosen = await driver.executeScript(CHOOSE_TYPED, element, text);
  if (chosen === "none") throw new Error(`Element ${locator} is a select with no option whose value or label is "${text}"`);
  if (chosen === "disabled") throw new Error(`Option "${text}" of the select ${locator} is disabled`);
}
