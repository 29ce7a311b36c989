// One Chrome Recorder step as the Selenium command that plays it (CONTRACT section 23), or as
// "kept": a step no command plays, which the importer keeps as a disabled command saying why.
// Both the importer and the exporter use it: the exporter writes a command's original step back
// when the command is still what this gives for it.
import type { Step } from "@puppeteer/replay";
import { keyToToken, MODIFIER_VARIABLES } from "./keys.ts";
import { selectorsToTargets } from "./selectors.ts";
import type { ChromeSelector, SelectorsWanted } from "./selectors.ts";

/** Puppeteer's runner waits this long when neither the step nor the flow says (PuppeteerRunnerExtension). */
export const DEFAULT_TIMEOUT_MS = 5000;

/** The customStep the exporter writes for a command with no step of its own, read back as that command. */
export const COMMENT_STEP_NAME = "seleniumIde";

export type Played = { command: string; target: string; value: string; targets?: [string, string][]; notes: string[] };
export type StepCommand = { kind: "played"; played: Played } | { kind: "kept"; reason: string; target: string } | { kind: "problem"; problem: string };

// executeAsyncScript's promise resolves true only once the expression holds: side-runtime ends
// the script with `.then(callback).catch(callback)`, so a rejection would pass; a script that
// never resolves is failed by the players' script timeout, as puppeteer's step timeout fails it.
const POLL_HEAD = "return new Promise((resolve) => { const check = async () => { try { if (await (";
const POLL_TAIL = "\n)) return resolve(true); } catch {} setTimeout(check, 100); }; check(); })";

/** executeAsyncScript's script that waits for `expression` as waitForExpression does (polled every 100 ms). */
export const pollScript = (expression: string) => POLL_HEAD + expression + POLL_TAIL;

/** The expression of a script pollScript wrote, or null. */
export function pollExpression(script: string): string | null {
  return script.startsWith(POLL_HEAD) && script.endsWith(POLL_TAIL) ? script.slice(POLL_HEAD.length, script.length - POLL_TAIL.length) : null;
}

const SCROLL_SCRIPT = /^window\.scroll(?:To)?\(\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\);?$/;
/** The x and y of a `window.scroll(X, Y)` script, or null. */
export function scrollOf(script: string): { x: number; y: number } | null {
  const m = SCROLL_SCRIPT.exec(script.trim());
  return m ? { x: Number(m[1]), y: Number(m[2]) } : null;
}

function withSelectors(step: { selectors: ChromeSelector[] }, command: string, value: string, wanted: SelectorsWanted): StepCommand {
  const mapped = selectorsToTargets(step.selectors, wanted);
  if (!mapped.ok) return { kind: "problem", problem: mapped.problem };
  return { kind: "played", played: { command, target: mapped.target, value, targets: mapped.targets, notes: mapped.notes } };
}

const played = (command: string, target: string, value = ""): StepCommand => ({ kind: "played", played: { command, target, value, notes: [] } });

function keptTarget(step: Step): string {
  if (!("selectors" in step) || !step.selectors) return "";
  const mapped = selectorsToTargets(step.selectors);
  return mapped.ok ? mapped.target : "";
}
const kept = (step: Step, reason: string): StepCommand => ({ kind: "kept", reason, target: keptTarget(step) });

/** waitForElement's count condition as presence: "present", "absent", or null for one no command says. */
function presence(step: Extract<Step, { type: "waitForElement" }>): "present" | "absent" | null {
  // Puppeteer's runner counts matches (`operator` defaults to >=, `count` to 1) and `visible: false`
  // negates that outcome: it checks no visibility, so presence is the faithful command.
  const operator = step.operator ?? ">=";
  const count = step.count ?? 1;
  const atLeastOne = operator === ">=" && count === 1;
  const none = (operator === "==" || operator === "<=") && count === 0;
  if (!atLeastOne && !none) return null;
  return atLeastOne === (step.visible ?? true) ? "present" : "absent";
}

