// The page's side of the /ui socket (format: adapters/host/ui.ts): one connection to the
// host, rebuilt after a drop, folded into the state the components render. While the
// socket is down the page says so and keeps showing the last state it had.
import { useEffect, useReducer, useRef } from "preact/hooks";
import { mergeLogs } from "./protocol.ts";
import type { Chart, ChartValues, HostMessage, LogEntry, PlaybackView, TestSummary, UiView } from "./protocol.ts";

export type ConnectionStatus = "connecting" | "connected" | "disconnected";

export interface IdeState {
  status: ConnectionStatus;
  charts: Chart[];
  view: UiView | null;
  playback: PlaybackView;
  tests: TestSummary[];
  logs: LogEntry[];
  states: ChartValues;
}

/** A user event of CONTRACT section 5; the host passes it to ide.send, which checks it. */
export type UserEventMessage = { type: `user.${string}`; [field: string]: unknown };

const initial: IdeState = {
  status: "connecting",
  charts: [],
  view: null,
  playback: null,
  tests: [],
  logs: [],
  states: {},
};

type Action = { type: "status"; status: ConnectionStatus } | { type: "message"; message: HostMessage };

function reduce(state: IdeState, action: Action): IdeState {
  if (action.type === "status") return { ...state, status: action.status };
  const message = action.message;
  if (message.type === "hello") return { ...state, charts: message.charts };
  return {
    ...state,
    view: message.view,
    playback: message.playback !== undefined ? message.playback : state.playback,
    tests: message.tests ?? state.tests,
    logs: mergeLogs(state.logs, message.logs),
    states: message.states,
  };
}

function socketUrl(): string {
  const token = document.querySelector('meta[name="ide-token"]')?.getAttribute("content") ?? "";
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ui?token=${encodeURIComponent(token)}`;
}

const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 4000;

export function useIdeConnection(): [IdeState, (event: UserEventMessage) => void] {
  const [state, dispatch] = useReducer(reduce, initial);
  const socket = useRef<WebSocket | null>(null);

  useEffect(() => {
    let stopped = false;
    let retry = FIRST_RETRY_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;

    function connect() {
      const ws = new WebSocket(socketUrl());
      socket.current = ws;
      ws.onopen = () => {
        retry = FIRST_RETRY_MS;
        dispatch({ type: "status", status: "connected" });
      };
      ws.onmessage = (event) => {
        if (typeof event.data !== "string") return;
        dispatch({ type: "message", message: JSON.parse(event.data) as HostMessage });
      };
      ws.onclose = () => {
        if (socket.current === ws) socket.current = null;
        if (stopped) return;
        dispatch({ type: "status", status: "disconnected" });
        timer = setTimeout(connect, retry);
        retry = Math.min(retry * 2, LAST_RETRY_MS);
      };
    }
    connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      socket.current?.close();
    };
  }, []);

  const send = (event: UserEventMessage) => {
    const ws = socket.current;
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(event));
  };
  return [state, send];
}
