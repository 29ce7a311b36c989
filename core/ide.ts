// createIde(): the embedding API of CONTRACT section 1. It wires the root machine to its
// ports (deliver, save, locators), the log store and the protocol adapter, and keeps a
// plain IdeView for the UI.
import { createActor } from "xstate";
import type { AnyActorRef, InspectionEvent, Observer } from "xstate";
import { deliverTo, locatorResolver, pickInPagePort, readProjectPort, recordingPorts, runPorts, saveProjectPort, tabUnderTestPort } from "./ports.ts";
import { readRecorderReport } from "./recorder.ts";
import type { Deliver, Executor, FindInPage, PickInPage, ReadData, ReadProject, ResolveLocator, Save, TabUnderTest } from "./ports.ts";
import { pageFinder, type FindReply } from "./findInPage.ts";
import { DEFAULT_LIMITS } from "./protocol/limits.ts";
import type { Limits } from "./protocol/limits.ts";
import { createProtocol } from "./protocol/protocol.ts";
import { projectToSave } from "./emit.ts";
import { exporter, type ExportReply, type ExportRequest } from "./export.ts";
import { readUserEvent } from "./userEvents.ts";
import { route } from "./door.ts";
import type { WireReply } from "./protocol/wire.ts";
import { ideMachine } from "../machines/ide.machine.ts";
import { childActors, currentProject, eachTestRunner, registeredPlugins, savedProjectOf, strategyTableOf } from "../machines/ide.selectors.ts";
import type { OutboundMessage, UserEvent } from "../machines/ide.types.ts";
import type { UserEventInput } from "../machines/userEvents.schema.ts";
import { toIdeView } from "../machines/ide.view.ts";
import type { IdeView } from "../machines/ide.view.ts";
import { projectFileMachine } from "../machines/projectFile.machine.ts";
import { suiteRunnerMachine } from "../machines/suiteRunner.machine.ts";
import { testRunnerMachine } from "../machines/testRunner.machine.ts";
import { recordingMachine } from "../machines/recording.machine.ts";
import { pointingMachine } from "../machines/pointing.machine.ts";
import { fail } from "../machines/replies.ts";
import { LogStore } from "../services/logs/index.ts";
import type { LogInput } from "../services/logs/index.ts";
import { parseSideProject, untitledProject } from "../services/side/index.ts";
import type { SideProject } from "../services/side/index.ts";
import { watchTestEnds } from "./testEnds.ts";
import { keepJournal } from "./journal.ts";
import type { Journal } from "./journal.ts";
import type { TestEnded } from "./testEnds.ts";
import { watchTraces } from "./traces.ts";
import type { TraceSink } from "./traces.ts";
import { traceModeOf } from "../services/traces/index.ts";
import type { TraceMode } from "../services/traces/index.ts";

export interface IdeOptions {
  project?: unknown;
  window?: "open" | "closed";
  document?: Document;
  resolveLocator?: ResolveLocator;
  /** The page under test's "Find" and counts (CONTRACT section 21); without it ide.findInPage answers NoPage. */
  findInPage?: FindInPage;
  deliver?: Deliver;
  /** "Save to computer" (CONTRACT sections 1 and 20): given the file to write, or null for its default place. */
  save?: Save;
  /** user.openRecent: reads a project file's text (CONTRACT section 20); without it opening a recent file fails, saying so. */
  readProject?: ReadProject;
  /** `loadVars FILE`'s data file (CONTRACT section 22), read and parsed; without it loadVars fails, saying so. */
  readData?: ReadData;
  /** The file the starting project came from, which a plain Save writes (IdeView.project.path); default null. */
  projectPath?: string | null;
  /** The recent list (IdeView.recentProjects) as kept from an earlier start, newest first; the first 10 are kept. Default empty. */
  recentProjects?: readonly string[];
  /** The page under test for page commands and conditions; without one they fail, saying so. */
  executor?: Executor;
  /**
   * How many tests of a suite with `parallel: true` play at once (CONTRACT section 16),
   * each with its own runId, variables and, through the executor, browser session. Default 1.
   */
  workers?: number;
  /**
   * Whether a command whose element was found by anything but its target passes healed
   * (CONTRACT section 18). false (`--no-heal`): it fails, naming the locator that would have
   * worked, whatever the project's own `heal` says. Default true.
   */
  heal?: boolean;
  /**
   * How many more tries a test that failed (or ended fatal) gets, played again at once, before
   * the suite's next test, each in a test runner of its own (`npm run play -- --retries`,
   * CONTRACT section 17). `onTestEnded` tells each try (`tryNo`). Default 0.
   */
  retries?: number;
  /**
   * The variables every test starts with (`npm run play -- --params`, CONTRACT section 22), each
   * as if stored before its first command. Default none.
   */
  variables?: Readonly<Record<string, string>>;
  /**
   * GET /record/tab: the browser tab under test, `{ id }`, or null when there is none. The
   * browser extension gives one; without it the route answers NoPage ("No active tab found").
   */
  tabUnderTest?: TabUnderTest;
  /**
   * Pointing at the page (CONTRACT section 21): arms a pick in the page under test, or disarms
   * it; its reports come through record(). The host's page panel and the extension give one;
   * without it the checks and Select target in page say there is no page to point at.
   */
  pickInPage?: PickInPage;
  limits?: Partial<Limits>;
  /**
   * The journal of unsaved changes (core/journal.ts): written before each change of the
   * project is acknowledged; what it found at start is offered as "Restore unsaved changes".
   */
  journal?: Journal;
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
  /**
   * CONTRACT section 17: whether runs keep a trace, "on" (the default), "off", or
   * "retain-on-failure" (kept only for a test that did not pass). What is kept, and where, is
   * `traces`' (drivers/traces/traceStore.ts): without it nothing is traced.
   */
  trace?: TraceMode;
  /** The trace port (core/traces.ts): told of each test's and command's start and end. */
  traces?: TraceSink;
}

