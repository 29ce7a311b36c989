// The plugin bridge under load on loopback: the real host (startHost) with 100 plugin
// connections, each sending 1,000 requests as raw frames with up to WINDOW of them in flight,
// so the bridge is loaded rather than pinged. Its baseline is ide.handle() called in this
// process, in the same run, with the same requests, senders and window: the ratio is what
// the bridge (ws framing, JSON both ways, the frame check, loopback TCP) costs.
// The plugins run in this process too, so the bridge figure also carries their side of
// the work (encoding requests, decoding replies): it is what one Node process does for both.
import { readFileSync } from "node:fs";
import { WebSocket } from "ws";
import { createIde } from "../index.ts";
import type { Ide } from "../index.ts";
import { startHost } from "../apps/host/host.ts";
import type { Host } from "../apps/host/host.ts";
import { exampleDocument } from "../drivers/host/pages.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { check, fmtInt, fmtMB, fmtMs, fmtNum, fmtRatio, heading, heapAfterGc, now, playHeldAtFirstCommand, printTable, quantile, verdict } from "./support.ts";

type Message = Record<string, unknown>;
type Kind = "health" | "log" | "playbackLog" | "location" | "command";

const CONNECTIONS = 100;
const PER_CONNECTION = 1_000;
const TOTAL = CONNECTIONS * PER_CONNECTION;
/** Requests a plugin keeps in flight: a new one goes out as soon as a reply comes back. */
const WINDOW = 32;
/** A run that makes no progress for this long has lost a request: fail instead of hanging. */
const STALL_MS = 30_000;
const WARMUP_CONNECTIONS = 10;
const WARMUP_PER_CONNECTION = 500;
/** The target: the bridge keeps at least this share of in-process throughput. */
const TARGET_SHARE = 0.2;

/**
 * The mix, in a cycle of 50 requests: 12 each of /health, /log, /playback/log and
 * /playback/command, and 2 of /playback/location (4%). A locator costs far more than the
 * others: the resolver checks each candidate xpath with jsdom's document.evaluate, about
 * 0.4 ms a call here, so one answer takes 0.4 to 1.3 ms where the other routes take µs. At a
 * fifth of the mix this measured jsdom, not the bridge (8,400 against 11,000 req/s in one
 * run); at 4% locators are still about two thirds of the in-process time.
 */
const MIX: Array<[Kind, number]> = [
  ["health", 12],
  ["log", 12],
  ["playbackLog", 12],
  ["command", 12],
  ["location", 2],
];
const KINDS = MIX.map(([kind]) => kind);
const CYCLE: Kind[] = [];
/** For each slot of the cycle: how many requests of its kind come before it in the cycle. */
const ORDINAL_IN_CYCLE: number[] = [];
{
  const common = MIX.filter(([kind]) => kind !== "location").map(([kind]) => kind);
  const length = MIX.reduce((sum, [, n]) => sum + n, 0);
  const seen = new Map<Kind, number>();
  let next = 0;
  for (let slot = 0; slot < length; slot++) {
    // The two locators sit in the middle and at the end, the rest take turns.
    const kind = slot % 25 === 24 ? "location" : common[next++ % common.length];
    CYCLE.push(kind);
    ORDINAL_IN_CYCLE.push(seen.get(kind) ?? 0);
    seen.set(kind, (seen.get(kind) ?? 0) + 1);
  }
  for (const [kind, n] of MIX) check(seen.get(kind) === n, `the cycle holds ${n} requests of ${kind}`);
}
const PER_CYCLE = new Map(MIX);
const shareOf = (kind: Kind) => `${fmtNum((PER_CYCLE.get(kind)! / CYCLE.length) * 100, 0)}%`;

const ROUTE_OF: Record<Kind, string> = {
  health: "GET /health",
  log: "POST /log",
  playbackLog: "POST /playback/log",
  location: "GET /playback/location",
  command: "POST /playback/command",
};
/** Locators against examples/shop-page.html and the xpath CONTRACT section 6 says each gives. */
const LOCATIONS: Array<[string, string]> = [
  ["id=user", "//input[@id='user']"],
  ["name=password", "//input[@name='password']"],
  ["linkText=Help and support", "//a[contains(text(),'Help and support')]"],
  ["css=.products .product:nth-child(2) a", "//main[@id='main']/section/div[2]/a"],
];
const TEST_ID = "t-login"; // of examples/shop.side
const COMMAND_IDS = ["c-open", "c-user", "c-pass", "c-submit", "c-check"];
const STATES = ["pending", "passed", "failed", "undetermined"] as const; // never fatal: it ends the run
const LOG_TYPES = [undefined, "warn", "error", null] as const;

