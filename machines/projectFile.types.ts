import type { SideProject } from "../services/side/index.ts";
import type { DialogFactEvent } from "./control.types.ts";
import type { ProjectEditedEvent } from "./editor.types.ts";
import type { LogWrittenEvent, RequestAnsweredEvent, RequestRef } from "./shared.types.ts";
import type { UserEventOf } from "./userEvents.schema.ts";

/** A load waiting for the user: a plugin's request, or the user's own file (requestId null, sender "ide"). */
export interface PendingLoad {
  requestId: number | null;
  sender: string;
  project: SideProject;
}

export interface ProjectFileContext {
  /** The project as the editor last told it (project.edited), or as loaded: what a save writes. */
  project: SideProject;
  /** What "discard changes" goes back to: the copy last loaded or saved. */
  savedCopy: SideProject;
  /** Bumped on every change and load; the project is unsaved while it differs from savedRevision. */
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
}

export interface ProjectFileInput {
  project: SideProject;
}

/** What the save port answers: saved, or why not. */
export type SaveOutcome = { ok: true } | { ok: false; reason: string };

export interface SaveInput {
  project: SideProject;
  /** The plugin in control, which receives the project instead of the `save` option. */
  controller: string | null;
}

/** Whether another machine's dialog is open as the event arrives: the root's fact, which it adds to each load and close. */
export interface ToldDialogs {
  otherDialogOpen: boolean;
}

export type ProjectFileEvent =
  | ({ type: "request.loadProject"; project: SideProject } & RequestRef & ToldDialogs)
  | ({ type: "request.close" } & RequestRef & ToldDialogs)
  | (UserEventOf<"user.loadProject"> & ToldDialogs)
  | UserEventOf<"user.accept" | "user.decline" | "user.editProject">
  | { type: "plugin.disconnected"; sender: string }
  | { type: "project.saveRequested"; controller: string | null }
  | { type: "window.closed" }
  /** A start found a journal newer than the saved project (createIde sends it): the user is asked whether to restore it. */
  | { type: "journal.restoreOffered"; project: SideProject }
  | ProjectEditedEvent;

/** A project became the loaded one: plugins hear projectLoaded, the editor shows its first test. */
export type ProjectLoadedEvent = { type: "project.loaded"; projectId: string; projectName: string; project: SideProject };
/** The user discarded the changes (a close they confirmed), or restored a journal: the editor shows the project it carries. */
export type ProjectRevertedEvent = { type: "project.reverted"; project: SideProject };
export type CloseConfirmedEvent = { type: "close.confirmed"; requestId: number };

export type ProjectFileEmitted =
  | RequestAnsweredEvent
  | ProjectLoadedEvent
  | ProjectRevertedEvent
  | CloseConfirmedEvent
  | LogWrittenEvent
  | DialogFactEvent;
