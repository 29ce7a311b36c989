// IdeView.playback (CONTRACT sections 5, 12 and 16): the run as the UI shows it, read from
// the suite runner (the run as a whole) and the test runner playing (or the last that played).
// Everything the UI would otherwise work out for itself is said here once: whether a run is
// under way (`running`), which tests it plays (`playingTestIds`), whether Pause does anything
// now (`canPause`), and each test's result (`suite.runs`).
import { commandRows } from "../services/playback/commandTable.ts";
import type { CommandRow, CommandTable } from "../services/playback/commandTable.ts";
import type { VariableValues } from "../services/playback/variables.ts";
import { shownTestRunnerSnapshot, testRunnerSnapshotIn } from "./run.selectors.ts";
import type { SuiteRunnerSnapshot, TestRunnerSnapshot } from "./run.selectors.ts";
import { shownRunner, triedAgain } from "./suiteRunner.plays.ts";
import type { SuiteRun } from "./suiteRunner.types.ts";
import { currentCommandId, testResult } from "./testRunner.run.ts";
import { dataRowsOf } from "./run.dataRows.ts";
import type { DataRowView } from "./run.dataRows.ts";
import type { TestResult } from "./testRunner.run.ts";

export type RunStatus = "idle" | "starting" | "running" | "paused" | "finishing" | "ended";
export type RunResult = TestResult;
export type { DataRowView };

/** A test a suite has started (CONTRACT section 16). */
export interface TestRunView {
  testId: string;
  runId: string;
  /** Which try of its test: 1, then 2 and on for a failed test played again (createIde's `retries`). */
  tryNo: number;
  status: RunStatus;
  result: RunResult | null;
}

/** CONTRACT sections 5, 12 and 16. */
export interface PlaybackView {
  runId: string;
  testId: string;
  testName: string;
  /** Which try of its test the shown test is: 1, then 2 and on for a failed test played again (createIde's `retries`). */
  tryNo: number;
  status: RunStatus;
  /** True while starting, running, paused or finishing: a run is under way. */
  running: boolean;
  result: RunResult | null;
  suite: { id: string; name: string; testIndex: number; tests: string[]; runs: TestRunView[] } | null;
  currentCommandId: string | null;
  breakpoints: string[];
  delayMs: number;
  variables: Record<string, unknown>;
  commands: CommandRow[];
  /** CONTRACT section 22: the shown test's data blocks being played (loadVars … endLoadVars), outermost first; empty outside any. */
  dataRows: DataRowView[];
  /** The tests the run plays (its test, or its suite's), while it is under way; the project refuses edits of them. */
  playingTestIds: string[];
  /** Whether the user's Pause does something now: while the test starts or runs (not paused, not finishing). */
  canPause: boolean;
}

/** Where a test runner is, as a status; an ended test whose suite is not over yet is part of finishing it. */
function testStatus(test: TestRunnerSnapshot | null): RunStatus {
  if (test === null) return "starting";
  if (test.matches({ live: "starting" })) return "starting";
  if (test.matches({ live: "running" })) return "running";
  if (test.matches({ live: "paused" })) return "paused";
  return "finishing";
}

function statusOf(suite: SuiteRunnerSnapshot, test: TestRunnerSnapshot | null): RunStatus {
  if (suite.matches("ended")) return "ended";
  if (suite.matches("idle")) return "idle";
  // Telling plugins that a suite is over is part of finishing it.
  return suite.matches({ busy: "closing" }) ? "finishing" : testStatus(test);
}

/**
 * A run is `failed` when a test of it failed; else `stopped` when it was stopped before its end
 * (the user, a plugin's POST /playback/stop, the window closing), even between two tests of a
 * suite; else `passed` (CONTRACT section 9, as amended in round 3). A failed try played again
 * (createIde's `retries`) counts only through its test's last try.
 */
function runResult(run: SuiteRun, shown: TestResult): RunResult {
  if (shown === "failed" || run.runs.some((r) => r.ended?.failed && !triedAgain(run, r))) return "failed";
  return shown === "stopped" || run.stopped || run.runs.some((r) => r.ended?.end === "stopped") ? "stopped" : "passed";
}

/** Each test the run started, in the order they started: ended with its result, or where its test runner is. */
function runsOf(suite: SuiteRunnerSnapshot, run: SuiteRun): TestRunView[] {
  return run.runs.map((r) =>
    Object.freeze(
      r.ended
        ? { testId: r.testId, runId: r.runId, tryNo: r.tryNo, status: "ended" as const, result: testResult(r.ended) }
        : { testId: r.testId, runId: r.runId, tryNo: r.tryNo, status: testStatus(testRunnerSnapshotIn(suite, r.runner)), result: null },
    ),
  );
}

/** The variables as the view shows them: plain JSON. */
export function variablesAsJson(values: VariableValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    let json: unknown;
    try {
      json = value === undefined ? null : (JSON.parse(JSON.stringify(value)) ?? null);
    } catch {
      json = String(value);
    }
    Object.defineProperty(out, name, { value: json, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

// Rebuilt only when they changed: a subscribed UI gets a view after every command.
const variablesOfRun = new WeakMap<object, Record<string, unknown>>();
const rowsOfTable = new WeakMap<CommandTable, readonly CommandRow[]>();

function rowsOf(table: CommandTable): CommandRow[] {
  let rows = rowsOfTable.get(table);
  if (!rows) {
    rows = Object.freeze(commandRows(table));
    rowsOfTable.set(table, rows);
  }
  return rows as CommandRow[];
}

function variablesOf(values: VariableValues): Record<string, unknown> {
  let variables = variablesOfRun.get(values);
  if (!variables) {
    variables = Object.freeze(variablesAsJson(values));
    variablesOfRun.set(values, variables);
  }
  return variables;
}

/** The run as the UI shows it, from the suite runner's snapshot (ide.selectors.ts's suiteRunnerSnapshot). */
export function playbackView(suite: SuiteRunnerSnapshot): PlaybackView | null {
  const { run, breakpoints } = suite.context;
  const testSnapshot = shownTestRunnerSnapshot(suite);
  if (!run || !testSnapshot) return null;
  const test = testSnapshot.context.run;
  const status = statusOf(suite, testSnapshot);
  const running = status !== "ended" && status !== "idle";
  const result = status === "ended" ? runResult(run, testResult(test)) : null;
  const shown = shownRunner(run);
  const shownRun = run.runs.find((r) => r.runner === shown);
  return Object.freeze({
    runId: shownRun?.runId ?? run.runId,
    testId: test.test.id,
    testName: test.test.name,
    tryNo: shownRun?.tryNo ?? 1,
    status,
    running,
    result,
    suite:
      run.suite &&
      Object.freeze({
        id: run.suite.id,
        name: run.suite.name,
        testIndex: run.runs.findIndex((r) => r.runner === shown),
        tests: [...run.testIds],
        runs: runsOf(suite, run),
      }),
    currentCommandId: status === "ended" ? null : currentCommandId(test),
    breakpoints: breakpoints as string[],
    delayMs: test.delayMs,
    variables: variablesOf(test.variables),
    commands: rowsOf(test.commands),
    dataRows: dataRowsOf(test),
    playingTestIds: running ? [...run.testIds] : [],
    canPause: status === "starting" || status === "running",
  });
}