/**
 * The command for one checked step; `raw` is the step as the file had it (parse drops click's
 * `count`). `wanted`: what of the selectors to map (selectorsToTargets); export's check wants
 * the target alone, so `targets` is not built.
 */
export function stepCommand(step: Step, raw: Record<string, unknown>, flowTimeout: number | undefined, wanted: SelectorsWanted = "targets"): StepCommand {
  switch (step.type) {
    case "setViewport":
      return played("setWindowSize", `${step.width}x${step.height}`);
    case "navigate":
      return played("open", step.url);
    case "click": {
      if (step.button && step.button !== "primary") return kept(step, `a click with the ${step.button} button has no Selenium command`);
      const count = typeof raw.count === "number" ? raw.count : 1;
      if (count !== 1 && count !== 2) return kept(step, `a click of count ${count} has no Selenium command`);
      return withSelectors(step, count === 2 ? "doubleClick" : "click", "", wanted);
    }
    case "doubleClick":
      if (step.button && step.button !== "primary") return kept(step, `a double click with the ${step.button} button has no Selenium command`);
      return withSelectors(step, "doubleClick", "", wanted);
    case "change":
      return withSelectors(step, "type", step.value, wanted);
    case "hover":
      return withSelectors(step, "mouseOver", "", wanted);
    case "scroll":
      if ("selectors" in step && step.selectors) return kept(step, "scrolling inside an element has no Selenium command");
      return played("executeScript", `window.scroll(${step.x ?? 0}, ${step.y ?? 0})`);
    case "waitForElement": {
      const present = presence(step);
      if (present === null || step.attributes || step.properties) {
        return kept(step, "a wait for a count other than none or at least one, or for attributes or properties, has no Selenium command");
      }
      return withSelectors(step, present === "present" ? "waitForElementPresent" : "waitForElementNotPresent", String(step.timeout ?? flowTimeout ?? DEFAULT_TIMEOUT_MS), wanted);
    }
    case "waitForExpression":
      return played("executeAsyncScript", pollScript(step.expression));
    case "close":
      return played("close", "");
    case "customStep": {
      const p = step.parameters as { command?: unknown; target?: unknown; value?: unknown } | undefined;
      if (step.name === COMMENT_STEP_NAME && p && typeof p.command === "string") {
        return played(p.command, typeof p.target === "string" ? p.target : "", typeof p.value === "string" ? p.value : "");
      }
      return kept(step, `the custom step "${step.name}" is a runner extension's own`);
    }
    case "emulateNetworkConditions":
      return kept(step, "network emulation has no Selenium command");
    default:
      // keyDown and keyUp are read as a run (keysValue), never one by one.
      return { kind: "problem", problem: `a ${step.type} step is read with the keys around it` };
  }
}

/** A run of keyDown/keyUp steps as one sendKeys value, or the first key no value can say. */
export function keysValue(steps: ReadonlyArray<{ type: string; key: string }>): { value: string } | { unsaid: string } {
  const parts: Array<{ text: string; release: boolean }> = [];
  const held = new Set<string>();
  for (const step of steps) {
    const token = keyToToken(step.key);
    if (token === null) return { unsaid: step.key };
    if ("text" in token) {
      if (step.type === "keyDown") parts.push({ text: token.text, release: false });
      continue;
    }
    const modifier = MODIFIER_VARIABLES.has(token.variable);
    const down = step.type === "keyDown";
    if (!modifier) {
      if (down) parts.push({ text: `\${${token.variable}}`, release: false });
      continue;
    }
    // A modifier stays held until pressed again (WebDriver's rule), so its keyUp presses it again.
    if (down === held.has(token.variable)) continue;
    if (down) held.add(token.variable);
    else held.delete(token.variable);
    parts.push({ text: `\${${token.variable}}`, release: !down });
  }
  // The players let go of every modifier at the end of a sendKeys: the last releases go unsaid.
  while (parts.at(-1)?.release) parts.pop();
  return { value: parts.map((p) => p.text).join("") };
}
