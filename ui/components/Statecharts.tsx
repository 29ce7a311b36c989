// A live statechart of each machine, drawn from the chart JSON the host reads off the
// running machines (adapters/host/charts.ts): states are nested boxes, parallel regions sit
// side by side, the current states are highlighted, and each state lists its transitions
// as "event → target". Nothing here knows the machines; a new state shows up by itself.
import type { Chart, ChartState, ChartTransition, ChartValues } from "../protocol.ts";

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

function Transition({ t, root }: { t: ChartTransition; root: string }) {
  const targets = t.targets.map((target) => (target.startsWith(`${root}.`) ? target.slice(root.length + 1) : target));
  return (
    <li class="transition" title={t.actions.length > 0 ? `actions: ${t.actions.join(", ")}` : "no actions"}>
      <span class="event">{t.event}</span>
      {t.guard !== null && <span class="guard"> [{t.guard}]</span>}
      <span class="arrow"> → </span>
      <span class="target">{targets.length > 0 ? targets.join(", ") : "(stays)"}</span>
    </li>
  );
}

function StateBox({
  state,
  root,
  active,
  initial,
}: {
  state: ChartState;
  root: string;
  active: Set<string>;
  initial: boolean;
}) {
  const isActive = active.has(state.path);
  const classes = ["state", `state-${state.type}`, isActive ? "active" : "", initial ? "initial" : ""].filter(Boolean);
  return (
    <div class={classes.join(" ")} data-testid={`state-${state.path}`} data-active={isActive ? "true" : "false"}>
      <div class="state-name">
        {initial && (
          <span class="initial-marker" title="initial state">
            ●→{" "}
          </span>
        )}
        {state.key}
        {state.type === "parallel" && <span class="state-type"> (parallel)</span>}
        {state.type === "final" && <span class="state-type"> (final)</span>}
      </div>
      {state.description !== null && <p class="state-description">{state.description}</p>}
      {state.transitions.length > 0 && (
        <ul class="transitions">
          {state.transitions.map((t, i) => (
            <Transition key={i} t={t} root={root} />
          ))}
        </ul>
      )}
      {state.states.length > 0 && (
        <div class={state.type === "parallel" ? "regions regions-parallel" : "regions"}>
          {state.states.map((child) => (
            <StateBox
              key={child.key}
              state={child}
              root={root}
              active={active}
              initial={state.type === "compound" && state.initial === child.key}
            />
          ))}
        </div>
      )}
    </div>
  );
}

export function Statecharts({ charts, values }: { charts: Chart[]; values: ChartValues }) {
  return (
    <section class="panel charts-panel" aria-labelledby="charts-heading" data-testid="statecharts">
      <h2 id="charts-heading">Statecharts</h2>
      <p class="hint">Drawn from the running machines; the current states are highlighted.</p>
      <div class="charts">
        {charts.map((chart) => (
          <figure class="chart" key={chart.actor} data-testid={`chart-${chart.actor}`}>
            <figcaption>
              <strong>{chart.actor}</strong>{" "}
              <code data-testid={`chart-value-${chart.actor}`}>{JSON.stringify(values[chart.actor] ?? null)}</code>
            </figcaption>
            <StateBox
              state={chart.root}
              root={chart.root.path}
              active={activePaths(chart.root.path, values[chart.actor])}
              initial={false}
            />
          </figure>
        ))}
      </div>
    </section>
  );
}
