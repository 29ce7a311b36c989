// The host page's transport: the /ui socket of the host that served the page (its token is
// in the page's meta tag), rebuilt after a drop with a growing wait, 250 ms up to 4 s. The
// first update on every new socket is a reset, so the page's copy is whole again. Locators
// are resolved over the host's plugin bridge (bridgeLocator.ts).
import type { ConnectionStatus, UiTransport } from "./connection.ts";
import type { HostMessage } from "./protocol.ts";
import { bridgeAsker, pageBridgeUrl } from "./bridgeLocator.ts";
import type { BridgeAsker } from "./bridgeLocator.ts";

const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 4000;

const pageToken = () => document.querySelector('meta[name="ide-token"]')?.getAttribute("content") ?? "";

function socketUrl(): string {
  const token = pageToken();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ui?token=${encodeURIComponent(token)}`;
}

export function socketTransport(): UiTransport {
  let asker: BridgeAsker | null = null; // opened at the first "Find", kept for the page's life
  return {
    resolveLocator: (locator) => (asker ??= bridgeAsker(pageBridgeUrl(pageToken()))).resolveLocator(locator),
    connect(handlers) {
      let stopped = false;
      let retry = FIRST_RETRY_MS;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let socket: WebSocket | null = null;
      const status = (value: ConnectionStatus) => {
        if (!stopped) handlers.status(value);
      };

      function open() {
        const ws = new WebSocket(socketUrl());
        socket = ws;
        ws.onopen = () => {
          retry = FIRST_RETRY_MS;
          status("connected");
        };
        ws.onmessage = (event) => {
          if (stopped || typeof event.data !== "string") return;
          handlers.message(JSON.parse(event.data) as HostMessage);
        };
        ws.onclose = () => {
          if (socket === ws) socket = null;
          if (stopped) return;
          status("disconnected");
          timer = setTimeout(open, retry);
          retry = Math.min(retry * 2, LAST_RETRY_MS);
        };
      }
      open();

      return {
        send(event) {
          if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(event));
        },
        close() {
          stopped = true;
          clearTimeout(timer);
          socket?.close();
        },
      };
    },
  };
}
