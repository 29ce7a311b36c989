// The journal's restore offer (CONTRACT section 20), as pure steps of the project file
// machine: at start, a journal newer than the saved project is offered in "Restore unsaved
// changes". Accepting makes the journaled project the project, unsaved against the saved
// copy; declining keeps the project as it was and bumps the revision, which tells the journal
// (core/journal.ts) to drop what it held. Either way the offer is forgotten.
import { assertEvent } from "xstate";
import type { SideProject } from "../services/side/index.ts";
import type { ProjectFileContext, ProjectFileEvent } from "./projectFile.types.ts";
import { isUnsaved } from "./projectFile.types.ts";

/** The journaled project the start offers, kept until the user answers. */
export function offeredRestore(event: ProjectFileEvent): SideProject {
  assertEvent(event, "journal.restoreOffered");
  return event.project;
}

/** Yes: the journaled project, unsaved (the saved copy and savedRevision stay what the file holds). */
export const restored = (context: ProjectFileContext): Partial<ProjectFileContext> => ({
  project: context.pendingRestore!,
  revision: context.revision + 1,
  pendingRestore: null,
});

/** No: the project stays as it is, saved if it was; only the revision moves, for the journal. */
export const restoreDeclined = (context: ProjectFileContext): Partial<ProjectFileContext> => ({
  revision: context.revision + 1,
  savedRevision: isUnsaved(context) ? context.savedRevision : context.revision + 1,
  pendingRestore: null,
});
