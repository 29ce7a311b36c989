// What keeping a trace costs a run (issue 28): the host-run test (open, then 50 rounds of type,
// click and assertText on the example site: 151 page commands) played by createIde over the
// host's page under test (one browser session, the one player) three ways, in the same process
// and browser: trace "off" (the baseline), "on" (a JPEG after every command, written to a
// temporary folder; pictures start at most every PICTURE_SPACING_MS) and "retain-on-failure"
// (at most every RETAIN_PICTURE_SPACING_MS, then removed as the test passed). Pictures are taken beside the run (drivers/traces/tracedExecutor.ts): the commands that
// end while one is taken share the next, so a run holds fewer files than commands. A warm-up each, then rounds of the three, the order rotating every round; medians and
// their ratios to "off". Self-checking: every command of every run passed; each "on" run's trace
// holds a picture per command; "retain-on-failure" keeps no folder.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createIde } from "../index.ts";
import type { Ide } from "../index.ts";
import { sessionPool } from "../drivers/host/sessions.ts";
import { startExampleSite } from "../drivers/host/site.ts";
import { tracedExecutor } from "../drivers/host/tracedExecutor.ts";
import { traceStore } from "../drivers/host/traceStore.ts";
import { PICTURE_SPACING_MS, picturePolicy, RETAIN_PICTURE_SPACING_MS } from "../services/traces/index.ts";
import type { TraceMode } from "../services/traces/index.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { check, fmtMs, fmtRatio, heading, median, printTable, playTimed, shopRunProject } from "./support.ts";

const ROUNDS = 50;
const REPS = 15;
const ON_TARGET = 1.15;
const RETAIN_TARGET = 1.05;
const RUN_LIMIT_MS = 120_000;
const TEST_ID = "t-trace-run";

const { project, commands: COMMANDS } = shopRunProject(TEST_ID, "bench-trace", "Trace benchmark", ROUNDS);

const MODES: TraceMode[] = ["off", "on", "retain-on-failure"];

async function run(): Promise<SummaryLine[]> {
  heading(
    "trace: what keeping a run's trace costs",
    [
      `The example site in headless Chromium; one test of open and ${ROUNDS} rounds of type, click and assertText (${COMMANDS} page commands),`,
      `played by createIde over the host's page under test with trace "off", "on" (a picture per command, taken beside the run, at most every ${PICTURE_SPACING_MS} ms:`,
      `the commands that end while one is taken share the next) and "retain-on-failure"`,
      `(pictures started at most every ${RETAIN_PICTURE_SPACING_MS} ms, removed as the test passes). A warm-up each, then ${REPS} rounds of the three, the order rotating.`,
    ].join("\n"),
  );
  const site = await startExampleSite();
  const pool = sessionPool({ baseUrl: site.url });
  const root = mkdtempSync(join(tmpdir(), "ide-core-bench-trace-"));
  const stores = new Map<TraceMode, ReturnType<typeof traceStore>>();
  const ides = new Map<TraceMode, Ide>();
  for (const mode of MODES) {
    if (mode === "off") {
      ides.set(mode, createIde({ executor: pool, project, trace: "off" }));
      continue;
    }
    const store = traceStore({ root: join(root, mode) });
    stores.set(mode, store);
    ides.set(mode, createIde({ executor: tracedExecutor(pool, store, picturePolicy(mode)), project, trace: mode, traces: store }));
  }
  /** Distinct pictures per timed "on" run. */
  const files: number[] = [];
  try {
    async function once(mode: TraceMode): Promise<number> {
      const ide = ides.get(mode)!;
      const { elapsed, playback } = await playTimed(ide, TEST_ID, RUN_LIMIT_MS);
      const passed = playback.commands.filter((c) => c.state === "passed").length;
      check(playback.result === "passed" && passed === COMMANDS, `the ${mode} run passed every command (${passed} of ${COMMANDS})`);
      const store = stores.get(mode);
      if (store) {
        // Outside the timing: the trace is written (or removed) before the next run.
        const { manifest, dir } = await store.finished(playback.runId, TEST_ID);
        if (mode === "on") {
          const pictures = manifest.steps.filter((s) => s.screenshot !== null).length;
          check(dir !== null && pictures === COMMANDS, `the "on" trace holds a picture per command (${pictures} of ${COMMANDS})`);
          files.push(new Set(manifest.steps.map((s) => s.screenshot)).size);
          check(JSON.parse(readFileSync(join(dir!, "trace.json"), "utf8")).steps.length === COMMANDS, "the \"on\" trace's manifest is on disk");
        } else check(dir === null && readdirSync(join(root, mode)).length === 0, "retain-on-failure keeps nothing of a passing run");
      }
      return elapsed;
    }

    for (const mode of MODES) await once(mode);
    files.length = 0;
    const times: Record<TraceMode, number[]> = { off: [], on: [], "retain-on-failure": [] };
    for (let round = 0; round < REPS; round++) {
      for (let i = 0; i < MODES.length; i++) {
        const mode = MODES[(round + i) % MODES.length];
        times[mode].push(await once(mode));
      }
    }
    const off = median(times.off);
    const on = median(times.on);
    const retain = median(times["retain-on-failure"]);
    printTable(
      ["per run", "median", "min", "max", "to off"],
      MODES.map((mode) => [`trace "${mode}"`, fmtMs(median(times[mode])), fmtMs(Math.min(...times[mode])), fmtMs(Math.max(...times[mode])), fmtRatio(median(times[mode]) / off)]),
    );
    console.log(`  pictures per "on" run (distinct files for ${COMMANDS} commands): median ${median(files)}, ${Math.min(...files)}–${Math.max(...files)}`);
    return [
      { benchmark: "trace", figure: `trace "on", ${COMMANDS} page commands`, value: fmtMs(on), ratio: `${fmtRatio(on / off)} trace "off" (${fmtMs(off)})`, target: `≤ ${ON_TARGET}×`, met: on / off <= ON_TARGET },
      { benchmark: "trace", figure: 'trace "retain-on-failure", a passing run', value: fmtMs(retain), ratio: `${fmtRatio(retain / off)} trace "off"`, target: `≤ ${RETAIN_TARGET}×`, met: retain / off <= RETAIN_TARGET },
    ];
  } finally {
    for (const ide of ides.values()) ide.stop();
    await pool.close();
    await site.close();
    rmSync(root, { recursive: true, force: true });
  }
}

export const traceBenchmark: Benchmark = {
  name: "trace",
  description: "a run of 151 page commands with trace on and retain-on-failure against trace off",
  run,
};
