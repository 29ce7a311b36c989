import type { CommandState, CommandTable, HealedBy } from "../services/playback/commandTable.ts";
import type { DataLoop, DataRow } from "../services/playback/dataLoop.ts";
import type { FlowProgram } from "../services/playback/flow.ts";
import type { StrategyDeclaration } from "../services/locators/strategies.ts";
import type { IdeOutcome } from "../services/playback/ideCommands.ts";
import type { Delivery } from "../services/playback/pluginAnswer.ts";
import type { VariableValues } from "../services/playback/variables.ts";
import type { PluginRegistry } from "../services/plugins/index.ts";
import type { SideCommand, SideTest } from "../services/side/index.ts";
import type { LogWrittenEvent, RequestAnsweredEvent, RequestRef } from "./shared.types.ts";
import type { UserEventOf } from "./userEvents.schema.ts";

/** One test being played: the run's test, or one that a `run` command called. */
export interface RunFrame {
  readonly testId: string;
  readonly testName: string;
  readonly program: FlowProgram;
  /** The step to execute next; null when the test has no more. */
  readonly at: number | null;
  /** How often each loop has turned, by step index; a loop that is left starts again at 0. */
  readonly visits: Readonly<Record<number, number>>;
  /** `at` was reached by a loop turning back to its head: its breakpoint does not stop it again. */
  readonly turnedBack: boolean;
  /** The data blocks being played (loadVars … endLoadVars), by their loadVars' index. */
  readonly data?: Readonly<Record<number, DataLoop>>;
}

/** Why the test being played ended. */
export type TestEnd = "completed" | "failed" | "fatal" | "stopped";

export interface Run {
  readonly runId: string;
  readonly projectName: string;
  /** The project's `url`: where `open` resolves relative paths. */
  readonly baseUrl: string;
  /** TestRunnerInput's `heal`. */
  readonly heal: boolean;
  /** Every test of the project, for `run`. */
  readonly tests: readonly SideTest[];
  /** The suite this test is played in, if any (see TestRunnerInput). */
  readonly suite: TestRunnerInput["suite"];
  /** The browser session its page commands play in (TestRunnerInput's `session`). */
  readonly session?: string;
  /** TestRunnerInput's `strategies`: kept for the whole test, whatever plugins come and go. */
  readonly strategies: readonly StrategyDeclaration[];
  readonly test: SideTest;
  /** The commands of `test` with their states: what the view shows. */
  readonly commands: CommandTable;
  /** The call stack: frames[0] plays `test`; a `run` command pushes one. Empty once it ended. */
  readonly frames: readonly RunFrame[];
  readonly variables: VariableValues;
  readonly delayMs: number;
  /** A command of this test ended failed or fatal, or its start was refused. */
  readonly failed: boolean;
  readonly end: TestEnd | null;
  /** Pause before the next command (the user paused, or a step is done). */
  readonly pauseRequested: boolean;
  /** Pause once the command about to execute is done (the user stepped). */
  readonly stepping: boolean;
  /** The command the user resumed or stepped at: its breakpoint is passed once. */
  readonly passBreakpointAt: string | null;
  /** `pause`: how long the run waits before its next command. */
  readonly sleepMs: number;
  /** "Play to here": the command the run pauses before, once, as a breakpoint would; null once reached (or none). */
  readonly untilCommandId: string | null;
  /** "Execute this command": the run plays that one command of its test, and plugins hear no start or end of it. */
  readonly single: boolean;
  /**
   * The plugins told playbackStarted for this test: they, and only they, hear its
   * playbackStopped, even if the window closed and dropped them meanwhile.
   */
  readonly audience: ReadonlyArray<{ id: string; name: string }>;
}

export interface TestRunnerContext {
  /** The plugins registered now, as the suite runner heard from the root. */
  plugins: PluginRegistry;
  /** Command ids the user put a breakpoint on. */
  breakpoints: readonly string[];
  run: Run;
  /** Commands since the run last let the event loop turn (see YIELD_EVERY in the machine). */
  stepsSinceYield: number;
}

