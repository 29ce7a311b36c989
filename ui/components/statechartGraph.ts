// The graph a chart (drivers/view/charts.ts) is handed to ELK's layered algorithm as: states
// as nested nodes sized for their text, transitions as labelled edges, each initial state's
// marker as a node of its own, and the options each level is laid out with; kept beside it,
// what each node and edge stands for, to read ELK's answer back (statechartLayout.ts).
import type { ElkExtendedEdge, ElkNode } from "elkjs/lib/elk-api.js";
import type { Chart, ChartState, ChartTransition } from "../protocol.ts";
import { lineText, METRICS, rowsOf, rowWidth, transitionLines } from "./statechartShapes.ts";
import type { BoxLine, Direction, Measure, TransitionLine } from "./statechartShapes.ts";

const relative = (root: string, path: string) => (path.startsWith(`${root}.`) ? path.slice(root.length + 1) : path);

export function summaryOf(state: ChartState, root: string): string[] {
  return state.transitions.map((t) => {
    const targets = t.targets.map((target) => relative(root, target));
    return `${lineText(t.event, t.guard)} → ${targets.length > 0 ? targets.join(", ") : "(stays)"}`;
  });
}

/** Ids of the nodes ELK gets that are not states; `#` keeps them apart from state paths. */
export const initialNodeId = (parent: string) => `${parent}#initial`;
export const edgeId = (source: string, target: string) => `${source}->${target}`;
const regionOrderId = (before: string, after: string) => `${before}#before#${after}`;

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
export interface GraphModel {
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
