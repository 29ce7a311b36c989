// handle() throughput and latency on a mix of the four busiest routes, beside two bare
// dispatchers that do the same storage work with no validation and no machine:
// (a) a Map keyed by uri, and (b) a linear table of 40 routes matched by lower-casing each
// route's uri and verb in turn (the design the plugin interface comes from).
import { readFileSync } from "node:fs";
import { createIde } from "../index.ts";
import type { Ide } from "../index.ts";
import { LogStore } from "../services/logs/index.ts";
import type { LogGroup, LogInput } from "../services/logs/index.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { check, fmtInt, fmtNum, fmtRatio, heading, median, now, playHeldAtFirstCommand, printTable, quantile, verdict } from "./support.ts";

type Message = Record<string, unknown>;
type Sender = { id: string };
type Dispatcher = (message: Message, sender: Sender) => Promise<unknown>;
type Kind = "health" | "log" | "playbackLog" | "command";

const SENDERS: Sender[] = [{ id: "bench-plugin-a" }, { id: "bench-plugin-b" }, { id: "bench-plugin-c" }];
const KINDS: Kind[] = ["health", "log", "playbackLog", "command"];
const COMMAND_IDS = ["c-open", "c-user", "c-pass", "c-submit", "c-check"]; // test t-login of shop.side
const STATES = ["pending", "passed", "failed", "undetermined"] as const; // never fatal: it ends the run
const LOG_TYPES = [undefined, "warn", "error", null] as const;
const LOG_CAP = 10_000; // the default logEntriesPerGroup

/** Requests in one pass; a multiple of 4 kinds × 2 forms × 3 senders and of the batch of 100. */
const PASS = 1_200;
const BATCH = 100;
const ROUNDS = 5;
const MIN_MS = 250;
const LATENCY_PASSES = 8;
const WARMUP_PASSES = 10;

interface Request {
  message: Message;
  sender: Sender;
  kind: Kind;
}

/** The pass of requests every dispatcher gets: 25% of each kind, both request forms, three senders. */
function buildRequests(): Request[] {
  const requests: Request[] = [];
  for (let i = 0; i < PASS; i++) {
    const kind = KINDS[i % 4];
    const payloadForm = Math.floor(i / 4) % 2 === 1;
    const sender = SENDERS[i % 3];
    let uri: string;
    let verb: string;
    let fields: Record<string, unknown>;
    switch (kind) {
      case "health":
        uri = "/health";
        verb = "get";
        fields = {};
        break;
      case "log":
      case "playbackLog": {
        uri = kind === "log" ? "/log" : "/playback/log";
        verb = "post";
        const type = LOG_TYPES[Math.floor(i / 8) % 4];
        fields = { message: `step ${i} of the checkout run: see https://shop.example/orders/${i}` };
        if (type !== undefined) fields.type = type;
        break;
      }
      case "command": {
        uri = "/playback/command";
        verb = "post";
        const state = STATES[Math.floor(i / 20) % 4];
        fields = { commandId: COMMAND_IDS[Math.floor(i / 4) % 5], state };
        if (state === "failed") fields.message = `element not found at step ${i}`;
        break;
      }
    }
    // Existing plugins send the payload form, often with upper-case verbs; the documented
    // form is flat.
    const message = payloadForm ? { uri, verb: verb.toUpperCase(), payload: fields } : { uri, verb, ...fields };
    requests.push({ message, sender, kind });
  }
  return requests;
}

// ---- the two baselines: same storage work, no validation, no machine -------------------

interface Fields {
  type?: "error" | "warn" | null;
  message?: string | null;
  commandId?: string;
  state?: string;
}

interface Storage {
  logs: LogStore;
  states: Map<string, { state: string; message: string | null }>;
  registered: Set<string>;
}

function newStorage(): Storage {
  return { logs: new LogStore(LOG_CAP), states: new Map(), registered: new Set(SENDERS.map((s) => s.id)) };
}

type Handler = (message: Message, sender: Sender) => unknown;

