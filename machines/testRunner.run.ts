// A test's run as data: pure functions from one Run to the next, which the test runner's
// named actions call. Nothing here waits, delivers or decides when; the machine does.
import { createCommandTable, rowOf, withCommandState } from "../services/playback/commandTable.ts";
import type { CommandState, HealedBy } from "../services/playback/commandTable.ts";
import { buildFlow, singleCommandProgram } from "../services/playback/flow.ts";
import type { FlowStep } from "../services/playback/flow.ts";
import { rowNote } from "../services/playback/dataLoop.ts";
import { IDE_COMMANDS } from "../services/playback/ideCommands.ts";
import type { VariableValues } from "../services/playback/variables.ts";
import type { PluginRegistry } from "../services/plugins/index.ts";
import type { SideTest } from "../services/side/index.ts";
import type { PageOutcome, Run, RunFrame, TestEnd, TestEndedFact, TestRunnerInput } from "./testRunner.types.ts";

/** How deep `run` may call tests within tests before the run says it loops. */
export const MAX_CALL_DEPTH = 32;

export const topFrame = (run: Run): RunFrame | undefined => run.frames[run.frames.length - 1];

/** The step about to execute (or executing), in the innermost test; null once the test ended. */
export function currentStep(run: Run): FlowStep | null {
  const frame = topFrame(run);
  return frame && frame.at !== null ? frame.program[frame.at] : null;
}

/** The command of the run's own test that is executing or next: a `run` while it calls another. */
export function currentCommandId(run: Run): string | null {
  const frame = run.frames[0];
  return frame && frame.at !== null ? frame.program[frame.at].command.id : null;
}

const isNested = (run: Run) => run.frames.length > 1;

/** A verify* that does not hold fails its command but lets the run go on. */
export const goesOnAfterFailure = (command: string) => command.startsWith("verify");

function withState(run: Run, commandId: string, state: CommandState, message: string | null, healed?: HealedBy, fingerprint?: unknown): Run {
  return { ...run, commands: withCommandState(run.commands, commandId, state, message, healed, fingerprint) };
}

/** Sets the state of the run's own command that is executing (the `run` one while nested). */
function withCurrentState(run: Run, state: CommandState, message: string | null): Run {
  const id = currentCommandId(run);
  return id === null ? run : withState(run, id, state, message);
}

/** Whether a test starts at all: its control flow holds (a test whose flow does not, fails unstarted). */
export function flowHolds(test: SideTest, fromCommandId?: string): boolean {
  return "program" in frameFor(test, fromCommandId);
}

/**
 * A test's first frame, or why its control flow does not hold (the command, the reason). An
 * execute (`only`) plays that one command alone, whatever the rest of the test holds.
 */
function frameFor(test: SideTest, fromCommandId?: string, only?: string): RunFrame | { commandId: string | null; reason: string } {
  if (only !== undefined) {
    const command = test.commands.find((c) => c.id === only);
    const single = command ? singleCommandProgram(command) : { ok: false as const, reason: "the test has no such command" };
    if (!single.ok) return { commandId: command ? only : null, reason: single.reason };
    return { testId: test.id, testName: test.name, program: single.program, at: 0, visits: {}, turnedBack: false };
  }
  const flow = buildFlow(test.commands);
  if (!flow.ok) return { commandId: flow.commandId, reason: flow.reason };
  const from = fromCommandId === undefined ? 0 : test.commands.findIndex((c) => c.id === fromCommandId);
  return {
    testId: test.id,
    testName: test.name,
    program: flow.program,
    at: flow.program.length === 0 ? null : Math.max(from, 0),
    visits: {},
    turnedBack: false,
  };
}

