/** The contract's (section 3) codes of a locator failure. */
export const LOCATOR_ERROR_CODES = ["InvalidLocator", "ElementNotFound", "NoPage"] as const;
export type LocatorErrorCode = (typeof LOCATOR_ERROR_CODES)[number];

/** True for a locator failure's code, such as one that crossed from a page or a tab as data. */
export const isLocatorErrorCode = (code: unknown): code is LocatorErrorCode =>
  (LOCATOR_ERROR_CODES as readonly unknown[]).includes(code);

/** A locator failure whose `errorCode` is one of the contract's (section 3) codes. */
export class LocatorError extends Error {
  readonly errorCode: LocatorErrorCode;

  constructor(errorCode: LocatorErrorCode, message: string) {
    super(message);
    this.name = "LocatorError";
    this.errorCode = errorCode;
  }
}
