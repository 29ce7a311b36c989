// A live statechart of each machine, drawn from the chart JSON the host reads off the
// running machines (drivers/view/charts.ts), each in its own panel: the diagram itself is
// StatechartDiagram.tsx. Nothing here knows the machines; a new state shows up by itself.
import type { Chart, ChartValues } from "../protocol.ts";
import { StatechartDiagram } from "./StatechartDiagram.tsx";

type StateValue = ChartValues[string];

/** Paths of every active state node, the root included, from a machine's state value. */
export function activePaths(rootPath: string, value: StateValue | undefined): Set<string> {
  const active = new Set<string>([rootPath]);
  const walk = (prefix: string, v: StateValue) => {
    if (typeof v === "string") {
      active.add(`${prefix}.${v}`);
      return;
    }
    for (const [key, child] of Object.entries(v)) {
      active.add(`${prefix}.${key}`);
      if (child !== undefined) walk(`${prefix}.${key}`, child as StateValue);
    }
  };
  if (value !== undefined) walk(rootPath, value);
  return active;
}

export function Statecharts({ charts, values }: { charts: Chart[]; values: ChartValues }) {
  return (
    <section class="panel charts-panel" aria-labelledby="charts-heading" data-testid="statecharts">
      <h2 id="charts-heading">Statecharts</h2>
      <p class="hint">
        Drawn from the running machines; the current states are highlighted. Arrows are transitions, labelled with their
        events and [guards]; events listed inside a state keep it where it is (↻: leave and re-enter it).
      </p>
      <div class="charts">
        {charts.map((chart) => (
          <figure class="chart" key={chart.actor} data-testid={`chart-${chart.actor}`}>
            <figcaption>
              <strong>{chart.actor}</strong>{" "}
              <code data-testid={`chart-value-${chart.actor}`}>{JSON.stringify(values[chart.actor] ?? null)}</code>
            </figcaption>
            <div class="chart-canvas">
              <StatechartDiagram chart={chart} active={activePaths(chart.root.path, values[chart.actor])} />
            </div>
          </figure>
        ))}
      </div>
    </section>
  );
}