/** The run of `test`: its commands without state, variables empty (an execute's: the last run's), the user's delay. */
export function startTest(input: TestRunnerInput): Run {
  const { runId, projectName, baseUrl, heal, tests, suite, delayMs, session } = input;
  const test = tests.find((t) => t.id === input.testId)!;
  const frame = frameFor(test, input.fromCommandId, input.executeCommandId);
  const run: Run = {
    runId,
    session,
    strategies: input.strategies ?? [],
    projectName,
    baseUrl,
    heal,
    tests,
    suite,
    test,
    commands: createCommandTable(test.commands),
    frames: "program" in frame ? [frame] : [],
    variables: input.variables ?? {},
    delayMs,
    failed: false,
    end: null,
    pauseRequested: false,
    stepping: false,
    passBreakpointAt: null,
    sleepMs: 0,
    audience: [],
    untilCommandId: input.untilCommandId ?? null,
    single: input.executeCommandId !== undefined,
  };
  if ("program" in frame) return run;
  // A test whose control flow does not validate does not start (CONTRACT section 9).
  const failedRun = { ...run, failed: true, end: "failed" as const };
  const why = run.single ? `This command cannot be executed by itself: ${frame.reason}.` : `The control flow does not hold: ${frame.reason}.`;
  return frame.commandId === null ? failedRun : withState(failedRun, frame.commandId, "failed", why);
}

export type TestResult = "passed" | "failed" | "stopped";

/**
 * A test is `failed` when a command ended failed or fatal (or its start was refused); else
 * `stopped` when it was stopped before its end; else `passed` (CONTRACT section 9, as amended
 * in round 3).
 */
export const testResult = (run: Pick<Run, "failed" | "end">): TestResult =>
  run.failed ? "failed" : run.end === "stopped" ? "stopped" : "passed";

/** The test ends: no frame is left, so nothing more executes. */
export function endTest(run: Run, end: TestEnd): Run {
  return {
    ...run,
    frames: [],
    end,
    failed: run.failed || end === "failed" || end === "fatal",
    pauseRequested: false,
    stepping: false,
    passBreakpointAt: null,
    sleepMs: 0,
  };
}

/** The executing command becomes `undetermined` and the test ends (the user stopped, the window closed). */
export function stopTest(run: Run, executing: boolean): Run {
  if (run.end !== null) return run;
  const stopped = executing ? withCurrentState(run, "undetermined", "The run was stopped while this command was executing.") : run;
  return endTest(stopped, "stopped");
}

/** How long the test may play by its suite's `timeout` (CONTRACT section 22); null: no limit. */
export const suiteTimeoutMs = (run: Run): number | null => (run.suite?.timeoutS ? run.suite.timeoutS * 1000 : null);

/**
 * The suite's timeout ran out: the command executing (else the one due next) fails saying so,
 * and the test ends failed; the suite goes on with its next test.
 */
export function timeOutTest(run: Run): Run {
  if (run.end !== null) return run;
  const message = `The suite's timeout of ${run.suite?.timeoutS} s ran out while the test was playing.`;
  return endTest({ ...withCurrentState(run, "failed", message), failed: true }, "failed");
}

/** A command that starts executing shows `pending`. */
export function markPending(run: Run): Run {
  return withCurrentState(run, "pending", null);
}

/** Once over, nothing is left pending: a state a plugin never settled is `undetermined`. */
export function settlePending(run: Run): Run {
  let commands = run.commands;
  for (const chunk of run.commands.chunks) {
    for (const row of chunk) {
      if (row.state === "pending") {
        commands = withCommandState(commands, row.id, "undetermined", row.message ?? "The run ended before this command's result was known.");
      }
    }
  }
  return commands === run.commands ? run : { ...run, commands };
}

/** A plugin set a command's state (POST /playback/command); `fatal` ends a test under way. */
export function withReportedState(run: Run, commandId: string, state: CommandState, message: string | null, executing: boolean): Run {
  const reported = state === "failed" || state === "fatal" ? { ...withState(run, commandId, state, message), failed: true } : withState(run, commandId, state, message);
  if (state !== "fatal" || run.end !== null) return reported;
  const current = currentCommandId(run);
  const interrupted =
    executing && current !== null && current !== commandId
      ? withState(reported, current, "undetermined", "The run ended while this command was executing.")
      : reported;
  return endTest(interrupted, "fatal");
}

