// GET /health round trips through the built extension, from a plugin extension's worker with
// chrome.runtime.sendMessage, against two bare echo extensions in the same browser run:
// - an echo answering from its service worker: the floor for any extension's answer, and the
//   baseline of the target (the IDE at most 1.2× this, p50 and p99);
// - an echo answering from an extension page: where the IDE answers from, since its core
//   lives in the IDE window (apps/extension/relay.ts says why);
// - the same page echo with a worker that also listens and leaves every message to the page,
//   as the IDE's worker does: what that fallback listener costs on its own.
// Rounds alternate between the three, so a slow spell of the machine falls on all of them.
// Chromium gives extension workers a clock coarsened to 0.1 ms, so single round trips are
// coarse; the mean of each batch of sequential round trips is finer and is printed beside them.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Worker } from "playwright-core";
import { launchWithExtensions } from "../drivers/host/chromium.ts";
import { buildExtension } from "../apps/extension/build.ts";
import { IDE_EXTENSION_ID } from "../drivers/webextension/identity.ts";
import { makePageEcho, makePluginExtension, makeWorkerEcho, openIdeWindow, profileDir, sendFrom, workerOf } from "../tests/support/extensions.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { check, fmtNum, fmtRatio, heading, median, printTable, quantile } from "./support.ts";

const ROUNDS = 6;
const BATCH = 500; // sequential round trips per contender per round
const WARMUP = 300;
const TARGET = 1.2;
const HEALTH = { uri: "/health", verb: "get" };

interface Contender {
  name: string;
  id: string;
  samples: number[];
  batchMeans: number[];
}

async function roundTrips(plugin: Worker, to: string, n: number): Promise<number[]> {
  return (await plugin.evaluate(`plugin.roundTrips(${JSON.stringify(to)}, ${JSON.stringify(HEALTH)}, ${n})`)) as number[];
}

