import type { CommandState, CommandTable } from "../services/playback/commandTable.ts";
import type { FlowProgram } from "../services/playback/flow.ts";
import type { IdeOutcome } from "../services/playback/ideCommands.ts";
import type { Delivery } from "../services/playback/pluginAnswer.ts";
import type { VariableValues } from "../services/playback/variables.ts";
import type { PluginRegistry } from "../services/plugins/index.ts";
import type { SideCommand, SideTest } from "../services/side/index.ts";
import type { LogWrittenEvent, RequestAnsweredEvent, RequestRef } from "./shared.types.ts";

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
}

export interface SuiteRun {
  readonly id: string;
  readonly name: string;
  readonly testIds: readonly string[];
  readonly testIndex: number;
  /** A test of the suite ended failed or fatal. */
  readonly failed: boolean;
  /** Plugins heard suitePlaybackStarted (a first test whose control flow is broken does not start). */
  readonly announced: boolean;
  /** The user stopped, or the window closed, between two of its tests: no further test starts. */
  readonly stopped: boolean;
  /** The plugins told suitePlaybackStarted: they, and only they, hear suitePlaybackStopped. */
  readonly audience: ReadonlyArray<{ id: string; name: string }>;
}

/** Why the test being played ended. */
export type TestEnd = "completed" | "failed" | "fatal" | "stopped";

export interface Run {
  readonly runId: string;
  readonly projectName: string;
  /** The project's `url`: where `open` resolves relative paths. */
  readonly baseUrl: string;
  /** Every test of the project, for `run` and for the suite's next test. */
  readonly tests: readonly SideTest[];
  readonly suite: SuiteRun | null;
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
  /** POST /playback/stop requests, answered when the run is over. */
  readonly stopWaiters: readonly number[];
  /** `pause`: how long the run waits before its next command. */
  readonly sleepMs: number;
  /**
   * The plugins told playbackStarted for this test: they, and only they, hear its
   * playbackStopped, even if the window closed and dropped them meanwhile.
   */
  readonly audience: ReadonlyArray<{ id: string; name: string }>;
}

export interface PlaybackContext {
  /** The plugins registered now, as the root knows them. */
  plugins: PluginRegistry;
  /** Command ids the user put a breakpoint on; kept across runs. */
  breakpoints: readonly string[];
  /** The user's delay between commands; each run starts with it. */
  delayMs: number;
  /** The run under way or the last one; null before the first. */
  run: Run | null;
  /** Counts runs, for their ids. */
  runs: number;
  /** Commands since the run last let the event loop turn (see YIELD_EVERY in the machine). */
  stepsSinceYield: number;
}

export interface RunStartEvent {
  type: "run.start";
  projectName: string;
  baseUrl: string;
  tests: readonly SideTest[];
  /** The tests to play in order: one, or a suite's. */
  testIds: readonly string[];
  suite: { id: string; name: string } | null;
  fromCommandId?: string;
  /** Set when a plugin asked (POST /playback/start): it is answered `{ runId }` or Busy. */
  requestId?: number;
}

export type PlaybackEvent =
  | RunStartEvent
  | { type: "plugins.changed"; plugins: PluginRegistry }
  | { type: "user.stopPlayback" }
  | { type: "user.pausePlayback" }
  | { type: "user.resumePlayback" }
  | { type: "user.stepPlayback" }
  | { type: "user.toggleBreakpoint"; commandId: string }
  | { type: "user.setPlaybackDelay"; ms: number }
  | ({ type: "request.commandState"; commandId: string; state: CommandState; message: string | null } & RequestRef)
  | ({ type: "request.setVariable"; name: string; value: unknown } & RequestRef)
  | ({ type: "request.stopRun" } & RequestRef)
  | { type: "window.closed" };

/** What a page command or a condition is handed: the command as written, and the run's variables. */
export interface PageCommandInput {
  command: SideCommand;
  variables: VariableValues;
  baseUrl: string;
  /** The run it belongs to: an executor whose page died keeps saying so to that run, and starts anew for the next. */
  runId?: string;
}

/** What the page under test made of a command: its state, and variables it stored. */
export interface PageOutcome {
  state: CommandState;
  message?: string | null;
  variables?: Record<string, unknown>;
}

export interface ConditionInput {
  script: string;
  argv: unknown[];
  baseUrl: string;
  runId?: string;
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

/** Facts for the project: the tests this run plays (a test, or a suite's), from its start until it is over. */
export type RunPlayingFact = { type: "run.playing"; testIds: readonly string[] };
export type RunOverFact = { type: "run.over" };

export type PlaybackEmitted = RequestAnsweredEvent | LogWrittenEvent | RunPlayingFact | RunOverFact;
