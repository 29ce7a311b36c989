// The control flow of one test, built once per test and never changed: which command comes
// after which, and where each block (if, while, times, forEach, do/repeatIf, loadVars) branches.
//
// The links and the syntax check are Selenium IDE's own (side-runtime's playback tree), so a
// `.side` file means here what it means there. Its command nodes also carry visit counters
// and execute themselves; the run machine keeps its counters in its own context instead and
// decides what runs, so only the links are copied out into plain, frozen steps.
import { createPlaybackTree } from "@seleniumhq/side-runtime/dist/playback-tree/index.js";
import type { SideCommand } from "../side/index.ts";
import { messageOf } from "../errors.ts";

/** How the run machine treats a command, by its name. */
export type StepKind =
  | "condition" // if, elseIf, while, repeatIf: a JavaScript condition in the page under test
  | "times"
  | "forEach"
  | "loadVars" // reads its data file (the `readData` port); plays the block once per row
  | "endLoadVars" // the next row, back to the block's first step; after the last, on
  | "jump" // else, do, end and an empty command: nothing to do but go on
  | "break"
  | "skip" // a disabled command (`skip`, or a name starting with //): it keeps no state
  | "command"; // anything else: the IDE's own, a plugin's, or the page's

export interface FlowStep {
  readonly index: number;
  readonly command: SideCommand;
  readonly kind: StepKind;
  /** The step after this one when it does not branch; null at the end of the test. */
  readonly next: number | null;
  /** Where a condition or loop goes when it holds (Selenium's `right`). */
  readonly whenTrue: number | null;
  /** Where it goes when it does not (Selenium's `left`). */
  readonly whenFalse: number | null;
  /** For a loop: its the retry limit (the command's value, else 1,000, as in Selenium IDE). */
  readonly loopLimit: number | null;
  /** For `break`: the loop it leaves. */
  readonly breaks: number | null;
  /** For `endLoadVars`: its `loadVars`. */
  readonly opens?: number;
}

export type FlowProgram = ReadonlyArray<FlowStep>;

export type FlowBuild = { ok: true; program: FlowProgram } | { ok: false; commandId: string | null; reason: string };

const CONDITIONS = new Set(["if", "elseIf", "while", "repeatIf"]);
const LOOPS = new Set(["while", "times", "forEach", "repeatIf"]);
const JUMPS = new Set(["else", "do", "end", ""]);

/** The names the IDE treats as control flow (CONTRACT section 9). */
export const FLOW_COMMANDS: ReadonlySet<string> = new Set([
  "if", "elseIf", "else", "while", "do", "repeatIf", "times", "forEach", "end", "break", "loadVars", "endLoadVars",
]);

/** A disabled command (CONTRACT section 20, v3's form: its name starts with `//`; side-runtime's `skip` too): no player plays it. */
export const isDisabled = (c: Pick<SideCommand, "command">) => Boolean((c as { skip?: unknown }).skip) || c.command.startsWith("//");

function kindOf(c: SideCommand): StepKind {
  if (isDisabled(c)) return "skip";
  if (CONDITIONS.has(c.command)) return "condition";
  if (c.command === "times") return "times";
  if (c.command === "forEach") return "forEach";
  if (c.command === "loadVars" || c.command === "endLoadVars") return c.command;
  if (c.command === "break") return "break";
  if (JUMPS.has(c.command)) return "jump";
  return "command";
}

function loopLimitOf(c: SideCommand): number {
  const value = Math.floor(Number(c.value));
  return c.value && !Number.isNaN(value) ? value : 1_000;
}

/**
 * The loop each `break` leaves: the innermost open while/times/forEach/do around it. Selenium
 * IDE's tree has no `break`, so its links treat it as a plain command; this finds its target.
 */
function breakTargets(commands: ReadonlyArray<SideCommand>): Map<number, number> | { at: number; reason: string } {
  const open: Array<{ index: number; command: string }> = [];
  const doTail = new Map<number, number>(); // do → its repeatIf
  const breaks: Array<{ at: number; loop: number }> = [];
  commands.forEach((c, index) => {
    if (isDisabled(c)) return;
    if (["if", "while", "times", "forEach", "do", "try", "loadVars"].includes(c.command)) open.push({ index, command: c.command });
    else if (c.command === "end" || c.command === "endLoadVars") open.pop();
    else if (c.command === "repeatIf") {
      const top = open.pop();
      if (top) doTail.set(top.index, index);
    } else if (c.command === "break") {
      const loop = [...open].reverse().find((b) => b.command !== "if" && b.command !== "try");
      breaks.push({ at: index, loop: loop ? loop.index : -1 });
    }
  });
  const targets = new Map<number, number>();
  for (const b of breaks) {
    if (b.loop === -1) return { at: b.at, reason: "break is only allowed inside a loop" };
    // A data block's rows are not a loop one can leave half-way: its variables would stay the row's.
    if (commands[b.loop].command === "loadVars") return { at: b.at, reason: "break cannot leave a loadVars block (put the loop inside it)" };
    // A do-loop is left through its repeatIf, whose false branch is the way out.
    targets.set(b.at, doTail.get(b.loop) ?? b.loop);
  }
  return targets;
}

type TreeNode = { index: number; next?: TreeNode; left?: TreeNode; right?: TreeNode };

/** Every name side-runtime's tree treats as a block or a branch (`try` included), and `break`. */
const TREE_COMMANDS: ReadonlySet<string> = new Set([...FLOW_COMMANDS, "try"]);

// A test's commands array is never changed in place (edits make a new project), so its
// program is built once and kept while the array lives: a second run of a 10,000-command
// test does not build it again.
const built = new WeakMap<ReadonlyArray<SideCommand>, FlowBuild>();

