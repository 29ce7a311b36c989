// The IDE UI as the host serves it: one HTML page, its script and its styles (ui/, bundled
// in memory by esbuild once per process, drivers/host/bundle.ts, so `npm start` needs no
// build step), and a WebSocket per open page that relays the IDE to it and the user's clicks back.
//
// The socket (/ui) carries the relay's messages (their format and reasons:
// drivers/view/messages.ts) as JSON text frames, one message a frame; binary frames from the
// page are ignored. What is particular to a socket:
// - a page that reads slowly fills the socket's buffer; past MAX_BUFFERED_BYTES the relay
//   holds its updates back rather than pile them up, and sends the view as it is then;
// - the page reconnects when its socket drops; the relay of the new socket starts with a
//   reset, so nothing is lost but the entries that fell off the cap meanwhile;
// - when the host stops, every page's socket is closed with 1001 (going away);
// - with a page feed (the host's page under test), every socket's relay subscribes to it, so
//   pictures of the page are taken only while at least one UI page is connected; a page slow
//   to read gets only the latest picture once it has caught up.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { WebSocket } from "ws";
import type { Ide } from "../../core/ide.ts";
import type { HostMessage } from "../../drivers/view/messages.ts";
import { ViewRelay, helloMessage } from "../../drivers/view/relay.ts";
import type { RelaySink } from "../../drivers/view/relay.ts";
import type { PageSource } from "../../drivers/view/pageFeed.ts";
import { browserBundle } from "../../drivers/host/bundle.ts";

export interface UiServer {
  /** Serves GET / (token already checked by the host, passed in) and static assets; false when the path is not the UI's. */
  handleHttp(req: IncomingMessage, res: ServerResponse, token: string): boolean;
  /** A WebSocket on /ui that passed the host's checks: relay views to it, take user events from it. */
  acceptSocket(socket: WebSocket): void;
  close(): void;
}

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

/** The page's script and styles (ui/main.tsx and the styles it imports), bundled once per process. */
async function bundleUi(): Promise<{ script: string; styles: string }> {
  // ELK, the statecharts' layout engine, is 1.6 MB minified; unminified it would be 3.7 MB.
  const { script, styles } = await browserBundle({ entry: `${UI_DIR}main.tsx`, format: "esm", target: "es2022", minify: true });
  // The stylesheet is imported by main.tsx; read it directly if the bundler left it out.
  return { script, styles: styles ?? readFileSync(`${UI_DIR}styles.css`, "utf8") };
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

/** The relay's sink for one page's socket: JSON text frames while it is open. */
function socketSink(socket: WebSocket): RelaySink {
  return {
    send: (message) => socket.send(JSON.stringify(message)),
    isOpen: () => socket.readyState === socket.OPEN,
    backlogged: () => socket.bufferedAmount > MAX_BUFFERED_BYTES,
  };
}

/** Relay the IDE to one page's socket, and its text frames back as user events. */
function relayToSocket(ide: Ide, socket: WebSocket, hello: HostMessage, onGone: (relay: ViewRelay) => void, page: PageSource | undefined): ViewRelay {
  const relay = new ViewRelay(ide, socketSink(socket), { hello, onGone, page });
  socket.on("message", (data, isBinary) => {
    if (!isBinary) relay.receive(String(data));
  });
  socket.on("close", () => relay.stop());
  socket.on("error", () => relay.stop());
  return relay;
}

export interface UiServerOptions {
  /** The page under test's pictures (the host's browser page): sent to every UI page, taken while one is connected. */
  page?: PageSource;
  /** Whether the host serves its kept runs (apps/host/traces.ts): hello tells the page. */
  traces?: boolean;
}

export async function createUiServer(ide: Ide, options: UiServerOptions = {}): Promise<UiServer> {
  const bundle = await bundleUi();
  const hello = helloMessage(ide);
  if (options.page) hello.pages = true;
  if (options.traces) hello.traces = true;
  /** Each open page's relay and the socket it writes to. */
  const relays = new Map<ViewRelay, WebSocket>();
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
      relays.set(
        relayToSocket(ide, socket, hello, (relay) => relays.delete(relay), options.page),
        socket,
      );
    },
    close() {
      for (const [relay, socket] of [...relays]) {
        relay.stop();
        socket.close(1001, "The IDE host is stopping.");
      }
    },
  };
}
