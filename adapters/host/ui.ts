// The IDE UI as the host serves it: one HTML page, its script and its styles (ui/, bundled
// in memory by esbuild once when the server is created, so `npm start` needs no build
// step), and a WebSocket per open page that relays the IDE to it and the user's clicks back.
//
// The socket protocol (/ui, JSON text frames):
//
// host → page
//   { type: "hello", charts: Chart[] }
//       once, first: every running machine's statechart (adapters/host/charts.ts). The
//       machines never change while the host runs, so they are not sent again.
//   { type: "update", view, playback?, tests?, logs: { reset, entries, kept }, states }
//       right after hello, then after changes, at most one every UPDATE_INTERVAL_MS (20 a
//       second) however fast the IDE changes; a burst of changes is one update with the view
//       as it is when the update goes out.
//       - view: the IdeView without `logs` and `playback`.
//       - playback: the IdeView's `playback` (null or the test case with every command's
//         state), only when it changed since this socket's last update: a 10,000-command test
//         case is not sent twenty times a second while nothing in it moves.
//       - tests: `[{ id, name }]` of the loaded project's test cases (not part of the
//         IdeView; the page needs them for its test picker), only when the project changed.
//       - logs: the IdeView holds up to 20,000 entries, so an update carries only the entries
//         this page has not seen (`entries`, oldest first) and `kept`, how many entries of
//         each group the IDE holds now; the page adds the new ones and keeps that many of
//         each group, the newest (each group drops its own oldest at its cap). When the last
//         entry this page was sent is no longer in the IDE's log (a flood pushed it past the
//         cap), the page's copy cannot be patched: `reset: true` and `entries` is the whole
//         log. The first update on every socket is a reset too.
//       - states: the current state value of each charted actor, by its id.
// page → host
//   { type: "user.<event>", ... }: a user event of CONTRACT section 5, passed to ide.send,
//       which reads it with zod: anything that is not a user event changes nothing. Frames
//       that are not JSON objects with a `type` starting "user." are ignored.
//
// The page reconnects when its socket drops; the first update on the new socket is a
// reset, so nothing is lost but the entries that fell off the cap meanwhile.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { IncomingMessage, ServerResponse } from "node:http";
import { build } from "esbuild";
import type { WebSocket } from "ws";
import type { Ide } from "../../index.ts";
import type { LogEntry } from "../../services/logs/index.ts";
import type { HostMessage, LogDelta, PlaybackView, TestSummary, UiView } from "../../ui/protocol.ts";
import { chartValues, machineCharts } from "./charts.ts";

export interface UiServer {
  /** Serves GET / (token already checked by the host, passed in) and static assets; false when the path is not the UI's. */
  handleHttp(req: IncomingMessage, res: ServerResponse, token: string): boolean;
  /** A WebSocket on /ui that passed the host's checks: relay views to it, take user events from it. */
  acceptSocket(socket: WebSocket): void;
  close(): void;
}

export const UPDATE_INTERVAL_MS = 50;
/** Past this much unsent data the page is slow to read: updates wait rather than pile up. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

const UI_DIR = fileURLToPath(new URL("../../ui/", import.meta.url));
export const UI_PATHS = { page: "/", script: "/ui.js", styles: "/ui.css" } as const;

/**
 * No inline script or style at all: a log message can never become code, even if the page
 * had a bug that put it into markup. The socket may go to the host under either name.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

interface Bundle {
  script: string;
  styles: string;
}

async function bundleUi(): Promise<Bundle> {
  const result = await build({
    entryPoints: [`${UI_DIR}main.tsx`],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    // ELK, the statecharts' layout engine, is 1.6 MB minified; unminified it would be 3.7 MB.
    minify: true,
    jsx: "automatic",
    jsxImportSource: "preact",
    outdir: "/ui-bundle",
    entryNames: "ui",
    logLevel: "silent",
  });
  const script = result.outputFiles.find((f) => f.path.endsWith(".js"));
  if (!script) throw new Error("Bundling the UI produced no script.");
  const css = result.outputFiles.find((f) => f.path.endsWith(".css"));
  // The stylesheet is imported by main.tsx; read it directly if the bundler left it out.
  const styles = css?.text ?? readFileSync(`${UI_DIR}styles.css`, "utf8");
  return { script: script.text, styles };
}

const escapeAttribute = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function pageHtml(token: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="ide-token" content="${escapeAttribute(token)}">
<title>ide-core</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${UI_PATHS.styles}">
<script type="module" src="${UI_PATHS.script}"></script>
</head>
<body>
<div id="app"><p class="loading">Loading the IDE…</p></div>
<noscript>The IDE UI needs JavaScript.</noscript>
</body>
</html>
`;
}

function send(res: ServerResponse, req: IncomingMessage, type: string, body: string, headers: Record<string, string> = {}) {
  res.writeHead(200, {
    "Content-Type": type,
    "Content-Length": String(Buffer.byteLength(body)),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    ...headers,
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

/** Entries per group in one log array; views share their frozen log array until it changes. */
const countsOfLogs = new WeakMap<readonly LogEntry[], LogDelta["kept"]>();
function groupCounts(logs: readonly LogEntry[]): LogDelta["kept"] {
  let counts = countsOfLogs.get(logs);
  if (!counts) {
    counts = { system: 0, playback: 0 };
    for (const entry of logs) counts[entry.group] += 1;
    countsOfLogs.set(logs, counts);
  }
  return counts;
}