export interface Ide {
  handle(message: unknown, sender: { id: string }): Promise<WireReply>;
  send(event: UserEventInput): void;
  getSnapshot(): IdeView;
  /**
   * What the page's recorder saw (CONTRACT section 14): a recorded command, the page as a
   * recording starts, or the tab under test closing. The extension's window and the host's
   * page panel call it; a report that is not well formed is dropped (false). It changes
   * nothing unless a recording is under way.
   */
  record(report: unknown): boolean;
  /** The loaded project as it is now, unsaved edits included (what "save" would write). */
  getProject(): SideProject;
  /** The project as last loaded or saved: what discarding the unsaved changes goes back to. */
  getSavedProject(): SideProject;
  subscribe(listener: (view: IdeView) => void): { unsubscribe(): void };
  /**
   * Calls `listener` as each test of a run ends (several may play at once in a parallel suite):
   * its runId, name, suite, try (`tryNo`, with `retries`), result, duration and first failed
   * command (core/testEnds.ts). Each try of a test played again is told as it ends.
   */
  onTestEnded(listener: (ended: TestEnded) => void): { unsubscribe(): void };
  /**
   * Code export (CONTRACT section 15): the test or suite as Selenium's code in `language`,
   * with the code of the plugins that export it. Resolves `{ filename, body }` or
   * `{ error, errorCode }`; never rejects.
   */
  exportCode(request: ExportRequest): Promise<ExportReply>;
  /** "Find target in page" (CONTRACT section 21): `{ location, outline? }` → `{ count, shown }` or `{ error, errorCode }`; never rejects. */
  findInPage(question: unknown): Promise<FindReply>;
  /**
   * The transport lost this sender (a bridge connection closed): a dialog it opened is
   * answered no and its control ends; its registration, its logs and the project stay.
   */
  dropSender(senderId: string): void;
  readonly actor: ReturnType<typeof createActor<typeof ideMachine>>;
  stop(): void;
}

export type { TestEnded, Journal };
export type { IdeView, OutboundMessage, UserEvent, SideProject, Limits, Executor, TabUnderTest, ExportRequest, ExportReply };

export type { UserEventInput };

function startingProject(project: unknown): SideProject {
  if (project === undefined) return untitledProject();
  const parsed = parseSideProject(project);
  if (!parsed.ok) throw new TypeError(`createIde: options.project is not a usable .side project: ${parsed.problem}.`);
  return parsed.project;
}

function checkedPath(path: unknown): string | null {
  if (path === undefined || path === null) return null;
  if (typeof path !== "string" || path === "") throw new TypeError("createIde: options.projectPath must be a non-empty string or null.");
  return path;
}

function checkedRecent(recent: unknown): string[] {
  if (recent === undefined) return [];
  if (!Array.isArray(recent) || !recent.every((path) => typeof path === "string" && path !== "")) {
    throw new TypeError("createIde: options.recentProjects must be an array of non-empty strings (paths).");
  }
  return [...new Set(recent as string[])];
}

function checkedRetries(retries: number | undefined): number {
  if (retries === undefined) return 0;
  if (!Number.isInteger(retries) || retries < 0) throw new TypeError(`createIde: options.retries must be a whole number of at least 0, not ${retries}.`);
  return retries;
}