function handlersFor(storage: Storage) {
  const fieldsOf = (message: Message) => (message.payload ?? message) as Fields;
  const log = (group: LogGroup): Handler => (message, sender) => {
    const f = fieldsOf(message);
    const entry: LogInput = { group, level: f.type ?? "info", message: f.message as string, source: sender.id, at: Date.now() };
    storage.logs.append(entry);
    return true;
  };
  return {
    health: ((_message, sender) => storage.registered.has(sender.id)) as Handler,
    log: log("system"),
    playbackLog: log("playback"),
    command: ((message) => {
      const f = fieldsOf(message);
      storage.states.set(f.commandId as string, { state: f.state as string, message: f.message ?? null });
      return true;
    }) as Handler,
    other: (() => ({ error: "not part of this benchmark", errorCode: "NoRoute" })) as Handler,
  };
}

/** (a) A Map from uri to handler: one lookup, nothing checked. */
function mapDispatcher(storage: Storage): Dispatcher {
  const h = handlersFor(storage);
  const handlers = new Map<string, Handler>([
    ["/health", h.health],
    ["/log", h.log],
    ["/playback/log", h.playbackLog],
    ["/playback/command", h.command],
  ]);
  return async (message, sender) => handlers.get(message.uri as string)!(message, sender);
}

const REAL_ROUTES: Array<[string, string]> = [
  ["get", "/health"],
  ["post", "/register"],
  ["post", "/log"],
  ["get", "/project"],
  ["post", "/project"],
  ["post", "/control"],
  ["post", "/close"],
  ["get", "/playback/location"],
  ["post", "/playback/command"],
  ["post", "/playback/log"],
];

const OTHER_ROUTES: Array<[string, string]> = [
  ["get", "/version"],
  ["get", "/settings"],
  ["put", "/settings"],
  ["get", "/tests"],
  ["post", "/tests"],
  ["delete", "/tests"],
  ["get", "/suites"],
  ["post", "/suites"],
  ["get", "/record/state"],
  ["post", "/record/start"],
  ["post", "/record/stop"],
  ["post", "/record/command"],
  ["post", "/record/tab"],
  ["get", "/playback/state"],
  ["post", "/playback/start"],
  ["post", "/playback/stop"],
  ["post", "/playback/pause"],
  ["post", "/playback/resume"],
  ["get", "/playback/variables"],
  ["put", "/playback/variables"],
  ["post", "/popup/alert"],
  ["post", "/popup/confirm"],
  ["post", "/popup/prompt"],
  ["get", "/export/languages"],
  ["post", "/export/code"],
  ["get", "/export/vendor"],
  ["post", "/emit"],
  ["get", "/plugins"],
  ["delete", "/register"],
  ["get", "/window"],
];

/**
 * (b) 40 routes scanned in order, each route's uri and verb lower-cased and compared.
 * The real routes are spread evenly through the table, each at the head of a group of four
 * (positions 0, 4, …, 36): the mix here compares 20 routes on average (1, 9, 33, 37).
 */
function linearDispatcher(storage: Storage): { dispatch: Dispatcher; table: Array<{ uri: string; verb: string }> } {
  const h = handlersFor(storage);
  const realHandler: Record<string, Handler> = {
    "get /health": h.health,
    "post /log": h.log,
    "post /playback/log": h.playbackLog,
    "post /playback/command": h.command,
  };
  const table: Array<{ uri: string; verb: string; handler: Handler }> = [];
  REAL_ROUTES.forEach(([verb, uri], i) => {
    table.push({ uri, verb, handler: realHandler[`${verb} ${uri}`] ?? h.other });
    for (const [v, u] of OTHER_ROUTES.slice(i * 3, i * 3 + 3)) table.push({ uri: u, verb: v, handler: h.other });
  });
  check(table.length === 40, "the linear table has 40 routes");
  const dispatch: Dispatcher = async (message, sender) => {
    const uri = (message.uri as string).toLowerCase();
    const verb = (message.verb as string).toLowerCase();
    for (const route of table) {
      if (route.uri.toLowerCase() === uri && route.verb.toLowerCase() === verb) return route.handler(message, sender);
    }
    return { error: `There is no route ${uri}.`, errorCode: "NoRoute" };
  };
  return { dispatch, table };
}

