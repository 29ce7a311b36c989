// A recorder's report (recorder.ts) as the core's door takes it (ide.record, core/recorder.ts),
// the same for the extension's window and the host's page panel: a recorded command, or the
// typing still pending in the focused field.
import type { BuildOptions } from "../../services/locators/builders.ts";
import type { RecorderReport } from "./recorder.ts";

export function coreReport(report: RecorderReport, tabId: number | null): Record<string, unknown> {
  const value: Partial<RecorderReport> = typeof report === "object" && report !== null ? report : {};
  return "pending" in value
    ? { type: "recorder.typing", field: value.field, frame: value.frame, frameTargets: value.frameTargets, tabId }
    : { ...value, type: "recorder.commandRecorded", tabId };
}

/** Where the host puts the project's recording settings in the recorder's isolated world (hostEntry.ts reads them). */
export const HOST_SETTINGS = "__ideCoreRecorderSettings";

/** The recording settings the host or the extension's window sent, as lists of strings, or none (the builders' defaults). */
export function readRecorderSettings(value: unknown): BuildOptions {
  const list = (field: unknown) => (Array.isArray(field) && field.every((item) => typeof item === "string") ? (field as string[]) : undefined);
  if (typeof value !== "object" || value === null) return {};
  const { locatorOrder, testIdAttributes } = value as Record<string, unknown>;
  return { locatorOrder: list(locatorOrder), testIdAttributes: list(testIdAttributes) };
}
