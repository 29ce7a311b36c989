// The log store at and past its cap: filled through handle() (POST /log and POST
// /playback/log) to ten times its capacity, with the heap sampled after gc() on the way.
// The baseline keeps the same entries in an unbounded array, to show what the cap saves.
import { createIde } from "../index.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { check, fmtInt, fmtMB, fmtMs, fmtNum, fmtRatio, heading, heapAfterGc, nextTurn, now, printTable, verdict } from "./support.ts";

const CAP = 10_000; // entries per group: the default logEntriesPerGroup, set explicitly below
const CAPACITY = 2 * CAP; // two groups
const MULTIPLES = [1, 2, 5, 10];
const TOTAL = CAPACITY * MULTIPLES[MULTIPLES.length - 1];
const FLAT_TARGET = 1.2;
const LISTENER_SENDS = 2_000;
const SENDERS = [{ id: "bench-logger-a" }, { id: "bench-logger-b" }];

/** Same length for every i, so entries at 10× are the same size as at 1×. */
const text = (i: number) =>
  `entry ${String(i).padStart(7, "0")}: fetched https://shop.example/items/${String(i % 100_000).padStart(5, "0")}`;

function request(i: number): Record<string, unknown> {
  const uri = i % 2 === 0 ? "/log" : "/playback/log";
  const fields: Record<string, unknown> = { message: text(i) };
  if (i % 7 === 0) fields.type = "warn";
  return i % 4 < 2 ? { uri, verb: "post", ...fields } : { uri, verb: "POST", payload: fields };
}

interface Fill {
  samples: number[]; // heap above the start, at each multiple
  ms: number; // time spent sending (samples excluded)
}

async function fill(send: (i: number) => Promise<unknown>): Promise<Fill> {
  const start = heapAfterGc();
  const samples: number[] = [];
  let ms = 0;
  let i = 0;
  for (const multiple of MULTIPLES) {
    const until = multiple * CAPACITY;
    const t0 = now();
    for (; i < until; i++) {
      const reply = await send(i);
      if (reply !== true) throw new Error(`Benchmark self-check failed: log ${i} answered ${JSON.stringify(reply)}`);
    }
    ms += now() - t0;
    samples.push(heapAfterGc() - start);
  }
  return { samples, ms };
}

