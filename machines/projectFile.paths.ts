// The project file machine's rules for files (CONTRACT section 20), as pure functions of its
// context: which file a save writes, what a finished save names, the recent list, and the words
// of the logs about files. The machine (projectFile.machine.ts) only applies them.
import type { ProjectFileContext, SaveOutcome } from "./projectFile.types.ts";
import { RECENT_PROJECTS } from "./projectFile.types.ts";
import type { LogWrittenEvent } from "./shared.types.ts";

/** The recent list with `path` first (moved there if it was already in), at most RECENT_PROJECTS long. */
export const withRecent = (recent: readonly string[], path: string): string[] =>
  [path, ...recent.filter((p) => p !== path)].slice(0, RECENT_PROJECTS);

/**
 * The file a save writes: a Save as's path, else the project's own; none for the controller,
 * which gets the project instead (CONTRACT section 8), and none (the port's default place)
 * while the project has no file.
 */
export const fileToWrite = (context: Pick<ProjectFileContext, "path">, controller: string | null, asked: string | null | undefined): string | null =>
  controller === null ? (asked ?? context.path) : null;

/**
 * What a successful save names: the file written (where the port says, e.g. the file the
 * browser's dialog chose; else the path asked for) is the newest recent file, and the project's
 * file unless a load came since (it wrote the project before that load).
 */
export function namedBySave(context: ProjectFileContext, outcome: SaveOutcome): Partial<ProjectFileContext> {
  const saving = context.saving!;
  if (saving.path === null) return {};
  const written = outcome.ok && outcome.location ? outcome.location : saving.path;
  return {
    recentProjects: withRecent(context.recentProjects, written),
    ...(saving.loads === context.loads ? { path: written } : {}),
  };
}

const log = (level: LogWrittenEvent["level"], message: string): LogWrittenEvent => ({ type: "log.written", level, message });

export const FILE_LOGS = {
  saved: (name: string, location: string) => log("info", `Saved "${name}" to ${location}`),
  saveFailed: (saving: ProjectFileContext["saving"], reason: string) => {
    const where = saving?.controller ? `to the plugin in control (${saving.controller})` : saving?.path ? `to ${saving.path}` : "to the computer";
    return log("error", `Saving the project ${where} failed: ${reason}. Your changes are kept and still unsaved.`);
  },
  pathGoesToController: (controller: string, path: string, current: string | null) =>
    log(
      "warn",
      `The plugin ${controller} controls the IDE, so the project goes to it to save; nothing was written to ${path}, ` +
        `and the project's file stays ${current ?? "unset"}.`,
    ),
  openFailed: (path: string, reason: string) => log("error", `The project ${path} could not be opened: ${reason}. Nothing was changed.`),
  openedAfterADialog: (path: string) => log("warn", `The project ${path} was not loaded: answer the open dialog first, then open it again.`),
  stillOpening: (asked: string | null, opening: string) =>
    log("warn", `${asked ?? "The project"} was not opened: ${opening} is still being opened; try again once it is.`),
};
