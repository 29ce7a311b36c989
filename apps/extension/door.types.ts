// Types of the IDE window's door machine (door.machine.ts): a plugin's request as the door
// holds it, what the window (door.ts, window.tsx) tells it, and what it asks of the window.
import type { WireReply } from "../../core/protocol/wire.ts";

/** A plugin's request, numbered by the adapter, which keeps its `respond` under that number. */
export interface DoorRequest {
  id: number;
  /** Who Chromium says sent it (`sender.id`), never a field of the message. */
  senderId: string;
  message: unknown;
}

export type DoorState = "holding" | "answering";

export interface DoorContext {
  /** Requests received while holding, oldest first. Empty while answering. */
  held: DoorRequest[];
}

export type DoorEvent =
  /** A plugin's message reached the window (chrome.runtime.onMessageExternal). */
  | { type: "request.received"; request: DoorRequest }
  /** The background's `live`: it forwarded `forwarded` (requestKey of each) and answers nothing more itself. */
  | { type: "background.handedOver"; forwarded: readonly string[] }
  /** The port to the background is gone (the browser stopped the worker); a new one is being made. */
  | { type: "background.disconnected" }
  /** The window is going: what it holds gets `reply`. */
  | { type: "window.closing"; reply: WireReply };

export type DoorEmitted =
  /** The window's core answers this request now. */
  | { type: "request.released"; request: DoorRequest }
  /** Answer this request with `reply` (the window is going). */
  | { type: "request.answered"; requestId: number; reply: WireReply }
  /** The background forwarded its copy of this request, which the window answers through the port: forget this one. */
  | { type: "request.dropped"; requestId: number };
