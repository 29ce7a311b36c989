// IdeView (CONTRACT section 5): a plain, serialisable picture of the IDE, derived from the
// root actor and its children (read through ide.selectors.ts) plus the log store. Nothing
// here is state of its own.
import { pluginSummaries } from "../services/plugins/index.ts";
import type { PluginCommand, PluginRegistry } from "../services/plugins/index.ts";
import type { LogEntry, LogStore } from "../services/logs/index.ts";
import { isUnsaved } from "./projectFile.machine.ts";
import { recordingSettings } from "../services/side/index.ts";
import type { RecordingSettings, SideProject } from "../services/side/index.ts";
import type { StrategyDeclaration } from "../services/locators/index.ts";
import { playbackView } from "./run.view.ts";
import { historyView } from "./editor.history.ts";
import type { History, HistoryView } from "./editor.history.ts";
import type { PlaybackView } from "./run.view.ts";
import { controlSnapshot, editorSnapshot, pointingSnapshot, projectFileSnapshot, recordingSnapshot, strategyTableOf, suiteRunnerSnapshot } from "./ide.selectors.ts";
import type { PickPurpose } from "./pointing.types.ts";
import type { IdeSnapshot } from "./ide.selectors.ts";

export type DialogKind = "controlConsent" | "loadProject" | "closeWindow" | "restoreUnsaved" | "pluginAlert";

/**
 * An open dialog. `confirmLabel` and `cancelLabel` are a plugin alert's button labels (its
 * `confirm`, default "OK"; its `cancel`, null when it gave none: one button); null on the
 * other kinds, whose buttons the UI words itself.
 */
export interface DialogView {
  kind: DialogKind;
  requester: string;
  title: string;
  text: string;
  confirmLabel: string | null;
  cancelLabel: string | null;
}

/** A command a registered plugin declared, for the test editor's command list. */
export interface PluginCommandView {
  id: string;
  name: string;
  docs: { description?: string; target?: string; value?: string } | null;
}

export interface IdeView {
  window: "open" | "closed";
  control: {
    mode: "notControlled" | "awaitingConsent" | "controlled";
    controller: string | null;
    candidate: string | null;
  };
  /** `path` (CONTRACT section 20): the file a plain Save writes, once a Save as or an opened file named one; else null. */
  project: { id: string; name: string; unsaved: boolean; path: string | null };
  /** CONTRACT section 20: the files last saved or opened, newest first, at most 10 (user.openRecent opens one). */
  recentProjects: string[];
  dialog: null | DialogView;
  plugins: Array<{ id: string; name: string; version: string; commands: PluginCommandView[] }>;
  logs: LogEntry[];
  logsDropped: { system: number; playback: number };
  playback: null | PlaybackView;
  /**
   * Not in CONTRACT section 5: the breakpoints and delay the user set, also before the first
   * run (when `playback` is still null), so a UI can show them on the displayed test.
   */
  runControls: { breakpoints: string[]; delayMs: number };
  /** CONTRACT section 13: the test the UI shows (null: the project has none), and its selected command. */
  displayedTestId: string | null;
  selectedCommandId: string | null;
  /** CONTRACT section 14: the recording under way (the test recorded into, since when), or null. */
  recording: null | { testId: string; startedAt: number };
  /** CONTRACT section 21: the pick armed in the page (a check to record, or a command's target to set), or null. */
  pick: PickPurpose | null;
  /**
   * CONTRACT section 18: the project's recording settings, the defaults filled in (`locatorOrder`
   * names every builder, and every declared strategy of `strategies`: CONTRACT section 23). The
   * recorders read them; `user.changeSettings` changes them.
   */
  recordingSettings: RecordingSettings;
  /**
   * CONTRACT section 18: whether a command found by another of its locators passes healed.
   * `project`: the project's `heal` setting (true unless it says `heal: false`), which
   * `user.changeSettings` `{ heal }` changes; `forcedOff`: createIde's `heal: false`
   * (`--no-heal`), under which a healed command fails whatever the project says.
   */
  healing: { project: boolean; forcedOff: boolean };
  /**
   * CONTRACT section 20: whether Undo and Redo can do something, and what, in words ("Delete test
   * \"logs in\""), for the buttons' labels; a load, a new project or a restore empties it.
   */
  history: HistoryView;
  /**
   * Not in CONTRACT section 20: how many commands the editor's clipboard holds (copied or cut),
   * so the page can enable Paste when the system clipboard has nothing for it.
   */
  clipboard: { commands: number };
  /**
   * CONTRACT section 22: the data files the project carries for loadVars (the extension's only
   * ones; the host's when the disk has none), by name, with their length in characters.
   */
  dataFiles: Array<{ name: string; chars: number }>;
}

export type { DataRowView, PlaybackView, RunResult, RunStatus, TestRunView } from "./run.view.ts";

