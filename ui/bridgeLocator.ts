// "Find" in the host's page: the page asks GET /playback/location the way the host lets any
// local tool ask it, over the plugin bridge (ws://HOST/plugins, with the page's token; the
// bridge admits the host's own page by its Origin). The route needs no registration, so the
// page connects under an id of its own for one question, and closes. The host resolves the
// locator in the page under test while a run has one, else in its example (or --page) page.
// Every question has a time limit and ends with the socket closed.

/** Longer than the host's own limit for resolving (so its answer, an error included, comes first). */
const ANSWER_TIMEOUT_MS = 20_000;

export interface BridgeAsk {
  /** ws://HOST/plugins?id=…&token=… */
  url: string;
  timeoutMs?: number;
}

function bridgeUrl(token: string): string {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const id = `ide-ui-locator-${Math.random().toString(36).slice(2, 10)}`;
  return `${scheme}://${location.host}/plugins?id=${encodeURIComponent(id)}&token=${encodeURIComponent(token)}`;
}

/** The host's page: resolve `location` through the bridge; resolves with the wire reply (an xpath, or `{ error, errorCode }`). */
export function resolveOverBridge(token: string, locator: string, options: Partial<BridgeAsk> = {}): Promise<unknown> {
  const url = options.url ?? bridgeUrl(token);
  const timeoutMs = options.timeoutMs ?? ANSWER_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const frameId = "find-1";
    const done = (finish: () => void) => {
      clearTimeout(timer);
      socket.onclose = socket.onmessage = socket.onerror = null;
      socket.close();
      finish();
    };
    const timer = setTimeout(
      () => done(() => reject(new Error(`the IDE did not answer within ${Math.round(timeoutMs / 1000)} s`))),
      timeoutMs,
    );
    socket.onopen = () =>
      socket.send(
        JSON.stringify({ type: "request", id: frameId, message: { uri: "/playback/location", verb: "get", payload: { location: locator } } }),
      );
    socket.onmessage = (event) => {
      let frame: { type?: unknown; id?: unknown; reply?: unknown; error?: unknown; errorCode?: unknown };
      try {
        frame = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (frame.id !== frameId) return;
      if (frame.type === "reply") done(() => resolve(frame.reply));
      else if (frame.type === "error") done(() => resolve({ error: frame.error, errorCode: frame.errorCode }));
    };
    socket.onerror = () => done(() => reject(new Error("the IDE host could not be reached")));
    socket.onclose = () => done(() => reject(new Error("the IDE host closed the connection before it answered")));
  });
}
