// A Chrome Recorder flow (CONTRACT section 23) as a project of one test: the flow is checked by
// @puppeteer/replay's own parse (each step by its parseStep, so a problem names its step), and
// each step becomes the command that plays it (steps.ts), with the commands that say which
// window and frame it acts in before it (selectWindow and selectFrame, as our recorder writes
// them). A step no command plays is kept as a disabled command whose description says why, and
// named in a warning. Every command keeps its step as the file had it (`chromeStep`, or
// `chromeSteps` for a run of keys), so export writes it back unchanged while the command is
// what import made of it (frozen: checked.ts). Pure: the caller reads the file.
import { parse } from "@puppeteer/replay";
import type { Step } from "@puppeteer/replay";
import { newProject } from "../side/newProject.ts";
import type { SideCommand, SideProject } from "../side/index.ts";
import { readStep, rememberMade } from "./checked.ts";
import { keysValue, stepCommand } from "./steps.ts";

export type FlowImport = { ok: true; project: SideProject; warnings: string[] } | { ok: false; problem: string };

const ROOT_WINDOW = "win_ser_local";
const FRAMED = new Set(["click", "doubleClick", "hover", "change", "scroll", "waitForElement", "waitForExpression", "customStep"]);
const newId = () => globalThis.crypto.randomUUID();
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The flow checked by @puppeteer/replay, with each step as the file had it; or where it is wrong. */
export function checkFlow(data: unknown): { ok: true; title: string; timeout?: number; selectorAttribute?: string; steps: Step[]; raw: Record<string, unknown>[] } | { ok: false; problem: string } {
  let head;
  try {
    // The flow without its steps first, so a step's problem can be given with its number.
    head = parse(isRecord(data) && Array.isArray(data.steps) ? { ...data, steps: [] } : data);
  } catch (error) {
    return { ok: false, problem: `@puppeteer/replay refuses it: ${messageOf(error)}` };
  }
  const rawSteps = (data as { steps: unknown[] }).steps;
  const steps: Step[] = [];
  const raw: Record<string, unknown>[] = [];
  for (const [i, one] of rawSteps.entries()) {
    try {
      const read = readStep(one);
      steps.push(read.step);
      raw.push(read.kept);
    } catch (error) {
      return { ok: false, problem: `step ${i + 1} is not a Chrome Recorder step: ${messageOf(error)}` };
    }
  }
  return { ok: true, title: head.title, timeout: head.timeout, selectorAttribute: head.selectorAttribute, steps, raw };
}

interface Walk {
  commands: SideCommand[];
  warnings: string[];
  frame: number[];
  window: string;
  windows: Map<string, string>;
  rootStored: boolean;
  /** The last command a step played: the one that opens a window the next step acts in. */
  lastPlayed: SideCommand | null;
  /** The target of the last step that acted on an element: where keys go (the focused element). */
  lastElement: string | null;
}

const command = (name: string, target = "", value = "", extra: Record<string, unknown> = {}): SideCommand => ({ id: newId(), command: name, target, value, ...extra });

/** The selectWindow (and, for a window not seen yet, the marks on the command that opened it) before a step in `target`. */
function enterWindow(walk: Walk, target: string, n: number): void {
  if (target === walk.window) return;
  if (target === "main") {
    walk.commands.push(command("selectWindow", `handle=\${${ROOT_WINDOW}}`));
  } else {
    let name = walk.windows.get(target);
    if (name === undefined) {
      const opener = walk.lastPlayed;
      if (opener === null) {
        walk.warnings.push(`step ${n} acts in the window at ${target}, which no step before opened: it plays in the first window`);
        return;
      }
      name = `win_ser_${walk.windows.size + 1}`;
      walk.windows.set(target, name);
      Object.assign(opener, { opensWindow: true, windowHandleName: name });
      if (!walk.rootStored && walk.window === "main") {
        walk.commands.splice(walk.commands.indexOf(opener), 0, command("storeWindowHandle", ROOT_WINDOW));
        walk.rootStored = true;
      }
    }
    walk.commands.push(command("selectWindow", `handle=\${${name}}`, "", { chromeTarget: target }));
  }
  walk.window = target;
  walk.frame = [];
}

function enterFrame(walk: Walk, frame: number[]): void {
  if (frame.join() === walk.frame.join()) return;
  if (walk.frame.length > 0) walk.commands.push(command("selectFrame", "relative=top"));
  for (const index of frame) walk.commands.push(command("selectFrame", `index=${index}`));
  walk.frame = [...frame];
}

