// CI as teams run it (issue 35, CONTRACT section 22), timed where a CI user feels it:
//   projects: four projects of 10 tests each, every test opening a page the server holds back
//             SLOW_MS and checking it, played by one real `npm run play` process with -w 2
//             against -w 1 (target ≤ 0.6×). Each project's suite is not `parallel`: -w then
//             gains only where the runner plays suites or projects at once.
//   persist:  one suite of 10 such tests with `persistSession` (one browser session for all)
//             against the same suite without it (a fresh session per test), each a real
//             `npm run play` process: the ratio is printed, without a target.
//   data:     a 100-row data test (`loadVars rows.csv` … `endLoadVars` around `type` and
//             `assertText`) against the same commands written out 100 times, in the same host,
//             browser and page, rounds alternating: the loop's own cost per row beside its
//             commands' (target ≤ 5%).
// CI_PARTS=projects,persist,data plays some parts only (the figures of the others are "-").
// The pages are served on 127.0.0.1 by the bench. Self-checking: every process exits 0 with
// every test passed; every data run passes all its 201 commands.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dataFileReader } from "../apps/host/dataFiles.ts";
import { startHost } from "../apps/host/host.ts";
import { sessionPool } from "../drivers/host/sessions.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { check, fmtMs, fmtNum, fmtRatio, heading, median, playTimed, printTable } from "./support.ts";
import { playCli, servePages } from "./playCli.ts";

/** How long the server holds a slow page back. */
const SLOW_MS = 1_000;
const ROWS = 100;
const PARTS = (process.env.CI_PARTS ?? "projects,persist,data").split(",");
const SKIPPED = { wall: Number.NaN, own: Number.NaN };
const DATA_ROUNDS = 5;
const command = (id: string, name: string, target = "", value = "") => ({ id, comment: "", command: name, target, targets: [], value });

/** A project of `count` slow-page tests in one suite with the settings given. */
function slowProject(name: string, origin: string, count: number, suite: { parallel: boolean; persistSession: boolean }) {
  const tests = Array.from({ length: count }, (_, i) => ({
    id: `t${i}`,
    name: `${name} test ${i}`,
    commands: [command(`t${i}-1`, "open", `/slow/${name}-${i}?ms=${SLOW_MS}`), command(`t${i}-2`, "assertText", "css=h1", `Slow ${name}-${i}`)],
  }));
  return { id: `p-${name}`, version: "2.0", name, url: origin, urls: [], plugins: [], tests, suites: [{ id: "s", name: `${name} suite`, ...suite, timeout: 300, tests: tests.map((t) => t.id) }] };
}

/** The data test and the same commands written out, on the form page. */
function dataProject(origin: string) {
  const names = Array.from({ length: ROWS }, (_, i) => `row ${i}${"x".repeat(i % 7)}`);
  const rows = {
    id: "rows",
    name: "100 rows",
    commands: [command("r0", "open", "/form"), command("r1", "loadVars", "rows.csv"), command("r2", "type", "id=name", "${name}"), command("r3", "assertText", "id=out", "${name}"), command("r4", "endLoadVars")],
  };
  const written = {
    id: "written",
    name: "100 rows written out",
    commands: [command("w0", "open", "/form"), ...names.flatMap((name, i) => [command(`w${i}t`, "type", "id=name", name), command(`w${i}a`, "assertText", "id=out", name)])],
  };
  const csv = `name\n${names.join("\n")}\n`;
  return { project: { id: "p-data", version: "2.0", name: "Data", url: origin, urls: [], plugins: [], tests: [rows, written], suites: [] }, csv };
}

