import type { TargetPickedFact } from "./pointing.types.ts";
import type { SideCommand, SideProject } from "../services/side/index.ts";
import type { StrategyDeclaration } from "../services/locators/strategies.ts";
import type { History } from "./editor.history.ts";
import type { LogWrittenEvent, RequestAnsweredEvent, RequestRef } from "./shared.types.ts";
import type { RecordingFact } from "./recording.types.ts";
import type { RunOverFact, RunPlayingFact } from "./suiteRunner.types.ts";
import type { UserEditEvent, UserEditorEvent, UserSelectEvent } from "./userEvents.schema.ts";

export type { UserEditEvent, UserEditorEvent, UserSelectEvent };

/** The project as the user edits it, and what the user looks at in it (CONTRACT section 13). */
export interface EditorContext {
  project: SideProject;
  /** The test the UI shows: a test of `project`, or null when it has none. */
  displayedTestId: string | null;
  /** A command of the displayed test, or null. */
  selectedCommandId: string | null;
  /** The tests the run under way plays (the run tells: run.playing / run.over); edits to them are refused. */
  playing: readonly string[];
  /**
   * While recording (recording.started until recording.stopped): the last recorded command, after
   * which a plugin's POST /record/command goes (CONTRACT section 14); undefined while not recording.
   */
  lastRecordedId?: string | null;
  /** The test a recording records into (recording.started until recording.stopped), which may not be deleted; else null. */
  recordingTestId: string | null;
  /** The undo history (editor.history.ts): every edit since the project was loaded, made or restored. */
  history: History;
  /** The editor's clipboard: copies of the commands last copied or cut (any test, any project). */
  clipboard: readonly SideCommand[];
}

export interface EditorInput {
  project: SideProject;
}

/** Every edit of the project's tests, the user's and the plugins' (they go the same way through the editor). */
export const EDIT_EVENTS = [
  "user.addTest",
  "user.renameTest",
  "user.addCommand",
  "user.changeCommand",
  "user.chooseLocator",
  "user.moveCommand",
  "user.deleteCommand",
  "user.changeSettings",
  "request.addCommand",
  "request.changeCommand",
  "request.deleteCommand",
] as const;

/** The project's own edits (CONTRACT section 20): its name and url, whole tests, suites. */
export const PROJECT_EDIT_EVENTS = [
  "user.changeProject",
  "user.duplicateTest",
  "user.deleteTest",
  "user.addSuite",
  "user.renameSuite",
  "user.deleteSuite",
  "user.setSuiteTests",
  "user.changeSuite",
  "user.addDataFile",
  "user.removeDataFile",
] as const;
export type UserProjectEditEvent = Extract<UserEditorEvent, { type: (typeof PROJECT_EDIT_EVENTS)[number] }>;

/** The command table's edits (CONTRACT section 20); copy is among them though it changes only the clipboard. */
export const CLIPBOARD_EVENTS = ["user.copyCommands", "user.cutCommands", "user.pasteCommands", "user.toggleCommandsDisabled"] as const;
export type UserClipboardEvent = Extract<UserEditorEvent, { type: (typeof CLIPBOARD_EVENTS)[number] }>;

export type UserHistoryEvent = Extract<UserEditorEvent, { type: "user.undo" | "user.redo" }>;

/** The /record/command routes (CONTRACT section 13), admitted at the door. */
export type RecordRequestEvent =
  | ({
      type: "request.addCommand";
      command: string;
      target?: string;
      value?: string;
      index?: number;
      select?: boolean;
    } & RequestRef)
  | ({
      type: "request.changeCommand";
      id: string;
      command?: string;
      target?: string;
      value?: string;
      targets?: Array<[string, string]>;
    } & RequestRef)
  | ({ type: "request.deleteCommand"; id: string } & RequestRef);

export type EditEvent = UserEditEvent | RecordRequestEvent;

/** The recording machine's facts the editor acts on: recorded commands are edits (CONTRACT section 14). */
export const RECORDING_TO_EDITOR = [
  "recording.started",
  "recording.stopped",
  "recording.commandsRecorded",
  "recording.commandChanged",
  "recording.commandRemoved",
  "recording.urlFound",
] as const;

export type EditorRecordingEvent = Extract<RecordingFact, { type: (typeof RECORDING_TO_EDITOR)[number] }>;

/** The plugins in `strategies`' entries left the IDE (the root dropped them): the project keeps what its commands use. */
export type PluginsLeftEvent = { type: "plugins.left"; strategies: ReadonlyArray<StrategyDeclaration> };

/** The project file machine loaded a project (its first test is shown), or went back to the saved copy or restored a journal (the display stays where it can). */
export type ProjectReplacedEvent = { type: "project.loaded"; project: SideProject } | { type: "project.reverted"; project: SideProject };

export type EditorEvent = EditEvent | UserEditorEvent | UserSelectEvent | RunPlayingFact | RunOverFact | EditorRecordingEvent | ProjectReplacedEvent | TargetPickedFact | PluginsLeftEvent;

/** Every change of the project the editor made (an edit, recorded commands, the page's url): the project file machine marks it unsaved. */
export type ProjectEditedEvent = { type: "project.edited"; project: SideProject };

export type EditorEmitted = RequestAnsweredEvent | LogWrittenEvent | ProjectEditedEvent;
