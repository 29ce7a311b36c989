// One machine's statechart as inline SVG: rounded state boxes nested as the machine nests
// them, an arrow for every transition to another state labelled with its events, and the
// current states highlighted. The layout (ELK, statechartLayout.ts) runs once per chart and
// is cached; the highlight is only classes on the drawn boxes, so it moves with the machine
// without laying anything out again. Everything is attributes and classes: the page's
// Content-Security-Policy forbids inline styles.
import { useEffect, useMemo, useState } from "preact/hooks";
import { messageOf } from "../../services/errors.ts";
import type { Chart } from "../protocol.ts";
import { cssFont, FONTS, layoutChart, METRICS, REENTER_MARK, rowsOf } from "./statechartLayout.ts";
import type { Diagram, DiagramEdge, DiagramState, InitialArrow, Measure, Point, TextKind } from "./statechartLayout.ts";

let measureText: Measure | null = null;
/** Text widths from the browser's own font metrics, the fonts the SVG text is drawn in. */
function browserMeasure(): Measure {
  if (measureText) return measureText;
  const context = document.createElement("canvas").getContext("2d");
  const widths = new Map<string, number>();
  measureText = (text, kind) => {
    const key = `${kind}\u0000${text}`;
    let width = widths.get(key);
    if (width === undefined) {
      if (context) {
        context.font = cssFont(kind);
        width = context.measureText(text).width;
      } else {
        width = text.length * FONTS[kind].size * 0.62;
      }
      widths.set(key, width);
    }
    return width;
  };
  return measureText;
}

// The chart never changes while a host runs; a page that reconnects gets an equal chart
// again, and finds its layout here.
const layouts = new Map<string, Promise<Diagram>>();
function layoutOnce(chart: Chart, key: string): Promise<Diagram> {
  let layout = layouts.get(key);
  if (!layout) {
    layout = layoutChart(chart, browserMeasure());
    layouts.set(key, layout);
    layout.catch(() => layouts.delete(key));
  }
  return layout;
}

type LayoutState = { key: string; diagram: Diagram } | { key: string; error: string };

function useDiagram(chart: Chart): Diagram | { error: string } | null {
  const key = useMemo(() => JSON.stringify(chart), [chart]);
  const [state, setState] = useState<LayoutState | null>(null);
  useEffect(() => {
    let current = true;
    layoutOnce(chart, key).then(
      (diagram) => current && setState({ key, diagram }),
      (error: unknown) => current && setState({ key, error: messageOf(error) }),
    );
    return () => {
      current = false;
    };
  }, [key]);
  if (state === null || state.key !== key) return null;
  return "diagram" in state ? state.diagram : { error: state.error };
}

const fontAttributes = (kind: TextKind) => ({
  "font-family": FONTS[kind].family,
  "font-size": FONTS[kind].size,
  "font-weight": FONTS[kind].weight,
});

const round = (n: number) => Math.round(n * 10) / 10;
const pt = (p: Point) => `${round(p.x)},${round(p.y)}`;

const ARROW_LENGTH = 8;
const ARROW_HALF_WIDTH = 4;

/** An orthogonal route with rounded bends, stopping short of the end for the arrowhead. */
function routePath(points: Point[], arrow: boolean): string {
  if (points.length < 2) return "";
  const route = points.slice();
  if (arrow) {
    const end = route[route.length - 1];
    const before = route[route.length - 2];
    const length = Math.hypot(end.x - before.x, end.y - before.y) || 1;
    const back = Math.min(ARROW_LENGTH - 1, length);
    route[route.length - 1] = { x: end.x - ((end.x - before.x) / length) * back, y: end.y - ((end.y - before.y) / length) * back };
  }
  let d = `M${pt(route[0])}`;
  for (let i = 1; i < route.length - 1; i++) {
    const [prev, corner, next] = [route[i - 1], route[i], route[i + 1]];
    const inLength = Math.hypot(corner.x - prev.x, corner.y - prev.y);
    const outLength = Math.hypot(next.x - corner.x, next.y - corner.y);
    const r = Math.min(7, inLength / 2, outLength / 2);
    if (r < 0.5) {
      d += ` L${pt(corner)}`;
      continue;
    }
    const a = { x: corner.x - ((corner.x - prev.x) / inLength) * r, y: corner.y - ((corner.y - prev.y) / inLength) * r };
    const b = { x: corner.x + ((next.x - corner.x) / outLength) * r, y: corner.y + ((next.y - corner.y) / outLength) * r };
    d += ` L${pt(a)} Q${pt(corner)} ${pt(b)}`;
  }
  return `${d} L${pt(route[route.length - 1])}`;
}

