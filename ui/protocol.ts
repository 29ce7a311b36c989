// The page's end of the messages between the IDE's relay and this page. Their types and
// format belong to the relay's side (drivers/view/messages.ts), which imports nothing of
// the page; they are re-exported here so the components have one place to import from. Only
// pure functions live here besides: the page's copy of the log must end up equal to the
// IDE's, however many entries fell off its cap between two updates.
import type { CommandRow, CommandsDelta, LogDelta, LogEntry } from "../drivers/view/messages.ts";

export type {
  Chart,
  ChartState,
  ChartTransition,
  ChartValues,
  CommandOutline,
  CommandRow,
  CommandsDelta,
  DataRowView,
  ExportReply,
  ExportRequest,
  HostMessage,
  IdeView,
  LogDelta,
  LogEntry,
  PageMessage,
  PageInput,
  PageShot,
  PlaybackView,
  RunSummary,
  SuiteSummary,
  TestSummary,
  UiView,
  UserEventMessage,
} from "../drivers/view/messages.ts";

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
