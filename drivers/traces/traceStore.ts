// A run's trace as it is made (CONTRACT section 17), wherever it is kept: one trace per test
// played, with the manifest (services/traces/), a JPEG per command and, for a failed command,
// the page's HTML. The core tells it of tests and commands (core/traces.ts: it is createIde's
// `traces` port); the traced executor (tracedExecutor.ts) hands it each page command's picture
// (one several commands share is kept once, each step naming its file) and a failure's
// details. Where the files go is the shelf's (the host: a folder per trace under the user's
// data folder, drivers/host/traceStore.ts; the extension: IndexedDB,
// drivers/webextension/traceShelf.ts). Files are written as they come, beside the run, never
// in its way; the manifest once the test ended and every file of it is written, and while it
// plays at most once every SAVE_EVERY_MS as it is then (result null), so a crash or a closed
// window leaves the trace up to its last commands, listed as interrupted. A trace not kept (a
// passing test under "retain-on-failure") is removed; past KEPT_TRACES the oldest go.
import type { TraceCommandEvent, TraceSink, TraceTestStart } from "../../core/traces.ts";
import { messageOf } from "../../services/errors.ts";
import { domFile, KEPT_TRACES, locatorOf, MAX_SCREENSHOTS, screenshotFile, traceIdOf, TRACE_FORMAT, TRACE_VERSION } from "../../services/traces/index.ts";
import type { TraceManifest, TraceStep } from "../../services/traces/index.ts";
import type { PageDetails } from "./witness.ts";

/** Where traces are kept: each call may reject (said as a problem, never thrown at the run). */
export interface TraceShelf {
  /** Makes room for a new trace's files. */
  open(traceId: string): Promise<void>;
  /** A picture: a JPEG as a data URL. */
  picture(traceId: string, name: string, dataUrl: string): Promise<void>;
  /** A DOM snapshot: the page's HTML. */
  page(traceId: string, name: string, html: string): Promise<void>;
  /** A trace's manifest: as it is while the test plays (result null), then once it ended and is kept. */
  keep(manifest: TraceManifest): Promise<void>;
  /** Removes a trace and its files. */
  drop(traceId: string): Promise<void>;
  /** Removes all but the newest `keep` traces (those being written count too). */
  prune(keep: number): Promise<void>;
  /** Where a kept trace's files are, for those who read them (the host: its folder). */
  where(traceId: string): string;
}

/** What the traced executor hands over after a page command. */
export interface StepCapture {
  /** The picture after it, as a JPEG data URL (null: none could be taken); the same promise for commands that share one. */
  image: Promise<string | null>;
  /** For a failed or fatal command: the page's details and the console errors since the command before. */
  failure?: Promise<{ details: PageDetails | null; consoleErrors: string[] }>;
}

export interface FinishedTrace {
  manifest: TraceManifest;
  /** Where the kept trace's files are (the host: its folder), or null when it was not kept. */
  dir: string | null;
}

export interface TraceStore extends TraceSink {
  /** The capture after the command the test of `runId` is on now. */
  attach(runId: string, capture: StepCapture): void;
  /** The trace of the next test of `runId` and `testId` to end, once its files are written (or removed). */
  finished(runId: string, testId: string): Promise<FinishedTrace>;
  /** The manifests of the traces still being written (a run playing or paused), as they are now. */
  live(): TraceManifest[];
}

/** A picture and the steps it is the picture of (one, or those that ended while the one before it was taken). */
interface Picture {
  steps: TraceStep[];
  failed: boolean;
  file: string | null;
}

interface Open {
  manifest: TraceManifest;
  /** By the traced executor's promise of it: a picture several commands share is written once. */
  pictures: Map<Promise<string | null>, Picture>;
  ready: Promise<unknown>;
  writes: Promise<unknown>[];
  shots: number;
  ended: boolean;
  /** The manifest's writes, one after another, so the last written is the last made. */
  saved: Promise<unknown>;
  /** A save of the manifest as it is now is due (SAVE_EVERY_MS after a change). */
  saveDue: ReturnType<typeof setTimeout> | null;
}

/** How often at most a playing test's manifest is written as it is then. */
export const SAVE_EVERY_MS = 1_000;