/** The flow as a project named after its file (`fileName` without `.json`), holding one test named by the flow's title. */
export function flowToProject(data: unknown, fileName: string): FlowImport {
  const flow = checkFlow(data);
  if (!flow.ok) return flow;
  const walk: Walk = { commands: [], warnings: [], frame: [], window: "main", windows: new Map(), rootStored: false, lastPlayed: null, lastElement: null };
  for (let i = 0; i < flow.steps.length; i++) {
    const step = flow.steps[i];
    const n = i + 1;
    enterWindow(walk, "target" in step && step.target ? step.target : "main", n);
    if (step.type === "keyDown" || step.type === "keyUp") {
      let end = i;
      while (end + 1 < flow.steps.length && isKeyStepIn(flow.steps[end + 1], step.target)) end++;
      keys(walk, flow.steps.slice(i, end + 1) as KeyStep[], flow.raw.slice(i, end + 1), n);
      i = end;
      continue;
    }
    if (FRAMED.has(step.type)) enterFrame(walk, ("frame" in step && step.frame) || []);
    const mapped = stepCommand(step, flow.raw[i], flow.timeout);
    if (mapped.kind === "problem") return { ok: false, problem: `step ${n} (${step.type}): ${mapped.problem}` };
    if (mapped.kind === "kept") {
      walk.warnings.push(`step ${n} (${step.type}): ${mapped.reason}; kept as a disabled command`);
      walk.commands.push(command(`//${step.type}`, mapped.target, "", { comment: `Chrome Recorder step ${n} (${step.type}) does not play: ${mapped.reason}.`, chromeStep: flow.raw[i] }));
      continue;
    }
    const { played } = mapped;
    for (const note of played.notes) walk.warnings.push(`step ${n} (${step.type}): ${note}`);
    const made = command(played.command, played.target, played.value, { ...(played.targets ? { targets: played.targets } : {}), chromeStep: flow.raw[i] });
    walk.commands.push(made);
    rememberMade(flow.raw[i], { command: played.command, target: played.target, value: played.value, timeout: flow.timeout });
    walk.lastPlayed = made;
    if (played.targets) walk.lastElement = played.target;
    for (const event of step.assertedEvents ?? []) {
      if (event.type === "navigation" && event.title !== undefined) walk.commands.push(command("assertTitle", event.title));
    }
  }
  return { ok: true, project: projectOf(flow, walk.commands, fileName), warnings: walk.warnings };
}

type KeyStep = Extract<Step, { type: "keyDown" | "keyUp" }>;
const isKeyStepIn = (step: Step, target: string | undefined) => (step.type === "keyDown" || step.type === "keyUp") && (step.target ?? "main") === (target ?? "main");

/** A run of keys as one sendKeys to the element the step before acted on (the one focused then). */
function keys(walk: Walk, steps: KeyStep[], raw: Record<string, unknown>[], n: number): void {
  const target = walk.lastElement ?? "css=body";
  const said = keysValue(steps);
  if ("unsaid" in said) {
    const reason = `the key ${JSON.stringify(said.unsaid)} has no Selenium key variable`;
    walk.warnings.push(`steps ${n} to ${n + steps.length - 1} (keyDown/keyUp): ${reason}; kept as a disabled command`);
    walk.commands.push(command("//sendKeys", target, "", { comment: `Chrome Recorder steps ${n} to ${n + steps.length - 1} (keys) do not play: ${reason}.`, chromeSteps: raw }));
    return;
  }
  const made = command("sendKeys", target, said.value, { chromeSteps: raw });
  walk.commands.push(made);
  walk.lastPlayed = made;
}

function projectOf(flow: { title: string; timeout?: number; selectorAttribute?: string; steps: Step[] }, commands: SideCommand[], fileName: string): SideProject {
  const project = newProject();
  const first = flow.steps.find((s) => s.type === "navigate");
  let url = "";
  try {
    if (first) url = new URL(first.url).origin;
  } catch {
    url = "";
  }
  if (url === "null") url = "";
  const test = project.tests[0];
  test.name = flow.title;
  test.commands = commands;
  // The flow's own settings, which no .side field holds, so export writes them back.
  const settings = { ...(flow.timeout !== undefined ? { timeout: flow.timeout } : {}), ...(flow.selectorAttribute !== undefined ? { selectorAttribute: flow.selectorAttribute } : {}) };
  if (Object.keys(settings).length > 0) Object.assign(test, { chromeFlow: settings });
  return { ...project, name: fileName.replace(/\.json$/i, "") || flow.title, url, urls: url ? [url] : [] };
}
