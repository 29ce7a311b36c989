// The messages between the IDE's view relay (relay.ts) and a UI page, in one place: the
// relay writes them, the page (ui/) reads them, and both are type-checked against these
// shapes. This side owns the format; the page imports it, and nothing here imports the page.
// Types only: the module is erased from every bundle.
//
// IDE → page
//   { type: "hello", charts: Chart[], pages?: true }
//       once, first: every running machine's statechart (charts.ts). The
//       machines never change while the IDE runs, so they are not sent again. `pages` is
//       true when this relay sends `page` messages (the host, which drives a page under test
//       in a headless browser the user cannot see); the page shows its "Page under test"
//       panel only then.
//   { type: "update", view, playback?, commands?, tests?, suites?, logs: { reset, entries, kept }, states }
//       right after hello, then after changes, at most one every UPDATE_INTERVAL_MS of relay.ts (20 a
//       second) however fast the IDE changes; a burst of changes is one update with the view
//       as it is when the update goes out.
//       - view: the IdeView without `logs` and `playback` (it has `runControls`, the user's
//         breakpoints and delay, which exist before any run).
//       - playback: the IdeView's `playback` without its commands (null before the first
//         run): status, result, suite, current command, breakpoints, delay, variables. Sent
//         whole, only when one of its fields changed since this page's last update.
//       - commands: the run's command rows, which may be 10,000, so a page is not sent them
//         twenty times a second while the run only moves its current command: `{ reset: true,
//         rows }` when the page's copy cannot be patched (the first update of a run, a new run,
//         a suite's next test), else `{ reset: false, changed: [{ index, row }] }`, the rows
//         that changed (the IDE replaces a row object when its state changes, so the relay
//         finds them by identity, and the page keeps the others as they were).
//       - tests, suites, url: the loaded project's test cases with their commands (`{ id, name,
//         commands: [{ id, command, target, value, comment? }] }`: the page shows the picked test
//         and its breakpoints before any run), its suites (`{ id, name, tests: [testId],
//         parallel, persistSession, timeout }`) and its base URL. Not part of the IdeView; sent
//         only when the project changed.
//       - logs: the IdeView holds up to 20,000 entries, so an update carries only the entries
//         this page has not seen (`entries`, oldest first) and `kept`, how many entries of
//         each group the IDE holds now; the page adds the new ones and keeps that many of
//         each group, the newest (each group drops its own oldest at its cap). When the last
//         entry this page was sent is no longer in the IDE's log (a flood pushed it past the
//         cap), the page's copy cannot be patched: `reset: true` and `entries` is the whole
//         log. The first update of every relay is a reset too.
//       - states: the current state value of each charted actor, by its id.
//   { type: "page", url, title, image, at, width?, height?, live?, gone? } (the viewport's size in CSS pixels)
//       the page under test (pageFeed.ts): its URL, its title and a JPEG of its viewport as a
//       data URL (`image`, null when the browser could not give one), taken at `at` (ms since
//       1970). `live: true`: a frame of DevTools' screencast, sent each time the page's picture
//       changes (at most 25 a second, none while it does not change); `live: false`: a still
//       picture taken after a page command (at most 2 a second), because the browser's DevTools
//       cannot be reached from the host; absent: a feed that has no live way. `gone: true`: the
//       latest picture again, once the browser is gone. Sent only while some UI page is
//       connected, and kept nowhere but as the latest one (not in the IdeView, not in the
//       logs). Sent to every connected page, and the latest one to a page that connects
//       later, right after its first update. A page slow to read gets only the latest one
//       once it has caught up.
// page → IDE
//   { type: "user.<event>", ... }: a user event of CONTRACT section 5, passed to ide.send,
//       which reads it with zod: anything that is not a user event changes nothing. Messages
//       that are not objects (or JSON texts of objects) with a `type` starting "user." are
//       ignored.
//   { type: "locator.resolve", id, location }: the editor's "Find": GET /playback/location in
//       the page under test, asked as the IDE UI (sender "ide-ui"); the relay answers
//       { type: "locator.resolved", id, reply } with the route's reply (an xpath, or
//       { error, errorCode }). `id` is the page's own number for the question; the page
//       gives up on its own after a limit, and a relay that stopped answers nothing.
//   { type: "locator.find", id, location, outline }: the command form's "Find target in page"
//       (outline: true) and its alternative locators' counts: ide.findInPage (CONTRACT section
//       21), which reads the question with zod; the relay answers { type: "locator.found", id,
//       reply } with its answer ({ count, shown } or { error, errorCode }), as "Find" is.
//   { type: "export.request", id, language, testId } or { ..., suiteId }: the Export dialog:
//       ide.exportCode (CONTRACT section 15); the relay answers { type: "export.answered", id,
//       reply } with its answer ({ filename, body } or { error, errorCode }), as "Find" is.
//   { type: "page.input", input }: the user's click, double click, typing, key or mouse wheel
//       on the page panel's picture (PageInput), done in the page under test as trusted input
//       where the relay's page source takes input (the host's); read with zod (pageInput.ts),
//       anything else changes nothing. Inputs are done in the order they came; wheels waiting
//       their turn are merged into one.
//
// Every message is a new object that the relay never touches again once sent, so a sink
// may hand it to the page as it is, without copying.
import type { StateValue } from "xstate";
import type { IdeView } from "../../machines/ide.view.ts";
import type { UserEventInput } from "../../machines/userEvents.schema.ts";
import type { ExportReply, ExportRequest } from "../../core/export.ts";
import type { FindReply } from "../../core/findInPage.ts";
import type { LogEntry } from "../../services/logs/index.ts";