/** A filled triangle at the route's end, pointing along its last segment. */
function arrowHead(points: Point[]): string {
  if (points.length < 2) return "";
  const end = points[points.length - 1];
  const before = points[points.length - 2];
  const length = Math.hypot(end.x - before.x, end.y - before.y) || 1;
  const ux = (end.x - before.x) / length;
  const uy = (end.y - before.y) / length;
  const base = { x: end.x - ux * ARROW_LENGTH, y: end.y - uy * ARROW_LENGTH };
  const left = { x: base.x - uy * ARROW_HALF_WIDTH, y: base.y + ux * ARROW_HALF_WIDTH };
  const right = { x: base.x + uy * ARROW_HALF_WIDTH, y: base.y - ux * ARROW_HALF_WIDTH };
  return `M${pt(end)} L${pt(left)} L${pt(right)} Z`;
}

function StateNode({ state, active }: { state: DiagramState; active: Set<string> }) {
  const isActive = active.has(state.path);
  const classes = [
    "state",
    `state-${state.type}`,
    state.root ? "state-root" : "",
    state.region ? "state-region" : "",
    state.initial ? "initial" : "",
    isActive ? "active" : "",
  ].filter(Boolean);
  const { x, y, width, height } = state;
  const linesTop = y + METRICS.header + 4;
  // A box holding only its name has the name in its middle; any other has it on top.
  const nameY = state.lines.length === 0 && state.states.length === 0 ? y + height / 2 + 4.5 : y + METRICS.nameBaseline;
  return (
    <g
      class={classes.join(" ")}
      role="group"
      data-testid={`state-${state.path}`}
      data-active={isActive ? "true" : "false"}
      aria-current={isActive && !state.root ? "true" : undefined}
    >
      <title>
        {state.key}
        {state.initial ? " (initial)" : ""}
        {isActive && !state.root ? " (current)" : ""}
        {state.description !== null ? `: ${state.description}` : ""}
      </title>
      {state.summary.length > 0 && <desc>{state.summary.join("; ")}</desc>}
      <rect class="state-box" x={x} y={y} width={width} height={height} rx={state.root ? 10 : 8} />
      {state.type === "final" && (
        <rect class="state-final-ring" x={x + 3} y={y + 3} width={width - 6} height={height - 6} rx={6} />
      )}
      <text class="state-name" x={x + METRICS.padX} y={nameY} {...fontAttributes("name")}>
        {state.key}
      </text>
      {state.lines.length > 0 && (
        <line class="state-divider" x1={x} x2={x + width} y1={y + METRICS.header} y2={y + METRICS.header} />
      )}
      {rowsOf(state.lines).map((row, i) => (
        <text
          key={i}
          class={row.part === "guard" ? `state-line state-line-${row.line.kind} guard` : `state-line state-line-${row.line.kind}`}
          data-testid={row.part === "event" ? "state-transition" : undefined}
          data-event={row.part === "event" ? row.line.event : undefined}
          data-guard={row.part === "event" ? (row.line.guard ?? undefined) : undefined}
          data-kind={row.part === "event" ? row.line.kind : undefined}
          x={x + METRICS.padX + (row.part === "guard" ? METRICS.guardIndent : 0)}
          y={linesTop + i * METRICS.lineHeight + METRICS.lineBaseline}
          {...fontAttributes("line")}
        >
          {row.text}
          {row.part === "event" && row.line.kind === "reenters" && <tspan class="reenter-mark">{REENTER_MARK}</tspan>}
        </text>
      ))}
      {state.states.map((child) => (
        <StateNode key={child.path} state={child} active={active} />
      ))}
    </g>
  );
}

