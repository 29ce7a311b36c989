// Turns a machine's chart (drivers/view/charts.ts) into a laid-out statechart drawing: the
// graph handed to ELK's layered algorithm (states as nested nodes, transitions as labelled
// edges) and, from ELK's answer, plain boxes, polylines and label boxes in one coordinate
// system that the SVG component draws as they are. Text is measured by the caller (a canvas
// in the page, a stand-in in tests), so this module needs no DOM and runs under Node too.
import ELK from "elkjs/lib/elk.bundled.js";
import type { ElkExtendedEdge, ElkNode } from "elkjs/lib/elk-api.js";
import type { Chart, ChartState, ChartTransition } from "../protocol.ts";

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

export interface Diagram {
  width: number;
  height: number;
  direction: Direction;
  root: DiagramState;
  edges: DiagramEdge[];
  initials: InitialArrow[];
}

const lineText = (event: string, guard: string | null) => (guard === null ? event : `${event} [${guard}]`);

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

const relative = (root: string, path: string) => (path.startsWith(`${root}.`) ? path.slice(root.length + 1) : path);

function summaryOf(state: ChartState, root: string): string[] {
  return state.transitions.map((t) => {
    const targets = t.targets.map((target) => relative(root, target));
    return `${lineText(t.event, t.guard)} → ${targets.length > 0 ? targets.join(", ") : "(stays)"}`;
  });
}

/** Ids of the nodes ELK gets that are not states; `#` keeps them apart from state paths. */
export const initialNodeId = (parent: string) => `${parent}#initial`;
export const edgeId = (source: string, target: string) => `${source}->${target}`;
const regionOrderId = (before: string, after: string) => `${before}#before#${after}`;

/** Which way the arrows run from the initial state: across (the default) or down, for a machine too wide to read across. */
export type Direction = "RIGHT" | "DOWN";

// Options every parent in the hierarchy gets: with INCLUDE_CHILDREN one layered run lays out
// all levels, but it reads spacing, ordering and cycle breaking from each parent (its
// direction only from the root: ELK lays one hierarchy out in one direction).
const LEVEL_OPTIONS: Record<string, string> = {
  "elk.algorithm": "layered",
  "elk.edgeRouting": "ORTHOGONAL",
  "elk.edgeLabels.placement": "CENTER",
  // Walked from the initial state, so arrows run forwards from it and the ones back are reversed.
  "elk.layered.cycleBreaking.strategy": "DEPTH_FIRST",
  "elk.layered.nodePlacement.strategy": "NETWORK_SIMPLEX",
  "elk.spacing.nodeNode": "22",
  "elk.layered.spacing.nodeNodeBetweenLayers": "36",
  "elk.spacing.edgeNode": "14",
  "elk.layered.spacing.edgeNodeBetweenLayers": "14",
  "elk.spacing.edgeEdge": "10",
  "elk.layered.spacing.edgeEdgeBetweenLayers": "10",
  "elk.spacing.edgeLabel": "3",
  "elk.spacing.labelNode": "6",
};

const ROOT_OPTIONS: Record<string, string> = {
  ...LEVEL_OPTIONS,
  "elk.direction": "RIGHT",
  // One layout for the whole hierarchy, so arrows may leave a compound state for another level.
  "elk.hierarchyHandling": "INCLUDE_CHILDREN",
  // Everything in the diagram's coordinates: the drawing needs no sums over parents.
  "elk.json.shapeCoords": "ROOT",
  "elk.json.edgeCoords": "ROOT",
  "elk.padding": "[top=6,left=6,bottom=6,right=6]",
};

/** What the graph handed to ELK stands for, kept to read its answer back. */
interface GraphModel {
  graph: ElkNode;
  states: Map<string, { state: ChartState; parent: string | null; lines: BoxLine[]; region: boolean; initial: boolean }>;
  edges: Map<string, { source: string; target: string; lines: TransitionLine[] }>;
  initials: Map<string, { parent: string; target: string }>;
  direction: Direction;
}

/** Ancestors of a path within its chart, nearest first, the path itself included. */
function selfAndAncestors(path: string, parents: Map<string, string | null>): string[] {
  const chain: string[] = [];
  for (let p: string | null | undefined = path; p; p = parents.get(p)) chain.push(p);
  return chain;
}

/**
 * The graph ELK lays out: every state a node nested in its parent's node, every transition
 * to another state an edge from its source to its target (one edge per pair of states, its
 * label a row per event and guard), and a small initial node with an edge to each compound
 * state's initial child. Transitions without a target, or back into their own state, stay
 * text inside the state's box (a loop per event would crowd the drawing for nothing). Regions
 * of a parallel state are chained by edges that are never drawn, so the layered algorithm
 * puts them side by side. Each box is sized from its measured text before ELK sees it.
 */
