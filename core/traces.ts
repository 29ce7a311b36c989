// What a run's trace is made of, as the core sees it (CONTRACT section 17): each test runner's
// start, each command's start and end (state, message, the locator that found its element) and
// the test's end with whether its trace is kept (createIde's `trace` mode). Read from each test
// runner's snapshots, so it works for tests played at once; read-only, it changes nothing. The
// adapter that keeps traces (drivers/traces/traceStore.ts, on the host's disk or in the extension's IndexedDB) is the port: its pictures
// and files are I/O, none of the core's business.
import type { SuiteRunnerRef } from "../machines/ide.selectors.ts";
import { eachTestRunner } from "../machines/ide.selectors.ts";
import { CHUNK } from "../services/playback/commandTable.ts";
import type { CommandRow, CommandTable } from "../services/playback/commandTable.ts";
import { keepsTrace } from "../services/traces/index.ts";
import type { TestResult, TraceMode } from "../services/traces/index.ts";

export interface TraceTestStart {
  /** Unique per test played in this process (a try of a test is a test played). */
  key: string;
  runId: string;
  testId: string;
  testName: string;
  suiteName: string | null;
  at: number;
}

export interface TraceCommandEvent {
  phase: "start" | "end";
  /** The command's position in its test, from 1. */
  index: number;
  commandId: string;
  command: string;
  target: string;
  value: string;
  state: CommandRow["state"];
  message: string | null;
  healed: { locator: string; score: number } | null;
  at: number;
}

/** The trace port (createIde's `traces`): told as tests and commands start and end; it must not throw. */
export interface TraceSink {
  testStarted(start: TraceTestStart): void;
  command(key: string, event: TraceCommandEvent): void;
  testEnded(key: string, end: { result: TestResult; keep: boolean; at: number }): void;
}

const FINAL = new Set(["passed", "failed", "fatal", "undetermined"]);

let traced = 0;

/** Tells `sink` of every test runner's commands while `mode` is not "off"; the subscription ends it. */
export function watchTraces(playback: SuiteRunnerRef, mode: TraceMode, sink: TraceSink): { unsubscribe(): void } {
  if (mode === "off") return { unsubscribe() {} };
  return eachTestRunner(playback, (runner) => {
    const key = `trace-${++traced}`;
    let started = false;
    let ended = false;
    let table: CommandTable | null = null;
    const tell = (snapshot: ReturnType<typeof runner.getSnapshot>) => {
      if (ended) return;
      const { run } = snapshot.context;
      const now = Date.now();
      if (!started) {
        started = true;
        sink.testStarted({ key, runId: run.runId, testId: run.test.id, testName: run.test.name, suiteName: run.suite?.name ?? null, at: now });
      }
      const before = table;
      table = run.commands;
      if (before !== table) {
        // A snapshot may hold a command's end and the next one's start (a loop going back: the
        // next is above it): the ends are told first, so the trace's steps keep the order they ran in.
        const starts: TraceCommandEvent[] = [];
        table.chunks.forEach((chunk, c) => {
          const was = before?.chunks[c];
          if (was === chunk) return;
          chunk.forEach((row, i) => {
            const old = was?.[i];
            if (old === row || (old && old.state === row.state && old.message === row.message)) return;
            const event = { index: c * CHUNK + i + 1, commandId: row.id, command: row.command, target: row.target, value: row.value, state: row.state, message: row.message, healed: row.healed ? { ...row.healed } : null, at: now };
            if (row.state === "pending") starts.push({ ...event, phase: "start" });
            else if (row.state !== null && FINAL.has(row.state)) sink.command(key, { ...event, phase: "end" });
          });
        });
        for (const start of starts) sink.command(key, start);
      }
      if (snapshot.matches("ended")) {
        ended = true;
        const result: TestResult = run.end === "fatal" ? "fatal" : run.failed ? "failed" : run.end === "stopped" ? "stopped" : "passed";
        sink.testEnded(key, { result, keep: keepsTrace(mode, result), at: now });
      }
    };
    const subscription = runner.subscribe({ next: tell, error: () => {} });
    tell(runner.getSnapshot());
    return () => {
      subscription.unsubscribe();
      tell(runner.getSnapshot());
    };
  });
}
