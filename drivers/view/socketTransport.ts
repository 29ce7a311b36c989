// The host page's transport: the /ui socket of the host that served the page (its token is
// in the page's meta tag), rebuilt after a drop with a growing wait, 250 ms up to 4 s. The
// first update on every new socket is a reset, so the page's copy is whole again. The
// editor's "Find" goes over the same socket (`locator.resolve`, answered `locator.resolved`:
// drivers/view/messages.ts), and so does the Export dialog (`export.request`, answered
// `export.answered`), each with a limit of its own; a socket that drops fails the questions
// it held.
import type { ConnectionStatus, UiTransport } from "./transport.ts";
import type { ExportReply, HostMessage, PageInputMessage } from "./messages.ts";

/** Longer than the host's own limit for resolving, so its answer, an error included, comes first. */
const ANSWER_TIMEOUT_MS = 20_000;
const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 4000;

const pageToken = () => document.querySelector('meta[name="ide-token"]')?.getAttribute("content") ?? "";

function socketUrl(): string {
  const token = pageToken();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ui?token=${encodeURIComponent(token)}`;
}

type Waiting = { resolve(reply: unknown): void; reject(error: Error): void; timer: ReturnType<typeof setTimeout> };

export function socketTransport(): UiTransport {
  let socket: WebSocket | null = null;
  let nextQuestion = 1;
  const waiting = new Map<number, Waiting>();
  const settle = (id: number, outcome: { reply: unknown } | { error: Error }) => {
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

  /** One question over the socket, answered by the message of the same `id`. */
  const ask = (question: (id: number) => object) =>
    new Promise<unknown>((resolve, reject) => {
      const ws = socket;
      if (!ws || ws.readyState !== WebSocket.OPEN) return reject(new Error("the IDE host is not connected"));
      const id = nextQuestion++;
      const timer = setTimeout(
        () => settle(id, { error: new Error(`the IDE did not answer within ${ANSWER_TIMEOUT_MS / 1000} s`) }),
        ANSWER_TIMEOUT_MS,
      );
      waiting.set(id, { resolve, reject, timer });
      ws.send(JSON.stringify(question(id)));
    });

  return {
    resolveLocator: (location) => ask((id) => ({ type: "locator.resolve", id, location })),
    findInPage: (location, outline) => ask((id) => ({ type: "locator.find", id, location, outline })),
    exportCode: (request) => ask((id) => ({ type: "export.request", id, ...request })) as Promise<ExportReply>,
    pageInput(input) {
      if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "page.input", input } satisfies PageInputMessage));
    },
    connect(handlers) {
      let stopped = false;
      let retry = FIRST_RETRY_MS;
      let timer: ReturnType<typeof setTimeout> | undefined;
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
          const message = JSON.parse(event.data) as HostMessage;
          if (message.type === "locator.resolved" || message.type === "locator.found" || message.type === "export.answered") return settle(message.id, { reply: message.reply });
          handlers.message(message);
        };
        ws.onclose = () => {
          if (socket === ws) socket = null;
          failAll(new Error("the connection to the IDE host closed before it answered"));
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