interface Waiter {
  key: string | null;
  runId: string;
  testId: string;
  claimed: boolean;
  done: boolean;
  promise: Promise<FinishedTrace>;
  resolve(trace: FinishedTrace): void;
}

export interface TraceStoreOptions {
  /** How many traces are kept (default KEPT_TRACES). */
  keep?: number;
  /** Pictures per trace at most (default MAX_SCREENSHOTS). */
  maxScreenshots?: number;
  /** A file that could not be written or removed: said once per problem, never thrown. */
  problem?(message: string): void;
}

let seq = 0;

/** The trace store that keeps its traces on `shelf`. */
export function traceKeeper(shelf: TraceShelf, options: TraceStoreOptions = {}): TraceStore {
  const keep = options.keep ?? KEPT_TRACES;
  const maxShots = options.maxScreenshots ?? MAX_SCREENSHOTS;
  const problem = options.problem ?? (() => {});
  const open = new Map<string, Open>();
  /** Each runId's test playing now (tests of a suite played in order share it, one at a time). */
  const byRun = new Map<string, string>();
  const waiters: Waiter[] = [];
  let pruning: Promise<void> = Promise.resolve();

  /** A waiter made for a test: by its start (key), or by `finished` before its start (key null). */
  const newWaiter = (runId: string, testId: string, key: string | null, claimed: boolean): Waiter => {
    let resolve!: (trace: FinishedTrace) => void;
    const promise = new Promise<FinishedTrace>((r) => (resolve = r));
    const waiter: Waiter = { key, runId, testId, claimed, done: false, promise, resolve };
    waiters.push(waiter);
    return waiter;
  };
  /** Finished traces nobody asked for (the IDE's) are forgotten past this many. */
  const UNCLAIMED = 50;

  const written = (work: Promise<unknown>, what: string) => work.catch((error: unknown) => problem(`The trace's ${what} could not be written: ${messageOf(error)}.`));

  /** The manifest as it is now, written after the writes of it before. */
  function save(trace: Open) {
    trace.saved = trace.saved.then(() => written(shelf.keep(structuredClone(trace.manifest)), "manifest"));
    return trace.saved;
  }
  /** A playing test's manifest changed: written as it is then, SAVE_EVERY_MS later at most. */
  function changed(trace: Open) {
    if (trace.ended || trace.saveDue !== null) return;
    trace.saveDue = setTimeout(() => {
      trace.saveDue = null;
      if (!trace.ended) void save(trace);
    }, SAVE_EVERY_MS);
    // The host's process may end while a test plays (Ctrl-C): a due save does not hold it open.
    (trace.saveDue as { unref?: () => void }).unref?.();
  }

  function prune() {
    pruning = pruning.then(() => shelf.prune(keep)).catch(() => {});
    return pruning;
  }

  return {
    testStarted(start: TraceTestStart) {
      const traceId = traceIdOf(start.at, ++seq);
      const manifest: TraceManifest = {
        format: TRACE_FORMAT,
        version: TRACE_VERSION,
        traceId,
        runId: start.runId,
        testId: start.testId,
        testName: start.testName,
        suiteName: start.suiteName,
        startedAt: start.at,
        endedAt: null,
        result: null,
        steps: [],
        screenshotsDropped: 0,
      };
      const ready = written(shelf.open(traceId), "folder");
      const trace: Open = { manifest, ready, pictures: new Map(), writes: [], shots: 0, ended: false, saved: ready, saveDue: null };
      open.set(start.key, trace);
      // Listed from its start, so a run that never ends (a crash) is still found.
      void save(trace);
      byRun.set(start.runId, start.key);
      const early = waiters.find((w) => w.key === null && w.runId === start.runId && w.testId === start.testId);
      if (early) early.key = start.key;
      else newWaiter(start.runId, start.testId, start.key, false);
    },

    command(key: string, event: TraceCommandEvent) {
      const trace = open.get(key);
      if (!trace) return;
      const { steps } = trace.manifest;
      const last = steps[steps.length - 1];
      let step: TraceStep;
      if (event.phase === "end" && last && last.commandId === event.commandId && last.endedAt === null) step = last;
      else {
        step = {
          index: event.index,
          commandId: event.commandId,
          command: event.command,
          target: event.target,
          value: event.value,
          startedAt: event.at,
          endedAt: null,
          state: "pending",
          message: null,
          locator: null,
          healed: null,
          screenshot: null,
          failure: null,
        };
        steps.push(step);
      }
      if (event.phase === "end") {
        step.endedAt = event.at;
        step.state = event.state;
        step.message = event.message;
        step.healed = event.healed;
        step.locator = locatorOf(event.target, event.healed);
        changed(trace);
      }
    },

    attach(runId, capture) {
      const key = byRun.get(runId);
      const trace = key === undefined ? undefined : open.get(key);
      const step = trace?.manifest.steps[trace.manifest.steps.length - 1];
      if (!trace || !step || trace.ended) {
        capture.image.catch(() => {});
        capture.failure?.catch(() => {});
        return;
      }
      const order = trace.manifest.steps.length;
      // Commands that share a picture (tracedExecutor.ts) share its file: written once, named for the first.
      const shared = trace.pictures.get(capture.image);
      if (shared) {
        shared.steps.push(step);
        shared.failed ||= capture.failure !== undefined;
        if (shared.file) step.screenshot = shared.file;
      } else {
        const picture: Picture = { steps: [step], failed: capture.failure !== undefined, file: null };
        trace.pictures.set(capture.image, picture);
        trace.writes.push(
          written(
            capture.image.then(async (image) => {
              if (!image) return;
              if (trace.shots >= maxShots && !picture.failed) {
                trace.manifest.screenshotsDropped += picture.steps.length;
                return;
              }
              trace.shots += 1;
              await trace.ready;
              const name = screenshotFile(order);
              await shelf.picture(trace.manifest.traceId, name, image);
              picture.file = name;
              for (const sharer of picture.steps) sharer.screenshot = name;
              changed(trace);
            }),
            "picture",
          ),
        );
      }
      if (capture.failure) {
        trace.writes.push(
          written(
            capture.failure.then(async ({ details, consoleErrors }) => {
              let dom: string | null = null;
              if (details?.html != null) {
                await trace.ready;
                dom = domFile(order);
                await shelf.page(trace.manifest.traceId, dom, details.html);
              }
              step.failure = { url: details?.url ?? "", title: details?.title ?? "", dom, consoleErrors };
              changed(trace);
            }),
            "page snapshot",
          ),
        );
      }
    },

    testEnded(key, end) {
      const trace = open.get(key);
      if (!trace) return;
      trace.ended = true;
      if (trace.saveDue !== null) clearTimeout(trace.saveDue);
      trace.saveDue = null;
      trace.manifest.endedAt = end.at;
      trace.manifest.result = end.result;
      const { runId, testId } = trace.manifest;
      if (byRun.get(runId) === key) byRun.delete(runId);
      const waiter = waiters.find((w) => w.key === key) ?? newWaiter(runId, testId, key, false);
      void (async () => {
        await Promise.all(trace.writes);
        await trace.ready;
        // Forgotten once on disk (or removed), so the IDE page finds it in one place or the other.
        if (end.keep) {
          await save(trace);
          open.delete(key);
          await prune();
        } else {
          open.delete(key);
          await trace.saved;
          await shelf.drop(trace.manifest.traceId).catch(() => {});
        }
        waiter.done = true;
        if (waiter.claimed) waiters.splice(waiters.indexOf(waiter), 1);
        const unclaimed = waiters.filter((w) => w.done && !w.claimed);
        for (const old of unclaimed.slice(0, Math.max(0, unclaimed.length - UNCLAIMED))) waiters.splice(waiters.indexOf(old), 1);
        waiter.resolve({ manifest: trace.manifest, dir: end.keep ? shelf.where(trace.manifest.traceId) : null });
      })();
    },

    live() {
      return [...open.values()].map((trace) => structuredClone(trace.manifest));
    },

    finished(runId, testId) {
      const waiter = waiters.find((w) => !w.claimed && w.runId === runId && w.testId === testId) ?? newWaiter(runId, testId, null, true);
      waiter.claimed = true;
      if (waiter.done) waiters.splice(waiters.indexOf(waiter), 1);
      return waiter.promise;
    },
  };
}