export type { IdeView, LogEntry, ExportReply, ExportRequest };

// ---- the statecharts of `hello` (built by charts.ts from the running machines) ----

export type ChartStateType = "atomic" | "compound" | "parallel" | "final" | "history";

export interface ChartTransition {
  /** The event as a person reads it: `user.accept`, `always`, `done: saveProject`. */
  event: string;
  /** Full paths of the target states (`project.dialog.idle`); empty when the state stays. */
  targets: string[];
  guard: string | null;
  actions: string[];
}

export interface ChartState {
  key: string;
  /** The machine id and the keys down to this state, joined with dots: `project.dialog.idle`. */
  path: string;
  type: ChartStateType;
  /** Key of the initial child state, for compound states. */
  initial: string | null;
  description: string | null;
  transitions: ChartTransition[];
  /** Child states in document order; side by side when this state is parallel. */
  states: ChartState[];
}

export interface Chart {
  /** The running actor's id (the root is "ide"); keys of ChartValues. */
  actor: string;
  root: ChartState;
}

/** The current state value of each charted actor, by Chart.actor. */
export type ChartValues = Record<string, StateValue>;

// ---- the view of `update` ----

/** The IdeView without its two big parts, which travel on their own terms. */
export type UiView = Omit<IdeView, "logs" | "playback">;
export type PlaybackView = IdeView["playback"];
export type CommandRow = NonNullable<PlaybackView>["commands"][number];
/** The run without its commands (status, current command, variables, ...): small, sent whole when any of it changed. */
export type RunSummary = Omit<NonNullable<PlaybackView>, "commands">;
/** A data block being played (loadVars … endLoadVars): its command, the row playing of how many, that row's values. */
export type DataRowView = RunSummary["dataRows"][number];

/**
 * The run's command rows, which may be 10,000: the whole list when the page's copy cannot be
 * patched (a new run, the suite's next test, a first update), else only the rows that changed.
 */
export type CommandsDelta =
  | { reset: true; rows: CommandRow[] }
  | { reset: false; changed: Array<{ index: number; row: CommandRow }> };

/** A command of a test case as the project has it, before any run. */
export interface CommandOutline {
  id: string;
  command: string;
  target: string;
  value: string;
  /** v3's "Description" (CONTRACT section 20); absent when the command has none. */
  comment?: string;
  /** The locators of its recorded `targets`, in order (CONTRACT section 21's "Alternative locators"); absent when it has none. */
  targets?: string[];
}

/** A .side command's `targets` (`[locator, builder]` pairs, as the file has them: anything) as the outline's list of locators. */
export function alternativesOf(targets: unknown): { targets?: string[] } {
  if (!Array.isArray(targets)) return {};
  const locators = targets.flatMap((t) => (Array.isArray(t) && typeof t[0] === "string" && t[0] !== "" ? [t[0] as string] : []));
  return locators.length > 0 ? { targets: [...new Set(locators)] } : {};
}
/** A test case of the loaded project (not part of the IdeView): the page shows it and sets breakpoints on it before a run. */
export interface TestSummary {
  id: string;
  name: string;
  commands: CommandOutline[];
}
/** A suite of the loaded project: its tests' ids, in the order it plays them, and its settings as the .side file has them. */
export interface SuiteSummary {
  id: string;
  name: string;
  tests: string[];
  parallel: boolean;
  persistSession: boolean;
  /** Seconds (the .side file's `timeout`; 300 when it says none). */
  timeout: number;
}

