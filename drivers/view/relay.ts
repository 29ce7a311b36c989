// What one UI page is sent of the IDE, and what it sends back: the relay between createIde()
// and the page, whatever carries the messages. The host's /ui socket (apps/host/ui.ts)
// gives it a sink that writes JSON text frames; a page that embeds the IDE itself gives it a
// sink that hands the messages over in memory (drivers/view/localTransport.ts). No Node and no socket
// library here: this file is bundled into browser pages too.
//
// The messages and what each carries are written down in messages.ts, which owns their
// types; the page (ui/) imports them from there. Beside the IDE's view, a relay given a
// page source (pageFeed.ts) passes on the pictures of the page under test.
import type { Ide } from "../../core/ide.ts";
import type { LogEntry } from "../../services/logs/index.ts";
import equal from "fast-deep-equal";
import type {
  CommandRow,
  CommandsDelta,
  ExportQuestionMessage,
  FindQuestionMessage,
  HostMessage,
  LocatorQuestionMessage,
  LogDelta,
  PageMessage,
  PlaybackView,
  RunSummary,
  SuiteSummary,
  TestSummary,
  UiView,
} from "./messages.ts";
import { alternativesOf } from "./messages.ts";
import { suitesOf } from "../../services/playback/targets.ts";
import { chartValues, machineCharts } from "./charts.ts";
import type { PageSource } from "./pageFeed.ts";
import { mergeWheels, pageInputOf } from "./pageInput.ts";
import type { WheelInput } from "./pageInput.ts";

export const UPDATE_INTERVAL_MS = 50;
/** Turns of the mouse wheel reach the page at most one every this many ms; those between are merged. */
export const WHEEL_INTERVAL_MS = 40;

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
  /**
   * The page under test (pageFeed.ts): the relay subscribes, so captures are taken while it
   * lives, sends the latest one after its first update, then each new one as a `page` message.
   */
  page?: PageSource;
}

export function helloMessage(ide: Ide): Extract<HostMessage, { type: "hello" }> {
  return { type: "hello", charts: machineCharts(ide) };
}

/** A suite as the page shows it: its tests in order and its settings, the .side file's defaults filled in. */
function suiteSummary(s: ReturnType<typeof suitesOf>[number]): SuiteSummary {
  const raw = s as { persistSession?: unknown; timeout?: unknown };
  const timeout = typeof raw.timeout === "number" && Number.isFinite(raw.timeout) ? raw.timeout : DEFAULT_SUITE_TIMEOUT_S;
  return { id: s.id, name: s.name, tests: [...s.tests], parallel: s.parallel === true, persistSession: raw.persistSession === true, timeout };
}

/** A suite's timeout when its .side file says none (seconds), as Selenium IDE writes a new suite. */
const DEFAULT_SUITE_TIMEOUT_S = 300;

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

/** A user event the page sent, or null for anything that is not one (the IDE's zod reads the rest). */
/** Who the IDE UI is when it asks a route (the editor's "Find"): not a plugin, never registered. */
export const UI_SENDER = { id: "ide-ui" } as const;

/** A page's message as an object with a string `type` (a JSON text is parsed), else null. */
function typedMessage(event: unknown): { type: string; [field: string]: unknown } | null {
  if (typeof event === "string") {
    try {
      event = JSON.parse(event);
    } catch {
      return null;
    }
  }
  if (typeof event !== "object" || event === null || Array.isArray(event)) return null;
  const type = (event as { type?: unknown }).type;
  return typeof type === "string" ? (event as { type: string }) : null;
}

function userEventOf(message: { type: string }): Parameters<Ide["send"]>[0] | null {
  return message.type.startsWith("user.") ? (message as Parameters<Ide["send"]>[0]) : null;
}

function locatorQuestionOf(message: { type: string; [field: string]: unknown }): LocatorQuestionMessage | null {
  if (message.type !== "locator.resolve") return null;
  const { id, location } = message;
  return Number.isSafeInteger(id) && typeof location === "string" ? { type: "locator.resolve", id: id as number, location } : null;
}

/** The command form's "Find" and its alternatives' counts; the question itself is ide.findInPage's to read (zod). */
function findQuestionOf(message: { type: string; [field: string]: unknown }): FindQuestionMessage | null {
  const { id, location, outline } = message;
  return message.type === "locator.find" && Number.isSafeInteger(id) ? { type: "locator.find", id: id as number, location: location as string, outline: outline as boolean } : null;
}