// ---- measuring ----------------------------------------------------------------------

interface Contender {
  label: string;
  dispatch: Dispatcher;
  /** Full passes of the request list sent so far, warm-up included (for the self-checks). */
  passes: number;
  sequential: number[];
  pipelined: number[];
  p50: number[];
  p99: number[];
  byKind: Record<Kind, { p50: number[]; p99: number[] }>;
}

function contender(label: string, dispatch: Dispatcher): Contender {
  const byKind = Object.fromEntries(KINDS.map((kind) => [kind, { p50: [], p99: [] }])) as unknown as Contender["byKind"];
  return { label, dispatch, passes: 0, sequential: [], pipelined: [], p50: [], p99: [], byKind };
}

const ROUTE_OF: Record<Kind, string> = {
  health: "GET /health",
  log: "POST /log",
  playbackLog: "POST /playback/log",
  command: "POST /playback/command",
};

function fail(contender: Contender, request: Request, reply: unknown): never {
  throw new Error(
    `Benchmark self-check failed: ${contender.label} answered ${JSON.stringify(reply)} to ${JSON.stringify(request.message)}`,
  );
}

async function sequentialPass(c: Contender, requests: Request[]): Promise<void> {
  for (const request of requests) {
    const reply = await c.dispatch(request.message, request.sender);
    if (reply !== true) fail(c, request, reply);
  }
  c.passes += 1;
}

async function pipelinedPass(c: Contender, requests: Request[]): Promise<void> {
  for (let i = 0; i < requests.length; i += BATCH) {
    const batch = requests.slice(i, i + BATCH);
    const replies = await Promise.all(batch.map((r) => c.dispatch(r.message, r.sender)));
    replies.forEach((reply, j) => {
      if (reply !== true) fail(c, batch[j], reply);
    });
  }
  c.passes += 1;
}

/** Requests per second over whole passes lasting at least MIN_MS. */
async function throughput(c: Contender, requests: Request[], pass: typeof sequentialPass): Promise<number> {
  let done = 0;
  const start = now();
  let elapsed = 0;
  while (elapsed < MIN_MS) {
    await pass(c, requests);
    done += requests.length;
    elapsed = now() - start;
  }
  return (done / elapsed) * 1000;
}

/** p50 and p99 in µs of each request awaited on its own, over the mix and for each kind. */
async function latency(c: Contender, requests: Request[], samples: Float64Array): Promise<[number, number]> {
  const perKind = samples.length / KINDS.length;
  const byKind = KINDS.map(() => ({ samples: new Float64Array(perKind), count: 0 }));
  let k = 0;
  for (let p = 0; p < LATENCY_PASSES; p++) {
    for (const request of requests) {
      const start = now();
      const reply = await c.dispatch(request.message, request.sender);
      const took = now() - start;
      samples[k++] = took;
      const bucket = byKind[KINDS.indexOf(request.kind)];
      bucket.samples[bucket.count++] = took;
      if (reply !== true) fail(c, request, reply);
    }
    c.passes += 1;
  }
  byKind.forEach((bucket, i) => {
    c.byKind[KINDS[i]].p50.push(quantile(bucket.samples, bucket.count, 0.5) * 1000);
    c.byKind[KINDS[i]].p99.push(quantile(bucket.samples, bucket.count, 0.99) * 1000);
  });
  return [quantile(samples, k, 0.5) * 1000, quantile(samples, k, 0.99) * 1000];
}

// ---- self-checks ----------------------------------------------------------------------

function expectedStates(requests: Request[]): Map<string, { state: string; message: string | null }> {
  const states = new Map<string, { state: string; message: string | null }>();
  for (const { message, kind } of requests) {
    if (kind !== "command") continue;
    const f = (message.payload ?? message) as Fields;
    states.set(f.commandId!, { state: f.state!, message: f.message ?? null });
  }
  return states;
}

const logsPerPass = (requests: Request[], kind: Kind) => requests.filter((r) => r.kind === kind).length;