const senderId = (prefix: string, conn: number) => `${prefix}-${String(conn).padStart(3, "0")}`;
/** Each connection starts at a different point of the cycle, so the kinds overlap in time. */
const kindOf = (conn: number, index: number): Kind => CYCLE[(index + conn) % CYCLE.length];
/** The how-manyth request of its kind this is on its connection: what varies its fields. */
function ordinalOf(conn: number, index: number): number {
  const position = index + conn;
  const slot = position % CYCLE.length;
  return Math.floor(position / CYCLE.length) * PER_CYCLE.get(CYCLE[slot])! + ORDINAL_IN_CYCLE[slot];
}

/** Request `index` of connection `conn`: the same for the bridge and for handle(). */
function requestFor(sender: string, conn: number, index: number): Message {
  const kind = kindOf(conn, index);
  const ordinal = ordinalOf(conn, index);
  let uri: string;
  let verb: string;
  let fields: Message;
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
      // The sequence number and the sender's name let the check read back the order.
      fields = { message: `#${index} from ${sender}: step of the checkout run, see https://shop.example/orders/${index}` };
      const type = LOG_TYPES[ordinal % LOG_TYPES.length];
      if (type !== undefined) fields.type = type;
      break;
    }
    case "location":
      uri = "/playback/location";
      verb = "get";
      fields = { location: LOCATIONS[ordinal % LOCATIONS.length][0] };
      break;
    case "command": {
      uri = "/playback/command";
      verb = "post";
      const state = STATES[ordinal % STATES.length];
      fields = { commandId: COMMAND_IDS[ordinal % COMMAND_IDS.length], state };
      if (state === "failed") fields.message = `element not found at step ${index}`;
      break;
    }
  }
  // Both request forms, as plugins send them: four of a kind in one form, then four in the
  // other, so each log type, state and locator comes in both.
  return (ordinal >> 2) % 2 === 1 ? { uri, verb: verb.toUpperCase(), payload: fields } : { uri, verb, ...fields };
}

function expectedReply(conn: number, index: number): unknown {
  return kindOf(conn, index) === "location" ? LOCATIONS[ordinalOf(conn, index) % LOCATIONS.length][1] : true;
}

/** Log requests each sender makes per group: what the IDE's logs must hold for it, in order. */
function logsPerSender(conn: number, count: number): { system: number; playback: number } {
  const counts = { system: 0, playback: 0 };
  for (let i = 0; i < count; i++) {
    const kind = kindOf(conn, i);
    if (kind === "log") counts.system += 1;
    else if (kind === "playbackLog") counts.playback += 1;
  }
  return counts;
}

// ---- the load: one driver for both transports --------------------------------------------

/** Sends request `index` of connection `conn`; the transport calls Load.reply once it is answered. */
type SendFn = (conn: number, index: number, message: Message) => void;

interface LoadResult {
  wallMs: number;
  latencies: Float64Array; // ms, send to reply, one per request
}

/**
 * Every connection keeps WINDOW requests in flight until it has sent `perConnection`. A reply
 * is checked against what its request must get; a reply to nothing, a second reply, or a
 * wrong one fails the run.
 */
class Load {
  private readonly sentAt: Float64Array;
  private readonly latencies: Float64Array;
  private readonly answered: Uint8Array;
  private readonly next: Int32Array;
  private done = 0;
  private start = 0;
  private lastProgress = 0;
  private settle!: { resolve(result: LoadResult): void; reject(error: Error): void };
  private failed = false;
  private watchdog: NodeJS.Timeout | null = null;
  send: SendFn = () => {
    throw new Error("Load.send is not wired");
  };

  constructor(
    readonly label: string,
    readonly connections: number,
    readonly perConnection: number,
    private readonly senders: string[],
  ) {
    const total = connections * perConnection;
    this.sentAt = new Float64Array(total);
    this.latencies = new Float64Array(total);
    this.answered = new Uint8Array(total);
    this.next = new Int32Array(connections);
  }

