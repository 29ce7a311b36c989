// Loads and their dialog (CONTRACT sections 5 and 20), as pure steps of the project file
// machine: the load a plugin's request, the user's own Load or a recent file read for
// user.openRecent asks for; what a load makes of the context; and what it tells (the loaded
// fact, the answer to the plugin whose load waited for the user, the warnings that refuse
// one). The machine (projectFile.machine.ts) decides when, and applies them.
import { assertEvent } from "xstate";
import type { SideProject } from "../services/side/index.ts";
import { answered, ok, windowClosedReply } from "./replies.ts";
import type { LogWrittenEvent, RequestAnsweredEvent } from "./shared.types.ts";
import type { PendingLoad, ProjectFileContext, ProjectFileEvent, ProjectLoadedEvent } from "./projectFile.types.ts";
import { FILE_LOGS, withRecent } from "./projectFile.paths.ts";

/** How a load that waited for the user ended: loaded (accept), kept (decline, or its plugin gone), or the window closed first. */
export type LoadReply = "loaded" | "kept" | "windowClosed";

/** The load a request or the user's own Load asks for; neither names a file, so a later Save writes none of another project's. */
export function askedLoad(event: ProjectFileEvent): PendingLoad {
  assertEvent(event, ["request.loadProject", "user.loadProject"]);
  return event.type === "request.loadProject"
    ? { requestId: event.requestId, sender: event.sender, project: event.project, path: null }
    : { requestId: null, sender: "ide", project: event.project, path: null };
}

/** The user's recent file, read: it waits for the user like their own load, and names its file. */
export const openedLoad = (opening: NonNullable<ProjectFileContext["opening"]>, project: SideProject): PendingLoad => ({
  requestId: null,
  sender: "ide",
  project,
  path: opening.path,
});

/** The file user.openRecent reads, and whether it was asked for while another machine's dialog was open. */
export function askedOpening(event: ProjectFileEvent): NonNullable<ProjectFileContext["opening"]> {
  assertEvent(event, "user.openRecent");
  return { path: event.path, otherDialogOpen: event.otherDialogOpen };
}

/**
 * A project becomes the loaded one, saved as it is. Its path is the file it was opened from,
 * or none (a page's Load, New project, a plugin's): a later Save must not write another
 * project's file. The load count tells a save under way that it saved the project before.
 */
export const loaded = (context: ProjectFileContext, project: SideProject, path: string | null): Partial<ProjectFileContext> => ({
  project,
  savedCopy: project,
  revision: context.revision + 1,
  savedRevision: context.revision + 1,
  path,
  recentProjects: path === null ? context.recentProjects : withRecent(context.recentProjects, path),
  loads: context.loads + 1,
});

/** The fact for the root: plugins hear projectLoaded, the editor shows the project's first test. */
export const loadedFact = (project: SideProject): ProjectLoadedEvent => ({
  type: "project.loaded",
  projectId: project.id,
  projectName: project.name,
  project,
});

/** The answer to the plugin whose load waited for the user; the user's own load has nobody to answer (null). */
export function pendingLoadAnswer(pending: PendingLoad | null, reply: LoadReply): RequestAnsweredEvent | null {
  const requestId = pending?.requestId;
  if (requestId === null || requestId === undefined) return null;
  return answered(requestId, reply === "windowClosed" ? windowClosedReply() : ok(reply === "loaded"));
}

export const LOAD_LOGS = {
  answerTheOpenDialogFirst: {
    type: "log.written",
    level: "warn",
    message: "The project was not loaded: answer the open dialog first, then load it again.",
  } satisfies LogWrittenEvent,
  openFailed: (opening: ProjectFileContext["opening"], reason: string) => FILE_LOGS.openFailed(opening?.path ?? "file", reason),
  openedAfterADialog: (opening: ProjectFileContext["opening"]) => FILE_LOGS.openedAfterADialog(opening?.path ?? "file"),
  /** A load or another recent file asked for while one is being read: refused, naming both. */
  stillOpening: (opening: ProjectFileContext["opening"], event: ProjectFileEvent) =>
    FILE_LOGS.stillOpening("path" in event && typeof event.path === "string" ? event.path : null, opening?.path ?? "another file"),
};
