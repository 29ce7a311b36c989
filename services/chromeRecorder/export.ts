// A test as a Chrome Recorder flow (CONTRACT section 23) that @puppeteer/replay parses and plays.
// A command import made from a step, and still as import made it, is written as that step (so a
// flow comes back with its steps, their order, selectors and offsets); any other command is
// written as the steps that play it (commandSteps.ts), in the window and frame that selectWindow
// and selectFrame chose. A command with no step is refused, naming it, unless `comments` asks
// for it as a customStep the importer reads back as the command. Every step written is checked
// once by @puppeteer/replay's parseStep (a kept step before it is trusted, unless import read it
// already and remembers what it made of it: checked.ts; a derived one at the end), and the
// flow's head by its parse: together what its parse checks. Pure.
import { parse, parseStep } from "@puppeteer/replay";
import type { Step } from "@puppeteer/replay";
import type { SideCommand, SideProject } from "../side/index.ts";
import { madeOf, wasRead } from "./checked.ts";
import { commandSteps } from "./commandSteps.ts";
import type { FlowStep } from "./commandSteps.ts";
import { COMMENT_STEP_NAME, keysValue, stepCommand } from "./steps.ts";
import type { StepCommand } from "./steps.ts";

export type FlowExport = { ok: true; filename: string; text: string; warnings: string[] } | { ok: false; problem: string };

export interface FlowExportOptions {
  /** Commands with no step go in as `customStep`s named "seleniumIde" instead of refusing the export. */
  comments?: boolean;
}

const ROOT_HANDLE = "handle=${win_ser_local}";
const FRAMED = new Set(["click", "doubleClick", "hover", "change", "scroll", "waitForElement", "waitForExpression", "customStep"]);
type Extra = { targets?: unknown; chromeStep?: unknown; chromeSteps?: unknown; chromeTarget?: unknown };

interface Walk {
  steps: FlowStep[];
  frame: number[];
  window: string;
  windows: Map<string, string>;
  refused: string[];
  warnings: string[];
  /** Steps written from commands, not yet checked by parseStep (kept steps are checked before they are trusted). */
  unchecked: Set<FlowStep>;
}

/** Steps a command kept, as @puppeteer/replay reads them; null when one is not a step (the file was edited). */
function checkedSteps(steps: unknown[]): Step[] | null {
  try {
    return steps.map((step) => parseStep(step));
  } catch {
    return null;
  }
}

const sameCommand = (c: SideCommand, made: { command: string; target: string; value: string }) =>
  made.command === c.command && made.target === c.target && made.value === c.value;

/** The original step of a command when import would make this very command of it again. */
function originalSteps(c: SideCommand & Extra, timeout: number | undefined): FlowStep[] | null {
  if (Array.isArray(c.chromeSteps)) {
    // A key step import read is a keyDown or keyUp with a string key, all keysValue reads.
    const checked = c.chromeSteps.every(wasRead) ? c.chromeSteps : checkedSteps(c.chromeSteps);
    if (!checked) return null;
    if (c.command.startsWith("//")) return c.chromeSteps as FlowStep[];
    const said = keysValue(checked as Array<{ type: string; key: string }>);
    return c.command === "sendKeys" && "value" in said && said.value === c.value ? (c.chromeSteps as FlowStep[]) : null;
  }
  if (typeof c.chromeStep !== "object" || c.chromeStep === null) return null;
  const kept = c.chromeStep as FlowStep;
  const made = madeOf(kept, timeout);
  if (made && !c.command.startsWith("//")) return sameCommand(c, made) ? [kept] : null;
  if (c.command.startsWith("//") && wasRead(kept)) return [kept];
  const checked = checkedSteps([kept]);
  if (!checked) return null;
  if (c.command.startsWith("//")) return [kept];
  const same = (again: StepCommand) => again.kind === "played" && sameCommand(c, again.played);
  // The step's first selector taken as written settles an unchanged command without parsing
  // any selector (its target is that selector's locator, so the step still says it); when it
  // does not, the target is found as import found it.
  return same(stepCommand(checked[0], kept, timeout, "unchecked")) || same(stepCommand(checked[0], kept, timeout, "target")) ? [kept] : null;
}

/** The selectFrame, selectWindow and storeWindowHandle that say where later steps act; false for any other command. */
function followPlace(walk: Walk, c: SideCommand & Extra): boolean | string {
  if (c.command === "selectFrame") {
    if (c.target === "relative=top") walk.frame = [];
    else if (c.target === "relative=parent") walk.frame = walk.frame.slice(0, -1);
    else if (/^index=\d+$/.test(c.target)) walk.frame = [...walk.frame, Number(c.target.slice(6))];
    else return `a frame chosen by ${JSON.stringify(c.target)}, not by index, has no Chrome Recorder form`;
    return true;
  }
  if (c.command === "selectWindow") {
    walk.frame = [];
    if (c.target === ROOT_HANDLE) {
      walk.window = "main";
      return true;
    }
    const name = /^handle=\$\{(\w+)\}$/.exec(c.target)?.[1];
    const url = typeof c.chromeTarget === "string" ? c.chromeTarget : name && walk.windows.get(name);
    if (!name || !url) return `a flow names a window by its URL, and no URL is known for ${JSON.stringify(c.target)}`;
    walk.windows.set(name, url);
    walk.window = url;
    return true;
  }
  return c.command === "storeWindowHandle" && c.target === "win_ser_local";
}