function checkedWorkers(workers: number | undefined): number {
  if (workers === undefined) return 1;
  if (!Number.isInteger(workers) || workers < 1) throw new TypeError(`createIde: options.workers must be a whole number of at least 1, not ${workers}.`);
  return workers;
}

function checkedTrace(trace: unknown): TraceMode {
  if (trace === undefined) return "on";
  const mode = typeof trace === "string" ? traceModeOf(trace) : null;
  if (mode === null) throw new TypeError(`createIde: options.trace must be "on", "off" or "retain-on-failure", not ${JSON.stringify(trace)}.`);
  return mode;
}

function checkedLimits(limits: Partial<Limits> | undefined): Limits {
  const given = Object.entries(limits ?? {}).filter(([, value]) => value !== undefined);
  const merged = { ...DEFAULT_LIMITS, ...Object.fromEntries(given) } as Limits;
  for (const [key, value] of Object.entries(merged)) {
    if (typeof value !== "number" || !(value >= 0) || !Number.isFinite(value)) {
      throw new TypeError(`createIde: options.limits.${key} must be a finite number of at least 0.`);
    }
  }
  return merged;
}

/** After the current turn of the event loop, its microtasks included (setImmediate in Node; a 0 ms timer in a page). */
const nextTurn: (run: () => void) => void =
  typeof setImmediate === "function" ? (run) => void setImmediate(run) : (run) => void setTimeout(run, 0);

