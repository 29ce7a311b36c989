// Types of the background worker's relay machine (relay.machine.ts): a plugin's request as the
// relay holds it, what the adapter (relay.ts) tells the machine, and what the machine asks of it.
import type { WireReply } from "../../core/protocol/wire.ts";
import type { ToWindow } from "../../drivers/webextension/messages.ts";

/** A plugin's request, numbered by the adapter, which keeps its `respond` under that number. */
export interface RelayRequest {
  id: number;
  /** Who Chromium says sent it (`sender.id`), never a field of the message. */
  senderId: string;
  message: unknown;
}

export type RelayState = "starting" | "absent" | "awaiting" | "present";

export interface RelayInput {
  /** How long a window may take between opening (or being found) and connecting. */
  connectTimeoutMs: number;
}

export interface RelayContext {
  /** Requests no one has answered or taken yet, oldest first: they wait for the window, or for the closed core's turn. */
  queue: RelayRequest[];
  /** Ids of requests forwarded to the window whose replies have not come back. */
  forwarded: number[];
  /** The port (numbered by the adapter) of the window that answers plugins; null unless present. */
  window: number | null;
  /** The toolbar button was pressed before the worker knew whether a window is open. */
  showWhenStarted: boolean;
  connectTimeoutMs: number;
}

export type RelayEvent =
  /** A plugin's message reached the worker. */
  | { type: "request.received"; request: RelayRequest }
  /** The toolbar button. */
  | { type: "user.showWindow" }
  /** An IDE window connected its port: its core is ready. */
  | { type: "window.connected"; port: number }
  /** A window's reply to a forwarded request (the adapter has read the port's message). */
  | { type: "window.replied"; port: number; requestId: number; reply: WireReply }
  /** A window's port closed. */
  | { type: "window.disconnected"; port: number }
  /** The closed core (actor `closedIde`) answers the request it was given; its reply follows as `core.answered`. */
  | { type: "core.took"; requestId: number }
  /** The closed core's reply to a request it took. */
  | { type: "core.answered"; requestId: number; reply: WireReply }
  /** The request the closed core was given opens its window: the real window must take it. */
  | { type: "core.windowOpened"; requestId: number };

/** What the closed core is sent: the request whose turn it is. */
export type ClosedIdeEvent = { type: "request.asked"; request: RelayRequest };

export type RelayEmitted =
  /** Answer the plugin's request now (the adapter calls its `respond`). */
  | { type: "request.answered"; requestId: number; reply: WireReply }
  /** Post a message on a window's port. */
  | { type: "window.posted"; port: number; message: ToWindow }
  /** Bring a window to the front. */
  | { type: "window.broughtToFront"; port: number };