export function chartGraph(chart: Chart, measure: Measure, direction: Direction = "RIGHT"): GraphModel {
  const rootPath = chart.root.path;
  const states: GraphModel["states"] = new Map();
  const edges: GraphModel["edges"] = new Map();
  const initials: GraphModel["initials"] = new Map();
  const parents = new Map<string, string | null>();
  const nodes = new Map<string, ElkNode>();

  const register = (state: ChartState, parent: ChartState | null) => {
    parents.set(state.path, parent?.path ?? null);
    for (const child of state.states) register(child, state);
  };
  register(chart.root, null);

  const pending: Array<{ source: string; target: string; transition: ChartTransition }> = [];

  const build = (state: ChartState, parent: ChartState | null): ElkNode => {
    const stays = state.transitions.filter((t) => t.targets.length === 0);
    const reenters = state.transitions.filter((t) => t.targets.includes(state.path));
    const lines: BoxLine[] = [
      ...transitionLines(stays).map((l) => ({ ...l, kind: "stays" as const })),
      ...transitionLines(reenters).map((l) => ({ ...l, kind: "reenters" as const })),
    ];
    for (const t of state.transitions) {
      for (const target of t.targets) {
        if (target !== state.path && parents.has(target)) pending.push({ source: state.path, target, transition: t });
      }
    }
    const region = parent?.type === "parallel";
    const initial = parent?.type === "compound" && parent.initial === state.key;
    states.set(state.path, { state, parent: parent?.path ?? null, lines, region, initial });

    const rows = rowsOf(lines);
    const textWidth = Math.max(measure(state.key, "name"), ...rows.map((row) => rowWidth(row, measure)));
    const width = Math.ceil(Math.max(METRICS.minWidth, textWidth + 2 * METRICS.padX));
    const linesHeight = rows.length * METRICS.lineHeight;
    const node: ElkNode = { id: state.path };
    nodes.set(state.path, node);
    if (state.states.length === 0) {
      node.width = width;
      node.height = lines.length > 0 ? METRICS.header + 4 + linesHeight + METRICS.padBottom : METRICS.leafHeight;
      return node;
    }
    const top = METRICS.header + (lines.length > 0 ? 4 + linesHeight : 0) + METRICS.childGap;
    node.layoutOptions = {
      ...LEVEL_OPTIONS,
      "elk.padding": `[top=${top},left=14,bottom=14,right=14]`,
      // Wide enough for its own name and lines even when its children are narrow.
      "elk.nodeSize.constraints": "MINIMUM_SIZE",
      "elk.nodeSize.minimum": `(${width}, ${top + 20})`,
    };
    node.children = [];
    node.edges = [];
    if (state.type === "compound" && state.initial !== null) {
      const id = initialNodeId(state.path);
      const target = `${state.path}.${state.initial}`;
      node.children.push({ id, width: METRICS.initialDot, height: METRICS.initialDot });
      node.edges.push({ id: `${id}->${target}`, sources: [id], targets: [target] });
      initials.set(id, { parent: state.path, target });
    }
    for (const child of state.states) node.children.push(build(child, state));
    if (state.type === "parallel") {
      for (let i = 1; i < state.states.length; i++) {
        const before = state.states[i - 1].path;
        const after = state.states[i].path;
        node.edges.push({ id: regionOrderId(before, after), sources: [before], targets: [after] });
      }
    }
    return node;
  };

  const rootNode = build(chart.root, null);

  // One edge per (source, target), in the machine's order; it lives in the nearest state
  // holding both ends, as ELK's containment convention asks.
  const grouped = new Map<string, { source: string; target: string; transitions: ChartTransition[] }>();
  for (const { source, target, transition } of pending) {
    const id = edgeId(source, target);
    const group = grouped.get(id) ?? { source, target, transitions: [] };
    group.transitions.push(transition);
    grouped.set(id, group);
  }
  const wrapperEdges: ElkExtendedEdge[] = [];
  for (const [id, { source, target, transitions }] of grouped) {
    const lines = transitionLines(transitions);
    edges.set(id, { source, target, lines });
    const rows = rowsOf(lines);
    const width = Math.ceil(Math.max(...rows.map((row) => rowWidth(row, measure))) + 2 * METRICS.labelPadX);
    const height = rows.length * METRICS.lineHeight + 2 * METRICS.labelPadY;
    const edge: ElkExtendedEdge = {
      id,
      sources: [source],
      targets: [target],
      labels: [{ id: `${id}#label`, text: rows.map((r) => r.text).join("\n"), width, height }],
    };
    const targetChain = new Set(selfAndAncestors(target, parents));
    const container = selfAndAncestors(source, parents).find((p) => targetChain.has(p));
    const holder = container === undefined ? undefined : nodes.get(container);
    if (holder?.edges) holder.edges.push(edge);
    else wrapperEdges.push(edge);
  }

  const graph: ElkNode = {
    id: `${rootPath}#diagram`,
    layoutOptions: { ...ROOT_OPTIONS, "elk.direction": direction },
    children: [rootNode],
    edges: wrapperEdges,
  };
  return { graph, states, edges, initials, direction };
}

function pointsOf(edge: ElkExtendedEdge): Point[] {
  const points: Point[] = [];
  for (const section of edge.sections ?? []) {
    for (const p of [section.startPoint, ...(section.bendPoints ?? []), section.endPoint]) {
      const last = points[points.length - 1];
      if (!last || last.x !== p.x || last.y !== p.y) points.push({ x: p.x, y: p.y });
    }
  }
  return points;
}

