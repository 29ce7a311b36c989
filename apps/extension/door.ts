// The IDE window's side of answering plugins: the door machine (door.machine.ts, which
// decides when the window answers) bound to the window's core, without the chrome API
// (window.tsx binds it). This file keeps each request's `respond` under the number the
// machine knows it by, and does what the machine emits.
import { createActor } from "xstate";
import type { Actor } from "xstate";
import type { WireReply } from "../../core/protocol/wire.ts";
import { doorMachine } from "./door.machine.ts";
import type { Respond } from "./relay.ts";

export class WindowDoor {
  /** The running door machine, for the window's statecharts. */
  readonly actor: Actor<typeof doorMachine>;
  private readonly responders = new Map<number, Respond>();
  private nextId = 1;

  constructor(answer: (message: unknown, senderId: string) => Promise<WireReply>) {
    this.actor = createActor(doorMachine);
    const take = (requestId: number) => {
      const respond = this.responders.get(requestId);
      this.responders.delete(requestId);
      return respond;
    };
    this.actor.on("request.released", ({ request }) => {
      const respond = take(request.id);
      if (respond) void answer(request.message, request.senderId).then(respond);
    });
    this.actor.on("request.answered", ({ requestId, reply }) => take(requestId)?.(reply));
    this.actor.on("request.dropped", ({ requestId }) => take(requestId));
    this.actor.start();
  }

  get live(): boolean {
    return this.actor.getSnapshot().matches("answering");
  }

  /** chrome.runtime.onMessageExternal in the window: always answered here, now or later. */
  receive(message: unknown, senderId: string, respond: Respond): boolean {
    const id = this.nextId++;
    this.responders.set(id, respond);
    this.actor.send({ type: "request.received", request: { id, senderId, message } });
    return true;
  }

  /** The background's `live`: it forwarded `forwarded` and answers nothing more itself. */
  goLive(forwarded: readonly string[]): void {
    this.actor.send({ type: "background.handedOver", forwarded });
  }

  /** The port to the background is gone: hold again until the next `live`. */
  pause(): void {
    this.actor.send({ type: "background.disconnected" });
  }

  /** The window is going: what it holds gets `reply` (the background answers its own copies the same). */
  abandon(reply: WireReply): void {
    this.actor.send({ type: "window.closing", reply });
  }
}
