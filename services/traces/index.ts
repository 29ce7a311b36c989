// A run's trace (CONTRACT section 17): per command its start and end, state, message, the
// locator that found its element and the file of the page's picture after it; for a failed or
// fatal command also the page's URL, title, DOM file and the console errors since the command
// before. Pure: the manifest's form (zod, read back whole or not at all), the bounds (the last
// KEPT_TRACES runs, MAX_SCREENSHOTS pictures per run), which traces are kept, and the files'
// names. The adapters keep the files (drivers/traces/traceStore.ts: the host keeps them in folders, the extension in IndexedDB).
import { z } from "zod";
import { describeZodIssue } from "../validation.ts";
import { parseLocator } from "../locators/index.ts";

export const TRACE_FORMAT = "ide-core.trace";
export const TRACE_VERSION = 1;
/** How many runs' traces are kept: the oldest go first. */
export const KEPT_TRACES = 20;
/** Pictures per trace at most; past it a command keeps its picture only when it failed. */
export const MAX_SCREENSHOTS = 2_000;
/** Console errors kept per failed command, and characters per error. */
export const MAX_CONSOLE_ERRORS = 50;
export const MAX_CONSOLE_CHARS = 2_000;
/** The manifest's file in a trace's folder. */
export const MANIFEST_FILE = "trace.json";

export const TRACE_MODES = ["on", "off", "retain-on-failure"] as const;
export type TraceMode = (typeof TRACE_MODES)[number];

/** The mode named, or null for any other text. */
export const traceModeOf = (text: string): TraceMode | null => TRACE_MODES.find((m) => m === text) ?? null;

export const TEST_RESULTS = ["passed", "failed", "fatal", "stopped"] as const;
export type TestResult = (typeof TEST_RESULTS)[number];

/**
 * When pictures are taken under a mode (the traced executor's options). A command's picture is
 * the first taken after it ended; a failed command's is taken at once.
 * - `spacingMs`: the least time from one picture's start to the next's. Under "on" five a second:
 *   a command slower than that has its own, faster ones share. Under "retain-on-failure" a passing
 *   test's pictures are thrown away, so two a second.
 * - `endPicture`: whether a picture put off by the spacing is taken when the test ends: under
 *   "retain-on-failure" only after a failure (a test with none passes, and its trace goes).
 */
export interface PicturePolicy {
  spacingMs: number;
  endPicture: "always" | "after-failure";
}

export const PICTURE_SPACING_MS = 200;
export const RETAIN_PICTURE_SPACING_MS = 500;

export const picturePolicy = (mode: TraceMode): PicturePolicy =>
  mode === "retain-on-failure" ? { spacingMs: RETAIN_PICTURE_SPACING_MS, endPicture: "after-failure" } : { spacingMs: PICTURE_SPACING_MS, endPicture: "always" };

/** Whether a finished test's trace is kept: always with "on", only when it did not pass with "retain-on-failure". */
export const keepsTrace = (mode: TraceMode, result: TestResult): boolean => mode === "on" || (mode === "retain-on-failure" && result !== "passed");

const failureSchema = z.object({
  url: z.string(),
  title: z.string(),
  /** The DOM snapshot's file in the trace's folder, null when it could not be taken. */
  dom: z.string().nullable(),
  consoleErrors: z.array(z.string()),
});

