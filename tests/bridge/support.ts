// Raw WebSocket plugins for the bridge tests: frames as the README documents them, with no
// client library in between, so these tests pin the wire format itself.
import { WebSocket } from "ws";
import type { ClientOptions } from "ws";
import type { Host } from "../../apps/host/host.ts";

export interface RawPlugin {
  socket: WebSocket;
  /** Sends a frame: an object is sent as JSON, a string as it is. */
  send(frame: unknown): void;
  /** The next frame the host sends that `accept` takes (default: any). */
  next(accept?: (frame: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** The frames received that no `next` has taken yet. */
  buffered(): Record<string, unknown>[];
  /** A request frame with a fresh id, and the reply it gets. */
  request(message: unknown): Promise<unknown>;
  close(): Promise<void>;
}

let frameCount = 0;

export function pluginUrl(host: Host, id: string | null, token: string | null = host.token, path = "/plugins"): string {
  const url = new URL(`ws://127.0.0.1:${host.port}${path}`);
  if (id !== null) url.searchParams.set("id", id);
  if (token !== null) url.searchParams.set("token", token);
  return url.href;
}

/** Opens a socket; resolves once open, or rejects with the HTTP status of a refusal and its text. */
export function openSocket(url: string, options: ClientOptions = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options);
    socket.once("open", () => resolve(socket));
    socket.once("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => reject(Object.assign(new Error(body.trim()), { status: res.statusCode })));
    });
    socket.once("error", reject);
  });
}

export async function connectRaw(host: Host, id: string, options: ClientOptions = {}): Promise<RawPlugin> {
  const socket = await openSocket(pluginUrl(host, id), options);
  const frames: Record<string, unknown>[] = [];
  const waiters: Array<{ accept: (f: Record<string, unknown>) => boolean; resolve: (f: Record<string, unknown>) => void }> = [];
  socket.on("message", (data) => {
    const frame = JSON.parse(data.toString()) as Record<string, unknown>;
    const waiter = waiters.find((w) => w.accept(frame));
    if (waiter) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(frame);
    } else frames.push(frame);
  });
  const next = (accept: (f: Record<string, unknown>) => boolean = () => true) => {
    const index = frames.findIndex(accept);
    if (index >= 0) return Promise.resolve(frames.splice(index, 1)[0]);
    return new Promise<Record<string, unknown>>((resolve) => waiters.push({ accept, resolve }));
  };
  return {
    socket,
    send: (frame) => socket.send(typeof frame === "string" ? frame : JSON.stringify(frame)),
    next,
    buffered: () => frames.slice(),
    async request(message) {
      const id = ++frameCount;
      socket.send(JSON.stringify({ type: "request", id, message }));
      const reply = await next((f) => f.type === "reply" && f.id === id);
      return reply.reply;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === socket.CLOSED) return resolve();
        socket.once("close", () => resolve());
        socket.close();
      }),
  };
}

/** Resolves with the HTTP status a refused upgrade got (and fails the test if it opened). */
export async function refusedStatus(url: string, options: ClientOptions = {}): Promise<{ status: number; text: string }> {
  try {
    const socket = await openSocket(url, options);
    socket.close();
  } catch (error) {
    return { status: (error as { status?: number }).status ?? -1, text: (error as Error).message };
  }
  throw new Error(`the connection to ${url} was accepted`);
}