  run(): Promise<LoadResult> {
    return new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
      this.start = now();
      this.lastProgress = this.start;
      this.watchdog = setInterval(() => {
        if (now() - this.lastProgress > STALL_MS) {
          this.fail(`${this.connections * this.perConnection - this.done} requests were never answered`);
        }
      }, 1_000);
      for (let conn = 0; conn < this.connections; conn++) {
        for (let k = 0; k < WINDOW && this.next[conn] < this.perConnection; k++) this.sendNext(conn);
      }
    });
  }

  private sendNext(conn: number) {
    const index = this.next[conn]++;
    const message = requestFor(this.senders[conn], conn, index);
    this.sentAt[conn * this.perConnection + index] = now();
    this.send(conn, index, message);
  }

  reply(conn: number, id: unknown, reply: unknown) {
    if (this.failed) return;
    const at = now();
    if (typeof id !== "number" || !Number.isInteger(id) || id < 0 || id >= this.next[conn]) {
      return this.fail(`${this.senders[conn]} got a reply to a request it did not send (id ${JSON.stringify(id)})`);
    }
    const slot = conn * this.perConnection + id;
    if (this.answered[slot] !== 0) return this.fail(`${this.senders[conn]} got a second reply to request ${id}`);
    this.answered[slot] = 1;
    const want = expectedReply(conn, id);
    if (reply !== want) {
      return this.fail(
        `${this.senders[conn]} got ${JSON.stringify(reply)} to ${JSON.stringify(requestFor(this.senders[conn], conn, id))}, ` +
          `not ${JSON.stringify(want)}`,
      );
    }
    this.latencies[slot] = at - this.sentAt[slot];
    this.done += 1;
    this.lastProgress = at;
    if (this.next[conn] < this.perConnection) this.sendNext(conn);
    if (this.done === this.connections * this.perConnection) {
      this.stopWatchdog();
      this.settle.resolve({ wallMs: at - this.start, latencies: this.latencies });
    }
  }

  fail(what: string) {
    if (this.failed) return;
    this.failed = true;
    this.stopWatchdog();
    this.settle.reject(new Error(`Benchmark self-check failed: ${this.label}: ${what}`));
  }

  private stopWatchdog() {
    if (this.watchdog !== null) clearInterval(this.watchdog);
    this.watchdog = null;
  }
}

// ---- checks on what the IDE kept --------------------------------------------------------

const SEQUENCE = /^#(\d+) from /;

/** Every log request of every sender is in the IDE's logs, in its group, in that sender's send order. */
function checkLogOrder(ide: Ide, label: string, senders: string[], perConnection: number): number {
  const view = ide.getSnapshot();
  check(
    view.logsDropped.system === 0 && view.logsDropped.playback === 0,
    `${label}: no log entry fell off (dropped ${JSON.stringify(view.logsDropped)})`,
  );
  const index = new Map(senders.map((id, conn) => [id, conn]));
  const last = { system: new Int32Array(senders.length).fill(-1), playback: new Int32Array(senders.length).fill(-1) };
  const seen = { system: new Int32Array(senders.length), playback: new Int32Array(senders.length) };
  let checked = 0;
  for (const entry of view.logs) {
    const conn = index.get(entry.source);
    if (conn === undefined) continue;
    const match = SEQUENCE.exec(entry.message);
    check(match !== null, `${label}: the log entry ${JSON.stringify(entry.message)} of ${entry.source} is one the benchmark wrote`);
    const sequence = Number(match[1]);
    check(
      sequence > last[entry.group][conn],
      `${label}: ${entry.source}'s ${entry.group} entry #${sequence} comes after #${last[entry.group][conn]}, as it was sent`,
    );
    const sent = requestFor(entry.source, conn, sequence);
    const fields = (sent.payload ?? sent) as { message?: unknown; type?: unknown };
    check(
      sent.uri === (entry.group === "system" ? "/log" : "/playback/log"),
      `${label}: ${entry.source}'s entry #${sequence} is in the group of the route it was sent to`,
    );
    check(entry.message === fields.message, `${label}: ${entry.source}'s entry #${sequence} is kept verbatim`);
    check(
      entry.level === (fields.type ?? "info"),
      `${label}: ${entry.source}'s entry #${sequence} has the level it was sent with (${entry.level})`,
    );
    last[entry.group][conn] = sequence;
    seen[entry.group][conn] += 1;
    checked += 1;
  }
  senders.forEach((id, conn) => {
    const want = logsPerSender(conn, perConnection);
    check(seen.system[conn] === want.system, `${label}: ${id} has ${want.system} system entries (found ${seen.system[conn]})`);
    check(seen.playback[conn] === want.playback, `${label}: ${id} has ${want.playback} playback entries (found ${seen.playback[conn]})`);
  });
  return checked;
}