async function run(): Promise<SummaryLine[]> {
  heading(
    "logs: the log store at and past its cap",
    [
      `${fmtInt(TOTAL)} entries (half POST /log, half POST /playback/log, both request forms) sent through`,
      `handle() to a store capped at ${fmtInt(CAP)} per group (${fmtInt(CAPACITY)} in all); heap above the start, after gc(),`,
      `sampled at 1×, 2×, 5× and 10× the capacity. Baseline: the same entries pushed to an unbounded array`,
      `by an awaited function reading the same request objects.`,
    ].join("\n"),
  );

  // ---- through handle() ----
  const ide = createIde({ limits: { logEntriesPerGroup: CAP, requestsPerSecond: 1e9, requestBurst: 1e9 } });
  const stored = await fill((i) => ide.handle(request(i), SENDERS[(i >> 1) % 2]));
  const view = ide.getSnapshot();
  check(view.logs.length === CAPACITY, `the store keeps ${CAPACITY} entries (it has ${view.logs.length})`);
  check(
    view.logsDropped.system === TOTAL / 2 - CAP && view.logsDropped.playback === TOTAL / 2 - CAP,
    `logsDropped counts every entry past the cap (got ${JSON.stringify(view.logsDropped)})`,
  );
  check(view.logs[0].message === text(TOTAL - CAPACITY), "the oldest kept entry is the first after the dropped ones");
  check(view.logs[CAPACITY - 1].message === text(TOTAL - 1), "the newest entry is the last one sent");
  check(
    view.logs.every((e, k) => e.group === (k % 2 === 0 ? "system" : "playback")),
    "entries went to their groups in order",
  );

  // With one subscribe() listener, as the IDE UI has, at a full store: informative.
  const sendMore = async (from: number): Promise<number> => {
    const t0 = now();
    for (let i = from; i < from + LISTENER_SENDS; i++) {
      const reply = await ide.handle(request(i), SENDERS[(i >> 1) % 2]);
      if (reply !== true) throw new Error(`Benchmark self-check failed: log ${i} answered ${JSON.stringify(reply)}`);
    }
    return now() - t0;
  };
  const bareMs = await sendMore(TOTAL);
  let views = 0;
  let lastLength = 0;
  const subscription = ide.subscribe((v) => {
    views += 1;
    lastLength = v.logs.length;
  });
  const listenedMs = await sendMore(TOTAL + LISTENER_SENDS);
  await nextTurn(); // the listener's view of them all
  subscription.unsubscribe();
  check(views >= 1, `the listener got a view of the entries once the event loop turned (${views} views for ${LISTENER_SENDS} entries)`);
  check(lastLength === CAPACITY, "the listener's last view holds a full store");
  ide.stop();

  // ---- the unbounded array ----
  const entries: object[] = [];
  let seq = 0;
  const push = async (message: Record<string, unknown>, sender: { id: string }): Promise<boolean> => {
    const f = (message.payload ?? message) as { message: string; type?: "warn" | "error" | null };
    seq += 1;
    entries.push(
      Object.freeze({
        id: `log-${seq}`,
        group: message.uri === "/log" ? "system" : "playback",
        level: f.type ?? "info",
        message: f.message,
        source: sender.id,
        at: Date.now(),
      }),
    );
    return true;
  };
  const unbounded = await fill((i) => push(request(i), SENDERS[(i >> 1) % 2]));
  check(entries.length === TOTAL, "the unbounded array holds every entry");

  const storeRatio = stored.samples[stored.samples.length - 1] / stored.samples[0];
  const arrayRatio = unbounded.samples[unbounded.samples.length - 1] / unbounded.samples[0];
  printTable(
    ["entries sent", "× capacity", "LogStore via handle()", "unbounded array", "store ÷ array"],
    MULTIPLES.map((multiple, k) => [
      fmtInt(multiple * CAPACITY),
      `${multiple}×`,
      fmtMB(stored.samples[k]),
      fmtMB(unbounded.samples[k]),
      fmtRatio(stored.samples[k] / unbounded.samples[k]),
    ]),
  );
  console.log("");
  printTable(
    ["figure", "LogStore via handle()", "unbounded array", "store ÷ array"],
    [
      ["heap at 10× ÷ heap at 1×", fmtRatio(storeRatio), fmtRatio(arrayRatio), ""],
      [
        `time to send ${fmtInt(TOTAL)} entries`,
        fmtMs(stored.ms),
        fmtMs(unbounded.ms),
        fmtRatio(stored.ms / unbounded.ms),
      ],
      ["entries per second", fmtInt((TOTAL / stored.ms) * 1000), fmtInt((TOTAL / unbounded.ms) * 1000), ""],
    ],
  );
  console.log("");
  console.log(
    `  With one subscribe() listener (as the IDE UI has), store full: ${fmtInt((LISTENER_SENDS / listenedMs) * 1000)} entries/s, ` +
      `${fmtRatio(listenedMs / bareMs)} the time of the same ${fmtInt(LISTENER_SENDS)} entries with no listener ` +
      `(${fmtInt((LISTENER_SENDS / bareMs) * 1000)} /s); every entry rebuilds the whole IdeView.`,
  );
  const met = storeRatio <= FLAT_TARGET;
  console.log("");
  console.log(
    `  Target: the store's heap stays flat past its cap (10× ÷ 1× ≤ ${FLAT_TARGET}): ${verdict(met)} (${fmtNum(storeRatio, 2)}).`,
  );
  console.log(
    `  Self-checks passed: every request answered true; the view keeps the newest ${fmtInt(CAPACITY)} entries in order ` +
      `and counts ${fmtInt(TOTAL - CAPACITY)} dropped.`,
  );

  return [
    {
      benchmark: "logs",
      figure: "heap at 10× cap ÷ at 1×",
      value: `${fmtMB(stored.samples[0])} → ${fmtMB(stored.samples[stored.samples.length - 1])}`,
      ratio: `${fmtRatio(storeRatio)} (array ${fmtRatio(arrayRatio)})`,
      target: `≤ ${FLAT_TARGET}`,
      met,
    },
    {
      benchmark: "logs",
      figure: "POST /log, /playback/log",
      value: `${fmtInt((TOTAL / stored.ms) * 1000)} /s`,
      ratio: `${fmtRatio(stored.ms / unbounded.ms)} array (time)`,
      target: "",
      met: null,
    },
    {
      benchmark: "logs",
      figure: "POST /log, 1 listener, full",
      value: `${fmtInt((LISTENER_SENDS / listenedMs) * 1000)} /s`,
      ratio: `${fmtRatio(listenedMs / bareMs)} no listener (time)`,
      target: "",
      met: null,
    },
  ];
}

export const logsBenchmark: Benchmark = {
  name: "logs",
  description: "the log store filled to 10× its cap through handle(), heap sampled on the way",
  run,
};
