// One DevTools connection per browser under test (the Chrome DevTools Protocol), which the
// picture of the page for the UI (devtools.ts) and the recorder (recording.ts) share, each in
// sessions of its own on it. It goes to the endpoint the WebDriver session reports: the Grid's
// `se:cdp` for a Grid's browser, else the browser's own (`goog:chromeOptions.debuggerAddress`,
// a local chromedriver's). There is none when that endpoint cannot be reached from here or
// does not know the window WebDriver drives (a Grid node's own localhost): the picture then
// goes through WebDriver, and nothing can be recorded. Everything the browser sends is read
// with zod; every request has a time limit. browserPage.ts closes it with the session.
import WebSocket from "ws";
import type { RawData } from "ws";
import type { WebDriver } from "selenium-webdriver";
import { z } from "zod";

/** Any one DevTools request, unless its caller gives another limit. */
export const REQUEST_TIMEOUT_MS = 3_000;

const Message = z.object({
  id: z.number().optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.object({ message: z.string() }).optional(),
  method: z.string().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
  sessionId: z.string().optional(),
});
const Version = z.object({ webSocketDebuggerUrl: z.string().regex(/^wss?:\/\//) });
const Targets = z.object({
  targetInfos: z.array(z.object({ targetId: z.string(), type: z.string(), title: z.string(), url: z.string() })),
});
const Attached = z.object({ sessionId: z.string() });

export type PageTarget = z.infer<typeof Targets>["targetInfos"][number];

/** An event the browser sent: its method, its params, and the page session it came from (none: the browser's). */
export type DevToolsListener = (method: string, params: Record<string, unknown>, sessionId: string | undefined) => void;

/** One WebSocket to the browser's DevTools endpoint, with a time limit on every request. */
export class DevToolsConnection {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve(result: Record<string, unknown>): void; reject(error: Error): void }>();
  private readonly listeners = new Set<DevToolsListener>();
  private readonly closeListeners = new Set<() => void>();
  private closed = false;

  private constructor(private readonly socket: WebSocket) {
    socket.on("message", (data: RawData) => this.receive(data));
    socket.on("close", () => this.fail(new Error("the DevTools connection closed")));
    socket.on("error", () => this.fail(new Error("the DevTools connection failed")));
  }

  static open(url: string, timeoutMs: number): Promise<DevToolsConnection> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: timeoutMs });
      socket.once("open", () => resolve(new DevToolsConnection(socket)));
      socket.once("error", (error) => reject(error));
    });
  }

  get isOpen() {
    return !this.closed && this.socket.readyState === WebSocket.OPEN;
  }

  private receive(data: RawData) {
    let parsed;
    try {
      parsed = Message.safeParse(JSON.parse(String(data)));
    } catch {
      return;
    }
    if (!parsed.success) return;
    const message = parsed.data;
    if (message.method !== undefined) {
      for (const listener of this.listeners) listener(message.method, message.params ?? {}, message.sessionId);
      return;
    }
    if (message.id === undefined) return;
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    if (message.error) waiting.reject(new Error(message.error.message));
    else waiting.resolve(message.result ?? {});
  }

  private fail(error: Error) {
    const was = this.closed;
    this.closed = true;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
    if (was) return;
    for (const listener of [...this.closeListeners]) listener();
    this.closeListeners.clear();
  }

  /** One CDP method, on the browser or in a page's session; rejects with the browser's error or past `timeoutMs`. */
  send(method: string, params: Record<string, unknown> = {}, sessionId?: string, timeoutMs = REQUEST_TIMEOUT_MS): Promise<Record<string, unknown>> {
    if (!this.isOpen) return Promise.reject(new Error("the DevTools connection is closed"));
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (result) => (clearTimeout(timer), resolve(result)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      this.socket.send(JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }));
    });
  }

  /** Hears every event the browser sends until the returned function is called. */
  listen(listener: DevToolsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called once when the connection closes (the browser quit, or the connection was closed), until the returned function is called. */
  onClose(listener: () => void): () => void {
    if (this.closed) {
      queueMicrotask(listener);
      return () => {};
    }
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** The browser's pages (tabs and windows); a page's target id is its WebDriver window handle. */
  async pages(): Promise<PageTarget[]> {
    return Targets.parse(await this.send("Target.getTargets")).targetInfos.filter((t) => t.type === "page");
  }

  /** A new session in the page `targetId`, whose messages carry its id; detaching it undoes what was added through it. */
  async attach(targetId: string, timeoutMs = REQUEST_TIMEOUT_MS): Promise<string> {
    return Attached.parse(await this.send("Target.attachToTarget", { targetId, flatten: true }, undefined, timeoutMs)).sessionId;
  }

  close() {
    this.fail(new Error("the DevTools connection was closed"));
    this.listeners.clear();
    this.socket.terminate();
  }
}

async function fetchJson(url: string, timeoutMs: number): Promise<unknown> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
}

/** The DevTools endpoint the session reports: the Grid's `se:cdp`, else the browser's own address; null when it reports none. */
async function endpointOf(driver: WebDriver): Promise<string | null> {
  const capabilities = await driver.getCapabilities();
  const grid = capabilities.get("se:cdp");
  if (typeof grid === "string" && /^wss?:\/\//.test(grid)) return grid;
  const address = (capabilities.get("goog:chromeOptions") as { debuggerAddress?: unknown } | undefined)?.debuggerAddress;
  if (typeof address !== "string" || !/^[\w.[\]:-]+:\d+$/.test(address)) return null;
  return Version.parse(await fetchJson(`http://${address}/json/version`, REQUEST_TIMEOUT_MS)).webSocketDebuggerUrl;
}

/** A connection to the session's browser, or null when its endpoint is not reachable from here or does not know the window WebDriver drives. */
async function openFor(driver: WebDriver): Promise<DevToolsConnection | null> {
  const url = await endpointOf(driver);
  if (url === null) return null;
  const connection = await DevToolsConnection.open(url, REQUEST_TIMEOUT_MS);
  const handle = await driver.getWindowHandle().catch(() => null);
  const known = await connection.pages().catch(() => [] as PageTarget[]);
  if (!handle || !known.some((t) => t.targetId === handle)) {
    connection.close();
    return null;
  }
  return connection;
}

const connections = new WeakMap<WebDriver, Promise<DevToolsConnection | null>>();

/** The one DevTools connection to the browser `driver` drives, opened at the first call (and again once it closed); null when there can be none now. */
export async function devToolsOf(driver: WebDriver): Promise<DevToolsConnection | null> {
  const known = connections.get(driver);
  if (known) {
    const connection = await known;
    if (connection?.isOpen) return connection;
    if (connections.get(driver) === known) connections.delete(driver);
    return devToolsOf(driver);
  }
  const opening = openFor(driver).catch(() => null);
  connections.set(driver, opening);
  // None now (an endpoint that did not answer) is asked again at the next call.
  void opening.then((connection) => {
    if (connection === null && connections.get(driver) === opening) connections.delete(driver);
  });
  return opening;
}

/** Closes the browser's connection (its session is over); a later devToolsOf opens a new one. */
export function closeDevTools(driver: WebDriver): void {
  const known = connections.get(driver);
  connections.delete(driver);
  void known?.then((connection) => connection?.close());
}
