// The statechart drawing's graph (ui/components/statechartGraph.ts, statechartLayout.ts): what ELK is handed for
// a chart read off a machine, and what comes back from ELK's layout, checked in Node against
// the IDE's own machines and a small machine with every shape they lack (a state nested two
// deep, arrows across levels, a transition with two targets, a final state).
import { setup } from "xstate";
import { describe, expect, it } from "vitest";
import type { ElkExtendedEdge, ElkNode } from "elkjs/lib/elk-api.js";
import { createIde } from "../../index.ts";
import { chartOf, machineCharts } from "../../drivers/view/charts.ts";
import type { Chart, ChartState } from "../../drivers/view/messages.ts";
import { READABLE_WIDTH, layoutChart } from "../../ui/components/statechartLayout.ts";
import { chartGraph, edgeId, initialNodeId } from "../../ui/components/statechartGraph.ts";
import { rowsOf, transitionLines } from "../../ui/components/statechartShapes.ts";
import type { Box, DiagramState, Measure, Point } from "../../ui/components/statechartShapes.ts";

const measure: Measure = (text, kind) => text.length * (kind === "name" ? 8 : 6.6);

const door = setup({ guards: { hasKey: () => true, isLoud: () => false } }).createMachine({
  id: "door",
  initial: "closed",
  on: { "door.inspect": {} },
  states: {
    closed: {
      initial: "unlocked",
      on: { "door.open": { target: "open", guard: "hasKey" }, "door.knock": {} },
      states: {
        unlocked: { on: { "door.lock": "locked" } },
        locked: { on: { "door.unlock": "unlocked", "door.force": "#door.open", "door.rattle": { guard: "isLoud" } } },
      },
    },
    open: {
      type: "parallel",
      on: {
        "door.slam": ".hinge.moving",
        "door.wave": { target: "open", reenter: true },
        "door.reset": { target: [".hinge.still", ".light.off"] },
        "door.remove": "gone",
      },
      states: {
        hinge: {
          initial: "still",
          states: { still: { on: { "hinge.creak": "moving" } }, moving: { on: { "hinge.stop": "still", "door.shut": "#door.closed.locked" } } },
        },
        light: { initial: "off", states: { off: { on: { "light.toggle": "on" } }, on: { on: { "light.toggle": "off" } } } },
      },
    },
    gone: { type: "final" },
  },
});

function ideCharts(): Chart[] {
  const ide = createIde();
  try {
    return machineCharts(ide);
  } finally {
    ide.stop();
  }
}
const charts: Chart[] = [chartOf(door), ...ideCharts()];

function statesOf(state: ChartState, parent: string | null = null): Array<{ state: ChartState; parent: string | null }> {
  return [{ state, parent }, ...state.states.flatMap((child) => statesOf(child, state.path))];
}

/** Every node of an ELK graph with the id of the node holding it, and every edge with its holder. */
function walkGraph(graph: ElkNode) {
  const parents = new Map<string, string>();
  const edges: Array<{ edge: ElkExtendedEdge; holder: string }> = [];
  const walk = (node: ElkNode) => {
    for (const edge of node.edges ?? []) edges.push({ edge, holder: node.id });
    for (const child of node.children ?? []) {
      parents.set(child.id, node.id);
      walk(child);
    }
  };
  walk(graph);
  return { parents, edges };
}

const isInternal = (id: string) => id.includes("#");

