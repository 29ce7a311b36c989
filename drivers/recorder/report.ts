// A recorder's report (recorder.ts) as the core's door takes it (ide.record, core/recorder.ts),
// the same for the extension's window and the host's page panel: a recorded command, or the
// typing still pending in the focused field; or what a pick (pick.ts) tells: the element pointed
// at, why none could be taken, or that the user cancelled.
import type { BuildOptions } from "../../services/locators/builders.ts";
import type { PickReport } from "./pick.ts";
import type { RecorderReport } from "./recorder.ts";

export function coreReport(report: RecorderReport | PickReport, tabId: number | null): Record<string, unknown> {
  const value: Partial<RecorderReport> | Partial<PickReport> = typeof report === "object" && report !== null ? report : {};
  if ("pick" in value) {
    if (value.pick === "picked") return { ...value.element, type: "recorder.picked", tabId };
    if (value.pick === "failed") return { type: "recorder.pickFailed", problem: value.problem, tabId };
    return { type: "recorder.pickCancelled", tabId };
  }
  return "pending" in value
    ? { type: "recorder.typing", field: value.field, frame: value.frame, frameTargets: value.frameTargets, tabId }
    : { ...value, type: "recorder.commandRecorded", tabId };
}

/** Where the host's recorder world keeps its pick (hostEntry.ts): the host arms and disarms it there. */
export const HOST_PICK = "__ideCorePick";

/** The pick the host calls in the recorder's world of each document. */
export interface HostPick {
  arm(): void;
  disarm(): void;
}

/** Where the host puts the project's recording settings in the recorder's isolated world (hostEntry.ts reads them). */
export const HOST_SETTINGS = "__ideCoreRecorderSettings";

/**
 * The recording settings the host or the extension's window sent, as lists of strings and the
 * declared strategies the recorder can build (each a name, an attribute and one template), or
 * none (the builders' defaults). The IDE checked them; what is not of their shape is left out.
 */
export function readRecorderSettings(value: unknown): BuildOptions {
  const list = (field: unknown) => (Array.isArray(field) && field.every((item) => typeof item === "string") ? (field as string[]) : undefined);
  if (typeof value !== "object" || value === null) return {};
  const { locatorOrder, testIdAttributes, strategies } = value as Record<string, unknown>;
  return { locatorOrder: list(locatorOrder), testIdAttributes: list(testIdAttributes), strategies: strategiesIn(strategies) };
}

function strategiesIn(value: unknown): BuildOptions["strategies"] {
  if (!Array.isArray(value)) return undefined;
  const text = (field: unknown) => (typeof field === "string" ? field : undefined);
  return value.flatMap((item: unknown) => {
    if (typeof item !== "object" || item === null) return [];
    const { name, attribute, css, xpath } = item as Record<string, unknown>;
    const template = text(css) !== undefined ? { css: text(css) } : text(xpath) !== undefined ? { xpath: text(xpath) } : null;
    return text(name) && text(attribute) && template ? [{ name: text(name)!, attribute: text(attribute), ...template }] : [];
  });
}
