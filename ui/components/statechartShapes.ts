// What a laid-out statechart drawing holds (boxes, arrows, label boxes in one coordinate
// system) and its text: the fonts and spacing the drawing is measured with, and a state's
// transitions as the lines and rows of text the component draws. No DOM, no ELK.
import type { ChartState, ChartTransition } from "../protocol.ts";

/** The two kinds of text a diagram holds: a state's name, and a transition's event line. */
export type TextKind = "name" | "line";
export type Measure = (text: string, kind: TextKind) => number;

/** Shared with the component, which draws the text where these numbers left room for it. */
export const FONTS: Record<TextKind, { family: string; size: number; weight: number }> = {
  name: { family: `system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`, size: 13, weight: 600 },
  line: { family: `ui-monospace, SFMono-Regular, Menlo, Consolas, monospace`, size: 11, weight: 400 },
};
/** A FONTS entry as the CSS `font` shorthand a canvas measures with. */
export const cssFont = (kind: TextKind) => `${FONTS[kind].weight} ${FONTS[kind].size}px ${FONTS[kind].family}`;

export const METRICS = {
  /** From a box's top to the line under its name. */
  header: 28,
  /** Baseline of the name, from the box's top. */
  nameBaseline: 18,
  lineHeight: 15,
  /** Baseline of a line within its row. */
  lineBaseline: 11,
  padX: 10,
  padBottom: 7,
  /** Room between the listed lines and a compound state's children. */
  childGap: 12,
  minWidth: 92,
  leafHeight: 34,
  labelPadX: 4,
  /** A guard's row sits this far right of its event's, so it reads as the event's. */
  guardIndent: 10,
  labelPadY: 2,
  initialDot: 10,
} as const;

/** One transition as a line of text: `event` or `event [guard]`. */
export interface TransitionLine {
  event: string;
  guard: string | null;
  text: string;
}

/** A line inside a state's box: a transition that stays in it, or one that re-enters it. */
export interface BoxLine extends TransitionLine {
  kind: "stays" | "reenters";
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface Point {
  x: number;
  y: number;
}

export interface DiagramState extends Box {
  path: string;
  key: string;
  type: ChartState["type"];
  /** The machine itself: always active, so never highlighted. */
  root: boolean;
  /** A region of a parallel state (drawn dashed). */
  region: boolean;
  /** The initial child of its compound parent. */
  initial: boolean;
  description: string | null;
  /** Transitions drawn inside the box rather than as arrows. */
  lines: BoxLine[];
  /** Every transition of the state as text (`event [guard] → target`), for its accessible description. */
  summary: string[];
  states: DiagramState[];
}

/** The arrow from one state to another; one per pair, carrying every event between them. */
export interface DiagramEdge {
  id: string;
  source: string;
  target: string;
  lines: TransitionLine[];
  points: Point[];
  label: Box | null;
}

/** The marker of a compound state's initial child: a dot and a short arrow. */
export interface InitialArrow {
  parent: string;
  target: string;
  dot: Point;
  points: Point[];
}

/** Which way the arrows run from the initial state: across (the default) or down, for a machine too wide to read across. */
export type Direction = "RIGHT" | "DOWN";

export interface Diagram {
  width: number;
  height: number;
  direction: Direction;
  root: DiagramState;
  edges: DiagramEdge[];
  initials: InitialArrow[];
}

export const lineText = (event: string, guard: string | null) => (guard === null ? event : `${event} [${guard}]`);

/**
 * Transitions as lines, one per event in the machine's order. When an unguarded transition
 * of an event is among them, the event alone says it: every case its guarded siblings here
 * do not take ends in the same place. Otherwise each guard gets its own line.
 */
export function transitionLines(transitions: readonly ChartTransition[]): TransitionLine[] {
  const byEvent = new Map<string, Array<string | null>>();
  for (const t of transitions) {
    const guards = byEvent.get(t.event) ?? [];
    if (!guards.includes(t.guard)) guards.push(t.guard);
    byEvent.set(t.event, guards);
  }
  const lines: TransitionLine[] = [];
  for (const [event, guards] of byEvent) {
    const kept = guards.includes(null) ? [null] : guards;
    for (const guard of kept) lines.push({ event, guard, text: lineText(event, guard) });
  }
  return lines;
}

export interface Row<L extends TransitionLine = TransitionLine> {
  line: L;
  part: "event" | "guard";
  text: string;
}

/**
 * The rows transitions are written in, in an edge's label and in a state's box alike: each
 * event on its own row, its guard (if any) on the row below, indented. Long guard names
 * would otherwise make every box and label as wide as event and guard together.
 */
export function rowsOf<L extends TransitionLine>(lines: readonly L[]): Array<Row<L>> {
  return lines.flatMap((line) =>
    line.guard === null
      ? [{ line, part: "event" as const, text: line.event }]
      : [
          { line, part: "event" as const, text: line.event },
          { line, part: "guard" as const, text: `[${line.guard}]` },
        ],
  );
}

/** How wide a row is drawn, its indent and a re-entry mark included. */
export function rowWidth(row: Row<TransitionLine | BoxLine>, measure: Measure): number {
  if (row.part === "guard") return METRICS.guardIndent + measure(row.text, "line");
  const reenters = "kind" in row.line && row.line.kind === "reenters";
  return measure(row.text, "line") + (reenters ? measure(REENTER_MARK, "line") : 0);
}
export const REENTER_MARK = " ↻";