/** The settings, frozen; the same object as the last time while they are equal, so a view shows an unchanged setting as unchanged. */
let lastSettings: RecordingSettings | null = null;
function settingsOf(project: SideProject, strategies: Iterable<StrategyDeclaration>): RecordingSettings {
  const settings = recordingSettings(project, strategies);
  if (lastSettings && JSON.stringify(lastSettings) === JSON.stringify(settings)) return lastSettings;
  lastSettings = Object.freeze({
    locatorOrder: Object.freeze(settings.locatorOrder),
    testIdAttributes: Object.freeze(settings.testIdAttributes),
    strategies: Object.freeze(settings.strategies.map((d) => Object.freeze(d))),
  }) as RecordingSettings;
  return lastSettings;
}

/** The machine replaces its list on each change, so one frozen copy per list keeps a view's field the same while it is. */
const recentViews = new WeakMap<readonly string[], string[]>();
function recentOf(recent: readonly string[]): string[] {
  let view = recentViews.get(recent);
  if (!view) {
    view = Object.freeze([...recent]) as string[];
    recentViews.set(recent, view);
  }
  return view;
}

function dialogOf(s: IdeSnapshot): IdeView["dialog"] {
  const alert = s.context.alert;
  if (alert) {
    const { sender: requester, title, text, confirmLabel, cancelLabel } = alert;
    return { kind: "pluginAlert", requester, title, text, confirmLabel, cancelLabel };
  }
  const dialog = childDialogOf(s);
  return dialog && { ...dialog, confirmLabel: null, cancelLabel: null };
}

function childDialogOf(s: IdeSnapshot): Omit<DialogView, "confirmLabel" | "cancelLabel"> | null {
  const control = controlSnapshot(s);
  const project = projectFileSnapshot(s);
  const name = project.context.project.name;
  const candidate = control.context.candidate;
  if (control.matches("awaitingConsent") && candidate) {
    const current = s.context.controller;
    return {
      kind: "controlConsent",
      requester: candidate.sender,
      title: `Allow "${candidate.registration.name}" to control the IDE?`,
      text:
        `The plugin "${candidate.registration.name}" (extension id ${candidate.sender}) asks to control the IDE. ` +
        `Allowing it restarts the plugin session: other plugins are disconnected and only this one may use the IDE.` +
        (current ? ` The plugin ${current} loses control.` : ""),
    };
  }
  const load = project.context.pendingLoad;
  if (project.matches({ dialog: "confirmingLoad" }) && load) {
    return {
      kind: "loadProject",
      requester: load.sender,
      title: `Load "${load.project.name}" and lose your unsaved changes?`,
      text:
        load.requestId === null
          ? `You chose to load the project "${load.project.name}" from ${load.path ?? "a file"}. The unsaved changes to "${name}" will be lost if you load it.`
          : `The plugin ${load.sender} wants to load the project "${load.project.name}". The unsaved changes to "${name}" will be lost if you load it.`,
    };
  }
  const restore = project.context.pendingRestore;
  if (project.matches({ dialog: "confirmingRestore" }) && restore) {
    return {
      kind: "restoreUnsaved",
      requester: "ide",
      title: "Restore unsaved changes",
      text:
        `The IDE stopped before your changes to "${restore.name}" were saved, and kept them. ` +
        `Restore them (they stay unsaved until you save), or drop them and keep "${name}" as it was saved.`,
    };
  }
  const close = project.context.pendingClose;
  if (project.matches({ dialog: "confirmingClose" }) && close) {
    return {
      kind: "closeWindow",
      requester: close.sender,
      title: "Discard your unsaved changes and close the IDE?",
      text: `The plugin ${close.sender}, which controls the IDE, wants to close it. "${name}" has unsaved changes; closing discards them.`,
    };
  }
  return null;
}

// The two big parts of a view are rebuilt only when they changed: a subscribed UI gets a
// view after every request, and copying 20,000 log entries or 10,000 commands each time
// would make every request as slow as the whole view (the commands: run.view.ts).
// Shared parts are frozen.
const entriesOfStore = new WeakMap<LogStore, { version: number; entries: readonly LogEntry[] }>();

function entriesOf(logs: LogStore): LogEntry[] {
  let cached = entriesOfStore.get(logs);
  if (!cached || cached.version !== logs.version) {
    cached = { version: logs.version, entries: Object.freeze(logs.entries()) };
    entriesOfStore.set(logs, cached);
  }
  return cached.entries as LogEntry[];
}

// A registration's `docs` is kept as the plugin sent it; the view gives the strings a UI can
// show. A target or value described as an object ({ name, value } or { name, description },
// as Selenium IDE's argument types are) is shown by its name.
function docsOf(docs: unknown): PluginCommandView["docs"] {
  try {
    return readDocs(docs);
  } catch {
    return null; // a hostile getter in what an in-process plugin registered: the view stays plain
  }
}

