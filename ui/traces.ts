// The IDE page's reading of kept runs, through a source (the port): the list, one run's manifest
// and an address for each of its files. The host's page reads the host's (apps/host/traces.ts)
// over HTTP with the page's token (hostTraces here); the extension's window reads its IndexedDB
// (apps/extension/traces.ts). Manifests are read through their schema (services/traces/): one
// that does not match is not shown. A picture is found through the manifest's reference, never
// from the command's position: two commands may share one picture.
import { readTraceManifest } from "../services/traces/index.ts";
import type { TraceManifest, TraceStep, TraceSummary } from "../services/traces/index.ts";

export type { TraceManifest, TraceStep, TraceSummary };


const token = () => document.querySelector('meta[name="ide-token"]')?.getAttribute("content") ?? "";

/** The address of a kept run's resource: the list, a run's manifest, or one of its files. */
export function traceUrl(traceId?: string, file?: string): string {
  const parts = [traceId, file].filter((part): part is string => part !== undefined).map((part) => `/${encodeURIComponent(part)}`);
  return `/traces${parts.join("")}?token=${encodeURIComponent(token())}`;
}

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { cache: "no-store", signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error((await response.text()).trim() || `The host answered ${response.status}.`);
  return response.json();
}

/** Where the page reads kept runs; each call rejects with a sentence saying why it could not. */
export interface TraceSource {
  /** The kept runs, newest first (those still playing too). */
  runs(): Promise<TraceSummary[]>;
  /** One run's manifest (a run still playing: as it is so far). */
  trace(traceId: string): Promise<TraceManifest>;
  /**
   * An address the page shows one of the run's files at (a picture, or a DOM snapshot opened in
   * a tab of its own, where the page's scripts never run as the IDE's page).
   */
  file(traceId: string, file: string): Promise<string>;
  /** The address of `file` is no longer shown. */
  release?(url: string): void;
}

/** The host's kept runs, over HTTP with the page's token. */
export const hostTraces: TraceSource = {
  async runs() {
    const data = (await getJson(traceUrl())) as { runs?: TraceSummary[] };
    return Array.isArray(data.runs) ? data.runs : [];
  },
  async trace(traceId) {
    const read = readTraceManifest(await getJson(traceUrl(traceId)));
    if (!read.ok) throw new Error(read.problem);
    return read.manifest;
  },
  file: async (traceId, file) => traceUrl(traceId, file),
};

/** How a run is named in "Runs": its suite and test, and its result ("not ended" for one cut off by a crash or a closed window). */
export const runLabel = (run: TraceSummary) =>
  `${run.suiteName ? `${run.suiteName} › ` : ""}${run.testName}: ${run.result ?? (run.playing ? "playing" : "not ended")}`;

/** The step of a command of the run's table: its latest turn (a loop runs a command more than once). */
export function stepOfCommand(manifest: TraceManifest | null, commandId: string): TraceStep | null {
  if (!manifest) return null;
  for (let i = manifest.steps.length - 1; i >= 0; i--) if (manifest.steps[i].commandId === commandId) return manifest.steps[i];
  return null;
}

/** A test a suite's run played, as its list in the Playback panel names it: the `occurrence`-th (from 0) entry of its runId and test there (a retry is another). */
export interface PlayedTest {
  runId: string;
  testId: string;
  occurrence: number;
}

/** The kept run of a test a suite played: of its runId and test, the one that started `occurrence`-th; null when it is not kept. */
export function traceOfPlayed(runs: readonly TraceSummary[], played: PlayedTest): TraceSummary | null {
  const same = runs.filter((run) => run.runId === played.runId && run.testId === played.testId).sort((a, b) => (a.traceId < b.traceId ? -1 : 1));
  return same[played.occurrence] ?? null;
}

/** The kept run of a run in the IDE's view: of its runId and test, the latest. */
export const traceOfRun = (runs: readonly TraceSummary[], runId: string, testId: string) =>
  runs.find((run) => run.runId === runId && run.testId === testId) ?? null;