function checkPlayback(ide: Ide, label: string) {
  const playback = ide.getSnapshot().playback;
  check(playback?.running === true && playback.testId === TEST_ID, `${label}: the test case ${TEST_ID} is still running`);
  for (const row of playback.commands) {
    check(row.state !== null && row.state !== "fatal", `${label}: command ${row.id} holds one of the states sent (${row.state})`);
  }
}

/**
 * The heap after gc(), sampled from a new turn of the event loop: sampled straight after
 * `await host.close()`, the callback that resolved it still holds the closed host (and its
 * logs) for the rest of its turn, which showed as a leak that was not there.
 */
async function heapSettled(): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  return heapAfterGc();
}

// ---- the two transports ----------------------------------------------------------------

const LIMITS = {
  requestsPerSecond: 1e9,
  requestBurst: 1e9,
  // Every entry stays, so the order check reads all of them.
  logEntriesPerGroup: TOTAL,
};

const registration = (sender: string) => ({ uri: "/register", verb: "post", name: `Bench ${sender}`, version: "1.0.0" });

function readProject(): unknown {
  return JSON.parse(readFileSync(new URL("../examples/shop.side", import.meta.url), "utf8"));
}

/** handle() in this process: the same requests, senders and window, no transport at all. */
async function inProcess(prefix: string, connections: number, perConnection: number, project: unknown): Promise<LoadResult & { logs: number }> {
  const ide = createIde({ project, document: exampleDocument(), limits: LIMITS });
  try {
    // Playback first: with no plugin registered yet, its start sends no outbound message.
    await playHeldAtFirstCommand(ide, TEST_ID, COMMAND_IDS[0]);
    const senders = Array.from({ length: connections }, (_, conn) => senderId(prefix, conn));
    for (const id of senders) {
      const reply = await ide.handle(registration(id), { id });
      check(reply === true, `registering ${id} in process answered true (got ${JSON.stringify(reply)})`);
    }
    const load = new Load("handle() in process", connections, perConnection, senders);
    const sender = senders.map((id) => ({ id }));
    load.send = (conn, index, message) => {
      ide.handle(message, sender[conn]).then(
        (reply) => load.reply(conn, index, reply),
        (error: unknown) => load.fail(`handle() rejected: ${String(error)}`),
      );
    };
    const result = await load.run();
    const logs = checkLogOrder(ide, "handle() in process", senders, perConnection);
    checkPlayback(ide, "handle() in process");
    return { ...result, logs };
  } finally {
    ide.stop();
  }
}

interface Plugin {
  socket: WebSocket;
  /** Where this connection's frames go: registration first, then the load. */
  onFrame(frame: Record<string, unknown>): void;
}

function connectPlugin(host: Host, id: string): Promise<Plugin> {
  const url = `ws://127.0.0.1:${host.port}/plugins?id=${encodeURIComponent(id)}&token=${encodeURIComponent(host.token)}`;
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    const plugin: Plugin = { socket, onFrame: () => {} };
    socket.on("message", (data, isBinary) => {
      // A binary frame reaches onFrame as a frame of no known type, which fails the run.
      plugin.onFrame(isBinary ? { type: "binary" } : (JSON.parse(data.toString()) as Record<string, unknown>));
    });
    socket.once("open", () => resolve(plugin));
    socket.once("unexpected-response", (_req, res) => reject(new Error(`${id} was refused: HTTP ${res.statusCode}`)));
    socket.once("error", reject);
  });
}

function closeSocket(socket: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.readyState === socket.CLOSED) return resolve();
    socket.once("close", () => resolve());
    if (socket.readyState === socket.CONNECTING) socket.terminate();
    else socket.close();
  });
}

interface BridgeRun extends LoadResult {
  logs: number;
  events: number;
  heapLoaded: number;
}

