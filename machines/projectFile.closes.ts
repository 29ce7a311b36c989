// Closes (CONTRACT section 5), as pure steps of the project file machine: the close a plugin
// asks for, and what its dialog's answers make of it. Accepting discards the changes (back to
// the saved copy, which the editor is told to show) and confirms the close; declining, the
// plugin going away, or the window closing first keep the changes and answer the request.
import { assertEvent } from "xstate";
import { answered, ok, windowClosedReply } from "./replies.ts";
import type { RequestAnsweredEvent, RequestRef } from "./shared.types.ts";
import type { CloseConfirmedEvent, ProjectFileContext, ProjectFileEvent, ProjectRevertedEvent } from "./projectFile.types.ts";

/** The close a plugin asks for: who to answer once the user has. */
export function askedClose(event: ProjectFileEvent): RequestRef {
  assertEvent(event, "request.close");
  return { requestId: event.requestId, sender: event.sender };
}

/** Yes to "discard and close": the project goes back to the copy last loaded or saved, saved again. */
export const discarded = (context: ProjectFileContext): Partial<ProjectFileContext> => ({
  project: context.savedCopy,
  revision: context.revision + 1,
  savedRevision: context.revision + 1,
});

/** The editor shows the project it carries: the saved copy after a discard, the journaled one after a restore. */
export const revertedFact = (project: ProjectFileContext["project"]): ProjectRevertedEvent => ({ type: "project.reverted", project });

export const closeConfirmed = (close: RequestRef): CloseConfirmedEvent => ({ type: "close.confirmed", requestId: close.requestId });

/** The close goes ahead without asking: nothing unsaved to lose. */
export function closeConfirmedNow(event: ProjectFileEvent): CloseConfirmedEvent {
  assertEvent(event, "request.close");
  return closeConfirmed(event);
}

/** The close that waited for the user, answered without closing: kept (decline, plugin gone), or the window closed first. */
export const pendingCloseAnswer = (close: RequestRef, reply: "kept" | "windowClosed"): RequestAnsweredEvent =>
  answered(close.requestId, reply === "kept" ? ok(false) : windowClosedReply());