const stepSchema = z.object({
  /** The command's position in its test, from 1. */
  index: z.number().int().positive(),
  commandId: z.string(),
  command: z.string(),
  target: z.string(),
  value: z.string(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  state: z.enum(["passed", "failed", "fatal", "undetermined", "pending"]).nullable(),
  message: z.string().nullable(),
  /** The locator that found its element: the one it healed by, else its target; null for a command without one. */
  locator: z.string().nullable(),
  healed: z.object({ locator: z.string(), score: z.number() }).nullable(),
  /** The picture's file in the trace's folder (JPEG), null when there is none. */
  screenshot: z.string().nullable(),
  failure: failureSchema.nullable(),
});

export const traceManifestSchema = z.object({
  format: z.literal(TRACE_FORMAT),
  version: z.literal(TRACE_VERSION),
  traceId: z.string(),
  runId: z.string(),
  testId: z.string(),
  testName: z.string(),
  suiteName: z.string().nullable(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  result: z.enum(TEST_RESULTS).nullable(),
  steps: z.array(stepSchema),
  /** Commands left without a picture past MAX_SCREENSHOTS (those that share one count each). */
  screenshotsDropped: z.number().int().nonnegative(),
});

export type TraceManifest = z.infer<typeof traceManifestSchema>;
export type TraceStep = z.infer<typeof stepSchema>;
export type TraceFailure = z.infer<typeof failureSchema>;

/** A manifest read back: whole, or the reason it cannot be used. */
export function readTraceManifest(data: unknown): { ok: true; manifest: TraceManifest } | { ok: false; problem: string } {
  const parsed = traceManifestSchema.safeParse(data);
  if (parsed.success) return { ok: true, manifest: parsed.data };
  return { ok: false, problem: `the trace manifest is not usable: ${describeZodIssue(parsed.error)}` };
}

/** A trace's folder name: its start's time, so names sort as runs started, then a count in the process. */
export function traceIdOf(startedAt: number, seq: number): string {
  const stamp = new Date(startedAt).toISOString().replace(/[-:]/g, "").replace("T", "-").replace(".", "-").replace("Z", "");
  return `${stamp}-${String(seq).padStart(4, "0")}`;
}

export const TRACE_ID = /^\d{8}-\d{6}-\d{3}-\d{4,}$/;

/** Of the trace folders there are, those to remove so that `keep` remain: the oldest. */
export function tracesToDrop(ids: readonly string[], keep = KEPT_TRACES): string[] {
  const sorted = ids.filter((id) => TRACE_ID.test(id)).sort();
  return sorted.slice(0, Math.max(0, sorted.length - keep));
}

/** A step's picture's file name: its order in the trace, so a loop's turns each have one. */
export const screenshotFile = (order: number) => `${String(order).padStart(5, "0")}.jpg`;
export const domFile = (order: number) => `${String(order).padStart(5, "0")}.html`;

/** A console error as kept: one line of at most MAX_CONSOLE_CHARS. */
export const consoleLine = (text: string) => (text.length > MAX_CONSOLE_CHARS ? `${text.slice(0, MAX_CONSOLE_CHARS)}…` : text);

/** The failing step of a trace (its first failed or fatal one), or null. */
export const failingStep = (manifest: TraceManifest): TraceStep | null => manifest.steps.find((s) => s.state === "failed" || s.state === "fatal") ?? null;

/** The locator that found a command's element: the one it healed by, else its target when that is a locator; null for a command without one (open, executeScript). */
export function locatorOf(target: string, healed: { locator: string } | null): string | null {
  if (healed) return healed.locator;
  try {
    parseLocator(target);
    return target;
  } catch {
    return null;
  }
}

/** A kept run as the host lists it (`GET /traces`, apps/host/traces.ts) and the "Runs" list shows it. */
export interface TraceSummary {
  traceId: string;
  runId: string;
  testId: string;
  testName: string;
  suiteName: string | null;
  /** null while the test plays, and for a test that never ended (its process crashed, its window closed). */
  result: TraceManifest["result"];
  /** Being written now by this IDE: a kept run with no result that is not playing did not end. */
  playing: boolean;
  startedAt: number;
  commands: number;
}

/** A kept run's summary, from its manifest. */
export const summaryOf = (m: TraceManifest, playing = false): TraceSummary => ({
  traceId: m.traceId,
  runId: m.runId,
  testId: m.testId,
  testName: m.testName,
  suiteName: m.suiteName,
  result: m.result,
  playing,
  startedAt: m.startedAt,
  commands: m.steps.length,
});

/** The kept runs, newest first: those being written (`live`, as they are now) and those kept, each once. */
export function listedRuns(live: readonly TraceManifest[], kept: readonly TraceManifest[]): TraceSummary[] {
  const seen = new Set(live.map((m) => m.traceId));
  return [...live.map((m) => summaryOf(m, true)), ...kept.filter((m) => !seen.has(m.traceId)).map((m) => summaryOf(m))].sort((a, b) =>
    a.traceId < b.traceId ? 1 : -1,
  );
}
