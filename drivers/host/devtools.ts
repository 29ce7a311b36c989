// The picture of the page under test for the UI's "Page under test" panel: its URL, its title
// and a small JPEG of what it shows, taken over the Chrome DevTools Protocol.
//
// Two ways, the first that works for the session:
// - straight to the browser's DevTools endpoint (chromedriver reports it as
//   `goog:chromeOptions.debuggerAddress`) over one WebSocket of our own: a capture then never
//   waits behind the run's WebDriver commands in chromedriver's queue, nor holds them up. Used
//   when that endpoint is reachable from here and knows the window WebDriver drives (a local
//   chromedriver; not a Grid's node in a container);
// - else through WebDriver (chromedriver's `goog/cdp/execute`, `getCurrentUrl`, `getTitle`):
//   every Chromium driver has it, but each capture queues with the run's commands. A remote
//   end without it gives the URL and title and no image.
//
// The picture is the visible viewport, scaled so it is at most IMAGE_WIDTH CSS pixels wide.
// Everything the browser sends back is read with zod; a capture that fails rejects, and the
// caller (drivers/view/pageFeed.ts) drops it.
import WebSocket from "ws";
import type { RawData } from "ws";
import type { WebDriver } from "selenium-webdriver";
import { z } from "zod";
import type { PageShot } from "../view/messages.ts";

/** The picture's width in CSS pixels at most: a page up to this wide is pictured at its own size, so its text reads in the panel. */
export const IMAGE_WIDTH = 1280;
const JPEG_QUALITY = 60;
/** Any one DevTools request; a capture is dropped past it. */
const REQUEST_TIMEOUT_MS = 3_000;

const Reply = z.object({
  id: z.number().optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.object({ message: z.string() }).optional(),
  method: z.string().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});
const Version = z.object({ webSocketDebuggerUrl: z.string().regex(/^wss?:\/\//) });
const Targets = z.object({
  targetInfos: z.array(z.object({ targetId: z.string(), type: z.string(), title: z.string(), url: z.string() })),
});
const Attached = z.object({ sessionId: z.string() });
const Viewport = z.object({
  cssVisualViewport: z.object({ pageX: z.number(), pageY: z.number(), clientWidth: z.number(), clientHeight: z.number() }),
});
const Screenshot = z.object({ data: z.string() });

type Target = z.infer<typeof Targets>["targetInfos"][number];

/** A request to the DevTools endpoint: one CDP method, on the browser or in a page's session. */
type Send = (method: string, params?: Record<string, unknown>, sessionId?: string) => Promise<Record<string, unknown>>;

/** One WebSocket to the browser's DevTools endpoint, with a time limit on every request. */
class DevToolsConnection {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve(result: Record<string, unknown>): void; reject(error: Error): void }>();
  private closed = false;
  /** Called when the browser drops a page session (a closed window, a navigation to a new process). */
  onDetached: (sessionId: string) => void = () => {};

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
      parsed = Reply.safeParse(JSON.parse(String(data)));
    } catch {
      return;
    }
    if (!parsed.success) return;
    const reply = parsed.data;
    if (reply.method === "Target.detachedFromTarget" && typeof reply.params?.sessionId === "string") {
      this.onDetached(reply.params.sessionId);
      return;
    }
    if (reply.id === undefined) return;
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (reply.error) waiting.reject(new Error(reply.error.message));
    else waiting.resolve(reply.result ?? {});
  }

  private fail(error: Error) {
    this.closed = true;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }

  readonly send: Send = (method, params = {}, sessionId) => {
    if (!this.isOpen) return Promise.reject(new Error("the DevTools connection is closed"));
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} did not answer within ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, {
        resolve: (result) => (clearTimeout(timer), resolve(result)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      this.socket.send(JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }));
    });
  };

  close() {
    this.fail(new Error("the DevTools connection was closed"));
    this.socket.terminate();
  }
}

/** The viewport as a small JPEG data URL, and its size in CSS pixels, through whichever way `send` reaches the page. */
async function viewportJpeg(send: (method: string, params?: Record<string, unknown>) => Promise<unknown>): Promise<{ image: string; width: number; height: number }> {
  const { cssVisualViewport: viewport } = Viewport.parse(await send("Page.getLayoutMetrics"));
  const width = Math.max(1, viewport.clientWidth);
  const height = Math.max(1, viewport.clientHeight);
  const scale = Math.min(1, IMAGE_WIDTH / width);
  const { data } = Screenshot.parse(
    await send("Page.captureScreenshot", {
      format: "jpeg",
      quality: JPEG_QUALITY,
      // Half the browser's CPU per picture (about 13 ms instead of 30 here), for the same bytes.
      optimizeForSpeed: true,
      clip: { x: viewport.pageX, y: viewport.pageY, width, height, scale },
    }),
  );
  return { image: `data:image/jpeg;base64,${data}`, width, height };
}

