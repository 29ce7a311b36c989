// What every benchmark shares: timing, medians and percentiles, heap after a full
// collection, the table printer, and the summary line each benchmark hands to run.ts.
// Absolute times are noise on these machines (DESIGN.md, "Performance"): every figure a
// benchmark reports is set beside a baseline measured in the same process.
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import type { Ide } from "../index.ts";

/** One line of the final summary: a figure, its ratio against the baseline, and a target. */
export interface SummaryLine {
  benchmark: string;
  figure: string;
  value: string;
  ratio: string;
  target: string;
  /** null when the figure has no target. */
  met: boolean | null;
}

export interface Benchmark {
  name: string;
  description: string;
  run(): Promise<SummaryLine[]>;
}

export const now = (): number => performance.now();

/**
 * The next turn of the event loop. A subscribe() listener gets one view per turn, so requests
 * awaited one after another are seen together once the loop turns.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Plays a test and holds it at a breakpoint on its first command, so that plugins' requests
 * meet a running test. (Runs really run: with no page under test its first page command would
 * fail and end it.)
 */
export async function playHeldAtFirstCommand(ide: Ide, testId: string, firstCommandId: string): Promise<void> {
  ide.send({ type: "user.toggleBreakpoint", commandId: firstCommandId });
  ide.send({ type: "user.startPlayback", testId });
  await nextTurn();
  const playback = ide.getSnapshot().playback;
  check(playback?.running === true && playback.status === "paused" && playback.currentCommandId === firstCommandId, `the test case ${testId} is held at its first command`);
}

/** Starts test `testId` as the user's Play does and resolves once that run ended, within `limitMs`: how long it took, and the run as the view shows it. */
export async function playTimed(ide: Ide, testId: string, limitMs: number): Promise<{ elapsed: number; playback: NonNullable<ReturnType<Ide["getSnapshot"]>["playback"]> }> {
  const before = ide.getSnapshot().playback?.runId ?? null;
  const ended = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the run did not end within ${limitMs} ms`)), limitMs);
    const subscription = ide.subscribe((view) => {
      if (view.playback && view.playback.runId !== before && view.playback.status === "ended") {
        clearTimeout(timer);
        subscription.unsubscribe();
        resolve();
      }
    });
  });
  const t0 = now();
  ide.send({ type: "user.startPlayback", testId });
  await ended;
  return { elapsed: now() - t0, playback: ide.getSnapshot().playback! };
}

/**
 * The shop test the host benches play (hostRun, live, trace): `open /shop`, then `rounds` rounds
 * of `type id=user`, `click linkText=Add to cart`, `assertText css=.cart-count N` on the
 * example site; and a project holding it alone.
 */
export function shopRunProject(testId: string, projectId: string, projectName: string, rounds = 50) {
  type Row = [command: string, target: string, value?: string];
  const rows: Row[] = [["open", "/shop"]];
  for (let i = 1; i <= rounds; i++) rows.push(["type", "id=user", `user ${i}`], ["click", "linkText=Add to cart"], ["assertText", "css=.cart-count", String(i)]);
  const test = {
    id: testId,
    name: `open and ${rounds} rounds of type, click, assertText`,
    commands: rows.map(([command, target, value = ""], i) => ({ id: `c-${i}`, comment: "", command, target, targets: [] as string[], value })),
  };
  const project = { id: projectId, version: "2.0", name: projectName, url: "http://127.0.0.1:1", tests: [test], suites: [] as unknown[], urls: [] as unknown[], plugins: [] as unknown[] };
  return { test, project, commands: rows.length };
}

export function median(values: number[]): number {
  if (values.length === 0) throw new Error("median of nothing");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The q-quantile (0..1) by nearest rank of the first `count` samples; sorts them in place. */
export function quantile(samples: Float64Array, count: number, q: number): number {
  const view = samples.subarray(0, count).sort();
  const rank = Math.min(count - 1, Math.max(0, Math.ceil(q * count) - 1));
  return view[rank];
}

// ---- heap ----------------------------------------------------------------------------

let collect: (() => void) | undefined;

function gcFunction(): () => void {
  if (collect) return collect;
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === "function") {
    collect = exposed;
  } else {
    // Started without --expose-gc (e.g. `npx tsx bench/run.ts`): turn the flag on now and
    // fetch `gc` from a fresh context, where V8 installs it.
    setFlagsFromString("--expose-gc");
    const fresh = runInNewContext("gc") as unknown;
    if (typeof fresh !== "function") throw new Error("No gc(): run node with --expose-gc (npm run bench does).");
    collect = fresh as () => void;
  }
  return collect;
}

/** Whether gc() came from --expose-gc (true) or had to be switched on at run time. */
export const gcWasExposed = (): boolean => typeof (globalThis as { gc?: unknown }).gc === "function";

/** Heap in use after full collections, in bytes. */
export function heapAfterGc(): number {
  const gc = gcFunction();
  // A few rounds: weak references and finalisers can free more on the next pass.
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

// ---- formatting ------------------------------------------------------------------------

export const MB = 1024 * 1024;

export function fmtInt(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

export function fmtNum(n: number, digits = 1): string {
  if (!Number.isFinite(n)) return String(n);
  return n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function fmtMs(ms: number): string {
  return ms < 10 ? `${fmtNum(ms, 2)} ms` : `${fmtNum(ms, 1)} ms`;
}

export function fmtMB(bytes: number): string {
  return `${fmtNum(bytes / MB, 2)} MB`;
}

/** A ratio as "×1.23" style text, with enough digits for small and large values. */
export function fmtRatio(r: number): string {
  if (!Number.isFinite(r)) return "n/a";
  if (r >= 100) return `${fmtNum(r, 0)}×`;
  if (r >= 10) return `${fmtNum(r, 1)}×`;
  if (r >= 0.1) return `${fmtNum(r, 2)}×`;
  return `${r.toPrecision(2)}×`;
}

/**
 * Prints rows as a table with a header rule. `align` gives each column's alignment
 * ("l" or "r"); by default the first column is left-aligned and the rest right.
 */
export function printTable(header: string[], rows: string[][], align?: Array<"l" | "r">, indent = "  "): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const left = (i: number) => (align ? align[i] === "l" : i === 0);
  const line = (cells: string[]) =>
    indent +
    cells
      .map((cell, i) => (left(i) ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join("  ")
      .trimEnd();
  console.log(line(header));
  console.log(indent + widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) console.log(line(row));
}

export function heading(title: string, description: string): void {
  console.log("");
  console.log(`== ${title} ${"=".repeat(Math.max(0, 76 - title.length))}`);
  for (const line of description.split("\n")) console.log(`   ${line}`);
  console.log("");
}

// ---- checks ----------------------------------------------------------------------------

/** A benchmark that measured broken behaviour is worthless: stop the run instead. */
export function check(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(`Benchmark self-check failed: ${what}`);
}

export function checkTrue(reply: unknown, what: string): void {
  if (reply !== true) throw new Error(`Benchmark self-check failed: ${what} answered ${JSON.stringify(reply)}, not true`);
}

export const verdict = (met: boolean | null): string => (met === null ? "" : met ? "met" : "NOT met");

/** The median time of `reps` runs of `what`, each after gc(), once it has run once to warm up. */
export async function medianTimeAsync(what: () => Promise<void> | void, reps: number): Promise<number> {
  await what();
  const times: number[] = [];
  for (let rep = 0; rep < reps; rep++) {
    heapAfterGc();
    const t0 = now();
    await what();
    times.push(now() - t0);
  }
  return median(times);
}