function readDocs(docs: unknown): PluginCommandView["docs"] {
  if (typeof docs !== "object" || docs === null || Array.isArray(docs)) return null;
  const read = (field: unknown): string | undefined => {
    if (typeof field === "string") return field;
    const name = typeof field === "object" && field !== null ? (field as { name?: unknown }).name : undefined;
    return typeof name === "string" ? name : undefined;
  };
  const { description, target, value } = docs as Record<string, unknown>;
  const shown: NonNullable<PluginCommandView["docs"]> = {};
  if (typeof description === "string") shown.description = description;
  if (read(target) !== undefined) shown.target = read(target);
  if (read(value) !== undefined) shown.value = read(value);
  return Object.freeze(shown);
}

const commandsOf = (commands: readonly PluginCommand[] | undefined): PluginCommandView[] =>
  Object.freeze((commands ?? []).map(({ id, name, docs }) => Object.freeze({ id, name, docs: docsOf(docs) }))) as PluginCommandView[];

const pluginsOfRegistry = new WeakMap<PluginRegistry, IdeView["plugins"]>();

function pluginsOf(registry: PluginRegistry): IdeView["plugins"] {
  let plugins = pluginsOfRegistry.get(registry);
  if (!plugins) {
    const summaries = pluginSummaries(registry);
    plugins = Object.freeze(
      summaries.map((summary, i) => Object.freeze({ ...summary, commands: commandsOf(registry[i].registration.commands) })),
    ) as IdeView["plugins"];
    pluginsOfRegistry.set(registry, plugins);
  }
  return plugins;
}

/** The history's view, the same object while the history is the same, as the other shared parts. */
const historyViews = new WeakMap<History, HistoryView>();
function historyOf(history: History): HistoryView {
  let view = historyViews.get(history);
  if (!view) {
    view = Object.freeze(historyView(history));
    historyViews.set(history, view);
  }
  return view;
}

const clipboards = new WeakMap<object, IdeView["clipboard"]>();
function clipboardOf(clipboard: readonly unknown[]): IdeView["clipboard"] {
  let view = clipboards.get(clipboard);
  if (!view) {
    view = Object.freeze({ commands: clipboard.length });
    clipboards.set(clipboard, view);
  }
  return view;
}

const NO_DATA_FILES = Object.freeze([]) as unknown as IdeView["dataFiles"];
const dataFileViews = new WeakMap<object, IdeView["dataFiles"]>();
function dataFilesOf(files: SideProject["dataFiles"]): IdeView["dataFiles"] {
  if (!files || files.length === 0) return NO_DATA_FILES;
  let view = dataFileViews.get(files);
  if (!view) {
    view = Object.freeze(files.map((f) => Object.freeze({ name: f.name, chars: f.content.length }))) as IdeView["dataFiles"];
    dataFileViews.set(files, view);
  }
  return view;
}

export function toIdeView(s: IdeSnapshot, logs: LogStore): IdeView {
  const control = controlSnapshot(s);
  const file = projectFileSnapshot(s).context;
  const editor = editorSnapshot(s).context;
  const runner = suiteRunnerSnapshot(s).context;
  // Frozen: one view is shared by every caller until something changes.
  const dialog = dialogOf(s);
  return Object.freeze({
    window: s.matches("open") ? "open" : "closed",
    control: Object.freeze({
      mode: control.value as IdeView["control"]["mode"],
      controller: s.context.controller,
      candidate: control.context.candidate?.sender ?? null,
    }),
    project: Object.freeze({ id: editor.project.id, name: editor.project.name, unsaved: isUnsaved(file), path: file.path }),
    recentProjects: recentOf(file.recentProjects),
    recordingSettings: settingsOf(editor.project, strategyTableOf(s).values()),
    healing: Object.freeze({ project: editor.project.heal !== false, forcedOff: !runner.heal }),
    dialog: dialog && Object.freeze(dialog),
    plugins: pluginsOf(s.context.plugins),
    logs: entriesOf(logs),
    logsDropped: Object.freeze(logs.dropped()),
    playback: playbackView(suiteRunnerSnapshot(s)),
    runControls: Object.freeze({ breakpoints: runner.breakpoints as string[], delayMs: runner.delayMs }),
    displayedTestId: editor.displayedTestId,
    selectedCommandId: editor.selectedCommandId,
    recording: recordingView(s),
    pick: pointingSnapshot(s).context.purpose,
    history: historyOf(editor.history),
    clipboard: clipboardOf(editor.clipboard),
    dataFiles: dataFilesOf(editor.project.dataFiles),
  }) as IdeView;
}

function recordingView(s: IdeSnapshot): IdeView["recording"] {
  const { value, context } = recordingSnapshot(s);
  return value === "recording" && context.testId !== null && context.startedAt !== null
    ? Object.freeze({ testId: context.testId, startedAt: context.startedAt })
    : null;
}
