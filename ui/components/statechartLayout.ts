// Turns a machine's chart (drivers/view/charts.ts) into a laid-out statechart drawing: the
// graph handed to ELK's layered algorithm (states as nested nodes, transitions as labelled
// edges) and, from ELK's answer, plain boxes, polylines and label boxes in one coordinate
// system that the SVG component draws as they are. Text is measured by the caller (a canvas
// in the page, a stand-in in tests), so this module needs no DOM and runs under Node too.
//
// The graph handed to ELK: statechartGraph.ts; the drawing's shapes and text: statechartShapes.ts.
import ELK from "elkjs/lib/elk.bundled.js";
import type { ElkExtendedEdge, ElkNode } from "elkjs/lib/elk-api.js";
import type { Chart, ChartState } from "../protocol.ts";
import { chartGraph, summaryOf } from "./statechartGraph.ts";
import type { GraphModel } from "./statechartGraph.ts";
import type { Box, Diagram, Direction, DiagramEdge, DiagramState, InitialArrow, Measure, Point } from "./statechartShapes.ts";

// What the component draws with, where it has always found it.
export { cssFont, FONTS, METRICS, REENTER_MARK, rowsOf } from "./statechartShapes.ts";
export type { Diagram, DiagramEdge, DiagramState, InitialArrow, Measure, Point, TextKind } from "./statechartShapes.ts";

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
