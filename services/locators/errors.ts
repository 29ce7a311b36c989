export type LocatorErrorCode = "InvalidLocator" | "ElementNotFound" | "NoPage";

/** A locator failure whose `errorCode` is one of the contract's (section 3) codes. */
export class LocatorError extends Error {
  readonly errorCode: LocatorErrorCode;

  constructor(errorCode: LocatorErrorCode, message: string) {
    super(message);
    this.name = "LocatorError";
    this.errorCode = errorCode;
  }
}
