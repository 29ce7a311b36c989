// The undo history (CONTRACT section 20; DESIGN, Round 5: "undo is data, not code"). Every edit
// of the project is an immer recipe; committing it runs produceWithPatches, and the step kept is
// the recipe's patches and inverse patches with the edit's name. Undo applies a step's inverse
// patches, redo its patches: no edit has an inverse written by hand, and redo gives back the
// very project the edit made, ids included.
//
// The history is bounded (MAX_STEPS). Steps are small: immer shares every part of the project an
// edit did not touch, and a step whose patches are many (immer writes one "replace" per index an
// insertion in the middle of an array shifts) is kept as one replace of the part they all lie in
// (compact), which holds the same shared nodes.
import { Immer, enablePatches } from "immer";
import type { Draft, Patch } from "immer";
import type { SideProject } from "../services/side/index.ts";

enablePatches();

// The editor's own immer: its projects are frozen (nothing may change a project the history
// shares with the run, the view and the project file), without setting a global for other users of immer.
const immer = new Immer({ autoFreeze: true });

/**
 * Steps kept: 1,000. CONTRACT section 20 asks for at least 200; a step holds only what its edit
 * changed (a test's command list at most: bench/undo.ts measures 200 steps of mixed edits at
 * 0.15× the project's own heap), so 1,000 keeps a long afternoon's edits, and all of the bench's
 * 1,000 edits, at a small cost.
 */
export const MAX_STEPS = 1000;

/** Above this many patches a step is kept as one replace of the part they all lie in. */
const COMPACT_ABOVE = 8;

/** What the user looked at around an edit: undo shows it again where it still can. */
export interface Place {
  displayedTestId: string | null;
  selectedCommandId: string | null;
}

export interface Step {
  /** What the edit did, in words: "Delete test \"logs in\"". */
  label: string;
  patches: Patch[];
  inverse: Patch[];
  /** The tests the edit changed, added or removed (ids): an undo or redo of them is refused while a run plays one. */
  tests: string[];
  before: Place;
  after: Place;
}

/** `done`: oldest first, the last is what Undo takes back; `undone`: the last is what Redo does again. */
export interface History {
  done: readonly Step[];
  undone: readonly Step[];
}

export const EMPTY_HISTORY: History = Object.freeze({ done: Object.freeze([]), undone: Object.freeze([]) }) as History;

/** IdeView.history (CONTRACT section 20). */
export interface HistoryView {
  canUndo: boolean;
  canRedo: boolean;
  undo: string | null;
  redo: string | null;
}

export function historyView(history: History): HistoryView {
  const undo = history.done[history.done.length - 1]?.label ?? null;
  const redo = history.undone[history.undone.length - 1]?.label ?? null;
  return { canUndo: undo !== null, canRedo: redo !== null, undo, redo };
}

/** An edit: its name and the recipe that makes it on a draft of the project. */
export interface Edit {
  label: string;
  recipe: (project: Draft<SideProject>) => void;
}

export interface Committed {
  project: SideProject;
  /** Null when the recipe changed nothing: there is nothing to undo. */
  step: Step | null;
}

/** The edit made: the project it gives and the step that takes it back. */
export function commit(project: SideProject, edit: Edit, before: Place): Committed {
  const [next, patches, inverse] = immer.produceWithPatches(project, edit.recipe);
  if (patches.length === 0) return { project, step: null };
  const kept = compact(project, next, patches, inverse);
  return {
    project: next,
    step: { label: edit.label, patches: kept.patches, inverse: kept.inverse, tests: changedTests(project, next), before, after: before },
  };
}

/** The history after a new step: it is the last done, the oldest is dropped past MAX_STEPS, and nothing is left to redo. */
export function pushStep(history: History, step: Step): History {
  const done = history.done.length >= MAX_STEPS ? history.done.slice(history.done.length - MAX_STEPS + 1) : history.done.slice();
  done.push(step);
  return { done, undone: [] };
}

/** The project with a step taken back (undo) or made again (redo). */
export function applyStep(project: SideProject, step: Step, direction: "undo" | "redo"): SideProject {
  return immer.applyPatches(project, direction === "undo" ? step.inverse : step.patches);
}

/** The history after an undo (the last done step moves to undone) or a redo (the reverse). */
export function moveStep(history: History, direction: "undo" | "redo"): History {
  if (direction === "undo") return { done: history.done.slice(0, -1), undone: [...history.undone, history.done[history.done.length - 1]] };
  return { done: [...history.done, history.undone[history.undone.length - 1]], undone: history.undone.slice(0, -1) };
}

// Immer's patches of an array are one per index: inserting a command in the middle of a test of
// 1,000 commands writes 500 replaces, which cost memory and time to apply. Every patch of a step
// lies under the longest path they share; nothing above it changed shape, so that path names the
// same part before and after the edit, and one replace of it (the whole part, before and after,
// shared with the projects) does what they do.
function compact(base: SideProject, next: SideProject, patches: Patch[], inverse: Patch[]): { patches: Patch[]; inverse: Patch[] } {
  if (patches.length <= COMPACT_ABOVE && inverse.length <= COMPACT_ABOVE) return { patches, inverse };
  const path = sharedPath([...patches, ...inverse]);
  return {
    patches: [{ op: "replace", path, value: valueAt(next, path) }],
    inverse: [{ op: "replace", path, value: valueAt(base, path) }],
  };
}

/** The longest path every patch's path starts with, short of an element's own: an array or object holding them all. */
function sharedPath(patches: readonly Patch[]): Array<string | number> {
  let shared = patches[0].path.slice(0, -1);
  for (const { path } of patches) {
    let n = 0;
    while (n < shared.length && n < path.length - 1 && shared[n] === path[n]) n += 1;
    shared = shared.slice(0, n);
  }
  return shared;
}

function valueAt(root: unknown, path: ReadonlyArray<string | number>): unknown {
  let value = root;
  for (const key of path) value = (value as Record<string | number, unknown>)[key];
  return value;
}

/** The ids of the tests that differ between the two projects (changed, added or removed). */
function changedTests(base: SideProject, next: SideProject): string[] {
  if (base.tests === next.tests) return [];
  const before = new Map(base.tests.map((t) => [t.id, t]));
  const changed = next.tests.filter((t) => before.get(t.id) !== t).map((t) => t.id);
  const after = new Set(next.tests.map((t) => t.id));
  for (const id of before.keys()) if (!after.has(id)) changed.push(id);
  return changed;
}
