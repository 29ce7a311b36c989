// The background worker's part in answering plugins: the relay machine (relay.machine.ts, which
// decides) bound to its ports without the chrome API, which background.ts binds, so it runs in
// Node tests as it runs in the worker. This file numbers what the machine must not hold (a
// plugin's `respond`, a window's port), gives the machine the closed core and the window
// operations as its named actors, and does what the machine emits.
import { createActor, fromCallback, fromPromise, waitFor } from "xstate";
import type { Actor } from "xstate";
import type { Ide } from "../../index.ts";
import type { WireReply } from "../../core/protocol/wire.ts";
import { readToBackground } from "../../drivers/webextension/messages.ts";
import type { ToWindow } from "../../drivers/webextension/messages.ts";
import { relayMachine } from "./relay.machine.ts";
import type { ClosedIdeEvent, RelayEvent, RelayState } from "./relay.types.ts";

export const CONNECT_TIMEOUT_MS = 15_000;

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

/**
 * The closed core as the machine's `closedIde` actor. It decides synchronously whether a
 * request opens its window; if it does, that core is spent (its window is "open"), so a new
 * closed core replaces it and the real window takes the request.
 */
function closedIdeActor(createClosedIde: () => ClosedIde) {
  return fromCallback<ClosedIdeEvent>(({ receive, sendBack }) => {
    let core = createClosedIde();
    receive(({ request }) => {
      const reply = core.handle(request.message, { id: request.senderId });
      if (core.getSnapshot().window === "open") {
        const spent = core;
        core = createClosedIde();
        spent.stop();
        sendBack({ type: "core.windowOpened", requestId: request.id } satisfies RelayEvent);
        return;
      }
      sendBack({ type: "core.took", requestId: request.id } satisfies RelayEvent);
      void reply.then((answer) => sendBack({ type: "core.answered", requestId: request.id, reply: answer } satisfies RelayEvent));
    });
    return () => core.stop();
  });
}

export class BackgroundRelay {
  private readonly actor: Actor<typeof relayMachine>;
  private readonly responders = new Map<number, Respond>();
  private readonly ports = new Map<number, WindowPort>();
  private readonly portIds = new Map<WindowPort, number>();
  private nextRequestId = 1;
  private nextPortId = 1;

  constructor(deps: RelayDeps) {
    const machine = relayMachine.provide({
      actors: {
        findWindow: fromPromise<boolean>(() => deps.windowExists()),
        openWindow: fromPromise<void>(() => deps.openWindow()),
        closedIde: closedIdeActor(() => deps.createClosedIde()),
      },
    });
    this.actor = createActor(machine, { input: { connectTimeoutMs: deps.connectTimeoutMs ?? CONNECT_TIMEOUT_MS } });
    this.actor.on("request.answered", ({ requestId, reply }) => {
      const respond = this.responders.get(requestId);
      this.responders.delete(requestId);
      respond?.(reply);
    });
    this.actor.on("window.posted", ({ port, message }) => this.ports.get(port)?.post(message));
    this.actor.on("window.broughtToFront", ({ port }) => this.ports.get(port)?.focus());
  }

  get state(): RelayState {
    const value = this.actor.getSnapshot().value;
    return (typeof value === "string" ? value : Object.keys(value)[0]) as RelayState;
  }

  /**
   * Starts the relay, which looks for a window that outlived the previous worker; call once,
   * at the worker's start, after adding the listeners. What arrives before is taken in order
   * once it starts. Resolves when the relay knows whether a window is there.
   */
  async start(): Promise<void> {
    this.actor.start();
    await waitFor(this.actor, (snapshot) => !snapshot.matches("starting"));
  }

  /**
   * A plugin's message (chrome.runtime.onMessageExternal). True when this worker answers it,
   * now or later; false when the open window answers it.
   */
  receive(message: unknown, senderId: string, respond: Respond): boolean {
    const event: RelayEvent = { type: "request.received", request: { id: this.nextRequestId, senderId, message } };
    if (!this.actor.getSnapshot().can(event)) return false;
    this.nextRequestId += 1;
    this.responders.set(event.request.id, respond);
    this.actor.send(event);
    return true;
  }

  /** The toolbar button: open the window, or bring the open one to the front. */
  showWindow(): void {
    this.actor.send({ type: "user.showWindow" });
  }

  /** An IDE window connected its port: its core is ready. */
  connected(port: WindowPort): void {
    const id = this.nextPortId++;
    this.ports.set(id, port);
    this.portIds.set(port, id);
    this.actor.send({ type: "window.connected", port: id });
  }

  /** A message on a window's port. */
  fromWindow(port: WindowPort, value: unknown): void {
    const id = this.portIds.get(port);
    const message = readToBackground(value);
    if (id === undefined || message?.type !== "reply") return;
    this.actor.send({ type: "window.replied", port: id, requestId: message.id, reply: message.reply });
  }

  /** A window's port closed: the window is gone (or it was a duplicate, which changes nothing). */
  disconnected(port: WindowPort): void {
    const id = this.portIds.get(port);
    if (id === undefined) return;
    this.actor.send({ type: "window.disconnected", port: id });
    this.ports.delete(id);
    this.portIds.delete(port);
  }
}