/** Reads ELK's answer back into the diagram the component draws. */
function diagramOf(chart: Chart, model: GraphModel, laid: ElkNode): Diagram {
  const boxes = new Map<string, Box>();
  const laidEdges = new Map<string, ElkExtendedEdge>();
  const walk = (node: ElkNode) => {
    boxes.set(node.id, { x: node.x ?? 0, y: node.y ?? 0, width: node.width ?? 0, height: node.height ?? 0 });
    for (const edge of node.edges ?? []) laidEdges.set(edge.id, edge);
    for (const child of node.children ?? []) walk(child);
  };
  walk(laid);

  const stateOf = (state: ChartState): DiagramState => {
    const info = model.states.get(state.path)!;
    const box = boxes.get(state.path)!;
    return {
      ...box,
      path: state.path,
      key: state.key,
      type: state.type,
      root: info.parent === null,
      region: info.region,
      initial: info.initial,
      description: state.description,
      lines: info.lines,
      summary: summaryOf(state, chart.root.path),
      states: state.states.map(stateOf),
    };
  };
  const root = stateOf(chart.root);

  // A parallel state's regions sit in successive layers and ELK centres each on its own;
  // stretched to one top and one bottom (one left and one right, drawn down) they read as
  // the columns (rows) they are.
  const [start, size] = model.direction === "RIGHT" ? (["y", "height"] as const) : (["x", "width"] as const);
  const alignRegions = (state: DiagramState) => {
    if (state.type === "parallel" && state.states.length > 1) {
      const first = Math.min(...state.states.map((r) => r[start]));
      const last = Math.max(...state.states.map((r) => r[start] + r[size]));
      for (const region of state.states) {
        region[start] = first;
        region[size] = last - first;
      }
    }
    state.states.forEach(alignRegions);
  };
  alignRegions(root);

  const edges: DiagramEdge[] = [];
  for (const [id, info] of model.edges) {
    const laidEdge = laidEdges.get(id);
    const label = laidEdge?.labels?.[0];
    edges.push({
      id,
      ...info,
      points: laidEdge ? pointsOf(laidEdge) : [],
      label: label ? { x: label.x ?? 0, y: label.y ?? 0, width: label.width ?? 0, height: label.height ?? 0 } : null,
    });
  }
  const initials: InitialArrow[] = [];
  for (const [id, info] of model.initials) {
    const dot = boxes.get(id)!;
    const laidEdge = laidEdges.get(`${id}->${info.target}`);
    initials.push({
      ...info,
      dot: { x: dot.x + dot.width / 2, y: dot.y + dot.height / 2 },
      points: laidEdge ? pointsOf(laidEdge) : [],
    });
  }
  const whole = boxes.get(model.graph.id)!;
  return { width: Math.ceil(whole.width), height: Math.ceil(whole.height), direction: model.direction, root, edges, initials };
}

let elk: InstanceType<typeof ELK> | null = null;

// ELK's tuned strategies have crashed on some hierarchies (its model-order comparator did, on
// a parallel state); a plainer layout of the same graph is better than no drawing.
const TUNING = ["elk.layered.cycleBreaking.strategy", "elk.layered.nodePlacement.strategy"];
function untuned(node: ElkNode): ElkNode {
  const layoutOptions = node.layoutOptions && Object.fromEntries(Object.entries(node.layoutOptions).filter(([k]) => !TUNING.includes(k)));
  return { ...node, layoutOptions, children: node.children?.map(untuned) };
}

/** A diagram's drawn width on a wide screen; one wider is shrunk to it, and past this it is hard to read. */
export const READABLE_WIDTH = 1300;
const fitScale = (diagram: Diagram) => Math.min(1, READABLE_WIDTH / diagram.width);

async function layoutIn(chart: Chart, measure: Measure, direction: Direction): Promise<Diagram> {
  const model = chartGraph(chart, measure, direction);
  elk ??= new ELK();
  let laid: ElkNode;
  try {
    laid = await elk.layout(structuredClone(model.graph));
  } catch {
    laid = await elk.layout(untuned(structuredClone(model.graph)));
  }
  return diagramOf(chart, model, laid);
}

/**
 * Lays a chart out, left to right; a machine too wide to read so (the run machine, whose
 * states run in a long chain with another inside it) is laid out top to bottom too, and
 * drawn so when that shrinks it less (`direction` forces one). ELK's bundled build runs in the calling thread (no
 * worker, no eval), so it needs nothing the page's Content-Security-Policy forbids.
 */
export async function layoutChart(chart: Chart, measure: Measure, direction?: Direction): Promise<Diagram> {
  if (direction !== undefined) return layoutIn(chart, measure, direction);
  const across = await layoutIn(chart, measure, "RIGHT");
  if (across.width <= READABLE_WIDTH) return across;
  const down = await layoutIn(chart, measure, "DOWN");
  return fitScale(down) > fitScale(across) ? down : across;
}
