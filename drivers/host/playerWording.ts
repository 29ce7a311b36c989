// WebDriver's failures in the one player's words (CONTRACT section 19: both players give the
// same command states and messages on the same pages). side-runtime's WebDriverExecutor fails a
// command with what selenium-webdriver threw ("Waiting for element to be located", "invalid
// element state", "no such element: ... option ..."); the host's WebDriver path says the same
// thing as the in-page player (drivers/player/) says for it. Whether a missing element
// is there but hidden is asked of the page (`present`). A message with no counterpart is kept.
import { timedOut, WAIT_PHRASES } from "../player/waits.ts";

export interface FailedCommand {
  command: string;
  /** With `${...}` already replaced, as the player's messages show it. */
  target: string;
  value: string;
}

const ELEMENT_WAIT = /^Waiting for element to be (located|visible)\b/;
const CLICK_INTERCEPTED = /^element click intercepted: .* is not clickable at point \((-?\d+), (-?\d+)\)\. Other element would receive the click: <([a-zA-Z][\w-]*)([^>]*)>/s;

/** The start tag `<tag attrs>` as the player describes an element: id, name, class and type only. */
function described(tag: string, attributes: string): string {
  const kept = ["id", "name", "class", "type"]
    .map((name) => [name, new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(attributes)?.[1]] as const)
    .filter(([, value]) => value)
    .map(([name, value]) => ` ${name}="${value}"`)
    .join("");
  return `<${tag.toLowerCase()}${kept}>`;
}

export async function inPlayerWords(message: string, failed: FailedCommand, present: (target: string) => Promise<boolean>): Promise<string> {
  const { command, target, value } = failed;
  const phrase = WAIT_PHRASES[command];
  if (phrase !== undefined && (ELEMENT_WAIT.test(message) || /Wait timed out after/.test(message))) {
    return /^\s*\d+\s*$/.test(value) ? timedOut(phrase, target, Number(value)) : message;
  }
  if (ELEMENT_WAIT.test(message)) {
    return (await present(target).catch(() => false)) ? `Element ${target} is not visible, so it cannot be interacted with` : `Element ${target} not found`;
  }
  if (/^invalid element state: Element is not currently interactable/.test(message) && command === "type") {
    return `Element ${target} is not editable (it is disabled or read-only), so it cannot be typed into`;
  }
  if (/^no such element: Unable to locate element: .*option/.test(message) && ["select", "addSelection", "removeSelection"].includes(command)) {
    return `Element ${target} has no option ${value.trim()}`;
  }
  if (/^invalid argument\b/.test(message) && /At$/.test(command)) {
    return `${command} needs coordinates "x,y" as its value (pixels from the element's centre); got "${value}"`;
  }
  const intercepted = CLICK_INTERCEPTED.exec(message);
  if (intercepted) {
    return `Element ${target} is not clickable at point (${intercepted[1]}, ${intercepted[2]}). Other element would receive the click: ${described(intercepted[3], intercepted[4])}`;
  }
  return message;
}
