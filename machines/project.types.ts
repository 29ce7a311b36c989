import type { SideProject } from "../services/side/index.ts";
import type { RunSelector } from "../services/playback/targets.ts";
import type { DialogFactEvent } from "./control.types.ts";
import type { RunOverFact, RunPlayingFact, RunStartEvent } from "./suiteRunner.types.ts";
import type { LogWrittenEvent, RequestAnsweredEvent, RequestRef } from "./shared.types.ts";
import type { UserEditEvent, UserSelectEvent } from "./userEvents.schema.ts";

export type { UserEditEvent, UserSelectEvent };
import type { RecordingFact, RecordingRequestedEvent } from "./recording.types.ts";

/** A load waiting for the user: a plugin's request, or the user's own file (requestId null, sender "ide"). */
export interface PendingLoad {
  requestId: number | null;
  sender: string;
  project: SideProject;
}

export interface ProjectContext {
  project: SideProject;
  /** What "discard changes" goes back to: the copy last loaded or saved. */
  savedCopy: SideProject;
  /** Bumped on every edit and load; the project is unsaved while it differs from savedRevision. */
  revision: number;
  savedRevision: number;
  pendingLoad: PendingLoad | null;
  pendingClose: RequestRef | null;
  /** The journaled project a start offers in the "Restore unsaved changes" dialog, until the user answers. */
  pendingRestore: SideProject | null;
  /** The save under way: what it saves and at which revision it started. */
  saving: { revision: number; project: SideProject; controller: string | null } | null;
  /** A save asked for while another was under way; it starts when that one ends. */
  queuedSave: { controller: string | null } | null;
  /** Another machine's dialog is open (the root says so): a load or close that needs this one's is Busy. */
  otherDialogOpen: boolean;
  /** The test the UI shows (CONTRACT section 13): a test of `project`, or null when it has none. */
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
}

export interface ProjectInput {
  project: SideProject;
}

/** What the save port answers: saved, or why not. */
export type SaveOutcome = { ok: true } | { ok: false; reason: string };

export interface SaveInput {
  project: SideProject;
  /** The plugin in control, which receives the project instead of the `save` option. */
  controller: string | null;
}

/** Every edit of the project's tests, the user's and the plugins' (they go the same way through the project machine). */
export const EDIT_EVENTS = [
  "user.addTest",
  "user.renameTest",
  "user.addCommand",
  "user.changeCommand",
  "user.moveCommand",
  "user.deleteCommand",
  "request.addCommand",
  "request.changeCommand",
  "request.deleteCommand",
] as const;

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

/** Facts of the run machine the project needs: which tests are being played, until the run is over. */
export type RunPlayingEvent = RunPlayingFact;
export type RunOverEvent = RunOverFact;

export type ProjectEvent =
  | EditEvent
  | UserSelectEvent
  | RunPlayingEvent
  | RunOverEvent
  | ({ type: "request.loadProject"; project: SideProject } & RequestRef)
  | ({ type: "request.close" } & RequestRef)
  | { type: "user.loadProject"; project: SideProject }
  | { type: "plugin.disconnected"; sender: string }
  | { type: "user.accept" }
  | { type: "user.decline" }
  | { type: "user.editProject" }
  | { type: "project.saveRequested"; controller: string | null }
  | { type: "window.closed" }
  /** A start found a journal newer than the saved project: the user is asked whether to restore it. */
  | { type: "journal.restoreOffered"; project: SideProject }
  | { type: "dialog.elsewhere"; open: boolean }
  | { type: "user.startPlayback"; testId?: string; fromCommandId?: string }
  | { type: "user.startSuite"; suiteId?: string }
  | ({ type: "request.startRun"; selector: RunSelector } & RequestRef)
  | ProjectRecordingEvent;

/** Recording (CONTRACT section 14): the user's Record, and the recording machine's facts the project acts on. */
export const RECORDING_TO_PROJECT = [
  "user.startRecording",
  "recording.started",
  "recording.stopped",
  "recording.commandsRecorded",
  "recording.commandChanged",
  "recording.commandRemoved",
  "recording.urlFound",
] as const;

export type ProjectRecordingEvent =
  | { type: "user.startRecording" }
  | Extract<RecordingFact, { type: (typeof RECORDING_TO_PROJECT)[number] }>;

/** A start the project resolved to its tests: the root hands it to the run machine. */
export type RunRequestedEvent = Omit<RunStartEvent, "type"> & { type: "run.requested" };

export type ProjectLoadedEvent = { type: "project.loaded"; projectId: string; projectName: string };
export type CloseConfirmedEvent = { type: "close.confirmed"; requestId: number };

export type ProjectEmitted =
  | RequestAnsweredEvent
  | ProjectLoadedEvent
  | CloseConfirmedEvent
  | LogWrittenEvent
  | DialogFactEvent
  | RunRequestedEvent
  | RecordingRequestedEvent;
