// What one UI page is sent of the IDE, and what it sends back: the relay between createIde()
// and the page, whatever carries the messages. The host's /ui socket (adapters/host/ui.ts)
// gives it a sink that writes JSON text frames; a page that embeds the IDE itself gives it a
// sink that hands the messages over in memory (ui/localTransport.ts). No Node and no socket
// library here: this file is bundled into browser pages too.
//
// The messages (types in ui/protocol.ts):
//
// IDE → page
//   { type: "hello", charts: Chart[] }
//       once, first: every running machine's statechart (adapters/view/charts.ts). The
//       machines never change while the IDE runs, so they are not sent again.
//   { type: "update", view, playback?, tests?, logs: { reset, entries, kept }, states }
//       right after hello, then after changes, at most one every UPDATE_INTERVAL_MS (20 a
//       second) however fast the IDE changes; a burst of changes is one update with the view
//       as it is when the update goes out.
//       - view: the IdeView without `logs` and `playback`.
//       - playback: the IdeView's `playback` (null or the test case with every command's
//         state), only when it changed since this page's last update: a 10,000-command test
//         case is not sent twenty times a second while nothing in it moves.
//       - tests: `[{ id, name }]` of the loaded project's test cases (not part of the
//         IdeView; the page needs them for its test picker), only when the project changed.
//       - logs: the IdeView holds up to 20,000 entries, so an update carries only the entries
//         this page has not seen (`entries`, oldest first) and `kept`, how many entries of
//         each group the IDE holds now; the page adds the new ones and keeps that many of
//         each group, the newest (each group drops its own oldest at its cap). When the last
//         entry this page was sent is no longer in the IDE's log (a flood pushed it past the
//         cap), the page's copy cannot be patched: `reset: true` and `entries` is the whole
//         log. The first update of every relay is a reset too.
//       - states: the current state value of each charted actor, by its id.
// page → IDE
//   { type: "user.<event>", ... }: a user event of CONTRACT section 5, passed to ide.send,
//       which reads it with zod: anything that is not a user event changes nothing. Messages
//       that are not objects (or JSON texts of objects) with a `type` starting "user." are
//       ignored.
//
// Every message is a new object that the relay never touches again once sent, so a sink
// may hand it to the page as it is, without copying.
import type { Ide } from "../../index.ts";
import type { LogEntry } from "../../services/logs/index.ts";
import type { HostMessage, LogDelta, PlaybackView, TestSummary, UiView } from "../../ui/protocol.ts";
import { chartValues, machineCharts } from "./charts.ts";

export const UPDATE_INTERVAL_MS = 50;

export interface RelaySink {
  /** Deliver one message to the page. */
  send(message: HostMessage): void;
  /** True while the page is reachable; false makes flush a no-op. Optional: default true. */
  isOpen?(): boolean;
  /** True when the page is slow to read (the socket's buffer is full): updates wait. Optional: default false. */
  backlogged?(): boolean;
}

export interface ViewRelayOptions {
  /** The hello to send first; built from the IDE when left out. One hello may serve many relays. */
  hello?: HostMessage;
  /** Called once, when the relay stops. */
  onGone?: (relay: ViewRelay) => void;
}

export function helloMessage(ide: Ide): HostMessage {
  return { type: "hello", charts: machineCharts(ide) };
}

/** Entries per group in one log array; views share their frozen log array until it changes. */
const countsOfLogs = new WeakMap<readonly LogEntry[], LogDelta["kept"]>();
function groupCounts(logs: readonly LogEntry[]): LogDelta["kept"] {
  let counts = countsOfLogs.get(logs);
  if (!counts) {
    counts = { system: 0, playback: 0 };
    for (const entry of logs) counts[entry.group] += 1;
    countsOfLogs.set(logs, counts);
  }
  return counts;
}

function loadedProject(ide: Ide) {
  return ide.actor.getSnapshot().context.project.getSnapshot().context.project;
}

