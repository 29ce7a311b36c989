// The background service worker's part in answering plugins, without the chrome API (which
// background.ts binds), so it runs in Node tests as it runs in the worker.
//
// The IDE lives in its window (window.ts), and while the window is open it answers plugins
// itself: Chromium hands a plugin's message to every context of the extension that listens,
// and the window's answer is one hop where a relay through this worker would be two. This
// worker answers only while there is no window to do it:
//
//   starting ──window found──▶ awaiting ──window connected──▶ present
//      │                          ▲  │                           │
//      └──no window──▶ absent ────┘  └──no window in time──▶ absent ◀──window gone──┘
//                       (an open request or POST /control opens the window)
//
// - absent: the window is closed. Requests get the answers of a core whose window is closed
//   (the same checks in the same order: InvalidRequest, NoRoute, … then IdeNotActive). The
//   request that would open that core's window (the open request, POST /control) opens the
//   real window instead, and waits for it.
// - starting, awaiting: the worker has just started and does not know yet whether a window is
//   open, or a window is opening. Requests wait in a queue.
// - present: the window answers; this worker leaves every request to it.
// When the window connects, the queue is forwarded to it over the port, then `live` tells it
// which requests were forwarded: it may have received some of them itself while it was not
// yet answering, and drops its own copies of those. Each request is answered once.
// When the window goes, the requests forwarded to it and not yet answered get IdeNotActive.
//
// Nothing the user has lives here: a worker the browser stops and starts again comes back in
// `starting`, finds the window, and the window (which kept everything) reconnects.
import type { Ide } from "../../index.ts";
import { fail } from "../../machines/shared.types.ts";
import { toWire } from "../protocol/wire.ts";
import type { WireReply } from "../protocol/wire.ts";
import { readToBackground, requestKey } from "./messages.ts";
import type { ToWindow } from "./messages.ts";

export type Respond = (reply: WireReply) => void;

/** The far end of one IDE window's port. */
export interface WindowPort {
  post(message: ToWindow): void;
  /** Brings the window to the front. */
  focus(): void;
}

export type ClosedIde = Pick<Ide, "handle" | "getSnapshot" | "stop">;

export interface RelayDeps {
  /** A core whose window is closed: it gives the answers while no window is open. */
  createClosedIde(): ClosedIde;
  /** Opens the IDE window; it connects when its core is ready. */
  openWindow(): Promise<void>;
  /** Whether an IDE window is open now (asked once, when the worker starts). */
  windowExists(): Promise<boolean>;
  /** How long a window may take between opening (or being found) and connecting. */
  connectTimeoutMs?: number;
}

export type RelayState = "starting" | "absent" | "awaiting" | "present";

interface Queued {
  message: unknown;
  senderId: string;
  respond: Respond;
}

export const CONNECT_TIMEOUT_MS = 15_000;

const notActive = (text: string) => toWire(fail("IdeNotActive", text));

export class BackgroundRelay {
  private current: RelayState = "starting";
  private closedIde: ClosedIde;
  private queue: Queued[] = [];
  private window: WindowPort | null = null;
  private readonly pending = new Map<number, Respond>();
  private nextId = 1;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private showWhenStarted = false;

  constructor(private readonly deps: RelayDeps) {
    this.closedIde = deps.createClosedIde();
  }

  get state(): RelayState {
    return this.current;
  }

  /** Looks for a window that outlived the previous worker; call once, at the worker's start. */
  async start(): Promise<void> {
    let found = false;
    try {
      found = await this.deps.windowExists();
    } catch {
      found = false;
    }
    if (this.current !== "starting") return; // the window connected first
    if (found) return this.awaitWindow(false);
    this.current = "absent";
    const queued = this.takeQueue();
    if (this.showWhenStarted) {
      this.showWhenStarted = false;
      this.showWindow();
    }
    for (const { message, senderId, respond } of queued) this.receive(message, senderId, respond);
  }

  /**
   * A plugin's message (chrome.runtime.onMessageExternal). True when this worker answers it,
   * now or later; false when the open window answers it.
   */
  receive(message: unknown, senderId: string, respond: Respond): boolean {
    switch (this.current) {
      case "present":
        return false;
      case "starting":
      case "awaiting":
        this.queue.push({ message, senderId, respond });
        return true;
      case "absent":
        this.answerWhileClosed(message, senderId, respond);
        return true;
    }
  }

  /** The toolbar button: open the window, or bring the open one to the front. */
  showWindow(): void {
    if (this.current === "present") this.window?.focus();
    else if (this.current === "absent") this.awaitWindow(true);
    else if (this.current === "starting") this.showWhenStarted = true;
  }

  /** An IDE window connected its port: its core is ready. */
  connected(port: WindowPort): void {
    if (this.current === "present") {
      port.post({ type: "duplicate" });
      this.window?.focus();
      return;
    }
    this.clearTimer();
    this.window = port;
    this.current = "present";
    if (this.showWhenStarted) {
      // The toolbar button was pressed while the worker was starting and found this window.
      this.showWhenStarted = false;
      port.focus();
    }
    const forwarded: string[] = [];
    for (const { message, senderId, respond } of this.takeQueue()) {
      const id = this.nextId++;
      this.pending.set(id, respond);
      port.post({ type: "request", id, senderId, message });
      forwarded.push(requestKey(senderId, message));
    }
    port.post({ type: "live", forwarded });
  }

  /** A message on a window's port. */
  fromWindow(port: WindowPort, value: unknown): void {
    if (port !== this.window) return;
    const message = readToBackground(value);
    if (message?.type !== "reply") return;
    const respond = this.pending.get(message.id);
    if (!respond) return;
    this.pending.delete(message.id);
    respond(message.reply);
  }

  /** A window's port closed: the window is gone (or it was a duplicate, which changes nothing). */
  disconnected(port: WindowPort): void {
    if (port !== this.window) return;
    this.window = null;
    this.current = "absent";
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const respond of waiting) respond(notActive("The IDE window was closed before it answered."));
  }

  private answerWhileClosed(message: unknown, senderId: string, respond: Respond): void {
    const reply = this.closedIde.handle(message, { id: senderId });
    // The closed core decides synchronously whether this request opens its window; if it
    // does, that core is spent and the real window takes the request.
    if (this.closedIde.getSnapshot().window === "open") {
      const spent = this.closedIde;
      this.closedIde = this.deps.createClosedIde();
      spent.stop();
      this.queue.push({ message, senderId, respond });
      this.awaitWindow(true);
      return;
    }
    void reply.then(respond);
  }

  private awaitWindow(open: boolean): void {
    this.current = "awaiting";
    const limit = this.deps.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    this.clearTimer();
    this.timer = setTimeout(() => this.giveUp(`The IDE window did not start within ${limit / 1000} s.`), limit);
    if (open) {
      this.deps.openWindow().catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        this.giveUp(`The IDE window could not be opened: ${reason}`);
      });
    }
  }

  private giveUp(reason: string): void {
    if (this.current !== "awaiting") return;
    this.clearTimer();
    this.current = "absent";
    for (const { respond } of this.takeQueue()) respond(notActive(reason));
  }

  private takeQueue(): Queued[] {
    const queued = this.queue;
    this.queue = [];
    return queued;
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
