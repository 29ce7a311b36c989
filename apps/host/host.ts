// The IDE host: createIde() in a Node process, on 127.0.0.1 only, with the plugin bridge on
// /plugins, the UI page on / and its socket on /ui. Every request and upgrade passes the
// admission checks of drivers/bridge/admission.ts before anything else sees it.
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import { dirname, resolve } from "node:path";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { createIde } from "../../index.ts";
import type { Ide, IdeOptions, Limits, SideProject } from "../../index.ts";
import { DEFAULT_LIMITS } from "../../core/protocol/limits.ts";
import type { Executor, FindInPage, ReadData, ResolveLocator } from "../../core/ports.ts";
import { resolveInDocument } from "../../services/locators/index.ts";
import { refuseHost, refuseUpgrade, statusText, tokenMatches } from "../../drivers/bridge/admission.ts";
import type { Refusal } from "../../drivers/bridge/admission.ts";
import { DEFAULT_PORT, DEFAULT_TOKEN_FILE } from "../../drivers/bridge/address.ts";
import { createPluginBridge } from "../../drivers/bridge/bridge.ts";
import type { PluginBridge } from "../../drivers/bridge/bridge.ts";
import { exampleDocument } from "../../drivers/host/pages.ts";
import { createUiServer } from "./ui.ts";
import { traceRoutes } from "./traces.ts";
import type { TraceReader } from "./traces.ts";
import type { PageShot } from "../../drivers/view/messages.ts";
import { PageFeed } from "../../drivers/view/pageFeed.ts";
import type { LiveAnswer, LiveSink, LiveSource } from "../../drivers/view/pageFeed.ts";
import { pagePanelRecorder } from "../../drivers/host/recording.ts";
import { fileJournal } from "./journal.ts";
import { readProjectText, saveProjectAt, writeProjectFile } from "./projectFiles.ts";
import { dataFileReader, withCarriedFiles } from "./dataFiles.ts";
import { keepRecentFile, readRecentFile } from "./recent.ts";
import { withRecent } from "../../machines/projectFile.machine.ts";
import type { WebDriver } from "selenium-webdriver";

export interface HostOptions {
  /** Default 7357; 0 picks any free port (tests). */
  port?: number;
  /** A .side project, already JSON-parsed; default: a new untitled project. */
  project?: unknown;
  /** Locators resolve against this page; default: the example page that ships in examples/. */
  document?: Document;
  /** Replaces `document` (a live page in Chromium, `--page URL`). */
  resolveLocator?: ResolveLocator;
  /**
   * The page under test (drivers/host/browserPage.ts). While it has a page, GET /playback/location
   * resolves there, in the page the run drives; before, in `document` or `resolveLocator`.
   */
  executor?: Executor & {
    hasPage?(): boolean;
    resolveLocator?: ResolveLocator;
    /** "Find target in page" and the alternative locators' counts in the page under test (CONTRACT section 21). */
    findInPage?: FindInPage;
    capturePage?(runId?: string): Promise<PageShot | null>;
    /** The page of that run live (DevTools' screencast) into the sink, for the UI's page panel (pageFeed.ts's LiveSource). */
    livePage?(sink: LiveSink, runId?: string): Promise<LiveAnswer>;
    stopLivePage?(): void;
    /** The browser session shown, started if need be: the page panel's input and recording happen there. */
    sideRuntime?(): Promise<{ driver: WebDriver }>;
    /** The URL that replaces the project's for `open` (`--base-url`, the example site): where Record opens the page. */
    baseUrl?: string;
  };
  inspect?: IdeOptions["inspect"];
  /** Default: random per start. */
  token?: string;
  /** Where the token is written, readable by the user only; null writes none. */
  tokenFile?: string | null;
  /**
   * The journal of unsaved changes (apps/host/journal.ts); npm start puts it beside the token.
   * Default null: none. `savedAt` is when the given project was saved (its file's time), which a
   * journal must be newer than to be offered as "Restore unsaved changes".
   */
  journalFile?: string | null;
  savedAt?: number;
  /**
   * Where a plain "save to computer" writes the project until it has a path (a Save as's, or
   * `projectPath`); default: nothing is written, the IDE keeps the copy. A Save as always
   * writes the file it names (apps/host/projectFiles.ts).
   */
  saveFile?: (project: SideProject) => string;
  /** The file the project came from (`npm start --project`): a plain Save writes it back. Default null. */
  projectPath?: string | null;
  /** `loadVars FILE`'s data files; default: a relative path beside projectPath's file (none without one). */
  readData?: ReadData;
  /**
   * Where the recent list (IdeView.recentProjects) is kept across starts (apps/host/recent.ts);
   * npm start puts it beside the token. Default null: the list lives as long as the host.
   */
  recentFile?: string | null;
  limits?: Partial<Limits>;
  /** How many tests of a parallel suite play at once (`--workers`); the executor should hold as many pages. Default 1. */
  workers?: number;
  /** createIde's `heal` (`--no-heal` makes it false). Default true. */
  heal?: boolean;
  /** createIde's `retries` (`--retries N` of npm start and npm run play). Default 0. */
  retries?: number;
  /** createIde's `variables`: what every test starts with (`npm run play -- --params`). */
  variables?: Readonly<Record<string, string>>;
  /** createIde's `trace` and `traces` (CONTRACT section 17): compose.ts gives the trace store. */
  trace?: IdeOptions["trace"];
  traces?: IdeOptions["traces"];
  /** Where the IDE page reads kept runs for its time travel (compose.ts gives the trace store): served on /traces. */
  traceReader?: TraceReader;
}

