import type { ActorRefFrom } from "xstate";
import type { PluginRegistry, Registration } from "../services/plugins/index.ts";
import type { CommandState } from "../services/playback/commandTable.ts";
import type { SideProject } from "../services/side/index.ts";
import type { StrategyDeclaration } from "../services/locators/strategies.ts";
import type { controlMachine } from "./control.machine.ts";
import type { ControlChangedEvent, ControlGrantedEvent, DialogFactEvent } from "./control.types.ts";
import type { suiteRunnerMachine } from "./suiteRunner.machine.ts";
import type { ExecuteMessage, RunEventMessage } from "./testRunner.types.ts";
import type { RunSelector } from "../services/playback/targets.ts";
import type { projectFileMachine } from "./projectFile.machine.ts";
import type { CloseConfirmedEvent, ProjectLoadedEvent, ProjectRevertedEvent } from "./projectFile.types.ts";
import type { editorMachine } from "./editor.machine.ts";
import type { ProjectEditedEvent, RecordRequestEvent } from "./editor.types.ts";
import type { RunOverFact, RunPlayingFact, RunStartEvent } from "./suiteRunner.types.ts";
import type { UserEvent } from "./userEvents.schema.ts";
import type { LogWrittenEvent, RequestAnsweredEvent, RequestRef } from "./shared.types.ts";
import type { recordingMachine } from "./recording.machine.ts";
import type { CommandRecordedMessage, RecorderEvent, RecordingFact } from "./recording.types.ts";
import type { pointingMachine } from "./pointing.machine.ts";
import type { PickReportEvent, PointingFact } from "./pointing.types.ts";

export interface IdeInput {
  project: SideProject;
  window: "open" | "closed";
  /** How many tests of a parallel suite play at once (default 1). */
  workers?: number;
  /** createIde's `heal` (CONTRACT section 18): false makes a healed command fail. Default true. */
  heal?: boolean;
  /** createIde's `retries`: more tries, at once, for a failed or fatal test (default 0). */
  retries?: number;
  /** createIde's `variables`: what every test starts with (default none). */
  variables?: Readonly<Record<string, string>>;
  /** createIde's `projectPath` and `recentProjects`: the file a plain Save writes, and the recent list (CONTRACT section 20). */
  projectPath?: string | null;
  recentProjects?: readonly string[];
}

export interface IdeContext {
  control: ActorRefFrom<typeof controlMachine>;
  /** The project file: loads, closes, saves and their dialogs. */
  projectFile: ActorRefFrom<typeof projectFileMachine>;
  /** The project as the user edits it, the displayed test and the selection. */
  editor: ActorRefFrom<typeof editorMachine>;
  /** The run machine: the suite runner (suiteRunner.machine.ts), whose children are the test runners. */
  suiteRunner: ActorRefFrom<typeof suiteRunnerMachine>;
  recording: ActorRefFrom<typeof recordingMachine>;
  /** Pointing at the page (CONTRACT section 21): the checks picked while recording, Select target in page. */
  pointing: ActorRefFrom<typeof pointingMachine>;
  /** Plugins registered in this plugin session (since the window opened or control changed). */
  plugins: PluginRegistry;
  /** From the input; read once by the `starting` state. */
  openAtStart: boolean;
  /**
   * Who controls the IDE (null: nobody): the one copy, read by this machine, admission and the
   * view, and given to the control machine with each event forwarded to it. The control machine
   * decides its changes (control.changed).
   */
  controller: string | null;
  /** Facts the children told: whose dialog is open (dialog.opened / dialog.closed). */
  dialogs: { control: boolean; projectFile: boolean };
  /** A plugin's POST /popup/alert waiting for the user: this machine's own dialog. */
  alert: PluginAlert | null;
}