/** What the suite runner starts a test runner with. */
export interface TestRunnerInput {
  /** The id plugins see in this test's playbackStarted and playbackStopped. */
  runId: string;
  projectName: string;
  baseUrl: string;
  /** Whether a command healed by its `targets` or by similarity passes (else it fails naming the locator that would have worked). */
  heal: boolean;
  tests: readonly SideTest[];
  testId: string;
  fromCommandId?: string;
  /** "Play to here": pause before this command, once. */
  untilCommandId?: string;
  /** "Execute this command": play this one command of the test, and nothing else. */
  executeCommandId?: string;
  /** The variables it starts with (an execute's are those the last run ended with); none by default. */
  variables?: VariableValues;
  /**
   * The suite this test belongs to: its name goes into the test's messages, and `announce`
   * holds the suite's tests when this test is the suite's first to start, so that it tells
   * suitePlaybackStarted just before its own playbackStarted (null for the later tests);
   * `runId` is the suite run's own id, which suitePlaybackStarted carries.
   */
  suite: { name: string; runId: string; announce: readonly SideTest[] | null; timeoutS?: number | null } | null;
  /**
   * The browser session its page commands play in: the same for the tests of a persistSession
   * suite, one of its own for any other suite's test (a fresh session), none for a test played
   * alone (the page under test keeps the browser it has). CONTRACT section 22.
   */
  session?: string;
  /** The locator strategies its commands may use, taken when the run started (CONTRACT section 23); none by default. */
  strategies?: readonly StrategyDeclaration[];
  plugins: PluginRegistry;
  breakpoints: readonly string[];
  delayMs: number;
}

/** What the suite runner sends a test runner: the requests and user events it routes, and settings that changed. */
export type TestRunnerEvent =
  | { type: "plugins.changed"; plugins: PluginRegistry }
  | { type: "breakpoints.changed"; breakpoints: readonly string[] }
  | { type: "delay.changed"; delayMs: number }
  /** The user's Stop, a plugin's POST /playback/stop, the window closing: all the same to a test. */
  | { type: "run.stop" }
  | UserEventOf<"user.pausePlayback" | "user.resumePlayback" | "user.stepPlayback">
  | CommandStateRequest
  | SetVariableRequest;

export type CommandStateRequest = { type: "request.commandState"; commandId: string; state: CommandState; message: string | null } & RequestRef;
export type SetVariableRequest = { type: "request.setVariable"; name: string; value: unknown } & RequestRef;

/**
 * What a test runner tells its suite runner (sendParent) once its test is over: how it ended,
 * and whether plugins heard its start (then `audience` are those that did).
 */
export interface TestEndedFact {
  type: "test.ended";
  /** The test runner's own id among the suite runner's children. */
  runner: string;
  testId: string;
  end: TestEnd;
  failed: boolean;
  started: boolean;
  audience: ReadonlyArray<{ id: string; name: string }>;
  /** The variables it ended with: what an "Execute this command" afterwards starts with. */
  variables: VariableValues;
}

/** What a test runner emits for the outside: answers to the requests routed to it, and log entries. */
export type TestRunnerEmitted = RequestAnsweredEvent | LogWrittenEvent;

/** What a page command or a condition is handed: the command as written, and the run's variables. */
export interface PageCommandInput {
  command: SideCommand;
  variables: VariableValues;
  baseUrl: string;
  /** The run it belongs to: an executor whose page died keeps saying so to that run, and starts anew for the next. */
  runId?: string;
  /** The browser session to play in (TestRunnerInput's `session`): one that served another is replaced by a fresh one. */
  session?: string;
  /** The run's locator strategies: the port hands the executor their locators as css=/xpath= (services/playback/strategies.ts). */
  strategies?: readonly StrategyDeclaration[];
}

/** What the page under test made of a command: its state, and variables it stored. */
export interface PageOutcome {
  state: CommandState;
  message?: string | null;
  variables?: Record<string, unknown>;
  /** The command's element was found by something other than its target (CONTRACT section 18), and its fingerprint now. */
  healed?: HealedBy & { fingerprint?: unknown };
}

export type { HealedBy } from "../services/playback/commandTable.ts";

/** What `loadVars` asks the host for: its data file's rows (the host reads and parses it). */
export interface ReadDataInput {
  /** The command's target with variables put in: the file's path as written. */
  file: string;
  runId?: string;
}

export type { DataRow };

export interface ConditionInput {
  script: string;
  argv: unknown[];
  baseUrl: string;
  runId?: string;
  session?: string;
}

export interface PluginCommandInput {
  pluginId: string;
  message: ExecuteMessage;
}

export interface TellPluginsInput {
  plugins: ReadonlyArray<{ id: string; name: string }>;
  /** Delivered in order to each plugin, each answer awaited (bounded) before the next. */
  messages: RunEventMessage[];
}

export type TellPluginsOutput = ReadonlyArray<{ pluginId: string; name: string; delivery: Delivery }>;

export type { Delivery, IdeOutcome };

/** CONTRACT section 10. */
export interface ExecuteMessage {
  action: "execute";
  command: { command: string; target: string; value: string };
  options: {
    runId: string;
    testId: string;
    originalTestId: string;
    commandId: string;
    isNested: boolean;
    assertionsDisabled: boolean;
    tabId: number | null;
    windowId: number | null;
    frameId: number | null;
  };
}

/** CONTRACT sections 8 and 9: what plugins hear of a run. */
export interface RunEventMessage {
  action: "event";
  event: "playbackStarted" | "playbackStopped" | "suitePlaybackStarted" | "suitePlaybackStopped";
  options: Record<string, unknown>;
}

