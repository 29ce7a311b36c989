// npm run bench [-- --only NAME[,NAME...]]: runs the benchmarks in order and prints a summary.
// Benchmarks are not tests: they print figures, each a ratio against a baseline run in the
// same process. A failed self-check stops the run with exit code 1; a missed target does not.
import { cpus } from "node:os";
import { readArgs, UsageError } from "../apps/cli/usage.ts";
import { bridgeBenchmark } from "./bridge.ts";
import { ciBenchmark } from "./ci.ts";
import { chromeRecorderBenchmark } from "./chromeRecorder.ts";
import { extensionBenchmark } from "./extension.ts";
import { extensionPickBenchmark } from "./extensionPick.ts";
import { extensionRunBenchmark } from "./extensionRun.ts";
import { flakeBenchmark } from "./flake.ts";
import { exportBenchmark } from "./export.ts";
import { gettextBenchmark } from "./gettext.ts";
import { gridBenchmark } from "./grid.ts";
import { recordBenchmark } from "./record.ts";
import { pickBenchmark } from "./pick.ts";
import { handleBenchmark } from "./handle.ts";
import { healBenchmark } from "./heal.ts";
import { journalBenchmark } from "./journal.ts";
import { hostRunBenchmark } from "./hostRun.ts";
import { ciSpeedBenchmark } from "./ciSpeed.ts";
import { traceBenchmark } from "./trace.ts";
import { undoBenchmark } from "./undo.ts";
import { liveBenchmark } from "./live.ts";
import { locatorsBenchmark } from "./locators.ts";
import { logsBenchmark } from "./logs.ts";
import { playbackBenchmark } from "./playback.ts";
import { playerHeapBenchmark } from "./playerHeap.ts";
import { projectBenchmark } from "./project.ts";
import { runBenchmark } from "./runs.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { fmtNum, gcWasExposed, heapAfterGc, now, printTable, verdict } from "./support.ts";

const BENCHMARKS: Benchmark[] = [handleBenchmark, playbackBenchmark, runBenchmark, logsBenchmark, projectBenchmark, bridgeBenchmark, locatorsBenchmark, extensionBenchmark, hostRunBenchmark, liveBenchmark, extensionRunBenchmark, exportBenchmark, gridBenchmark, recordBenchmark, pickBenchmark, extensionPickBenchmark, journalBenchmark, playerHeapBenchmark, healBenchmark, traceBenchmark, flakeBenchmark, undoBenchmark, gettextBenchmark, ciSpeedBenchmark, ciBenchmark, chromeRecorderBenchmark];

function usage(): string {
  return [
    "usage: npm run bench [-- --only NAME[,NAME...]]",
    "",
    ...BENCHMARKS.map((b) => `  ${b.name.padEnd(13)} ${b.description}`),
  ].join("\n");
}

function selected(argv: string[]): Benchmark[] {
  const { values } = readArgs({ args: argv, options: { only: { type: "string" }, help: { type: "boolean", short: "h" } } });
  if (values.help) {
    console.log(usage());
    process.exit(0);
  }
  const only = values.only;
  if (only === undefined) return BENCHMARKS;
  const names = only.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !BENCHMARKS.some((b) => b.name === name));
  if (unknown.length > 0 || names.length === 0) throw new UsageError(`no benchmark named ${unknown.map((name) => JSON.stringify(name)).join(", ") || '""'}`);
  // In the usual order, each once.
  return BENCHMARKS.filter((b) => names.includes(b.name));
}

async function main(): Promise<void> {
  let chosen: Benchmark[];
  try {
    chosen = selected(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`bench: ${error.message}\n\n${usage()}`);
    process.exit(2);
  }

  heapAfterGc(); // makes gc() available before anything is measured
  console.log(
    `ide-core benchmarks: Node ${process.version}, ${cpus().length} CPU(s) ${cpus()[0]?.model ?? ""}`.trimEnd() +
      `, gc ${gcWasExposed() ? "exposed (--expose-gc)" : "enabled at run time"}.`,
  );
  console.log("Absolute times are noise on shared machines; read the ratios against each baseline.");

  const started = now();
  const lines: SummaryLine[] = [];
  const durations: string[] = [];
  for (const benchmark of chosen) {
    const t0 = now();
    lines.push(...(await benchmark.run()));
    durations.push(`${benchmark.name} ${fmtNum((now() - t0) / 1000, 1)} s`);
  }

  console.log("");
  console.log(`== summary ${"=".repeat(68)}`);
  console.log("");
  printTable(
    ["benchmark", "figure", "value", "ratio to baseline", "target", ""],
    lines.map((l) => [l.benchmark, l.figure, l.value, l.ratio, l.target, verdict(l.met)]),
    ["l", "l", "r", "l", "l", "l"],
  );
  const targets = lines.filter((l) => l.met !== null);
  const missed = targets.filter((l) => l.met === false);
  console.log("");
  console.log(
    `  Targets met: ${targets.length - missed.length} of ${targets.length}` +
      (missed.length > 0 ? ` (not met: ${missed.map((l) => `${l.benchmark} ${l.figure}`).join("; ")})` : "") +
      ".",
  );
  console.log(`  Ran in ${fmtNum((now() - started) / 1000, 1)} s (${durations.join(", ")}).`);
}

main().catch((error: unknown) => {
  console.error("");
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
