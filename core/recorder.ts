// The recorder's door (CONTRACT section 14): what the page's recorder reports reaches the core
// through ide.record(report), from the extension's IDE window or the host's page panel. Each
// report is checked here, as requests are at the protocol's door, so the recording machine
// sees only well-formed commands. The recorder itself (drivers/recorder/) listens to trusted
// events only and reports on a channel page scripts cannot reach; this is the second fence.
import { z } from "zod";
import type { RecorderReport } from "../machines/ide.types.ts";
import { FingerprintSchema } from "../services/healing/schema.ts";

const text = z.string().max(1_000_000);
const tabId = z.number().int().nullable().default(null);
const targets = z.array(z.union([z.tuple([text, text]), z.tuple([text])])).max(100);
const frame = z.array(z.number().int().min(0)).max(32);
/** Each frame level's element locator ([locator, builder]) or null: selectFrame's target when there is one. */
const frameTargets = z.array(z.tuple([text, text]).nullable()).max(32);

const reportSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("recorder.commandRecorded"),
    command: z.string().min(1).max(200),
    target: text.default(""),
    targets: targets.default(() => []),
    value: text.default(""),
    frame: frame.default(() => []),
    frameTargets: frameTargets.default(() => []),
    upload: z.literal(true).optional(),
    fingerprint: FingerprintSchema.optional(),
    tabId,
  }),
  z.object({
    type: z.literal("recorder.pageSeen"),
    url: text,
    width: z.number().int().min(0),
    height: z.number().int().min(0),
    tabId,
  }),
  z.object({
    type: z.literal("recorder.typing"),
    field: z.object({ target: text.default(""), targets: targets.default(() => []), value: text, fingerprint: FingerprintSchema.optional() }).nullable(),
    frame: frame.default(() => []),
    frameTargets: frameTargets.default(() => []),
    tabId,
  }),
  z.object({ type: z.literal("recorder.tabClosed") }),
  // A pick (CONTRACT section 21): the element taken, why none was, or the user's Esc.
  z.object({
    type: z.literal("recorder.picked"),
    target: text.min(1),
    targets: targets,
    fingerprint: FingerprintSchema.optional(),
    text: text,
    value: text.nullable(),
    title: text,
    checked: z.boolean().nullable(),
    tag: z.string().max(200),
    frame: frame.default(() => []),
    frameTargets: frameTargets.default(() => []),
    tabId,
  }),
  z.object({ type: z.literal("recorder.pickFailed"), problem: z.string().min(1).max(2000), tabId }),
  z.object({ type: z.literal("recorder.pickCancelled"), tabId }),
  z.object({ type: z.literal("recorder.windowOpened"), tabId: z.number().int(), openerTabId: z.number().int() }),
  z.object({ type: z.literal("recorder.windowClosed"), tabId: z.number().int() }),
]);

/** The report as the machines take it (extra fields dropped), or null when it is not one. */
export function readRecorderReport(input: unknown): RecorderReport | null {
  try {
    const parsed = reportSchema.safeParse(input);
    return parsed.success ? (parsed.data as RecorderReport) : null;
  } catch {
    return null; // a hostile getter or proxy
  }
}
