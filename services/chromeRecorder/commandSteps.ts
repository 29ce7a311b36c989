// One Selenium command as the Chrome Recorder steps that play it (the inverse of steps.ts), for
// a command export has no original step for (a .side test's own, or one changed since import).
// Answers the steps, "none" for a command that only says where the next steps act (export.ts
// follows those), or null when no step plays it.
import { keyToToken, MODIFIER_VARIABLES, valueToKeys, variableToKey } from "./keys.ts";
import { commandSelectors } from "./selectors.ts";
import { DEFAULT_TIMEOUT_MS, pollExpression, scrollOf } from "./steps.ts";

export type FlowStep = Record<string, unknown> & { type: string };

/** What a derived step needs from the walk: the project's url and a click's kept offsets. */
export interface CommandInput {
  command: string;
  target: string;
  value: string;
  targets?: unknown;
  chromeStep?: unknown;
}

export type Derived = { steps: FlowStep[]; warning?: string } | { problem: string } | null;

// Puppeteer clicks at the element's border box top-left plus the offset; with no offset known a
// few pixels in is inside any element a person clicks, where our players click its centre.
const DEFAULT_OFFSET = 5;

const clamp = (ms: number) => Math.min(30_000, Math.max(1, Math.round(ms)));

function selectorsOf(input: CommandInput): string[][] | { problem: string } {
  const selectors = commandSelectors(input.target, input.targets);
  return selectors.length > 0 ? selectors : { problem: `its locator ${JSON.stringify(input.target)} has no Chrome Recorder selector` };
}

function withSelectors(input: CommandInput, step: FlowStep): Derived {
  const selectors = selectorsOf(input);
  return "problem" in selectors ? selectors : { steps: [{ ...step, selectors }] };
}

function click(input: CommandInput, type: "click" | "doubleClick"): Derived {
  const kept = (typeof input.chromeStep === "object" && input.chromeStep !== null ? input.chromeStep : {}) as Record<string, unknown>;
  const offsetX = typeof kept.offsetX === "number" ? kept.offsetX : DEFAULT_OFFSET;
  const offsetY = typeof kept.offsetY === "number" ? kept.offsetY : DEFAULT_OFFSET;
  const derived = withSelectors(input, { type, offsetX, offsetY });
  if (derived && "steps" in derived && /At$/.test(input.command)) derived.warning = `its offset ${JSON.stringify(input.value)} from the centre is not kept`;
  return derived;
}

/** keyDown/keyUp steps for a sendKeys value: a modifier goes down, and up when pressed again or at the end. */
export function keySteps(value: string): FlowStep[] | { problem: string } {
  const steps: FlowStep[] = [];
  const held: string[] = [];
  for (const key of valueToKeys(value)) {
    if ("text" in key) {
      if (keyToToken(key.text) === null) return { problem: `the character ${JSON.stringify(key.text)} has no key` };
      steps.push({ type: "keyDown", key: key.text }, { type: "keyUp", key: key.text });
      continue;
    }
    const name = variableToKey(key.variable);
    if (name === null) return { problem: `the key \${${key.variable}} has no Chrome Recorder key` };
    if (!MODIFIER_VARIABLES.has(key.variable)) {
      steps.push({ type: "keyDown", key: name }, { type: "keyUp", key: name });
    } else if (held.includes(name)) {
      held.splice(held.indexOf(name), 1);
      steps.push({ type: "keyUp", key: name });
    } else {
      held.push(name);
      steps.push({ type: "keyDown", key: name });
    }
  }
  for (const name of held.reverse()) steps.push({ type: "keyUp", key: name });
  return steps;
}

function waitTimeout(value: string): Record<string, number> {
  const ms = Number(value);
  return value.trim() !== "" && Number.isFinite(ms) && ms > 0 && ms !== DEFAULT_TIMEOUT_MS ? { timeout: clamp(ms) } : {};
}

/** The steps of one command, or why it has none. */
export function commandSteps(input: CommandInput, projectUrl: string): Derived {
  const { command, target, value } = input;
  switch (command) {
    case "open": {
      try {
        return { steps: [{ type: "navigate", url: new URL(target, projectUrl || undefined).href }] };
      } catch {
        return { problem: `its URL ${JSON.stringify(target)} is not absolute and the project has no url to read it from` };
      }
    }
    case "setWindowSize": {
      const size = /^(\d+)x(\d+)$/.exec(target);
      if (!size) return { problem: `its size ${JSON.stringify(target)} is not WIDTHxHEIGHT` };
      return { steps: [{ type: "setViewport", width: Number(size[1]), height: Number(size[2]), deviceScaleFactor: 1, isMobile: false, hasTouch: false, isLandscape: false }] };
    }
    case "click":
    case "clickAt":
      return click(input, "click");
    case "doubleClick":
    case "doubleClickAt":
      return click(input, "doubleClick");
    case "type":
      return withSelectors(input, { type: "change", value });
    case "select": {
      if (!value.startsWith("value=")) return { problem: `only an option chosen by value= has a step (a change to that value), not ${JSON.stringify(value)}` };
      return withSelectors(input, { type: "change", value: value.slice("value=".length) });
    }
    case "sendKeys": {
      const steps = keySteps(value);
      return Array.isArray(steps) ? { steps } : steps;
    }
    case "mouseOver":
      return withSelectors(input, { type: "hover" });
    case "executeScript":
    case "runScript": {
      const scroll = scrollOf(target);
      return scroll ? { steps: [{ type: "scroll", x: scroll.x, y: scroll.y }] } : null;
    }
    case "executeAsyncScript": {
      const expression = pollExpression(target);
      return expression === null ? null : { steps: [{ type: "waitForExpression", expression }] };
    }
    case "waitForElementPresent":
    case "waitForElementVisible":
      return withSelectors(input, { type: "waitForElement", ...waitTimeout(value) });
    case "waitForElementNotPresent":
      return withSelectors(input, { type: "waitForElement", operator: "==", count: 0, ...waitTimeout(value) });
    case "close":
      return { steps: [{ type: "close" }] };
    default:
      return null;
  }
}