function loadedProject(ide: Ide) {
  return ide.actor.getSnapshot().context.project.getSnapshot().context.project;
}

/** What one page has been sent, so the next update carries only what changed. */
class PageRelay {
  private lastLogId: string | null = null;
  private first = true;
  private lastPlayback: { testId: string; running: boolean; commands: readonly unknown[] } | null | undefined = undefined;
  private lastProject: unknown = undefined;
  private timer: NodeJS.Timeout | null = null;
  private lastSentAt = 0;
  private readonly subscription: { unsubscribe(): void };

  constructor(
    private readonly ide: Ide,
    private readonly socket: WebSocket,
    charts: HostMessage,
    private readonly onGone: (relay: PageRelay) => void,
  ) {
    this.write(charts);
    this.flush();
    this.subscription = ide.subscribe(() => this.schedule());
    socket.on("message", (data, isBinary) => {
      if (!isBinary) this.receive(String(data));
    });
    socket.on("close", () => this.stop());
    socket.on("error", () => this.stop());
  }

  private write(message: HostMessage) {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private schedule() {
    if (this.timer !== null) return;
    const wait = Math.max(0, this.lastSentAt + UPDATE_INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) return this.schedule();
      this.flush();
    }, wait);
  }

  private logDelta(logs: readonly LogEntry[]): LogDelta {
    const kept = groupCounts(logs);
    let from = -1;
    if (!this.first) {
      if (this.lastLogId === null) from = 0;
      else {
        // Entries are in append order, so the last one this page saw is near the end.
        for (let i = logs.length - 1; i >= 0; i--) {
          if (logs[i].id === this.lastLogId) {
            from = i + 1;
            break;
          }
        }
      }
    }
    const reset = from < 0;
    const entries = logs.slice(reset ? 0 : from);
    if (logs.length > 0) this.lastLogId = logs[logs.length - 1].id;
    else if (reset) this.lastLogId = null;
    return { reset, entries: entries as LogEntry[], kept };
  }

  private playbackChange(playback: PlaybackView): { changed: boolean } {
    const last = this.lastPlayback;
    const same =
      last !== undefined &&
      (last === null
        ? playback === null
        : playback !== null &&
          last.testId === playback.testId &&
          last.running === playback.running &&
          last.commands === playback.commands);
    this.lastPlayback = playback && { testId: playback.testId, running: playback.running, commands: playback.commands };
    return { changed: !same };
  }

  flush() {
    if (this.socket.readyState !== this.socket.OPEN) return;
    const { logs, playback, ...view } = this.ide.getSnapshot();
    const message: Extract<HostMessage, { type: "update" }> = {
      type: "update",
      view: view as UiView,
      logs: this.logDelta(logs),
      states: chartValues(this.ide),
    };
    if (this.playbackChange(playback).changed) message.playback = playback;
    const project = loadedProject(this.ide);
    if (project !== this.lastProject) {
      this.lastProject = project;
      message.tests = project.tests.map((t): TestSummary => ({ id: t.id, name: t.name }));
    }
    this.first = false;
    this.lastSentAt = Date.now();
    this.write(message);
  }

  private receive(text: string) {
    let event: unknown;
    try {
      event = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof event !== "object" || event === null || Array.isArray(event)) return;
    const type = (event as { type?: unknown }).type;
    if (typeof type !== "string" || !type.startsWith("user.")) return;
    this.ide.send(event as Parameters<Ide["send"]>[0]);
  }

  stop() {
    this.subscription.unsubscribe();
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.onGone(this);
  }

  close() {
    this.stop();
    this.socket.close(1001, "The IDE host is stopping.");
  }
}

export async function createUiServer(ide: Ide): Promise<UiServer> {
  const bundle = await bundleUi();
  const hello: HostMessage = { type: "hello", charts: machineCharts(ide) };
  const relays = new Set<PageRelay>();
  const assets: Record<string, { type: string; body: (token: string) => string; headers: Record<string, string> }> = {
    [UI_PATHS.page]: {
      type: "text/html; charset=utf-8",
      body: pageHtml,
      headers: {
        "Content-Security-Policy": CONTENT_SECURITY_POLICY,
        // The page's URL carries the token: it must not leave in a Referer header.
        "Referrer-Policy": "no-referrer",
        "X-Frame-Options": "DENY",
      },
    },
    [UI_PATHS.script]: { type: "text/javascript; charset=utf-8", body: () => bundle.script, headers: {} },
    [UI_PATHS.styles]: { type: "text/css; charset=utf-8", body: () => bundle.styles, headers: {} },
  };

  return {
    handleHttp(req, res, token) {
      const path = new URL(req.url ?? "/", "http://host.invalid").pathname;
      const asset = Object.hasOwn(assets, path) ? assets[path] : null;
      if (!asset) return false;
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" });
        res.end("Only GET is allowed here.\n");
        return true;
      }
      send(res, req, asset.type, asset.body(token), asset.headers);
      return true;
    },
    acceptSocket(socket) {
      relays.add(new PageRelay(ide, socket, hello, (relay) => relays.delete(relay)));
    },
    close() {
      for (const relay of [...relays]) relay.close();
    },
  };
}