const keyOf = (path: string) => path.slice(path.lastIndexOf(".") + 1);

function EdgeLine({ edge, active }: { edge: DiagramEdge; active: Set<string> }) {
  return (
    <g
      class={active.has(edge.source) ? "edge from-active" : "edge"}
      data-testid="edge"
      data-source={edge.source}
      data-target={edge.target}
    >
      <title>{`${keyOf(edge.source)} → ${keyOf(edge.target)}: ${edge.lines.map((l) => l.text).join(", ")}`}</title>
      <path class="edge-path" d={routePath(edge.points, true)} />
      <path class="edge-head" d={arrowHead(edge.points)} />
    </g>
  );
}

function EdgeLabel({ edge, active }: { edge: DiagramEdge; active: Set<string> }) {
  const label = edge.label;
  if (!label) return null;
  const rows = rowsOf(edge.lines);
  return (
    <g class={active.has(edge.source) ? "edge-label from-active" : "edge-label"}>
      <rect class="edge-label-box" x={label.x} y={label.y} width={label.width} height={label.height} rx={3} />
      {rows.map((row, i) => (
        <text
          key={i}
          class={row.part === "guard" ? "edge-text guard" : "edge-text"}
          data-testid={row.part === "event" ? "transition" : undefined}
          data-event={row.part === "event" ? row.line.event : undefined}
          data-guard={row.part === "event" ? (row.line.guard ?? undefined) : undefined}
          data-source={row.part === "event" ? edge.source : undefined}
          data-target={row.part === "event" ? edge.target : undefined}
          x={label.x + METRICS.labelPadX + (row.part === "guard" ? METRICS.guardIndent : 0)}
          y={label.y + METRICS.labelPadY + i * METRICS.lineHeight + METRICS.lineBaseline}
          {...fontAttributes("line")}
        >
          {row.text}
        </text>
      ))}
    </g>
  );
}

function Initial({ initial }: { initial: InitialArrow }) {
  return (
    <g class="initial-arrow" data-testid={`initial-${initial.parent}`} data-target={initial.target}>
      <circle class="initial-dot" cx={initial.dot.x} cy={initial.dot.y} r={4} />
      <path class="edge-path" d={routePath(initial.points, true)} />
      <path class="edge-head" d={arrowHead(initial.points)} />
    </g>
  );
}

export function StatechartDiagram({ chart, active }: { chart: Chart; active: Set<string> }) {
  const diagram = useDiagram(chart);
  if (diagram === null) {
    return (
      <p class="chart-pending" role="status" data-testid={`chart-pending-${chart.actor}`}>
        Laying out…
      </p>
    );
  }
  if ("error" in diagram) {
    return (
      <p class="chart-error" role="alert">
        The statechart could not be laid out: {diagram.error}
      </p>
    );
  }
  return (
    <svg
      class="statechart"
      data-testid={`diagram-${chart.actor}`}
      role="group"
      aria-label={`Statechart of ${chart.actor}`}
      viewBox={`0 0 ${diagram.width} ${diagram.height}`}
      width={diagram.width}
      height={diagram.height}
    >
      <StateNode state={diagram.root} active={active} />
      {diagram.initials.map((initial) => (
        <Initial key={initial.parent} initial={initial} />
      ))}
      {diagram.edges.map((edge) => (
        <EdgeLine key={edge.id} edge={edge} active={active} />
      ))}
      {diagram.edges.map((edge) => (
        <EdgeLabel key={edge.id} edge={edge} active={active} />
      ))}
    </svg>
  );
}