export function withVariables(run: Run, set: Record<string, unknown> | undefined): Run {
  if (!set || Object.keys(set).length === 0) return run;
  const variables: Record<string, unknown> = { ...run.variables };
  for (const [name, value] of Object.entries(set)) {
    Object.defineProperty(variables, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return { ...run, variables: variables as VariableValues };
}

function advanceTo(frame: RunFrame, to: number | null, visits: Readonly<Record<number, number>>, toHead = true): RunFrame {
  return { ...frame, at: to, visits, turnedBack: toHead && to !== null && frame.at !== null && to <= frame.at };
}

/** After a `run` command's test is over, its caller goes on after it. */
function unwind(run: Run): Run {
  let current = run;
  while (current.frames.length > 0 && topFrame(current)!.at === null) {
    if (current.frames.length === 1) return endTest(current, "completed");
    const frames = current.frames.slice(0, -1);
    const caller = frames[frames.length - 1];
    const step = caller.program[caller.at!];
    frames[frames.length - 1] = advanceTo(caller, step.next, caller.visits);
    current = { ...current, frames };
    if (frames.length === 1) {
      if (rowOf(current.commands, step.command.id)?.state === "pending") current = withState(current, step.command.id, "passed", null);
    }
  }
  return current;
}

export interface StepResult {
  state: CommandState;
  message: string | null;
  /** The command passed healed: how its element was found, and its fingerprint then. */
  healed?: HealedBy;
  healedFingerprint?: unknown;
  /** For a condition or loop: whether it holds. */
  holds?: boolean;
  /** A disabled command: the run goes past it and it keeps no state (CONTRACT section 20). */
  skipped?: boolean;
}

const score = (healed: HealedBy) => healed.score.toFixed(2);

/**
 * A page command's outcome as its step's result (CONTRACT section 18): a command that passed
 * healed (its element found by one of its `targets`, or by similarity) passes with a warning that
 * names it and the locator, while the run heals; with healing off it fails, naming the locator
 * that would have worked.
 */
export function pageStepResult(run: Run, outcome: PageOutcome): { result: StepResult; warning: string | null } {
  const result: StepResult = { state: outcome.state, message: outcome.message ?? null };
  const step = currentStep(run);
  if (!outcome.healed || outcome.state !== "passed" || !step) return { result, warning: null };
  const { command, target } = step.command;
  const position = run.commands.positions.get(step.command.id);
  const named = `${position === undefined || isNested(run) ? "" : `#${position + 1} `}${command} ${target}`;
  const { locator } = outcome.healed;
  if (!run.heal) {
    return { result: { state: "failed", message: `${command}: ${target} found nothing; ${locator} would have found the element (score ${score(outcome.healed)}), but healing is off.` }, warning: null };
  }
  return {
    result: { ...result, healed: { locator, score: outcome.healed.score }, healedFingerprint: outcome.healed.fingerprint },
    warning: `Healed ${named}: its target found nothing, ${locator} did (score ${score(outcome.healed)}). Accept it in the IDE page to make it the target.`,
  };
}

/**
 * The step that executed has a result: its state shows, a failure ends the test (but a
 * verify*'s), and the frame moves on: along a branch, out of a loop, or to the next step.
 */
export function settleStep(run: Run, result: StepResult): Run {
  const frame = topFrame(run);
  const step = currentStep(run);
  if (!frame || !step) return run;
  const nestedNote = isNested(run) ? ` (in "${frame.testName}", ${step.command.command} ${step.command.target})` : "";
  // A failure inside a data block names the row(s) being played (CONTRACT section 22).
  const rows = rowNote(run.frames.flatMap((f) => Object.values(f.data ?? {})));
  if (rows !== "" && (result.state === "failed" || result.state === "fatal")) result = { ...result, message: `${rows}${result.message ?? result.state}` };
  let next = run;
  if (!isNested(run)) {
    if (!result.skipped) next = withState(next, step.command.id, result.state, result.message, result.healed, result.healedFingerprint);
  }
  else if (result.state === "failed" || result.state === "fatal") {
    next = withCurrentState(next, result.state, `${result.message ?? result.state}${nestedNote}`);
  }
  if (result.state === "fatal") return endTest(next, "fatal");
  if (result.state === "failed") {
    if (!goesOnAfterFailure(step.command.command)) return endTest(next, "failed");
    next = { ...next, failed: true };
  }
  const at = frame.at!;
  let to: number | null = step.next;
  let visits = frame.visits;
  const isLoop = step.loopLimit !== null;
  if (step.kind === "break" && step.breaks !== null) {
    to = frame.program[step.breaks].whenFalse;
    visits = { ...visits, [step.breaks]: 0 };
  } else if (result.holds !== undefined) {
    to = result.holds ? step.whenTrue : step.whenFalse;
    if (isLoop) visits = { ...visits, [at]: result.holds ? (visits[at] ?? 0) + 1 : 0 };
  }
  const frames = next.frames.slice();
  // endLoadVars goes back to its block's first step, no loop's head: a breakpoint there pauses at every row.
  frames[frames.length - 1] = advanceTo(frame, to, visits, step.kind !== "endLoadVars");
  // The breakpoint resumed or stepped at is passed once: the next time its command comes round (a loop's next turn), it pauses again.
  if (next.passBreakpointAt === step.command.id) next = { ...next, passBreakpointAt: null };
  return unwind({ ...next, frames });
}

/** `run` reached: the called test is played next with the same variables, or the command fails. */
export function callTest(run: Run, name: string): Run {
  const test = run.tests.find((t) => t.name === name);
  if (!test) return settleStep(run, { state: "failed", message: `The project has no test named "${name}".` });
  if (run.frames.length >= MAX_CALL_DEPTH) {
    return settleStep(run, { state: "failed", message: `Tests call each other more than ${MAX_CALL_DEPTH} deep; is there a loop?` });
  }
  const frame = frameFor(test);
  if (!("program" in frame)) {
    return settleStep(run, { state: "failed", message: `The control flow of "${name}" does not hold: ${frame.reason}.` });
  }
  return unwind({ ...run, frames: [...run.frames, frame] });
}

/** How often the loop at the current step has turned. */
export function visitsHere(run: Run): number {
  const frame = topFrame(run);
  return frame && frame.at !== null ? (frame.visits[frame.at] ?? 0) : 0;
}

/** The run pauses before the next step: the user asked, a step is done, a breakpoint is there, or "Play to here"'s command. */
export function pausesBeforeNext(run: Run, breakpoints: readonly string[]): boolean {
  if (run.pauseRequested || reachedUntil(run)) return true;
  const frame = topFrame(run);
  const step = currentStep(run);
  if (!frame || !step || frame.turnedBack) return false;
  return breakpoints.includes(step.command.id) && run.passBreakpointAt !== step.command.id;
}

/** "Play to here": the run's own test is about to play the command it plays to. */
export const reachedUntil = (run: Run) => run.untilCommandId !== null && !isNested(run) && currentCommandId(run) === run.untilCommandId;

/** Paused at "Play to here"'s command: it has done its work, so resuming or stepping goes on as from a breakpoint. */
export const passUntil = (run: Run): Run => (reachedUntil(run) ? { ...run, untilCommandId: null } : run);

/** What to tell the user when a test played to its end without reaching "Play to here"'s command (a branch not taken), else null. */
export function untilNotReachedNote(run: Run): string | null {
  if (run.untilCommandId === null || run.end !== "completed") return null;
  const position = run.commands.positions.get(run.untilCommandId);
  const named = position === undefined ? `"${run.untilCommandId}"` : `#${position + 1}`;
  return `Play to here: the test ended without reaching command ${named}; it lies in a branch that was not taken.`;
}

/** Whether the IDE itself executes this step: control flow, and its own commands unless a plugin declared the name. */
export function isIdeStep(step: FlowStep, plugins: PluginRegistry): boolean {
  return step.kind !== "command" ? step.kind !== "condition" : IDE_COMMANDS.has(step.command.command) && !ownerOf(plugins, step.command.command);
}

/** The loop at the current step has turned as often as its limit allows. */
export function loopLimitReached(run: Run): boolean {
  const step = currentStep(run)!;
  return step.loopLimit !== null && visitsHere(run) >= step.loopLimit;
}

/** The plugin that declared a command with this name, if any (CONTRACT section 9). */
export const ownerOf = (plugins: PluginRegistry, command: string) =>
  plugins.find((p) => (p.registration.commands ?? []).some((c) => c.id === command));

/** The plugins as a run tells them: id and name. */
export const pluginsOf = (plugins: PluginRegistry) => plugins.map((p) => ({ id: p.id, name: p.registration.name }));

/** Who is told this test started, and so who is told it stopped. */
export function withAudience(run: Run, plugins: ReadonlyArray<{ id: string; name: string }>): Run {
  return { ...run, audience: plugins };
}

/** What the suite runner hears once the test is over (sendParent). */
export function endedFact(run: Run, runner: string, started: boolean): TestEndedFact {
  return { type: "test.ended", runner, testId: run.test.id, end: run.end ?? "completed", failed: run.failed, started, audience: run.audience, variables: run.variables };
}