export interface LogDelta {
  /** True when `entries` is the whole log (a new socket, or the page's copy cannot be patched). */
  reset: boolean;
  /** Entries the page has not seen, oldest first. */
  entries: LogEntry[];
  /** How many entries of each group the IDE holds now: the page keeps that many, the newest. */
  kept: { system: number; playback: number };
}

/** The page under test as the UI shows it. */
export interface PageShot {
  url: string;
  title: string;
  /** `data:image/jpeg;base64,...` of the viewport, at most IMAGE_WIDTH (drivers/host/devtools.ts) pixels wide; null when none could be taken. */
  image: string | null;
  /** When it was taken, in ms since 1970. */
  at: number;
  /** The viewport's size in CSS pixels, where known: the picture's points map to the page's by it. */
  width?: number;
  height?: number;
  /** True: a frame of the live screencast; false: a still picture, DevTools being out of reach. */
  live?: boolean;
  /** True: the browser is gone, and this is the last picture of its page. */
  gone?: boolean;
}

/** The user's input on the page panel's picture, done in the page under test (the host's). */
export type PageInput =
  | { kind: "click"; x: number; y: number; /** The second click of a double click. */ double?: boolean }
  | { kind: "type"; text: string }
  | { kind: "key"; key: string }
  /** The mouse wheel turned over the picture at x, y: the page scrolls by deltaX, deltaY CSS pixels. */
  | { kind: "wheel"; x: number; y: number; deltaX: number; deltaY: number };
export type PageInputMessage = { type: "page.input"; input: PageInput };

export type PageMessage = { type: "page" } & PageShot;

export type HostMessage =
  | {
      type: "hello";
      charts: Chart[];
      /** True when this relay sends `page` messages: the page shows its "Page under test" panel. */
      pages?: true;
      /** True when the host serves its kept runs (/traces): the page shows its time travel and "Runs". */
      traces?: true;
    }
  | PageMessage
  | LocatorAnswerMessage
  | FindAnswerMessage
  | ExportAnswerMessage
  | {
      type: "update";
      view: UiView;
      /** The run without its commands; present when any of it changed since the last update (null: no run yet). */
      playback?: RunSummary | null;
      /** The run's command rows; present when a row changed since the last update (or a new run's test began). */
      commands?: CommandsDelta;
      /** The loaded project's test cases; present when the project changed since the last update. */
      tests?: TestSummary[];
      /** The loaded project's suites; present with `tests`. */
      suites?: SuiteSummary[];
      /** The loaded project's base URL; present with `tests`. */
      url?: string;
      logs: LogDelta;
      /** The state value of each charted actor. */
      states: ChartValues;
    };

/** The answer to the page's "Find" (GET /playback/location's reply, as a plugin would get it). */
export type LocatorAnswerMessage = { type: "locator.resolved"; id: number; reply: unknown };

/** A page → IDE message: the editor's "Find". */
export type LocatorQuestionMessage = { type: "locator.resolve"; id: number; location: string };

/** A page → IDE message: "Find target in page" (outline) or an alternative's count: ide.findInPage (CONTRACT section 21). */
export type FindQuestionMessage = { type: "locator.find"; id: number; location: string; outline: boolean };

/** The answer to a `locator.find`: ide.findInPage's reply, `{ count, shown }` or `{ error, errorCode }`. */
export type FindAnswerMessage = { type: "locator.found"; id: number; reply: FindReply };

/** A page → IDE message: the Export dialog asks for a test's or a suite's code. */
export type ExportQuestionMessage = { type: "export.request"; id: number; language: string } & ({ testId: string } | { suiteId: string });

/** The answer to the Export dialog: ide.exportCode's reply. */
export type ExportAnswerMessage = { type: "export.answered"; id: number; reply: ExportReply };

/**
 * A page → IDE message: a user event of CONTRACT section 5, typed as the schema's input, so a
 * misspelled field in ui/ fails the type check; the relay passes it to ide.send, which checks it again.
 */
export type UserEventMessage = UserEventInput;