/** The host and its plugins; the heap is sampled with the host up and every plugin connected. */
async function overBridge(prefix: string, connections: number, perConnection: number, project: unknown): Promise<BridgeRun> {
  const host = await startHost({ port: 0, tokenFile: null, project, limits: LIMITS });
  const plugins: Plugin[] = [];
  try {
    await playHeldAtFirstCommand(host.ide, TEST_ID, COMMAND_IDS[0]);
    const senders = Array.from({ length: connections }, (_, conn) => senderId(prefix, conn));
    for (const id of senders) plugins.push(await connectPlugin(host, id));
    check(host.bridge.connected().length === connections, `all ${connections} plugins are connected`);

    // Each registers over its own connection before the clock starts.
    await Promise.all(
      plugins.map(
        (plugin, conn) =>
          new Promise<void>((resolve, reject) => {
            plugin.onFrame = (frame) => {
              if (frame.type === "reply" && frame.id === "register" && frame.reply === true) resolve();
              else reject(new Error(`Benchmark self-check failed: registering ${senders[conn]} got ${JSON.stringify(frame)}`));
            };
            plugin.socket.send(JSON.stringify({ type: "request", id: "register", message: registration(senders[conn]) }));
          }),
      ),
    );
    check(host.ide.getSnapshot().plugins.length === connections, "every plugin is registered");

    const load = new Load("the bridge", connections, perConnection, senders);
    let events = 0;
    plugins.forEach((plugin, conn) => {
      plugin.onFrame = (frame) => {
        if (frame.type === "reply") return load.reply(conn, frame.id, frame.reply);
        if (frame.type === "event") {
          // None is expected (playback started before anyone registered); answer it anyway.
          events += 1;
          plugin.socket.send(JSON.stringify({ type: "response", id: frame.id, response: true }));
          return;
        }
        load.fail(`${senders[conn]} got the frame ${JSON.stringify(frame)}`);
      };
      plugin.socket.on("close", () => load.fail(`${senders[conn]}'s connection closed during the run`));
    });
    load.send = (conn, index, message) => plugins[conn].socket.send(JSON.stringify({ type: "request", id: index, message }));
    const result = await load.run();
    for (const plugin of plugins) plugin.socket.removeAllListeners("close");

    const logs = checkLogOrder(host.ide, "the bridge", senders, perConnection);
    checkPlayback(host.ide, "the bridge");
    const heapLoaded = await heapSettled();
    return { ...result, logs, events, heapLoaded };
  } finally {
    for (const plugin of plugins) plugin.socket.removeAllListeners("close");
    await Promise.all(plugins.map((plugin) => closeSocket(plugin.socket)));
    await host.close();
  }
}

// ---- the benchmark ------------------------------------------------------------------------

/** Load keeps a send time, a latency and an answered flag for every request. */
const TIMING_BYTES_PER_REQUEST = 8 + 8 + 1;

const signedMB = (bytes: number) => (bytes >= 0 ? `+${fmtMB(bytes)}` : fmtMB(bytes));

function stats(result: LoadResult, requests: number) {
  const latencies = result.latencies;
  return {
    requests,
    wallMs: result.wallMs,
    perSecond: (requests / result.wallMs) * 1000,
    p50: quantile(latencies, latencies.length, 0.5),
    p99: quantile(latencies, latencies.length, 0.99),
  };
}