function checkStorage(label: string, storage: Storage, passes: number, requests: Request[]): void {
  const dropped = storage.logs.dropped();
  const system = passes * logsPerPass(requests, "log");
  const playback = passes * logsPerPass(requests, "playbackLog");
  check(storage.logs.size + dropped.system + dropped.playback === system + playback, `${label} stored every log entry`);
  for (const [id, want] of expectedStates(requests)) {
    const got = storage.states.get(id);
    check(got?.state === want.state && got.message === want.message, `${label} holds the last state of ${id}`);
  }
}

function logTotal(ide: Ide): { system: number; playback: number } {
  const view = ide.getSnapshot();
  const count = (group: LogGroup) => view.logs.filter((entry) => entry.group === group).length + view.logsDropped[group];
  return { system: count("system"), playback: count("playback") };
}

function checkIde(ide: Ide, before: { system: number; playback: number }, passes: number, requests: Request[]): void {
  const after = logTotal(ide);
  check(after.system - before.system === passes * logsPerPass(requests, "log"), "handle() wrote every POST /log");
  check(
    after.playback - before.playback === passes * logsPerPass(requests, "playbackLog"),
    "handle() wrote every POST /playback/log",
  );
  const playback = ide.getSnapshot().playback;
  check(playback?.running === true && playback.testId === "t-login", "the test case t-login is still running");
  for (const [id, want] of expectedStates(requests)) {
    const row = playback.commands.find((c) => c.id === id);
    check(row?.state === want.state && row.message === want.message, `handle() holds the last state of ${id}`);
  }
}

// ---- the benchmark ----------------------------------------------------------------------