export function createIde(options: IdeOptions = {}): Ide {
  const traceMode = checkedTrace(options.trace);
  const limits = checkedLimits(options.limits);
  if (options.window !== undefined && options.window !== "open" && options.window !== "closed") {
    throw new TypeError('createIde: options.window must be "open" or "closed".');
  }
  const logs = new LogStore(limits.logEntriesPerGroup);
  const listeners = new Set<(view: IdeView) => void>();
  let view: IdeView | null = null;

  // The run's ports reach each test runner through the suite runner's `testRunner` actor; the
  // suite runner itself only tells plugins of a suite's end.
  const ports = runPorts(options.deliver, options.executor, limits.deliverTimeoutMs, limits.pageCommandTimeoutMs, (message) =>
    ideLog("warn", message),
  options.readData);
  const machine = ideMachine.provide({
    actors: {
      projectFile: projectFileMachine.provide({
        actors: {
          saveProject: saveProjectPort(options.deliver, options.save, limits.deliverTimeoutMs, (project) =>
            projectToSave(project, {
              plugins: () => registeredPlugins(actor.getSnapshot()),
              deliver: options.deliver,
              timeoutMs: limits.deliverTimeoutMs,
              warn: (message) => ideLog("warn", message),
            }),
          ),
          readProject: readProjectPort(options.readProject, limits.projectRequestBytes),
        },
      }),
      pointing: pointingMachine.provide({ actors: { pickInPage: pickInPagePort(options.pickInPage) } }),
      recording: recordingMachine.provide({
        actors: recordingPorts(options.deliver, limits.deliverTimeoutMs, (message) => ideLog("warn", message)),
      }),
      suiteRunner: suiteRunnerMachine.provide({
        actors: { testRunner: testRunnerMachine.provide({ actors: ports }), tellPlugins: ports.tellPlugins },
      }),
    },
  });
  const actor = createActor(machine, {
    input: { project: startingProject(options.project), window: options.window ?? "open", workers: checkedWorkers(options.workers), heal: options.heal !== false, retries: checkedRetries(options.retries), variables: options.variables, projectPath: checkedPath(options.projectPath), recentProjects: checkedRecent(options.recentProjects) },
    inspect: options.inspect,
  });

  // One event can change the root and a child, a burst of logs many entries, and a run whose
  // commands answer at once plays many commands in one turn of the event loop: listeners get
  // one view per turn, built once, after all of it. A view costs what the whole IDE costs to
  // show (10,000 command rows), so a view per command would make watching a fast run four
  // times slower than playing it; a view per turn costs the run next to nothing and is still
  // the IDE as it is by the time anyone could show it.
  let notifying = false;
  function changed() {
    view = null;
    if (listeners.size === 0 || notifying) return;
    notifying = true;
    nextTurn(notify);
  }
  function notify() {
    // A view acknowledges the user's edits: it waits for the journal to hold them.
    if (journaling?.busy) return void journaling.settled().then(notify);
    notifying = false;
    if (listeners.size === 0) return;
    const current = getSnapshot();
    for (const listener of listeners) {
      try {
        listener(current);
      } catch (error) {
        // One failing listener neither stops the others nor hides its error.
        setTimeout(() => {
          throw error;
        });
      }
    }
  }
  function getSnapshot(): IdeView {
    view ??= toIdeView(actor.getSnapshot(), logs);
    return view;
  }
  function appendLog(entry: LogInput) {
    logs.append(entry);
    changed();
  }
  const ideLog = (level: LogInput["level"], message: string) =>
    appendLog({ group: "system", level, message, source: "ide", at: Date.now() });

  actor.on("log.written", ({ level, message, group, source }) =>
    appendLog({ group: group ?? "system", level, message, source: source ?? "ide", at: Date.now() }),
  );
  actor.on("outbound.requested", async ({ to, message }) => {
    const problem = await deliverTo(options.deliver, limits.deliverTimeoutMs, to, message);
    if (problem !== null) ideLog("warn", `The ${"event" in message ? message.event : message.action} message to ${to} was not delivered: ${problem}.`);
  });

  const exportWith = exporter({
    deliver: options.deliver,
    timeoutMs: limits.deliverTimeoutMs,
    inspect: options.inspect,
    warn: (message) => ideLog("warn", message),
  });

  const protocol = createProtocol({
    actor,
    appendLog,
    limits,
    resolveLocator: locatorResolver(options.document, options.resolveLocator),
    tabUnderTest: tabUnderTestPort(options.tabUnderTest, limits.deliverTimeoutMs),
  });

  actor.start();
  const children = childActors(actor.getSnapshot());
  const journaling = options.journal ? keepJournal(actor, options.journal, (message) => ideLog("error", message)) : null;
  const tracing = options.traces ? watchTraces(children.suiteRunner, traceMode, options.traces) : null;
  const found = options.journal?.found;
  if (found && "problem" in found) ideLog("error", found.problem);
  else if (found) children.projectFile.send({ type: "journal.restoreOffered", project: startingProject(found.project) });
  // Children change without the root changing, and a test runner without its suite runner;
  // any of them makes a new view.
  const refs: AnyActorRef[] = [actor, ...Object.values(children)];
  for (const ref of refs) {
    ref.subscribe({ next: changed, error: () => changed() });
  }
  eachTestRunner(children.suiteRunner, (runner) => {
    // The executor hears when a test is over (or its runner is let go), once: its page may serve another.
    const runId = runner.getSnapshot().context.run.runId;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      options.executor?.endRun?.(runId);
    };
    const subscription = runner.subscribe({
      next: (snapshot) => {
        if (snapshot.matches("ended")) end();
        changed();
      },
      error: () => changed(),
    });
    return () => {
      subscription.unsubscribe();
      end();
    };
  });

  return {
    handle(message, sender) {
      const reply = protocol.handle(message, sender);
      if (!journaling) return reply;
      // A reply acknowledges a plugin's edit: it leaves once the journal holds the edit.
      const journal = journaling;
      return reply.then((answer) => (journal.busy ? journal.settled().then(() => answer) : answer));
    },
    send(event) {
      if (actor.getSnapshot().status !== "active") return;
      const userEvent = readUserEvent(event);
      if (userEvent === null) return;
      if ("problem" in userEvent) ideLog("error", userEvent.problem);
      else route(actor, userEvent);
    },
    record(report) {
      if (actor.getSnapshot().status !== "active") return false;
      const event = readRecorderReport(report);
      if (event === null) return false;
      actor.send(event);
      return true;
    },
    dropSender(senderId) {
      if (typeof senderId === "string" && actor.getSnapshot().status === "active") {
        actor.send({ type: "plugin.disconnected", sender: senderId });
      }
    },
    getSnapshot,
    getProject: () => currentProject(actor),
    getSavedProject: () => savedProjectOf(actor.getSnapshot()),
    exportCode: (request) => exportWith(request, currentProject(actor), registeredPlugins(actor.getSnapshot())),
    findInPage: pageFinder(options.findInPage, limits.deliverTimeoutMs, () => strategyTableOf(actor.getSnapshot())),
    subscribe(listener) {
      listeners.add(listener);
      return { unsubscribe: () => listeners.delete(listener) };
    },
    onTestEnded: (listener) => watchTestEnds(children.suiteRunner, listener),
    actor,
    stop() {
      protocol.abandonAll(fail("IdeNotActive", "The IDE has stopped."));
      journaling?.stop();
      tracing?.unsubscribe();
      actor.stop();
    },
  };
}