/** The dialog a plugin opens with POST /popup/alert (CONTRACT section 13). */
export interface PluginAlert extends RequestRef {
  /** "NAME says...", NAME being the plugin's registered name. */
  title: string;
  /** The plugin's message, shown as text only. */
  text: string;
  confirmLabel: string;
  /** Null: the plugin gave no cancel label, so there is one button (Escape still answers false). */
  cancelLabel: string | null;
}

/** Requests that passed the door and admission (core/protocol) and change state. */
export type IdeRequestEvent =
  | ({ type: "request.open" } & RequestRef)
  | ({ type: "request.register"; registration: Registration } & RequestRef)
  | ({ type: "request.control"; registration: Registration } & RequestRef)
  | ({ type: "request.loadProject"; project: SideProject } & RequestRef)
  | ({ type: "request.close" } & RequestRef)
  | ({ type: "request.commandState"; commandId: string; state: CommandState; message: string | null } & RequestRef)
  | ({ type: "request.setVariable"; name: string; value: unknown } & RequestRef)
  | ({ type: "request.startRun"; selector: RunSelector } & RequestRef)
  | ({ type: "request.stopRun" } & RequestRef)
  | RecordRequestEvent
  | ({ type: "request.alert"; message: string; confirm?: string; cancel?: string } & RequestRef)
  | ({ type: "request.declareStrategy"; declaration: StrategyDeclaration } & RequestRef);

/** The user's events: their zod schema (userEvents.schema.ts) is the one description of them. */
export type { UserEvent };

/** What the page's recorder reports (ide.record), admitted at the door; the root adds the registered plugins. */
export type RecorderReport =
  | (RecorderEvent extends infer E ? (E extends { plugins: unknown } ? Omit<E, "plugins"> : E) : never)
  | (PickReportEvent extends infer E ? (E extends { plugins: unknown } ? Omit<E, "plugins" | "variables"> : E) : never);

/** The transport lost a plugin (a bridge connection closed): its dialogs end as declined, its control ends. */
export type PluginDisconnectedEvent = { type: "plugin.disconnected"; sender: string };

/** Facts the child machines emit, relayed to the root (answers to requests are not relayed). */
export type ChildFact =
  | LogWrittenEvent
  | ControlGrantedEvent
  | ControlChangedEvent
  | DialogFactEvent
  | ProjectLoadedEvent
  | ProjectRevertedEvent
  | ProjectEditedEvent
  | CloseConfirmedEvent
  | RunPlayingFact
  | RunOverFact
  | RecordingFact
  | PointingFact;

/** A start resolved to its tests (editor.targets.ts), on its way to the suite runner. */
export type { RunStartEvent };

/**
 * The root's own hop: an event for the project that waits behind what the recording just recorded
 * (the typing a stop or flush found in the focused field), so a run or a load sees it.
 */
export type AfterRecordingEvent = {
  type: "recording.thenProject";
  event: Extract<IdeEvent, { type: "user.startPlayback" | "user.startSuite" | "user.executeCommand" | "request.startRun" | "user.loadProject" | "request.loadProject" | "user.openRecent" }>;
};

/** A held load's second hop: behind the editor's project.edited, on its way to the project file machine. */
export type AfterEditorEvent = { type: "editor.thenProjectFile"; event: Extract<IdeEvent, { type: "user.loadProject" | "request.loadProject" | "user.openRecent" }> };

export type IdeEvent = IdeRequestEvent | UserEvent | PluginDisconnectedEvent | ChildFact | RecorderReport | RunStartEvent | AfterRecordingEvent | AfterEditorEvent;

/** What the IDE sends a plugin (CONTRACT sections 8 to 10). */
export type OutboundMessage =
  | { action: "event"; event: "saveProject" | "projectLoaded" | "recordingStarted" | "recordingStopped"; options: Record<string, unknown> }
  | RunEventMessage
  | ExecuteMessage
  | CommandRecordedMessage;

export type OutboundRequestedEvent = { type: "outbound.requested"; to: string; message: OutboundMessage };

export type IdeEmitted = RequestAnsweredEvent | LogWrittenEvent | OutboundRequestedEvent;