function exportQuestionOf(message: { type: string; [field: string]: unknown }): ExportQuestionMessage | null {
  if (message.type !== "export.request") return null;
  const { id, language, testId, suiteId } = message;
  if (!Number.isSafeInteger(id) || typeof language !== "string") return null;
  if (typeof testId === "string") return { type: "export.request", id: id as number, language, testId };
  return typeof suiteId === "string" ? { type: "export.request", id: id as number, language, suiteId } : null;
}

/** What one page has been sent, so the next update carries only what changed. */
export class ViewRelay {
  private lastLogId: string | null = null;
  private first = true;
  /** The run summary this page was last sent; undefined before the first update. */
  private lastRun: RunSummary | null | undefined = undefined;
  /** The command rows this page holds, and the run and test they belong to. */
  private lastRows: readonly CommandRow[] | null = null;
  private lastRowsOf = "";
  private lastProject: unknown = undefined;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastSentAt = 0;
  private stopped = false;
  private readonly subscription: { unsubscribe(): void };
  private readonly onGone: ((relay: ViewRelay) => void) | undefined;
  /** The latest page picture not sent yet because the page was slow to read; a newer one replaces it. */
  private pendingPage: PageMessage | null = null;
  private pageTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly unsubscribePage: () => void = () => {};
  private readonly page: PageSource | undefined;
  /** The user's input on the picture still going into the page, in order; null when none is. */
  private inputs: Promise<void> | null = null;
  private inputsQueued = 0;
  /** The wheel input queued and not yet done, which the next wheel joins; null once another input queued after it. */
  private wheel: { input: WheelInput } | null = null;
  private lastWheelAt = 0;

  constructor(
    private readonly ide: Ide,
    private readonly sink: RelaySink,
    options: ViewRelayOptions = {},
  ) {
    this.onGone = options.onGone;
    this.page = options.page;
    this.write(options.hello ?? helloMessage(ide));
    this.flush();
    this.subscription = ide.subscribe(() => this.schedule());
    if (options.page) {
      const latest = options.page.latest();
      if (latest) this.sendPage(latest);
      this.unsubscribePage = options.page.subscribe((message) => this.sendPage(message));
    }
  }

