// The view's fields of CONTRACT section 20 as the page reads them: the undo history, the file
// the project is saved to, and the recent projects.
import type { UiView } from "./protocol.ts";

export type HistoryView = UiView["history"];

export const historyOf = (view: UiView): HistoryView => view.history;
export const projectPathOf = (view: UiView): string | null => view.project.path;
export const recentProjectsOf = (view: UiView): readonly string[] => view.recentProjects;