async function run(): Promise<SummaryLine[]> {
  heading(
    "handle: throughput and latency",
    [
      `A mix of GET /health, POST /log, POST /playback/log, POST /playback/command (25% each), both`,
      `request forms, ${SENDERS.length} registered senders, a running test case; ${ROUNDS} rounds, medians.`,
      `Baselines do the same storage work (LogStore, a Map of command states, a Set of senders)`,
      `with no validation and no machine: (a) a Map keyed by uri, (b) a linear table of 40 routes.`,
    ].join("\n"),
  );

  const shop = JSON.parse(readFileSync(new URL("../../shared/fixtures/shop.side", import.meta.url), "utf8"));
  const ide = createIde({ project: shop, limits: { requestsPerSecond: 1e9, requestBurst: 1e9 } });
  try {
    // Playback first: with no plugin registered yet, no outbound message (and no warning log
    // about the missing `deliver`) is made.
    await playHeldAtFirstCommand(ide, "t-login", COMMAND_IDS[0]);
    for (const sender of SENDERS) {
      const reply = await ide.handle({ uri: "/register", verb: "post", name: `Bench ${sender.id}`, version: "1.0.0" }, sender);
      check(reply === true, `registering ${sender.id} answered true (got ${JSON.stringify(reply)})`);
    }
    check(ide.getSnapshot().plugins.length === SENDERS.length, "every sender is registered");
    const logsBefore = logTotal(ide);

    const requests = buildRequests();
    const mapStorage = newStorage();
    const linearStorage = newStorage();
    const linear = linearDispatcher(linearStorage);
    const contenders: Contender[] = [
      contender("handle()", (m, s) => ide.handle(m, s)),
      contender("(a) Map by uri", mapDispatcher(mapStorage)),
      contender("(b) linear, 40 routes", linear.dispatch),
    ];
    const [handleC, mapC, linearC] = contenders;

    for (const c of contenders) {
      for (let i = 0; i < WARMUP_PASSES; i++) {
        await sequentialPass(c, requests);
        await pipelinedPass(c, requests);
      }
    }

    const samples = new Float64Array(LATENCY_PASSES * requests.length);
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts with a different contender, so drift does not favour one.
      for (let k = 0; k < contenders.length; k++) {
        const c = contenders[(round + k) % contenders.length];
        c.sequential.push(await throughput(c, requests, sequentialPass));
        const [p50, p99] = await latency(c, requests, samples);
        c.p50.push(p50);
        c.p99.push(p99);
        c.pipelined.push(await throughput(c, requests, pipelinedPass));
      }
    }

    checkIde(ide, logsBefore, handleC.passes, requests);
    checkStorage(mapC.label, mapStorage, mapC.passes, requests);
    checkStorage(linearC.label, linearStorage, linearC.passes, requests);

    const med = (c: Contender) => ({
      sequential: median(c.sequential),
      pipelined: median(c.pipelined),
      p50: median(c.p50),
      p99: median(c.p99),
    });
    const [h, m, l] = contenders.map(med);
    printTable(
      ["dispatcher", "sequential req/s", "p50 µs", "p99 µs", "pipelined req/s"],
      contenders.map((c) => {
        const r = med(c);
        return [c.label, fmtInt(r.sequential), fmtNum(r.p50, 2), fmtNum(r.p99, 2), fmtInt(r.pipelined)];
      }),
    );
    console.log("");
    const seqVsLinear = h.sequential / l.sequential;
    const pipeVsLinear = h.pipelined / l.pipelined;
    const seqVsMap = h.sequential / m.sequential;
    const pipeVsMap = h.pipelined / m.pipelined;
    printTable(
      ["ratio (throughput)", "sequential", "pipelined"],
      [
        ["handle() ÷ (b) linear", fmtRatio(seqVsLinear), fmtRatio(pipeVsLinear)],
        ["handle() ÷ (a) Map", fmtRatio(seqVsMap), fmtRatio(pipeVsMap)],
        ["p50 latency handle() ÷ (b) linear", fmtRatio(h.p50 / l.p50), ""],
        ["p99 latency handle() ÷ (b) linear", fmtRatio(h.p99 / l.p99), ""],
      ],
    );
    console.log("");
    const kindMedian = (c: Contender, kind: Kind) => ({
      p50: median(c.byKind[kind].p50),
      p99: median(c.byKind[kind].p99),
    });
    printTable(
      ["latency by route (µs)", "handle() p50", "p99", "(b) linear p50", "p99", "p50 handle ÷ linear"],
      KINDS.map((kind) => {
        const hk = kindMedian(handleC, kind);
        const lk = kindMedian(linearC, kind);
        return [ROUTE_OF[kind], fmtNum(hk.p50, 2), fmtNum(hk.p99, 2), fmtNum(lk.p50, 2), fmtNum(lk.p99, 2), fmtRatio(hk.p50 / lk.p50)];
      }),
    );
    const met = seqVsLinear >= 1 && pipeVsLinear >= 1;
    console.log("");
    console.log(
      `  Target: handle() at least as fast as the linear table (handle ÷ linear ≥ 1.0): ${verdict(met)} ` +
        `(sequential ${fmtRatio(seqVsLinear)}, pipelined ${fmtRatio(pipeVsLinear)}).`,
    );
    console.log(
      `  Self-checks passed: ${fmtInt(handleC.passes * requests.length)} handle() requests all answered true; ` +
        `log counts and last command states match.`,
    );

    return [
      {
        benchmark: "handle",
        figure: "sequential throughput",
        value: `${fmtInt(h.sequential)} req/s`,
        ratio: `${fmtRatio(seqVsLinear)} linear, ${fmtRatio(seqVsMap)} Map`,
        target: "≥ 1.0× linear",
        met: seqVsLinear >= 1,
      },
      {
        benchmark: "handle",
        figure: "pipelined throughput",
        value: `${fmtInt(h.pipelined)} req/s`,
        ratio: `${fmtRatio(pipeVsLinear)} linear, ${fmtRatio(pipeVsMap)} Map`,
        target: "≥ 1.0× linear",
        met: pipeVsLinear >= 1,
      },
      {
        benchmark: "handle",
        figure: "latency p50 / p99",
        value: `${fmtNum(h.p50, 1)} / ${fmtNum(h.p99, 1)} µs`,
        ratio: `${fmtRatio(h.p50 / l.p50)} / ${fmtRatio(h.p99 / l.p99)} linear`,
        target: "",
        met: null,
      },
    ];
  } finally {
    ide.stop();
  }
}

export const handleBenchmark: Benchmark = {
  name: "handle",
  description: "handle() throughput and latency against a Map dispatcher and a linear route table",
  run,
};