export const ciBenchmark: Benchmark = {
  name: "ci",
  description: "npm run play as CI runs it: four projects with -w 2 against -w 1, a persistSession suite against a fresh session per test, a 100-row data loop's own cost",
  async run(): Promise<SummaryLine[]> {
    heading(
      "ci",
      `4 projects of 10 tests on pages held back ${SLOW_MS} ms, one npm run play with -w 2 and with -w 1;\na suite of 10 such tests with persistSession and without; a loadVars test of ${ROWS} rows against its commands written out.`,
    );
    const site = await servePages();
    const dir = mkdtempSync(join(tmpdir(), "ide-core-bench-ci-"));
    try {
      const files = ["alpha", "bravo", "charlie", "delta"].map((name) => {
        const file = join(dir, `${name}.side`);
        writeFileSync(file, JSON.stringify(slowProject(name, site.origin, 10, { parallel: false, persistSession: false })));
        return file;
      });
      const projects: Record<number, { wall: number; own: number }> = {};
      for (const workers of [1, 2]) {
        projects[workers] = PARTS.includes("projects") ? await playCli([...files, "-w", String(workers)], dir, 40) : SKIPPED;
        console.log(`   4 projects, -w ${workers}: ${fmtMs(projects[workers].own)} (process ${fmtMs(projects[workers].wall)})`);
      }
      const projectsRatio = projects[2].own / projects[1].own;

      const persist: Record<string, { wall: number; own: number }> = {};
      for (const persistSession of [false, true]) {
        const file = join(dir, `suite-${persistSession}.side`);
        writeFileSync(file, JSON.stringify(slowProject(`suite-${persistSession}`, site.origin, 10, { parallel: false, persistSession })));
        persist[String(persistSession)] = PARTS.includes("persist") ? await playCli([file], dir, 10) : SKIPPED;
        console.log(`   a suite of 10, persistSession ${persistSession}: ${fmtMs(persist[String(persistSession)].own)}`);
      }
      const persistRatio = persist.true.own / persist.false.own;

      const { project, csv } = dataProject(site.origin);
      writeFileSync(join(dir, "rows.csv"), csv);
      const pool = sessionPool({ sessions: 1 });
      const host = await startHost({ port: 0, tokenFile: null, project, executor: pool, readData: dataFileReader({ filesDir: dir, projectDir: null }) });
      const times: Record<"rows" | "written", number[]> = { rows: [], written: [] };
      try {
        for (let round = -1; round < (PARTS.includes("data") ? DATA_ROUNDS : -1); round++) {
          for (const testId of round % 2 ? (["rows", "written"] as const) : (["written", "rows"] as const)) {
            const { elapsed, playback } = await playTimed(host.ide, testId, 120_000);
            check(playback.result === "passed", `the ${testId} test passed (it says ${playback.result})`);
            if (round >= 0) times[testId].push(elapsed);
          }
        }
      } finally {
        await host.close();
        await pool.close();
      }
      // CI_PARTS without "data" plays no round: its figures are "-".
      const middle = (list: number[]) => (list.length > 0 ? median(list) : Number.NaN);
      const perRowCommands = middle(times.written) / ROWS;
      const perRowLoop = (middle(times.rows) - middle(times.written)) / ROWS;
      const loopShare = perRowLoop / perRowCommands;

      printTable(
        ["figure", "value", "against", "ratio"],
        [
          ["4 projects × 10 slow tests, -w 1 (the CLI's own time)", fmtMs(projects[1].own), `process ${fmtMs(projects[1].wall)}`, ""],
          ["4 projects × 10 slow tests, -w 2 (the CLI's own time)", fmtMs(projects[2].own), `-w 1 (process ${fmtMs(projects[2].wall)})`, fmtRatio(projectsRatio)],
          ["a suite of 10 slow tests, a fresh session each", fmtMs(persist.false.own), `process ${fmtMs(persist.false.wall)}`, ""],
          ["the same suite with persistSession", fmtMs(persist.true.own), `a fresh session each (process ${fmtMs(persist.true.wall)})`, fmtRatio(persistRatio)],
          [`${ROWS} rows written out (type, assertText), a row`, fmtMs(perRowCommands), "", ""],
          [`${ROWS} rows through loadVars, the loop's own cost a row`, fmtMs(perRowLoop), "the row's commands", `${fmtNum(loopShare * 100)}%`],
        ],
      );
      return [
        { benchmark: "ci", figure: "4 projects × 10 slow tests, npm run play -w 2", value: fmtMs(projects[2].own), ratio: `${fmtRatio(projectsRatio)} -w 1 (${fmtMs(projects[1].own)})`, target: "≤ 0.6×", met: Number.isNaN(projectsRatio) ? null : projectsRatio <= 0.6 },
        { benchmark: "ci", figure: "a persistSession suite of 10 slow tests", value: fmtMs(persist.true.own), ratio: `${fmtRatio(persistRatio)} a fresh session each (${fmtMs(persist.false.own)})`, target: "", met: null },
        { benchmark: "ci", figure: `loadVars, the loop's own cost a row (${ROWS} rows)`, value: fmtMs(perRowLoop), ratio: `${fmtNum(loopShare * 100)}% of the row's commands (${fmtMs(perRowCommands)})`, target: "≤ 5%", met: Number.isNaN(loopShare) ? null : loopShare <= 0.05 },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await site.close();
    }
  },
};