export interface Host {
  ide: Ide;
  port: number;
  token: string;
  tokenFile: string | null;
  urls: { ui: string; plugins: string };
  bridge: PluginBridge;
  close(): Promise<void>;
}

/**
 * GET /playback/location's port: in the page the run drives while there is one (a plugin asks
 * about the element the run is on), else in `resolveLocator` (`--page`) or `document`.
 * Undefined when the executor has no page of its own to resolve in.
 */
export function drivenResolver(
  executor: HostOptions["executor"],
  fallback: ResolveLocator | undefined,
  document: Document | undefined | (() => Document | undefined),
): ResolveLocator | undefined {
  const driven = executor?.hasPage && executor.resolveLocator ? executor : null;
  if (!driven) return fallback;
  return async (location) => {
    if (driven.hasPage!()) return driven.resolveLocator!(location);
    return fallback ? fallback(location) : resolveInDocument(typeof document === "function" ? document() : document, location);
  };
}

/**
 * The executor as the IDE gets it when the UI shows the page under test: each page command,
 * once settled, pokes the feed, which captures the page if a UI page watches and the
 * interval allows. The poke never waits and never throws, so a run is as fast as without it.
 */
export function watchedExecutor(executor: Executor, feed: PageFeed): Executor {
  return {
    async execute(input, signal) {
      try {
        return await executor.execute(input, signal);
      } finally {
        feed.poke();
      }
    },
    evaluate: (input, signal) => executor.evaluate(input, signal),
    ...(executor.pageIds ? { pageIds: () => executor.pageIds!() } : {}),
    ...(executor.endRun ? { endRun: (runId: string) => executor.endRun!(runId) } : {}),
  };
}

async function writeTokenFile(path: string, token: string) {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, `${token}\n`, { encoding: "utf8", mode: 0o600 });
}