describe("the graph a statechart hands ELK", () => {
  it("makes every state a node nested in its parent state's node", () => {
    for (const chart of charts) {
      const { graph } = chartGraph(chart, measure);
      const { parents } = walkGraph(graph);
      const states = statesOf(chart.root);
      expect([...parents.keys()].filter((id) => !isInternal(id)).sort()).toEqual(states.map((s) => s.state.path).sort());
      for (const { state, parent } of states) {
        expect(parents.get(state.path), state.path).toBe(parent ?? graph.id);
      }
    }
  });

  it("makes every transition to another state an edge from its source to its target, labelled with its event", () => {
    for (const chart of charts) {
      const { graph } = chartGraph(chart, measure);
      const drawn = walkGraph(graph).edges.filter(({ edge }) => !isInternal(edge.id));
      const expected = new Set<string>();
      for (const { state } of statesOf(chart.root)) {
        for (const t of state.transitions) {
          for (const target of t.targets.filter((target) => target !== state.path)) {
            expected.add(edgeId(state.path, target));
            const edge = drawn.find(({ edge }) => edge.id === edgeId(state.path, target))?.edge;
            expect(edge, `${state.path} --${t.event}--> ${target}`).toBeDefined();
            expect(edge!.sources).toEqual([state.path]);
            expect(edge!.targets).toEqual([target]);
            expect(edge!.labels?.[0].text?.split("\n")).toContain(t.event);
          }
        }
      }
      // One edge per pair of states, and none that the machine does not have.
      expect(drawn.map(({ edge }) => edge.id).sort()).toEqual([...expected].sort());
    }
    // A guard is written under its event.
    const { graph } = chartGraph(chartOf(door), measure);
    const opening = walkGraph(graph).edges.find(({ edge }) => edge.id === edgeId("door.closed", "door.open"))!.edge;
    expect(opening.labels?.[0].text).toBe("door.open\n[hasKey]");
  });

  it("keeps targetless and re-entering transitions inside their state as lines, never as edges", () => {
    const model = chartGraph(chartOf(door), measure);
    const edges = walkGraph(model.graph).edges.map(({ edge }) => edge);
    expect(edges.filter((e) => e.sources[0] === e.targets[0])).toEqual([]);
    expect(model.states.get("door")!.lines.map((l) => [l.kind, l.text])).toEqual([["stays", "door.inspect"]]);
    expect(model.states.get("door.closed")!.lines.map((l) => [l.kind, l.text])).toEqual([["stays", "door.knock"]]);
    expect(model.states.get("door.closed.locked")!.lines.map((l) => [l.kind, l.text])).toEqual([["stays", "door.rattle [isLoud]"]]);
    expect(model.states.get("door.open")!.lines.map((l) => [l.kind, l.text])).toEqual([["reenters", "door.wave"]]);
    // Every target of a transition with two is an edge of its own.
    expect(edges.map((e) => e.id)).toEqual(
      expect.arrayContaining([edgeId("door.open", "door.open.hinge.still"), edgeId("door.open", "door.open.light.off")]),
    );
  });

  it("holds each edge in the nearest state that contains both its ends", () => {
    for (const chart of charts) {
      const { graph } = chartGraph(chart, measure);
      const { parents, edges } = walkGraph(graph);
      const chain = (id: string) => {
        const ids = [id];
        for (let p = parents.get(id); p; p = parents.get(p)) ids.push(p);
        return ids;
      };
      for (const { edge, holder } of edges) {
        expect(chain(edge.sources[0]), edge.id).toContain(holder);
        expect(chain(edge.targets[0]), edge.id).toContain(holder);
      }
    }
    const { edges } = walkGraph(chartGraph(chartOf(door), measure).graph);
    const holderOf = (id: string) => edges.find(({ edge }) => edge.id === id)?.holder;
    expect(holderOf(edgeId("door.closed.locked", "door.open"))).toBe("door");
    expect(holderOf(edgeId("door.open.hinge.moving", "door.closed.locked"))).toBe("door");
    expect(holderOf(edgeId("door.open", "door.open.hinge.moving"))).toBe("door.open");
  });

  it("points an initial dot at each compound state's initial child, and chains parallel regions so they sit side by side", () => {
    const { graph, initials } = chartGraph(chartOf(door), measure);
    const edges = walkGraph(graph).edges.map(({ edge }) => edge);
    for (const [parent, child] of [
      ["door", "door.closed"],
      ["door.closed", "door.closed.unlocked"],
      ["door.open.hinge", "door.open.hinge.still"],
      ["door.open.light", "door.open.light.off"],
    ]) {
      expect(initials.get(initialNodeId(parent))).toEqual({ parent, target: child });
      expect(edges.some((e) => e.sources[0] === initialNodeId(parent) && e.targets[0] === child)).toBe(true);
    }
    // A parallel state has no initial child.
    expect(initials.has(initialNodeId("door.open"))).toBe(false);
    expect(edges.some((e) => e.sources[0] === "door.open.hinge" && e.targets[0] === "door.open.light")).toBe(true);
  });

  it("says an event alone when its unguarded transition is among those drawn together, and each guard otherwise", () => {
    const t = (event: string, guard: string | null) => ({ event, guard, targets: [], actions: [] });
    expect(transitionLines([t("a", "g1"), t("a", null), t("b", "g2"), t("b", "g3"), t("a", "g4")]).map((l) => l.text)).toEqual([
      "a",
      "b [g2]",
      "b [g3]",
    ]);
    expect(rowsOf(transitionLines([t("a", null), t("b", "g")])).map((r) => r.text)).toEqual(["a", "b", "[g]"]);
  });
});

