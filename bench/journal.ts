// Nothing lost on a crash, at what cost: 1,000 edits (a plugin's POST /record/command, each
// awaited as a plugin does) with the host's journal file against the same edits without a
// journal, in the same process. Each edit is on disk before its reply leaves.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createIde } from "../index.ts";
import type { Ide } from "../index.ts";
import { fileJournal } from "../apps/host/journal.ts";
import { readJournal } from "../services/journal/index.ts";
import { readProjectFile } from "../apps/cli/project.ts";
import { EXAMPLE_PROJECT_PATH } from "../drivers/host/site.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { check, checkTrue, fmtMs, fmtRatio, heading, heapAfterGc, median, now, printTable } from "./support.ts";

const EDITS = 1000;
const REPS = 10;
const TARGET = 1.1;
const SENDER = { id: "bench-journal" };

/** A fresh IDE on the example project, a plugin registered; with the journal in `dir` when given. */
async function freshIde(dir: string | null): Promise<Ide> {
  const ide = createIde({
    project: readProjectFile(EXAMPLE_PROJECT_PATH),
    limits: { requestsPerSecond: 1e9, requestBurst: 1e9 },
    journal: dir ? fileJournal(join(dir, "journal.json"), 0) : undefined,
  });
  checkTrue(await ide.handle({ uri: "/register", verb: "post", name: "Bench journal", version: "1.0.0" }, SENDER), "POST /register");
  return ide;
}

/** The time of EDITS edits, one after another, each reply awaited. */
async function edits(dir: string | null): Promise<number> {
  const ide = await freshIde(dir);
  try {
    heapAfterGc();
    const t0 = now();
    for (let i = 0; i < EDITS; i++) {
      const reply = await ide.handle({ uri: "/record/command", verb: "post", command: "echo", target: `edit ${i}`, value: "" }, SENDER);
      if (reply !== true) checkTrue(reply, `edit ${i}`);
    }
    const ms = now() - t0;
    const commands = ide.getProject().tests[0].commands;
    check(commands[commands.length - 1].target === `edit ${EDITS - 1}`, "the last edit is in the project");
    if (dir) {
      const read = readJournal(readFileSync(join(dir, "journal.json"), "utf8"));
      check(read.ok && read.record.project.tests[0].commands.length === commands.length, "the journal holds every edit");
    }
    return ms;
  } finally {
    ide.stop();
  }
}

async function run(): Promise<SummaryLine[]> {
  heading(
    "journal: edits with the journal of unsaved changes",
    [
      `${EDITS} POST /record/command edits of the example project, each reply awaited, with the host's journal`,
      `file (on disk before each reply: a line appended per edit) against none. Median of ${REPS}, in turns, after gc().`,
    ].join("\n"),
  );
  const dir = mkdtempSync(join(tmpdir(), "ide-core-bench-journal-"));
  try {
    await edits(null);
    await edits(dir);
    const without: number[] = [];
    const withJournal: number[] = [];
    // Each goes first in every other round, so neither gains from the order.
    for (let rep = 0; rep < REPS; rep++) {
      if (rep % 2 === 0) {
        without.push(await edits(null));
        withJournal.push(await edits(dir));
      } else {
        withJournal.push(await edits(dir));
        without.push(await edits(null));
      }
    }
    const base = median(without);
    const journaled = median(withJournal);
    const ratio = journaled / base;
    printTable(
      ["figure", "time", "÷ without"],
      [
        [`${EDITS} edits without a journal (baseline)`, fmtMs(base), fmtRatio(1)],
        [`${EDITS} edits with the journal`, fmtMs(journaled), fmtRatio(ratio)],
      ],
    );
    console.log("");
    console.log(`  Self-checks passed: every edit answered true and is in the project; the journal read back holds all of them.`);
    return [
      {
        benchmark: "journal",
        figure: `${EDITS} edits with the journal`,
        value: fmtMs(journaled),
        ratio: `${fmtRatio(ratio)} without`,
        target: `≤ ${fmtRatio(TARGET)}`,
        met: ratio <= TARGET,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const journalBenchmark: Benchmark = {
  name: "journal",
  description: "1,000 edits with the journal of unsaved changes against none",
  run,
};