async function run(): Promise<SummaryLine[]> {
  heading(
    "extension: GET /health through the browser extension",
    `A plugin extension's worker sends ${BATCH} sequential requests per round, ${ROUNDS} rounds,\n` +
      "to the IDE (window open), to an echo answering from its worker, and to an echo answering from a page.",
  );
  console.log("  building the extension…");
  const built = await buildExtension({ outDir: join(mkdtempSync(join(tmpdir(), "ide-core-bench-")), "extension") });
  const plugin = makePluginExtension("bench-plugin");
  const workerEcho = makeWorkerEcho();
  const pageEcho = makePageEcho();
  const pageAndWorkerEcho = makePageEcho({ workerListens: true });
  const context = await launchWithExtensions(profileDir(), [
    built.outDir,
    plugin.dir,
    workerEcho.dir,
    pageEcho.dir,
    pageAndWorkerEcho.dir,
  ]);
  try {
    const pluginWorker = await workerOf(context, plugin.id);
    await workerOf(context, IDE_EXTENSION_ID);
    await workerOf(context, workerEcho.id);
    await workerOf(context, pageAndWorkerEcho.id);
    for (const echo of [pageEcho, pageAndWorkerEcho]) {
      const echoPage = await context.newPage();
      await echoPage.goto(`chrome-extension://${echo.id}/echo.html`);
    }

    const ideWindow = await openIdeWindow(context, pluginWorker);

    // Each contender answers what it should before it is timed.
    const health = await sendFrom(pluginWorker, IDE_EXTENSION_ID, HEALTH);
    check("reply" in health && health.reply === false, `GET /health from an unregistered plugin answered ${JSON.stringify(health)}`);
    for (const echo of [workerEcho, pageEcho, pageAndWorkerEcho]) {
      const answer = await sendFrom(pluginWorker, echo.id, HEALTH);
      check("reply" in answer && JSON.stringify(answer.reply) === JSON.stringify(HEALTH), `an echo answered ${JSON.stringify(answer)}`);
    }

    const contenders: Contender[] = [
      { name: "IDE extension", id: IDE_EXTENSION_ID, samples: [], batchMeans: [] },
      { name: "echo from a worker", id: workerEcho.id, samples: [], batchMeans: [] },
      { name: "echo from a page", id: pageEcho.id, samples: [], batchMeans: [] },
      { name: "echo from a page, worker listening", id: pageAndWorkerEcho.id, samples: [], batchMeans: [] },
    ];
    for (const c of contenders) await roundTrips(pluginWorker, c.id, WARMUP);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? contenders : [...contenders].reverse();
      for (const c of order) {
        const times = await roundTrips(pluginWorker, c.id, BATCH);
        check(times.length === BATCH, `${c.name} gave ${times.length} timings`);
        c.samples.push(...times);
        c.batchMeans.push(times.reduce((a, b) => a + b, 0) / times.length);
      }
      process.stdout.write(`  round ${round + 1}/${ROUNDS} done\r`);
    }
    console.log("");

    const stats = contenders.map((c) => {
      const samples = Float64Array.from(c.samples);
      return {
        name: c.name,
        p50: quantile(samples, samples.length, 0.5),
        p99: quantile(Float64Array.from(c.samples), samples.length, 0.99),
        mean: median(c.batchMeans),
      };
    });
    const [ide, worker, page, pageAndWorker] = stats;
    printTable(
      ["round trip (ms)", "p50", "p99", "batch mean", "p50 ratio", "p99 ratio", "mean ratio"],
      stats.map((s) => [
        s.name,
        fmtNum(s.p50, 2),
        fmtNum(s.p99, 2),
        fmtNum(s.mean, 3),
        fmtRatio(s.p50 / worker.p50),
        fmtRatio(s.p99 / worker.p99),
        fmtRatio(s.mean / worker.mean),
      ]),
    );
    console.log("");
    console.log(`  the IDE against the echo from a page: p50 ${fmtRatio(ide.p50 / page.p50)}, p99 ${fmtRatio(ide.p99 / page.p99)}, mean ${fmtRatio(ide.mean / page.mean)}`);
    console.log(
      `  the IDE against the page echo whose worker also listens: p50 ${fmtRatio(ide.p50 / pageAndWorker.p50)}, ` +
        `p99 ${fmtRatio(ide.p99 / pageAndWorker.p99)}, mean ${fmtRatio(ide.mean / pageAndWorker.mean)}`,
    );
    console.log("");

    const p50Ratio = ide.p50 / worker.p50;
    const p99Ratio = ide.p99 / worker.p99;
    const met = p50Ratio <= TARGET && p99Ratio <= TARGET;
    return [
      {
        benchmark: "extension",
        figure: "GET /health round trip p50 / p99",
        value: `${fmtNum(ide.p50, 2)} / ${fmtNum(ide.p99, 2)} ms`,
        ratio: `${fmtRatio(p50Ratio)} / ${fmtRatio(p99Ratio)} worker echo`,
        target: `≤ ${TARGET}× (p50 and p99)`,
        met,
      },
      {
        benchmark: "extension",
        figure: "the same, against an echo from a page",
        value: `${fmtNum(page.p50, 2)} / ${fmtNum(page.p99, 2)} ms`,
        ratio: `${fmtRatio(ide.p50 / page.p50)} / ${fmtRatio(ide.p99 / page.p99)} page echo`,
        target: "",
        met: null,
      },
      {
        benchmark: "extension",
        figure: "the same, against a page echo whose worker also listens",
        value: `${fmtNum(pageAndWorker.p50, 2)} / ${fmtNum(pageAndWorker.p99, 2)} ms`,
        ratio: `${fmtRatio(ide.p50 / pageAndWorker.p50)} / ${fmtRatio(ide.p99 / pageAndWorker.p99)} that echo`,
        target: "",
        met: null,
      },
    ];
  } finally {
    await context.close();
  }
}

export const extensionBenchmark: Benchmark = {
  name: "extension",
  description: "GET /health round trips through the browser extension against bare echo extensions",
  run,
};
