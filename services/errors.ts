/** What went wrong, as a sentence: an Error's message, or anything else thrown as text. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The page under test is gone (a closed tab, a crashed browser): the run cannot go on. Each
 * executor throws an error named "PageGoneError" for it (drivers/host/browserPage.ts,
 * drivers/webextension/navigation.ts); read by name, since it crosses the executor port.
 */
export const isPageGone = (error: unknown): boolean => error instanceof Error && error.name === "PageGoneError";