/** The program of a test, or why its control flow does not hold together. */
export function buildFlow(commands: ReadonlyArray<SideCommand>): FlowBuild {
  let result = built.get(commands);
  if (!result) {
    result = commands.some((c) => TREE_COMMANDS.has(c.command)) ? buildTree(commands) : straightLine(commands);
    built.set(commands, result);
  }
  return result;
}

/**
 * A test without control flow runs from its first command to its last: the tree would link
 * them the same way, but side-runtime derives its levels in quadratic time, which costs
 * about 0.1 s for 10,000 commands.
 */
function straightLine(commands: ReadonlyArray<SideCommand>): FlowBuild & { ok: true } {
  const program = commands.map(
    (command, index): FlowStep =>
      Object.freeze({
        index,
        command,
        kind: kindOf(command),
        next: index + 1 < commands.length ? index + 1 : null,
        whenTrue: null,
        whenFalse: null,
        loopLimit: null,
        breaks: null,
      }),
  );
  return { ok: true, program: Object.freeze(program) };
}

/**
 * Each loadVars with its endLoadVars (by index), or the command where they do not pair: a data
 * block nests inside the other blocks and they inside it, but neither closes the other.
 */
function dataBlocks(commands: ReadonlyArray<SideCommand>): Map<number, number> | { at: number; reason: string } {
  const open: Array<{ index: number; command: string }> = [];
  const pairs = new Map<number, number>();
  for (const [index, c] of commands.entries()) {
    if (isDisabled(c)) continue;
    if (["if", "while", "times", "forEach", "do", "try", "loadVars"].includes(c.command)) open.push({ index, command: c.command });
    else if (c.command === "end" || c.command === "repeatIf") {
      if (open[open.length - 1]?.command === "loadVars") return { at: index, reason: `${c.command} cannot close loadVars: close it with endLoadVars first` };
      open.pop();
    } else if (c.command === "endLoadVars") {
      const top = open.pop();
      if (!top) return { at: index, reason: "endLoadVars without loadVars before it" };
      if (top.command !== "loadVars") return { at: index, reason: `endLoadVars inside an open ${top.command} block (close the ${top.command} first)` };
      pairs.set(index, top.index);
    }
  }
  const unclosed = open.find((b) => b.command === "loadVars");
  return unclosed ? { at: unclosed.index, reason: "loadVars without endLoadVars after it" } : pairs;
}

/**
 * A data block's links: loadVars goes into its block when the file has rows (`whenTrue`), else
 * past its endLoadVars (`whenFalse`); endLoadVars goes back to the block's first step while
 * rows are left, then on. Side-runtime's tree linked both as plain commands.
 */
function dataStep(nodes: TreeNode[], blocks: Map<number, number>, index: number, command: SideCommand, kind: "loadVars" | "endLoadVars"): FlowStep {
  const base = { index, command, kind, next: nodes[index].next?.index ?? null, loopLimit: null, breaks: null };
  if (kind === "endLoadVars") {
    const opens = blocks.get(index)!;
    return Object.freeze({ ...base, whenTrue: opens + 1, whenFalse: base.next, opens });
  }
  const end = [...blocks].find(([, start]) => start === index)![0];
  return Object.freeze({ ...base, whenTrue: base.next, whenFalse: nodes[end].next?.index ?? null });
}

function buildTree(commands: ReadonlyArray<SideCommand>): FlowBuild {
  let nodes: TreeNode[];
  try {
    nodes = createPlaybackTree(commands as never).nodes as unknown as TreeNode[];
  } catch (error) {
    const at = (error as { index?: unknown }).index;
    const command = typeof at === "number" ? commands[at] : undefined;
    return { ok: false, commandId: command?.id ?? null, reason: messageOf(error) };
  }
  const targets = breakTargets(commands);
  if (!(targets instanceof Map)) {
    return { ok: false, commandId: commands[targets.at].id, reason: targets.reason };
  }
  const blocks = dataBlocks(commands);
  if (!(blocks instanceof Map)) return { ok: false, commandId: commands[blocks.at].id, reason: blocks.reason };
  const program = nodes.map((node, index): FlowStep => {
    const command = commands[index];
    const kind = kindOf(command);
    if (kind === "loadVars" || kind === "endLoadVars") return dataStep(nodes, blocks, index, command, kind);
    return Object.freeze({
      index,
      command,
      kind,
      next: node.next?.index ?? null,
      whenTrue: node.right?.index ?? null,
      whenFalse: node.left?.index ?? null,
      loopLimit: LOOPS.has(command.command) && kind !== "skip" ? loopLimitOf(command) : null,
      breaks: targets.get(index) ?? null,
    });
  });
  return { ok: true, program: Object.freeze(program) };
}

/**
 * "Execute this command" (CONTRACT section 20): a program of that one command alone, or why it
 * cannot be played by itself. A block or branch means nothing without the rest of its test (as
 * in Selenium IDE v3, which refuses them too); a disabled command is not played at all.
 */
export function singleCommandProgram(command: SideCommand): { ok: true; program: FlowProgram } | { ok: false; reason: string } {
  if (isDisabled(command)) return { ok: false, reason: "it is disabled (enable it first)" };
  if (TREE_COMMANDS.has(command.command)) {
    return { ok: false, reason: `${command.command} is control flow, which means nothing by itself: use Play from here, or play the whole test` };
  }
  return straightLine([command]);
}

/** Where a loop leaves to: its false branch. */
export const exitOf = (program: FlowProgram, loop: number): number | null => program[loop].whenFalse;
