// The messages between the IDE's relay (adapters/view/relay.ts) and this page, in one place
// so both ends are type-checked against the same shapes. The format and its reasons are
// written down at the top of adapters/view/relay.ts. Only types and one pure function live
// here: the page's copy of the log must end up equal to the IDE's, however many entries fell
// off its cap between two updates.
import type { IdeView } from "../index.ts";
import type { LogEntry } from "../services/logs/index.ts";
import type { Chart, ChartValues } from "../adapters/view/charts.ts";

export type { Chart, ChartState, ChartTransition, ChartValues } from "../adapters/view/charts.ts";
export type { IdeView } from "../index.ts";
export type { LogEntry } from "../services/logs/index.ts";

/** The IdeView without its two big parts, which travel on their own terms. */
export type UiView = Omit<IdeView, "logs" | "playback">;
export type PlaybackView = IdeView["playback"];
export type CommandRow = NonNullable<PlaybackView>["commands"][number];
/** The run without its commands (status, current command, variables, ...): small, sent whole when any of it changed. */
export type RunSummary = Omit<NonNullable<PlaybackView>, "commands">;

/**
 * The run's command rows, which may be 10,000: the whole list when the page's copy cannot be
 * patched (a new run, the suite's next test, a first update), else only the rows that changed.
 */
export type CommandsDelta =
  | { reset: true; rows: CommandRow[] }
  | { reset: false; changed: Array<{ index: number; row: CommandRow }> };

/** A command of a test case as the project has it, before any run. */
export interface CommandOutline {
  id: string;
  command: string;
  target: string;
  value: string;
}
/** A test case of the loaded project (not part of the IdeView): the page shows it and sets breakpoints on it before a run. */
export interface TestSummary {
  id: string;
  name: string;
  commands: CommandOutline[];
}
/** A suite of the loaded project: its tests' ids, in the order it plays them. */
export interface SuiteSummary {
  id: string;
  name: string;
  tests: string[];
}

export interface LogDelta {
  /** True when `entries` is the whole log (a new socket, or the page's copy cannot be patched). */
  reset: boolean;
  /** Entries the page has not seen, oldest first. */
  entries: LogEntry[];
  /** How many entries of each group the IDE holds now: the page keeps that many, the newest. */
  kept: { system: number; playback: number };
}

export type HostMessage =
  | { type: "hello"; charts: Chart[] }
  | {
      type: "update";
      view: UiView;
      /** The run without its commands; present when any of it changed since the last update (null: no run yet). */
      playback?: RunSummary | null;
      /** The run's command rows; present when a row changed since the last update (or a new run's test began). */
      commands?: CommandsDelta;
      /** The loaded project's test cases; present when the project changed since the last update. */
      tests?: TestSummary[];
      /** The loaded project's suites; present with `tests`. */
      suites?: SuiteSummary[];
      logs: LogDelta;
      /** The state value of each charted actor. */
      states: ChartValues;
    };

/** The page's copy of the run's rows after an update: unchanged rows stay the same objects, so they need no new rendering. */
export function mergeCommands(current: readonly CommandRow[], delta: CommandsDelta): CommandRow[] {
  if (delta.reset) return delta.rows;
  if (delta.changed.length === 0) return current as CommandRow[];
  const rows = current.slice();
  for (const { index, row } of delta.changed) if (index >= 0 && index < rows.length) rows[index] = row;
  return rows;
}

/** The page's copy of the log after an update: the new entries added, the dropped ones gone. */
export function mergeLogs(current: readonly LogEntry[], delta: LogDelta): LogEntry[] {
  const all = delta.reset ? delta.entries : current.concat(delta.entries);
  const seen = { system: 0, playback: 0 };
  for (const entry of all) seen[entry.group] += 1;
  if (seen.system <= delta.kept.system && seen.playback <= delta.kept.playback) return all.slice();
  // Each group drops its own oldest entries, so the trim is per group, newest kept.
  const left = { ...delta.kept };
  const kept: LogEntry[] = [];
  for (let i = all.length - 1; i >= 0; i--) {
    const entry = all[i];
    if (left[entry.group] > 0) {
      left[entry.group] -= 1;
      kept.push(entry);
    }
  }
  return kept.reverse();
}
