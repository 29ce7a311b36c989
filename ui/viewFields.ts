// The view's fields of CONTRACT section 20 as the page reads them: the undo history, the file
// the project is saved to, and the recent projects. A view without them (an IDE older than
// section 20) reads as an empty history, no file and no recent projects, so the page still works.
import type { UiView } from "./protocol.ts";

export interface HistoryView {
  canUndo: boolean;
  canRedo: boolean;
  /** What undo would take back, in words ("Delete test \"logs in\""); null when nothing. */
  undo: string | null;
  redo: string | null;
}

const NO_HISTORY: HistoryView = Object.freeze({ canUndo: false, canRedo: false, undo: null, redo: null });

type Section20 = { history?: HistoryView; recentProjects?: string[]; project: { path?: string | null } };

export const historyOf = (view: UiView): HistoryView => (view as unknown as Section20).history ?? NO_HISTORY;
export const projectPathOf = (view: UiView): string | null => (view as unknown as Section20).project.path ?? null;
export const recentProjectsOf = (view: UiView): readonly string[] => (view as unknown as Section20).recentProjects ?? [];
