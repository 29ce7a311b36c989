// The waitFor* commands: the value is the time to wait in milliseconds (Selenium's meaning),
// capped at MAX_WAIT_MS; the target is polled until the state holds. As in side-runtime, the
// waits for absence (NotPresent, NotVisible) look at the target alone, and an element that is
// not there at all is not visible.
import { isDisplayed, isEditable, visibleText } from "./dom.ts";
import { CommandFailure, quoted } from "./errors.ts";
import { clampWait, MAX_WAIT_MS, matchesOf, parseTarget, poll, waitForElement } from "./find.ts";
import type { CommandContext, CommandHandler } from "./types.ts";

/** The value as a wait in ms: a whole number, capped at MAX_WAIT_MS. */
export function waitTime(context: CommandContext): number {
  const { command, value } = context.request;
  if (!/^\s*\d+\s*$/.test(value)) {
    throw new CommandFailure(`${command} needs the time to wait in milliseconds as its value (e.g. 30000); got "${value}"`);
  }
  return clampWait(Math.min(Number(value), MAX_WAIT_MS));
}

/** A waitFor* command's message when its wait ran out (also the host's WebDriver failures, in these words: drivers/host/playerWording.ts). */
export const timedOut = (what: string, target: string, ms: number) => `Waiting for element ${target} ${what}: wait timed out after ${ms}ms`;

/** What each element wait waits for, as its message says it. */
export const WAIT_PHRASES: Readonly<Record<string, string>> = {
  waitForElementPresent: "to be present",
  waitForElementVisible: "to be visible",
  waitForElementEditable: "to be editable",
  waitForElementNotPresent: "to not be present",
  waitForElementNotVisible: "to not be visible",
  waitForElementNotEditable: "to not be editable",
};

/** Waits for the element to be there and in a state, with the command's value as the wait. */
function waitForState(what: string, holds: (el: Element) => boolean): CommandHandler {
  return async (context) => {
    const ms = waitTime(context);
    const { target } = context.request;
    await waitForElement(context, {
      timeoutMs: ms,
      condition: { holds, why: () => timedOut(what, target, ms) },
      notFound: () => timedOut(what, target, ms),
    });
  };
}

/** Waits until the target's first match is gone or fails `present`; no match passes at once. */
function waitForAbsence(what: string, present: (el: Element) => boolean): CommandHandler {
  return async (context) => {
    const ms = waitTime(context);
    const locator = parseTarget(context.request.target);
    const gone = await poll(ms, context.signal, () => {
      const first = matchesOf(context.win.document, locator)[0];
      return first === undefined || !present(first) ? true : undefined;
    });
    if (!gone) throw new CommandFailure(timedOut(what, context.request.target, ms));
  };
}

async function waitForText(context: CommandContext) {
  const { target, value } = context.request;
  const wanted = value.replace(/\u00a0/g, " ").trim();
  let last = "";
  await waitForElement(context, {
    condition: {
      holds: (el) => (last = visibleText(el)) === wanted,
      why: () => `Waiting for text ${quoted(value)} in element ${target}: the text is ${quoted(last)}`,
    },
  });
}

export const WAITS: Record<string, CommandHandler> = {
  waitForElementPresent: waitForState(WAIT_PHRASES.waitForElementPresent, () => true),
  waitForElementVisible: waitForState(WAIT_PHRASES.waitForElementVisible, isDisplayed),
  waitForElementEditable: waitForState(WAIT_PHRASES.waitForElementEditable, isEditable),
  waitForElementNotPresent: waitForAbsence(WAIT_PHRASES.waitForElementNotPresent, () => true),
  waitForElementNotVisible: waitForAbsence(WAIT_PHRASES.waitForElementNotVisible, isDisplayed),
  waitForElementNotEditable: waitForState(WAIT_PHRASES.waitForElementNotEditable, (el) => !isEditable(el)),
  waitForText,
};
