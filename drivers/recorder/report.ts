// A recorder's report (recorder.ts) as the core's door takes it (ide.record, core/recorder.ts),
// the same for the extension's window and the host's page panel: a recorded command, or the
// typing still pending in the focused field.
import type { RecorderReport } from "./recorder.ts";

export function coreReport(report: RecorderReport, tabId: number | null): Record<string, unknown> {
  const value: Partial<RecorderReport> = typeof report === "object" && report !== null ? report : {};
  return "pending" in value
    ? { type: "recorder.typing", field: value.field, frame: value.frame, frameTargets: value.frameTargets, tabId }
    : { ...value, type: "recorder.commandRecorded", tabId };
}