async function fetchJson(url: string, timeoutMs: number): Promise<unknown> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
}

export interface PageCamera {
  /** The page WebDriver drives now: its URL, title and picture. Rejects when it cannot be taken. */
  capture(): Promise<PageShot>;
  /** False once it can take no more pictures (its DevTools connection closed): make a new one. */
  usable(): boolean;
  close(): void;
}

/** Straight to the browser's DevTools endpoint, or null when it is not reachable from here or does not know the driven window. */
async function directCamera(driver: WebDriver): Promise<PageCamera | null> {
  const chromeOptions = (await driver.getCapabilities()).get("goog:chromeOptions") as { debuggerAddress?: unknown } | undefined;
  const address = chromeOptions?.debuggerAddress;
  if (typeof address !== "string" || !/^[\w.[\]:-]+:\d+$/.test(address)) return null;
  let connection: DevToolsConnection;
  try {
    const { webSocketDebuggerUrl } = Version.parse(await fetchJson(`http://${address}/json/version`, REQUEST_TIMEOUT_MS));
    connection = await DevToolsConnection.open(webSocketDebuggerUrl, REQUEST_TIMEOUT_MS);
  } catch {
    return null;
  }
  const pages = async () => Targets.parse(await connection.send("Target.getTargets")).targetInfos.filter((t) => t.type === "page");
  // A DevTools endpoint at that address that is not this session's browser (a Grid's node
  // reports its own localhost) does not know WebDriver's window, whose handle is its target id.
  const handle = await driver.getWindowHandle().catch(() => null);
  const known = await pages().catch(() => [] as Target[]);
  if (!handle || !known.some((t) => t.targetId === handle)) {
    connection.close();
    return null;
  }
  const sessions = new Map<string, Promise<string>>();
  connection.onDetached = (sessionId) => {
    for (const [targetId, session] of sessions) void session.then((id) => id === sessionId && sessions.delete(targetId), () => {});
  };
  const sessionOf = (targetId: string) => {
    let session = sessions.get(targetId);
    if (!session) {
      session = connection.send("Target.attachToTarget", { targetId, flatten: true }).then((r) => Attached.parse(r).sessionId);
      session.catch(() => sessions.delete(targetId));
      sessions.set(targetId, session);
    }
    return session;
  };
  return {
    async capture() {
      const open = await pages();
      // One window is the one WebDriver drives; with more, WebDriver says which (one queued call).
      let target = open.length === 1 ? open[0] : undefined;
      if (!target) {
        const current = await driver.getWindowHandle();
        target = open.find((t) => t.targetId === current);
      }
      if (!target) throw new Error("the window WebDriver drives is not among the browser's pages");
      const sessionId = await sessionOf(target.targetId);
      const { image, width, height } = await viewportJpeg((method, params) => connection.send(method, params, sessionId));
      return { url: target.url, title: target.title, image, width, height, at: Date.now() };
    },
    usable: () => connection.isOpen,
    close: () => connection.close(),
  };
}

/** Through WebDriver itself: chromedriver's CDP command for the picture, when the remote end has it. */
export function webdriverCamera(driver: WebDriver): PageCamera {
  const cdp = (driver as unknown as { sendAndGetDevToolsCommand?: (cmd: string, params?: object) => Promise<unknown> }).sendAndGetDevToolsCommand;
  let imageWorks = typeof cdp === "function";
  return {
    async capture() {
      const url = await driver.getCurrentUrl();
      const title = await driver.getTitle();
      let image: string | null = null;
      let size: { width?: number; height?: number } = {};
      if (imageWorks) {
        try {
          const shot = await viewportJpeg((method, params) => cdp!.call(driver, method, params ?? {}));
          image = shot.image;
          size = { width: shot.width, height: shot.height };
        } catch {
          imageWorks = false; // a remote end without it: URL and title only from now on
        }
      }
      return { url, title, image, ...size, at: Date.now() };
    },
    usable: () => true,
    close() {},
  };
}

/** The camera for one WebDriver session: straight to DevTools when it can be, else through WebDriver. */
export async function pageCamera(driver: WebDriver): Promise<PageCamera> {
  return (await directCamera(driver).catch(() => null)) ?? webdriverCamera(driver);
}