function refuse(socket: Duplex, refusal: Refusal) {
  const body = `${refusal.reason}\n`;
  socket.end(
    `HTTP/1.1 ${refusal.status} ${statusText(refusal.status)}\r\n` +
      "Connection: close\r\nContent-Type: text/plain; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

function refuseHttp(res: ServerResponse, refusal: Refusal, html = false) {
  res.writeHead(refusal.status, { "Content-Type": html ? "text/html; charset=utf-8" : "text/plain; charset=utf-8" });
  res.end(html ? `<!doctype html><title>ide-core</title><p>${refusal.reason}</p>\n` : `${refusal.reason}\n`);
}

export async function startHost(options: HostOptions = {}): Promise<Host> {
  const token = options.token ?? randomBytes(24).toString("base64url");
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  let ide: Ide | null = null;
  const bridge = createPluginBridge({ ide: () => ide!, responseTimeoutMs: limits.deliverTimeoutMs });
  const saveFile = options.saveFile;
  const recentFile = options.recentFile ?? null;
  const recent = recentFile ? readRecentFile(recentFile) : { paths: [], problem: null };
  if (recent.problem) console.error(recent.problem);
  // The example page is parsed (jsdom: a second) when first needed; beside a browser, only once a locator is resolved with none open.
  let example: Document | undefined;
  const document = () => (options.resolveLocator ? undefined : (example ??= options.document ?? exampleDocument()));
  const executor = options.executor;
  const resolveLocator = drivenResolver(executor, options.resolveLocator, document);
  // The UI's "Page under test": pictures of the page after page commands, while a UI page watches.
  // Of the test the IDE shows (a parallel suite plays several, each in a page of its own).
  const capturePage = executor?.capturePage && (() => executor.capturePage!(ide?.getSnapshot().playback?.runId));
  // The user's clicks and keys on the picture, and the recorder, in that page (CONTRACT section 14).
  const panel = executor?.sideRuntime
    ? pagePanelRecorder(
        async () => (await executor.sideRuntime!()).driver,
        (report) => void ide?.record(report),
        // Where Record opens the page when none is open, and what the recorded `open` is relative to.
        () => ({ project: ide?.getProject().url ?? "", base: executor.baseUrl }),
        // While recording, a window a recorded click opens is followed, and the picture with it.
        { following: () => ide?.getSnapshot().recording != null, switched: () => pageFeed?.poke() },
        // The project's locatorOrder and testIdAttributes (CONTRACT section 18).
        () => ide?.getSnapshot().recordingSettings ?? {},
      )
    : null;
  // Live where the executor can stream the page (a Chromium's DevTools, here or on a Grid).
  const live: LiveSource | undefined = executor?.livePage && {
    follow: (sink) => executor.livePage!(sink, ide?.getSnapshot().playback?.runId),
    stop: () => executor.stopLivePage?.(),
  };
  // A run plays (not paused): the live page rests between frames so as not to slow it (CONTRACT section 21).
  const playing = () => {
    const playback = ide?.getSnapshot().playback;
    return playback != null && playback.running && playback.status !== "paused";
  };
  const pageFeed = capturePage ? new PageFeed({ capture: capturePage, input: panel?.input, live, playing }) : null;
  ide = createIde({
    project: options.project,
    document: resolveLocator ? undefined : document(),
    resolveLocator,
    findInPage: executor?.findInPage && ((location, outline) => executor.findInPage!(location, outline)),
    executor: executor && pageFeed ? watchedExecutor(executor, pageFeed) : executor,
    deliver: bridge.deliver,
    save: async (project, to) => {
      if (to.path !== null) return saveProjectAt(to.path, project);
      if (!saveFile) return undefined;
      const target = saveFile(project);
      await writeProjectFile(target, project);
      return target;
    },
    readProject: readProjectText,
    // A file found on no disk path may be one the project carries (the page's "Add data file").
    readData: withCarriedFiles(options.readData ?? dataFileReader({ filesDir: null, projectDir: options.projectPath ? dirname(resolve(options.projectPath)) : null }), () => ide?.getProject() ?? null),
    projectPath: options.projectPath ?? null,
    // Starting from a file opens it: it is the newest recent file.
    recentProjects: options.projectPath ? withRecent(recent.paths, options.projectPath) : recent.paths,
    limits: options.limits,
    inspect: options.inspect,
    workers: options.workers,
    heal: options.heal,
    retries: options.retries,
    variables: options.variables,
    trace: options.trace,
    traces: options.traces,
    journal: options.journalFile ? fileJournal(options.journalFile, options.savedAt ?? 0) : undefined,
    // Pointing at the page (CONTRACT section 21): a pick armed in the page the panel shows.
    pickInPage: panel ? (arm) => panel.pick(arm) : undefined,
  });
  const keptRecent = recentFile ? keepRecentFile(ide, recentFile, recent.paths, (message) => console.error(message)) : null;
  // A recording starts: the recorder goes into the page (a browser starts if none runs), and a picture follows.
  let recording = false;
  const recordingWatch = panel
    ? ide.subscribe((view) => {
        const now = view.recording !== null;
        if (now === recording) return;
        recording = now;
        // No browser to record in (it could not start): the recording stops rather than record nothing.
        if (now) void panel.recordingStarted().then(() => pageFeed?.poke(), () => ide?.send({ type: "user.stopRecording" }));
      })
    : null;
  const ui = await createUiServer(ide, { page: pageFeed ?? undefined, traces: options.traceReader !== undefined });

  // A frame carries a whole request; a project may be as large as its own limit allows.
  const sockets = new WebSocketServer({ noServer: true, maxPayload: limits.projectRequestBytes + 64 * 1024 });
  let port = 0;
  const traces = options.traceReader ? traceRoutes(options.traceReader, token, () => port) : null;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const refusal = refuseHost(req, port);
    if (refusal) return refuseHttp(res, refusal);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (traces?.handle(req, res, url)) return;
    if (url.pathname === "/" && !tokenMatches(url.searchParams.get("token"), token)) {
      return refuseHttp(
        res,
        { status: 401, reason: "Open the IDE with the address that npm start printed: it carries this host's token." },
        true,
      );
    }
    if (!ui.handleHttp(req, res, token)) refuseHttp(res, { status: 404, reason: `Nothing is at ${url.pathname}.` });
  });

  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const refusal = refuseUpgrade(req, url, port, token);
    if (refusal) return refuse(socket, refusal);
    if (url.pathname === "/ui") {
      return sockets.handleUpgrade(req, socket, head, (ws) => ui.acceptSocket(ws));
    }
    if (url.pathname !== "/plugins") return refuse(socket, { status: 404, reason: `Nothing is at ${url.pathname}; plugins connect to /plugins.` });
    const pluginId = url.searchParams.get("id");
    const claimRefusal = bridge.claim(pluginId);
    if (claimRefusal) return refuse(socket, claimRefusal);
    socket.once("close", () => bridge.release(pluginId!));
    sockets.handleUpgrade(req, socket, head, (ws) => bridge.accept(pluginId!, ws));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? DEFAULT_PORT, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  port = (server.address() as { port: number }).port;

  const tokenFile = options.tokenFile === undefined ? DEFAULT_TOKEN_FILE : options.tokenFile;
  if (tokenFile !== null) await writeTokenFile(tokenFile, token);

  let closing: Promise<void> | null = null;
  return {
    ide,
    port,
    token,
    tokenFile,
    bridge,
    urls: {
      ui: `http://127.0.0.1:${port}/?token=${token}`,
      plugins: `ws://127.0.0.1:${port}/plugins`,
    },
    close() {
      recordingWatch?.unsubscribe();
      keptRecent?.stop();
      closing ??= (async () => {
        pageFeed?.stop();
        ui.close();
        bridge.close();
        for (const client of sockets.clients) client.terminate();
        sockets.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        ide!.stop();
      })();
      return closing;
    },
  };
}
