// "Find" in the host's page: the page asks GET /playback/location the way the host lets any
// local tool ask it, over the plugin bridge (ws://HOST/plugins, with the page's token; the
// bridge admits the host's own page by its Origin). The route needs no registration, so the
// page connects under an id of its own (one per page, so two open pages do not collide). The
// connection opens at the first question and is kept for the next ones: the IDE logs each
// plugin connection that ends, so one that ended per question would fill the log. Every
// question has a time limit; a connection that drops fails the questions it held, and the
// next question opens a new one.

/** Longer than the host's own limit for resolving (so its answer, an error included, comes first). */
const ANSWER_TIMEOUT_MS = 20_000;

type Waiting = { resolve(reply: unknown): void; reject(error: Error): void; timer: ReturnType<typeof setTimeout> };

export interface BridgeAsker {
  /** Resolves with the wire reply (an xpath, or `{ error, errorCode }`); rejects when no answer came. */
  resolveLocator(locator: string): Promise<unknown>;
  close(): void;
}

/** The page's own asker, over a socket to `url` (ws://HOST/plugins?id=…&token=…). */
export function bridgeAsker(url: string, timeoutMs = ANSWER_TIMEOUT_MS): BridgeAsker {
  let socket: WebSocket | null = null;
  let opened: Promise<WebSocket> | null = null;
  let nextId = 1;
  const waiting = new Map<string, Waiting>();

  const settle = (id: string, outcome: { reply: unknown } | { error: Error }) => {
    const entry = waiting.get(id);
    if (!entry) return;
    waiting.delete(id);
    clearTimeout(entry.timer);
    if ("reply" in outcome) entry.resolve(outcome.reply);
    else entry.reject(outcome.error);
  };
  const failAll = (error: Error) => {
    for (const id of [...waiting.keys()]) settle(id, { error });
  };

  function open(): Promise<WebSocket> {
    opened ??= new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(url);
      socket = ws;
      ws.onopen = () => resolve(ws);
      ws.onmessage = (event) => {
        let frame: { type?: unknown; id?: unknown; reply?: unknown; error?: unknown; errorCode?: unknown };
        try {
          frame = JSON.parse(String(event.data));
        } catch {
          return;
        }
        if (typeof frame.id !== "string") return;
        if (frame.type === "reply") settle(frame.id, { reply: frame.reply });
        else if (frame.type === "error") settle(frame.id, { reply: { error: frame.error, errorCode: frame.errorCode } });
      };
      ws.onclose = () => {
        if (socket === ws) {
          socket = null;
          opened = null;
        }
        reject(new Error("the IDE host could not be reached"));
        failAll(new Error("the connection to the IDE host closed before it answered"));
      };
    });
    return opened;
  }

  return {
    async resolveLocator(locator) {
      const ws = await open();
      const id = `find-${nextId++}`;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => settle(id, { error: new Error(`the IDE did not answer within ${Math.round(timeoutMs / 1000)} s`) }),
          timeoutMs,
        );
        waiting.set(id, { resolve, reject, timer });
        ws.send(JSON.stringify({ type: "request", id, message: { uri: "/playback/location", verb: "get", payload: { location: locator } } }));
      });
    },
    close() {
      failAll(new Error("the page stopped asking"));
      socket?.close();
      socket = null;
      opened = null;
    },
  };
}

/** The bridge address of the host that served this page, under a new id for this page. */
export function pageBridgeUrl(token: string): string {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const id = `ide-ui-${Math.random().toString(36).slice(2, 10)}`;
  return `${scheme}://${location.host}/plugins?id=${encodeURIComponent(id)}&token=${encodeURIComponent(token)}`;
}
