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
  /** The file it was read from (user.openRecent): the project's path once loaded; null for every other load. */
  path: string | null;
}

/** How many paths the recent list keeps (CONTRACT section 20). */
export const RECENT_PROJECTS = 10;

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
  /**
   * The save under way: what it saves, at which revision and after how many loads it started,
   * and the file it writes (null: the port's default place, or the controller).
   */
  saving: { revision: number; loads: number; project: SideProject; controller: string | null; path: string | null } | null;
  /** A save asked for while another was under way; it starts when that one ends. `path`: a Save as's file, kept over a plain save asked after it. */
  queuedSave: { controller: string | null; path: string | null } | null;
  /** The file every later Save writes (a Save as's, or the opened file's); null until there is one. */
  path: string | null;
  /** The files last saved or opened, newest first, at most RECENT_PROJECTS, no repeats. */
  recentProjects: string[];
  /** How many loads there were: a save that started before a load does not name the new project's file. */
  loads: number;
  /** user.openRecent under way: the file being read, and whether another machine's dialog was open when asked. */
  opening: { path: string; otherDialogOpen: boolean } | null;
}

/** The one test of unsaved changes: every change and load bumps `revision`; a load, a successful save and the user's accept in a dialog catch `savedRevision` up. */
export const isUnsaved = (context: Pick<ProjectFileContext, "revision" | "savedRevision">): boolean => context.revision !== context.savedRevision;

export interface ProjectFileInput {
  project: SideProject;
  /** The file the project came from, which a plain Save writes; default null (the port's default place). */
  path?: string | null;
  /** The recent list as the host kept it; default empty. */
  recentProjects?: readonly string[];
}

/** What the save port answers: saved (and where, to say so), or why not. */
export type SaveOutcome = { ok: true; location?: string } | { ok: false; reason: string };

export interface SaveInput {
  project: SideProject;
  /** The plugin in control, which receives the project instead of the `save` option. */
  controller: string | null;
  /** The file to write (a Save as's path, or the project's path); null: where the `save` option saves by default. Always null for the controller. */
  path: string | null;
}

/** What the read port gets for user.openRecent; it answers the parsed project, or rejects saying why not. */
export interface ReadProjectInput {
  path: string;
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
  /** `path`: Save as (CONTRACT section 20); absent, the project's own path or the port's default. */
  | { type: "project.saveRequested"; controller: string | null; path?: string }
  | (UserEventOf<"user.openRecent"> & ToldDialogs)
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
