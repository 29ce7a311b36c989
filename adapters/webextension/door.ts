// The IDE window's side of answering plugins, without the chrome API (window.tsx binds it).
//
// The window answers a plugin's message itself once the background has said `live`
// (relay.ts explains why and when). Before that (the window is starting, or the background
// worker restarted and the port is being made again) it holds what it receives: the
// background is queueing the same messages and forwards them over the port. `live` lists
// the ones it forwarded; the window drops its own copies of those and answers the rest, so
// each request is answered once. Two copies of one request have the same requestKey, and
// two equal requests from one sender are interchangeable, so counting keys is enough.
import type { WireReply } from "../protocol/wire.ts";
import { requestKey } from "./messages.ts";
import type { Respond } from "./relay.ts";

interface Held {
  key: string;
  message: unknown;
  senderId: string;
  respond: Respond;
}

export class WindowDoor {
  private isLive = false;
  private held: Held[] = [];

  constructor(private readonly answer: (message: unknown, senderId: string) => Promise<WireReply>) {}

  get live(): boolean {
    return this.isLive;
  }

  /** chrome.runtime.onMessageExternal in the window: always answered here, now or later. */
  receive(message: unknown, senderId: string, respond: Respond): boolean {
    if (this.isLive) void this.answer(message, senderId).then(respond);
    else this.held.push({ key: requestKey(senderId, message), message, senderId, respond });
    return true;
  }

  /** The background's `live`: it forwarded `forwarded` and answers nothing more itself. */
  goLive(forwarded: readonly string[]): void {
    const left = new Map<string, number>();
    for (const key of forwarded) left.set(key, (left.get(key) ?? 0) + 1);
    const held = this.held;
    this.held = [];
    this.isLive = true;
    for (const item of held) {
      const count = left.get(item.key) ?? 0;
      if (count > 0) left.set(item.key, count - 1); // the background forwarded this one
      else void this.answer(item.message, item.senderId).then(item.respond);
    }
  }

  /** The port to the background is gone: hold again until the next `live`. */
  pause(): void {
    this.isLive = false;
  }

  /** The window is going: what it holds gets IdeNotActive (the background answers its own copies the same). */
  abandon(reply: WireReply): void {
    const held = this.held;
    this.held = [];
    for (const item of held) item.respond(reply);
  }
}