async function run(): Promise<SummaryLine[]> {
  heading(
    "bridge: the plugin bridge under load on loopback",
    [
      `The real host (startHost, port 0) and ${CONNECTIONS} plugin connections (ws, raw frames), each sending`,
      `${fmtInt(PER_CONNECTION)} requests with ${WINDOW} in flight (a new one as each reply comes back):`,
      `${KINDS.map((k) => `${ROUTE_OF[k]} ${shareOf(k)}`).join(", ")};`,
      `both request forms; examples/shop.side with test case ${TEST_ID} running; examples/shop-page.html.`,
      `Baseline: handle() of an IDE in this process, same requests, senders and window.`,
      `The plugins run in this process too: the bridge figure includes their encoding and decoding.`,
    ].join("\n"),
  );

  const project = readProject();

  // A short run of each first, so neither is measured cold and the heap before the measured
  // host starts already holds what the first host loads once (modules, the UI bundle).
  await inProcess("bench-warmup", WARMUP_CONNECTIONS, WARMUP_PER_CONNECTION, project);
  await overBridge("bench-warmup", WARMUP_CONNECTIONS, WARMUP_PER_CONNECTION, project);
  const local = await inProcess("bench-local", CONNECTIONS, PER_CONNECTION, project);
  const localStats = stats(local, TOTAL);

  const heapBefore = await heapSettled();
  const bridge = await overBridge("bench-bridge", CONNECTIONS, PER_CONNECTION, project);
  const heapClosed = await heapSettled();
  const bridgeStats = stats(bridge, TOTAL);
  check(bridge.events === 0, `no outbound event reached a plugin during the run (got ${bridge.events})`);

  printTable(
    ["transport", "requests", "wall", "req/s", "p50", "p99"],
    [
      { label: "bridge (ws, loopback)", s: bridgeStats },
      { label: "handle() in process", s: localStats },
    ].map(({ label, s }) => [label, fmtInt(s.requests), fmtMs(s.wallMs), fmtInt(s.perSecond), fmtMs(s.p50), fmtMs(s.p99)]),
  );
  const share = bridgeStats.perSecond / localStats.perSecond;
  console.log("");
  printTable(
    ["bridge ÷ in process", "ratio"],
    [
      ["throughput", fmtRatio(share)],
      ["latency p50", fmtRatio(bridgeStats.p50 / localStats.p50)],
      ["latency p99", fmtRatio(bridgeStats.p99 / localStats.p99)],
    ],
  );
  console.log("");
  const growth = bridge.heapLoaded - heapBefore;
  printTable(
    ["heap after gc()", "heap", "growth"],
    [
      ["before the host started", fmtMB(heapBefore), ""],
      [`after the run (host up, ${CONNECTIONS} plugins connected)`, fmtMB(bridge.heapLoaded), signedMB(growth)],
      ["after every plugin and the host closed", fmtMB(heapClosed), signedMB(heapClosed - heapBefore)],
    ],
  );
  console.log("");
  console.log(
    `  With ${WINDOW} in flight on each of ${CONNECTIONS} connections, latency is mostly waiting behind the others ` +
      `(about ${fmtInt(CONNECTIONS * WINDOW)} in flight ÷ throughput).`,
  );
  console.log(
    `  The heap after the run holds the ${fmtInt(bridge.logs)} log entries the plugins wrote (the order check reads them all) ` +
      `and this benchmark's own timing arrays (${fmtMB(TOTAL * TIMING_BYTES_PER_REQUEST)}).`,
  );
  const met = share >= TARGET_SHARE;
  console.log(`  Target: bridge throughput ≥ ${TARGET_SHARE}× in-process handle(): ${verdict(met)} (${fmtRatio(share)}).`);
  console.log(
    `  Self-checks passed: ${fmtInt(TOTAL)} requests over the bridge and ${fmtInt(TOTAL)} in process each answered once, ` +
      `as expected; ${fmtInt(bridge.logs)} log entries in each sender's send order (in process: ${fmtInt(local.logs)}).`,
  );

  return [
    {
      benchmark: "bridge",
      figure: `throughput, ${CONNECTIONS} plugins × ${fmtInt(PER_CONNECTION)}`,
      value: `${fmtInt(bridgeStats.perSecond)} req/s`,
      ratio: `${fmtRatio(share)} in-process handle() (${fmtInt(localStats.perSecond)} req/s)`,
      target: `≥ ${TARGET_SHARE}× in-process`,
      met,
    },
    {
      benchmark: "bridge",
      figure: `latency p50 / p99, ${WINDOW} in flight each`,
      value: `${fmtNum(bridgeStats.p50, 1)} / ${fmtNum(bridgeStats.p99, 1)} ms`,
      ratio: `${fmtRatio(bridgeStats.p50 / localStats.p50)} / ${fmtRatio(bridgeStats.p99 / localStats.p99)} in-process`,
      target: "",
      met: null,
    },
    {
      benchmark: "bridge",
      figure: "heap after the run",
      value: `${fmtMB(bridge.heapLoaded)} (${signedMB(growth)})`,
      ratio: `${signedMB(heapClosed - heapBefore)} once closed`,
      target: "",
      met: null,
    },
  ];
}

export const bridgeBenchmark: Benchmark = {
  name: "bridge",
  description: "the plugin bridge under load: 100 ws connections × 1,000 requests, beside in-process handle()",
  run,
};