const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5;
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
/** How far a point is from a box's outline. */
function offBorder(p: Point, box: Box): number {
  const dx = Math.max(box.x - p.x, 0, p.x - (box.x + box.width));
  const dy = Math.max(box.y - p.y, 0, p.y - (box.y + box.height));
  if (dx > 0 || dy > 0) return Math.hypot(dx, dy);
  return Math.min(p.x - box.x, box.x + box.width - p.x, p.y - box.y, box.y + box.height - p.y);
}
const flatten = (s: DiagramState): DiagramState[] => [s, ...s.states.flatMap(flatten)];

describe("a statechart laid out by ELK", () => {
  it("puts each state inside its parent and runs each arrow from its source's outline to its target's", async () => {
    for (const chart of charts) {
      const diagram = await layoutChart(chart, measure);
      const states = flatten(diagram.root);
      const byPath = new Map(states.map((s) => [s.path, s]));
      expect(inside(diagram.root, { x: 0, y: 0, width: diagram.width, height: diagram.height })).toBe(true);
      for (const state of states) {
        for (const child of state.states) expect(inside(child, state), `${child.path} in ${state.path}`).toBe(true);
      }
      expect(diagram.edges.length).toBeGreaterThan(0);
      for (const edge of diagram.edges) {
        expect(edge.points.length, edge.id).toBeGreaterThanOrEqual(2);
        expect(offBorder(edge.points[0], byPath.get(edge.source)!), `${edge.id} leaves its source`).toBeLessThan(1.5);
        expect(offBorder(edge.points[edge.points.length - 1], byPath.get(edge.target)!), `${edge.id} reaches its target`).toBeLessThan(1.5);
      }
      for (const initial of diagram.initials) {
        expect(offBorder(initial.points[initial.points.length - 1], byPath.get(initial.target)!)).toBeLessThan(1.5);
      }
    }
  });

  it("places no edge label over another label or over a state without children", async () => {
    for (const chart of charts) {
      const diagram = await layoutChart(chart, measure);
      const labels = diagram.edges.map((e) => e.label!);
      const leaves = flatten(diagram.root).filter((s) => s.states.length === 0);
      labels.forEach((label, i) => {
        expect(label, diagram.edges[i].id).not.toBeNull();
        for (const other of labels.slice(i + 1)) expect(overlaps(label, other), `${diagram.edges[i].id} label`).toBe(false);
        for (const leaf of leaves) expect(overlaps(label, leaf), `${diagram.edges[i].id} label on ${leaf.path}`).toBe(false);
      });
    }
  });

  it("lays out top to bottom a machine too wide to read across (the run machine), when that shrinks it less", async () => {
    for (const chart of charts) {
      const diagram = await layoutChart(chart, measure);
      const across = await layoutChart(chart, measure, "RIGHT");
      if (across.width <= READABLE_WIDTH) {
        expect(diagram, chart.actor).toEqual(across);
        continue;
      }
      const down = await layoutChart(chart, measure, "DOWN");
      expect(diagram, chart.actor).toEqual(down.width < across.width ? down : across);
      if (chart.actor === "testRunner") expect(diagram.direction).toBe("DOWN");
    }
  });

  it("stacks a parallel state's regions, one width, when the diagram runs down", async () => {
    const diagram = await layoutChart(chartOf(door), measure, "DOWN");
    const open = diagram.root.states.find((s) => s.key === "open")!;
    const [hinge, light] = open.states;
    expect(light.x).toBe(hinge.x);
    expect(light.width).toBe(hinge.width);
    expect(light.y).toBeGreaterThanOrEqual(hinge.y + hinge.height);
    for (const region of open.states) expect(inside(region, open), region.path).toBe(true);
  });

  it("sets a parallel state's regions side by side, one height, in the machine's order", async () => {
    const diagram = await layoutChart(chartOf(door), measure, "RIGHT");
    const open = diagram.root.states.find((s) => s.key === "open")!;
    const [hinge, light] = open.states;
    expect([hinge.key, light.key]).toEqual(["hinge", "light"]);
    expect([hinge.region, light.region]).toEqual([true, true]);
    expect(light.y).toBe(hinge.y);
    expect(light.height).toBe(hinge.height);
    expect(light.x).toBeGreaterThanOrEqual(hinge.x + hinge.width);
  });
});