/** assertTitle after a navigation: that navigation's asserted title; else a wait for the title. */
function assertTitle(walk: Walk, title: string): void {
  const last = walk.steps.at(-1);
  const events = last && Array.isArray(last.assertedEvents) ? (last.assertedEvents as Array<{ type: string; title?: string }>) : [];
  if (events.some((e) => e.type === "navigation" && e.title === title)) return;
  if (last?.type === "navigate") {
    // A copy: the step may be the one a command kept, which the project owns.
    const asserted: FlowStep = { ...last, assertedEvents: [...events.filter((e) => e.type !== "navigation" || e.title !== undefined), { type: "navigation", title }] };
    walk.steps[walk.steps.length - 1] = asserted;
    walk.unchecked.delete(last);
    walk.unchecked.add(asserted);
    return;
  }
  place(walk, { type: "waitForExpression", expression: `document.title === ${JSON.stringify(title)}` });
}

/** A derived step in the window and frame the walk is in. */
function place(walk: Walk, step: FlowStep): void {
  const placed: FlowStep = { ...step };
  if (walk.window !== "main") placed.target = walk.window;
  if (walk.frame.length > 0 && FRAMED.has(step.type)) placed.frame = [...walk.frame];
  walk.steps.push(placed);
  walk.unchecked.add(placed);
}

/** What @puppeteer/replay's parse says of the flow's head and of the steps not checked yet, or null. */
function uncheckedProblem(flow: { steps: FlowStep[] }, unchecked: Set<FlowStep>): string | null {
  try {
    parse({ ...flow, steps: [] });
  } catch (error) {
    return (error as Error).message;
  }
  for (const [i, step] of flow.steps.entries()) {
    if (!unchecked.has(step)) continue;
    try {
      parseStep(step);
    } catch (error) {
      return `step ${i + 1}: ${(error as Error).message}`;
    }
  }
  return null;
}

const safeFileName = (title: string) => (title.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, "_").trim() || "flow") + ".json";

/** The test `testId` of the project as a flow's JSON text, or the problem (every command with no step named). */
export function testToFlow(project: SideProject, testId: string, options: FlowExportOptions = {}): FlowExport {
  const test = project.tests.find((t) => t.id === testId);
  if (!test) return { ok: false, problem: `the project has no test with id ${JSON.stringify(testId)}` };
  const settings = (test as { chromeFlow?: { timeout?: unknown; selectorAttribute?: unknown } }).chromeFlow ?? {};
  const timeout = typeof settings.timeout === "number" ? settings.timeout : undefined;
  const walk: Walk = { steps: [], frame: [], window: "main", windows: new Map(), refused: [], warnings: [], unchecked: new Set() };
  test.commands.forEach((raw, i) => {
    const c = raw as SideCommand & Extra;
    const n = i + 1;
    const original = originalSteps(c, timeout);
    if (original) {
      walk.steps.push(...original);
      return;
    }
    const name = `command ${n} "${c.command}"`;
    if (c.command.startsWith("//")) {
      walk.warnings.push(`${name} is disabled: it is left out`);
      return;
    }
    const placeOf = followPlace(walk, c);
    if (placeOf === true) return;
    if (c.command === "assertTitle") return assertTitle(walk, c.target);
    const derived = typeof placeOf === "string" ? { problem: placeOf } : commandSteps(c, project.url);
    if (derived && "steps" in derived) {
      for (const step of derived.steps) place(walk, step);
      if (derived.warning) walk.warnings.push(`${name}: ${derived.warning}`);
    } else if (options.comments) {
      const targets = Array.isArray(c.targets) && c.targets.length > 0 ? { targets: c.targets } : {};
      place(walk, { type: "customStep", name: COMMENT_STEP_NAME, parameters: { command: c.command, target: c.target, value: c.value, ...targets } });
      walk.warnings.push(`${name} has no Chrome Recorder step${derived ? ` (${derived.problem})` : ""}: written as a customStep that @puppeteer/replay skips`);
    } else {
      walk.refused.push(derived ? `${name} (${derived.problem})` : name);
    }
  });
  if (walk.refused.length > 0) {
    return { ok: false, problem: `the test "${test.name}" has commands with no Chrome Recorder step: ${walk.refused.join(", ")}; export with comments (--comments; "commands with no step as comments" in the IDE page's Export) to keep them as customSteps` };
  }
  const flow = {
    title: test.name,
    ...(timeout !== undefined ? { timeout } : {}),
    ...(typeof settings.selectorAttribute === "string" ? { selectorAttribute: settings.selectorAttribute } : {}),
    steps: walk.steps,
  };
  const problem = uncheckedProblem(flow, walk.unchecked);
  if (problem) return { ok: false, problem: `the flow written for "${test.name}" does not pass @puppeteer/replay's check: ${problem}` };
  return { ok: true, filename: safeFileName(test.name), text: `${JSON.stringify(flow, null, 2)}\n`, warnings: walk.warnings };
}
