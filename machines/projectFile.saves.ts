// Saves and Save as (CONTRACT sections 8 and 20), as pure steps of the project file machine's
// saving region: what a save takes with it when it starts, the one save that waits while
// another is under way, and what a finished save records. Which file a save writes, what it
// names and the recent list are the file rules of projectFile.paths.ts; this applies them.
import { assertEvent } from "xstate";
import type { LogWrittenEvent } from "./shared.types.ts";
import type { ProjectFileContext, ProjectFileEvent, SaveOutcome } from "./projectFile.types.ts";
import { FILE_LOGS, fileToWrite, namedBySave } from "./projectFile.paths.ts";

type Saving = NonNullable<ProjectFileContext["saving"]>;
type QueuedSave = NonNullable<ProjectFileContext["queuedSave"]>;

/**
 * A save starting now: the project as it is, at this revision and after this many loads (so
 * its end knows whether a newer load or save came since), and the file it writes. While
 * controlled the project goes to the controller (CONTRACT section 8), so a Save as's path is not written.
 */
export const saveStarting = (context: ProjectFileContext, controller: string | null, path: string | null | undefined): Saving => ({
  revision: context.revision,
  loads: context.loads,
  project: context.project,
  controller,
  path: fileToWrite(context, controller, path),
});

/** The save project.saveRequested asks for, starting now. */
export function askedSave(context: ProjectFileContext, event: ProjectFileEvent): Saving {
  assertEvent(event, "project.saveRequested");
  return saveStarting(context, event.controller, event.path);
}

/** A save asked for while one is under way waits for it (one at a time); a plain Save asked after a Save as still writes the Save as's file. */
export function queuedSave(context: ProjectFileContext, event: ProjectFileEvent): QueuedSave {
  assertEvent(event, "project.saveRequested");
  return { controller: event.controller, path: event.controller === null ? (event.path ?? context.queuedSave?.path ?? null) : null };
}

/** The waiting save starts when the one under way ends, with the changes made meanwhile. */
export const queuedSaveStarting = (context: ProjectFileContext): Partial<ProjectFileContext> => ({
  saving: saveStarting(context, context.queuedSave!.controller, context.queuedSave!.path),
  queuedSave: null,
});

/** A successful save: the files it names, and saved up to its revision unless a load or a later save already moved past it. */
export function recordedSave(context: ProjectFileContext, outcome: SaveOutcome): Partial<ProjectFileContext> {
  const saving = context.saving!;
  const named = namedBySave(context, outcome);
  if (saving.revision <= context.savedRevision) return named;
  return { ...named, savedRevision: saving.revision, savedCopy: saving.project };
}

/** A Save as while controlled writes nothing: the warning says so, or null when there is nothing to say. */
export function pathGoesToControllerLog(context: ProjectFileContext, event: ProjectFileEvent): LogWrittenEvent | null {
  assertEvent(event, "project.saveRequested");
  return event.controller !== null && event.path !== undefined ? FILE_LOGS.pathGoesToController(event.controller, event.path, context.path) : null;
}

/** Where the project went, when the port says (the host's file, the browser's download); null when it does not. */
export const savedLog = (context: ProjectFileContext, outcome: SaveOutcome): LogWrittenEvent | null =>
  outcome.ok && outcome.location !== undefined ? FILE_LOGS.saved(context.saving!.project.name, outcome.location) : null;
