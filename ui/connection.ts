// The page's side of its relay (format: drivers/view/messages.ts): the messages a transport
// brings in, folded into the state the components render. The transport is whatever reaches
// the IDE: the host's /ui socket (socketTransport.ts), which drops and comes back, or an IDE
// in the same page (localTransport.ts). While the transport is down the page says so and
// keeps showing the last state it had.
import { useCallback, useEffect, useReducer, useRef } from "preact/hooks";
import { mergeCommands, mergeLogs } from "./protocol.ts";
import type {
  Chart,
  ChartValues,
  CommandRow,
  HostMessage,
  LogEntry,
  PageShot,
  RunSummary,
  SuiteSummary,
  TestSummary,
  UiView,
  UserEventMessage,
} from "./protocol.ts";

import type { ConnectionStatus, UiConnection, UiTransport } from "../drivers/view/transport.ts";

export type { ConnectionStatus, UiConnection, UiTransport, UiTransportHandlers } from "../drivers/view/transport.ts";

export interface IdeState {
  status: ConnectionStatus;
  charts: Chart[];
  view: UiView | null;
  /** The run without its rows (null before the first run). */
  playback: RunSummary | null;
  /** The run's command rows with their states; a row object stays the same while it does not change. */
  commands: CommandRow[];
  tests: TestSummary[];
  suites: SuiteSummary[];
  /** The loaded project's base URL. */
  url: string;
  logs: LogEntry[];
  states: ChartValues;
  /** Whether this IDE sends pictures of its page under test (the host does; hello says so). */
  pages: boolean;
  /** Whether this IDE serves its kept runs (the host does; hello says so): the page shows time travel. */
  traces: boolean;
  /** The page under test as last captured; null until the first picture. */
  page: PageShot | null;
}

export type { UserEventMessage };

const initial: IdeState = {
  status: "connecting",
  charts: [],
  view: null,
  playback: null,
  commands: [],
  tests: [],
  suites: [],
  url: "",
  logs: [],
  states: {},
  pages: false,
  traces: false,
  page: null,
};

type Action = { type: "status"; status: ConnectionStatus } | { type: "message"; message: HostMessage };

function reduce(state: IdeState, action: Action): IdeState {
  if (action.type === "status") return { ...state, status: action.status };
  const message = action.message;
  if (message.type === "hello") return { ...state, charts: message.charts, pages: message.pages === true, traces: message.traces === true };
  if (message.type === "page") {
    const { url, title, image, at, width, height, live, gone } = message;
    const extra = { ...(width !== undefined && height !== undefined ? { width, height } : {}), ...(live !== undefined ? { live } : {}), ...(gone ? { gone } : {}) };
    return { ...state, page: { url, title, image, at, ...extra } };
  }
  // Answers to "Find" are the transport's to settle; one that reaches here changes nothing.
  if (message.type === "locator.resolved" || message.type === "locator.found" || message.type === "export.answered") return state;
  const playback = message.playback !== undefined ? message.playback : state.playback;
  return {
    ...state,
    view: message.view,
    playback,
    commands: playback === null ? [] : message.commands ? mergeCommands(state.commands, message.commands) : state.commands,
    tests: message.tests ?? state.tests,
    suites: message.suites ?? state.suites,
    url: message.url ?? state.url,
    logs: mergeLogs(state.logs, message.logs),
    states: message.states,
  };
}

export function useIdeConnection(transport: UiTransport): [IdeState, (event: UserEventMessage) => void] {
  const [state, dispatch] = useReducer(reduce, initial);
  const connection = useRef<UiConnection | null>(null);

  useEffect(() => {
    const current = transport.connect({
      message: (message) => dispatch({ type: "message", message }),
      status: (status) => dispatch({ type: "status", status }),
    });
    connection.current = current;
    return () => {
      if (connection.current === current) connection.current = null;
      current.close();
    };
  }, [transport]);

  // One function for the page's life, so rows that get it as a prop need not render again.
  const send = useCallback((event: UserEventMessage) => connection.current?.send(event), []);
  return [state, send];
}