/** A user event the page sent, or null for anything that is not one (the IDE's zod reads the rest). */
function userEventOf(event: unknown): Parameters<Ide["send"]>[0] | null {
  if (typeof event === "string") {
    try {
      event = JSON.parse(event);
    } catch {
      return null;
    }
  }
  if (typeof event !== "object" || event === null || Array.isArray(event)) return null;
  const type = (event as { type?: unknown }).type;
  if (typeof type !== "string" || !type.startsWith("user.")) return null;
  return event as Parameters<Ide["send"]>[0];
}

/** What one page has been sent, so the next update carries only what changed. */
export class ViewRelay {
  private lastLogId: string | null = null;
  private first = true;
  private lastPlayback: { testId: string; running: boolean; commands: readonly unknown[] } | null | undefined = undefined;
  private lastProject: unknown = undefined;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastSentAt = 0;
  private stopped = false;
  private readonly subscription: { unsubscribe(): void };
  private readonly onGone: ((relay: ViewRelay) => void) | undefined;

  constructor(
    private readonly ide: Ide,
    private readonly sink: RelaySink,
    options: ViewRelayOptions = {},
  ) {
    this.onGone = options.onGone;
    this.write(options.hello ?? helloMessage(ide));
    this.flush();
    this.subscription = ide.subscribe(() => this.schedule());
  }

  private isOpen(): boolean {
    return !this.stopped && (this.sink.isOpen?.() ?? true);
  }

  private write(message: HostMessage) {
    if (this.isOpen()) this.sink.send(message);
  }

  private schedule() {
    if (this.timer !== null || this.stopped) return;
    const wait = Math.max(0, this.lastSentAt + UPDATE_INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.sink.backlogged?.()) return this.schedule();
      this.flush();
    }, wait);
  }

  private logDelta(logs: readonly LogEntry[]): LogDelta {
    const kept = groupCounts(logs);
    let from = -1;
    if (!this.first) {
      if (this.lastLogId === null) from = 0;
      else {
        // Entries are in append order, so the last one this page saw is near the end.
        for (let i = logs.length - 1; i >= 0; i--) {
          if (logs[i].id === this.lastLogId) {
            from = i + 1;
            break;
          }
        }
      }
    }
    const reset = from < 0;
    const entries = logs.slice(reset ? 0 : from);
    if (logs.length > 0) this.lastLogId = logs[logs.length - 1].id;
    else if (reset) this.lastLogId = null;
    return { reset, entries: entries as LogEntry[], kept };
  }

  private playbackChange(playback: PlaybackView): { changed: boolean } {
    const last = this.lastPlayback;
    const same =
      last !== undefined &&
      (last === null
        ? playback === null
        : playback !== null &&
          last.testId === playback.testId &&
          last.running === playback.running &&
          last.commands === playback.commands);
    this.lastPlayback = playback && { testId: playback.testId, running: playback.running, commands: playback.commands };
    return { changed: !same };
  }

  /** Send the page an update now, whatever the throttle says. */
  flush() {
    if (!this.isOpen()) return;
    const { logs, playback, ...view } = this.ide.getSnapshot();
    const message: Extract<HostMessage, { type: "update" }> = {
      type: "update",
      view: view as UiView,
      logs: this.logDelta(logs),
      states: chartValues(this.ide),
    };
    if (this.playbackChange(playback).changed) message.playback = playback;
    const project = loadedProject(this.ide);
    if (project !== this.lastProject) {
      this.lastProject = project;
      message.tests = project.tests.map((t): TestSummary => ({ id: t.id, name: t.name }));
    }
    this.first = false;
    this.lastSentAt = Date.now();
    this.sink.send(message);
  }

  /** A user event from the page: a JSON text or an already-parsed value; anything not an object whose `type` starts "user." is ignored; the rest goes to ide.send. */
  receive(event: unknown) {
    if (this.stopped) return;
    const userEvent = userEventOf(event);
    if (userEvent) this.ide.send(userEvent);
  }

  /** The page is gone: no more updates, and its events are no longer taken. */
  stop() {
    if (this.stopped) return;
    this.stopped = true;
    this.subscription.unsubscribe();
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.onGone?.(this);
  }
}
