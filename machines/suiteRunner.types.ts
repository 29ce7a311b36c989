import type { PluginRegistry } from "../services/plugins/index.ts";
import type { StrategyDeclaration } from "../services/locators/strategies.ts";
import type { SideTest } from "../services/side/index.ts";
import type { VariableValues } from "../services/playback/variables.ts";
import type { LogWrittenEvent, RequestAnsweredEvent, RequestRef } from "./shared.types.ts";
import type { UserEventOf } from "./userEvents.schema.ts";
import type { CommandStateRequest, SetVariableRequest, TestEnd, TestEndedFact } from "./testRunner.types.ts";

/** One test the run started: the test runner playing it (a child actor), and how it ended once it has. */
export interface TestRun {
  /** The test runner's id among the suite runner's children. */
  readonly runner: string;
  readonly testId: string;
  /** The test's place in the run's `testIds`. */
  readonly index: number;
  /** Which try of that test this is: 1, then 2 and on for a failed test played again (retries). */
  readonly tryNo: number;
  /** The id plugins see in the test's playbackStarted: the run's own, for the tests of a suite played in order. */
  readonly runId: string;
  /** How it ended; `started`: its control flow held (a test that did not start is not tried again). */
  readonly ended: { end: TestEnd; failed: boolean; started: boolean } | null;
  /** Its test runner was stopped once it ended and was no longer shown: only its end is kept. */
  readonly released: boolean;
}

/** A run: one test, or a suite's tests, in order or (a parallel suite with workers) several at once. */
export interface SuiteRun {
  readonly runId: string;
  readonly projectName: string;
  readonly baseUrl: string;
  /** Every test of the project: the test runners play them, and `run` calls them. */
  readonly tests: readonly SideTest[];
  /** The tests to play, in order: one, or a suite's. */
  readonly testIds: readonly string[];
  /** The suite played, with its settings as the run plays them (suiteRunner.plays.ts' suiteSettings); null for a test alone. */
  readonly suite: { id: string; name: string; parallel: boolean; persistSession: boolean; timeoutS: number | null } | null;
  readonly fromCommandId?: string;
  readonly untilCommandId?: string;
  /** "Execute this command": the one command its one test plays. */
  readonly executeCommandId?: string;
  /** How many tests play at once: the workers for a parallel suite, else 1. */
  readonly limit: number;
  /** Whether a healed command passes (createIde's and the project's `heal`). */
  readonly heal: boolean;
  /** The locator strategies every test of the run may use, as they were when it started (CONTRACT section 23). */
  readonly strategies: readonly StrategyDeclaration[];
  /** How many more tries a failed or fatal test gets, at once (createIde's `retries`); 0 once stopped. */
  readonly retries: number;
  /** The test runner the user chose to see (user.showTestRun), while it is kept; else the view picks. */
  readonly shown: string | null;
  /** The tests started so far, in the order they started; with a limit of 1 the last is the one playing (or the last played). */
  readonly runs: readonly TestRun[];
  /** The test runner told to announce the suite (the first whose test starts at all: its control flow holds); null before one. */
  readonly announcer: string | null;
  /** Plugins heard suitePlaybackStarted (a first test whose control flow is broken does not start). */
  readonly announced: boolean;
  /** The plugins told suitePlaybackStarted: they, and only they, hear suitePlaybackStopped. */
  readonly audience: ReadonlyArray<{ id: string; name: string }>;
  /** A suite the user (or a plugin, or the window closing) stopped: no further test starts. */
  readonly stopped: boolean;
  /** POST /playback/stop requests, answered when the run is over. */
  readonly stopWaiters: readonly number[];
}

export interface SuiteRunnerContext {
  /** The plugins registered now, as the root knows them. */
  plugins: PluginRegistry;
  /** Command ids the user put a breakpoint on; kept across runs. */
  breakpoints: readonly string[];
  /** The user's delay between commands; each test starts with it. */
  delayMs: number;
  /** The run under way or the last one; null before the first. */
  run: SuiteRun | null;
  /** Counts runs, for their ids. */
  runs: number;
  /** The variables the last test to end ended with: "Execute this command" starts with them. */
  lastVariables: VariableValues;
  /** How many tests of a parallel suite play at once (createIde's `workers`, default 1). */
  workers: number;
  /** createIde's `heal`: false fails every healed command, whatever the project says. */
  heal: boolean;
  /** createIde's `retries`: more tries for a failed or fatal test, played at once (default 0). */
  retries: number;
  /** createIde's `variables`: what every test starts with (default none). */
  startVariables: VariableValues | undefined;
}

/** What the root starts the suite runner with (createIde's `workers`, `heal` and `retries`). */
export interface SuiteRunnerInput {
  workers?: number;
  heal?: boolean;
  retries?: number;
  variables?: VariableValues;
}

export interface RunStartEvent {
  type: "run.start";
  projectName: string;
  baseUrl: string;
  tests: readonly SideTest[];
  /** The tests to play in order: one, or a suite's. */
  testIds: readonly string[];
  /** The suite and its .side settings (`timeout` in seconds); null for a test alone. */
  suite: { id: string; name: string; parallel?: boolean; persistSession?: boolean; timeout?: number } | null;
  /** "Play from here": the first test starts at this command. */
  fromCommandId?: string;
  /** "Play to here": the first test pauses before this command, once. */
  untilCommandId?: string;
  /** "Execute this command": its one test plays only this command, with the last run's variables. */
  executeCommandId?: string;
  /** The project's `heal` setting (false: a healed command fails); default true. */
  heal?: boolean;
  /** The project's locator strategies with the plugins' over them, taken once for the whole run; none by default. */
  strategies?: readonly StrategyDeclaration[];
  /** Set when a plugin asked (POST /playback/start): it is answered `{ runId }` or Busy. */
  requestId?: number;
}

export type StopRunRequest = { type: "request.stopRun" } & RequestRef;

/** The user's controls that go to the test playing. */
export type RoutedUserEvent = UserEventOf<"user.pausePlayback" | "user.resumePlayback" | "user.stepPlayback">;

export type SuiteRunnerEvent =
  | RunStartEvent
  | { type: "plugins.changed"; plugins: PluginRegistry }
  | RoutedUserEvent
  | UserEventOf<"user.stopPlayback" | "user.toggleBreakpoint" | "user.setPlaybackDelay" | "user.showTestRun">
  | CommandStateRequest
  | SetVariableRequest
  | StopRunRequest
  | { type: "window.closed" }
  | TestEndedFact;

/** Facts for the project: the tests this run plays (a test, or a suite's), from its start until it is over. */
export type RunPlayingFact = { type: "run.playing"; testIds: readonly string[] };
export type RunOverFact = { type: "run.over" };

export type SuiteRunnerEmitted = RequestAnsweredEvent | LogWrittenEvent | RunPlayingFact | RunOverFact;