  /** A picture of the page under test: now, or once the page has read what it was sent (only the latest). */
  private sendPage(message: PageMessage) {
    if (!this.isOpen()) return;
    if (this.sink.backlogged?.()) {
      this.pendingPage = message;
      this.pageTimer ??= setTimeout(() => {
        this.pageTimer = null;
        const pending = this.pendingPage;
        this.pendingPage = null;
        if (pending) this.sendPage(pending);
      }, UPDATE_INTERVAL_MS);
      return;
    }
    this.pendingPage = null;
    this.sink.send({ ...message });
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

  /** The run summary, when any of its fields changed; the big parts compare by identity first (the view reuses them while they are unchanged). */
  private runChange(playback: PlaybackView): RunSummary | null | undefined {
    let summary: RunSummary | null = null;
    if (playback !== null) {
      const { commands: _commands, ...rest } = playback;
      summary = rest;
    }
    const last = this.lastRun;
    const same =
      last !== undefined &&
      (last === null || summary === null
        ? last === summary
        : Object.keys(summary).length === Object.keys(last).length &&
          Object.entries(summary).every(([key, value]) => {
            const before = (last as unknown as Record<string, unknown>)[key];
            return Object.is(before, value) || (typeof value === "object" && equal(before, value));
          }));
    this.lastRun = summary;
    return same ? undefined : summary;
  }

  /** The run's rows: all of them for a run or test the page has not seen, else those that changed. */
  private commandsChange(playback: PlaybackView): CommandsDelta | undefined {
    if (playback === null) {
      this.lastRows = null;
      return undefined;
    }
    const rows = playback.commands;
    const of = `${playback.runId}\u0000${playback.testId}`;
    const last = this.lastRows;
    this.lastRows = rows;
    if (last === null || of !== this.lastRowsOf || last.length !== rows.length) {
      this.lastRowsOf = of;
      return { reset: true, rows };
    }
    if (last === rows) return undefined;
    const changed: Array<{ index: number; row: CommandRow }> = [];
    for (let i = 0; i < rows.length; i++) if (rows[i] !== last[i]) changed.push({ index: i, row: rows[i] });
    return changed.length > 0 ? { reset: false, changed } : undefined;
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
    const run = this.runChange(playback);
    if (run !== undefined) message.playback = run;
    const commands = this.commandsChange(playback);
    if (commands !== undefined) message.commands = commands;
    const project = this.ide.getProject();
    if (project !== this.lastProject) {
      this.lastProject = project;
      message.tests = project.tests.map(
        (t): TestSummary => ({
          id: t.id,
          name: t.name,
          commands: t.commands.map((c) => ({
            id: c.id,
            command: c.command,
            target: c.target ?? "",
            value: c.value ?? "",
            ...(typeof c.comment === "string" && c.comment !== "" ? { comment: c.comment } : {}),
            ...alternativesOf(c.targets),
          })),
        }),
      );
      message.suites = suitesOf(project).map((s) => suiteSummary(s));
      message.url = typeof project.url === "string" ? project.url : "";
    }
    this.first = false;
    this.lastSentAt = Date.now();
    this.sink.send(message);
  }

  /** A user event from the page: a JSON text or an already-parsed value; anything not an object whose `type` starts "user." is ignored; the rest goes to ide.send. */
  receive(event: unknown) {
    if (this.stopped) return;
    const message = typedMessage(event);
    if (!message) return;
    const userEvent = userEventOf(message);
    // Keys typed on the picture just before Stop recording (or Play) reach the page first, so the
    // recorder has seen them when the recording stops.
    if (userEvent && this.inputs === null) return this.ide.send(userEvent);
    if (userEvent) return void this.afterInputs(() => this.ide.send(userEvent));
    const question = locatorQuestionOf(message);
    if (question) return void this.answerLocator(question);
    const exportQuestion = exportQuestionOf(message);
    if (exportQuestion) return void this.answerExport(exportQuestion);
    const find = findQuestionOf(message);
    if (find) return void this.ide.findInPage({ location: find.location, outline: find.outline }).then((reply) => this.write({ type: "locator.found", id: find.id, reply }));
    const input = pageInputOf(message);
    const page = this.page;
    if (!input || !page?.input) return;
    if (input.kind !== "wheel") {
      this.wheel = null;
      return void this.afterInputs(() => page.input!(input));
    }
    if (this.wheel) return void (this.wheel.input = mergeWheels(this.wheel.input, input));
    const slot = (this.wheel = { input });
    this.afterInputs(async () => {
      const wait = this.lastWheelAt + WHEEL_INTERVAL_MS - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      // From here on a new wheel queues after this one.
      if (this.wheel === slot) this.wheel = null;
      this.lastWheelAt = Date.now();
      if (!this.stopped) await page.input!(slot.input);
    });
  }

  /** Runs `step` after the page inputs before it (each has its own time limit: pageFeed.ts). */
  private afterInputs(step: () => unknown) {
    this.inputsQueued += 1;
    this.inputs = (this.inputs ?? Promise.resolve())
      .then(async () => {
        if (!this.stopped) await step();
      })
      .catch(() => {})
      .finally(() => {
        this.inputsQueued -= 1;
        if (this.inputsQueued === 0) this.inputs = null;
      });
  }

  /** The Export dialog: ide.exportCode's answer, written back unless the page left. */
  private async answerExport({ id, type: _, ...request }: ExportQuestionMessage) {
    const reply = await this.ide.exportCode(request);
    this.write({ type: "export.answered", id, reply });
  }

  /** The editor's "Find": the route's own reply (its limits included), written back unless the page left. */
  private async answerLocator({ id, location }: LocatorQuestionMessage) {
    const reply = await this.ide.handle({ uri: "/playback/location", verb: "get", payload: { location } }, UI_SENDER);
    this.write({ type: "locator.resolved", id, reply });
  }

  /** The page is gone: no more updates, and its events are no longer taken. */
  stop() {
    if (this.stopped) return;
    this.stopped = true;
    this.subscription.unsubscribe();
    this.unsubscribePage();
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.pageTimer !== null) clearTimeout(this.pageTimer);
    this.pageTimer = null;
    this.pendingPage = null;
    this.onGone?.(this);
  }
}
