// Statecharts for the UI, read from the running machines themselves rather than drawn by
// hand: a picture kept beside the code goes stale the first time a transition changes,
// while one walked from the machine's state nodes cannot disagree with what runs. The
// result is plain JSON (types in messages.ts; the UI page gets it from its relay, relay.ts,
// over a socket or in the same page), plus the current state value of each running actor so
// the page can highlight where each machine is.
import type { AnyStateMachine } from "xstate";
import type { Ide } from "../../core/ide.ts";
import { machineActors } from "../../machines/ide.selectors.ts";
import type { Chart, ChartState, ChartStateType, ChartTransition, ChartValues } from "./messages.ts";

// StateNode's public shape is generic over every machine; the walk needs only this much.
interface NodeLike {
  key: string;
  path: string[];
  type: ChartStateType;
  description?: string;
  states: Record<string, NodeLike>;
  transitions: Map<string, TransitionLike[]>;
  always?: TransitionLike[];
  initial: { target: ReadonlyArray<NodeLike> };
  invoke: Array<{ id: string; src: unknown }>;
  machine: { id: string };
}
interface TransitionLike {
  target?: ReadonlyArray<NodeLike>;
  guard?: unknown;
  actions: readonly unknown[];
}

/** Named guards and actions are strings or `{ type }`; an inline function has only its name. */
function nameOf(thing: unknown): string {
  if (typeof thing === "string") return thing;
  if (typeof thing === "function") return thing.name || "(inline)";
  if (thing && typeof thing === "object" && "type" in thing && typeof thing.type === "string") return thing.type;
  return "(inline)";
}

const pathOf = (node: NodeLike) => [node.machine.id, ...node.path].join(".");

/** XState's internal event names for invoked actors and delays, said as the config says them. */
function eventName(node: NodeLike, event: string): string {
  const done = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event);
  if (done) {
    const invoked = node.invoke.find((i) => i.id === done[2]);
    const src = invoked ? (typeof invoked.src === "string" ? invoked.src : nameOf(invoked.src)) : done[2];
    return `${done[1]}: ${src}`;
  }
  const after = /^xstate\.after\.([^.]+)\./.exec(event);
  if (after) return `after ${after[1]}`;
  return event;
}

function transitionOf(event: string, t: TransitionLike): ChartTransition {
  return {
    event,
    targets: (t.target ?? []).map(pathOf),
    guard: t.guard === undefined ? null : nameOf(t.guard),
    actions: t.actions.map(nameOf),
  };
}

function chartState(node: NodeLike): ChartState {
  const transitions: ChartTransition[] = [];
  for (const t of node.always ?? []) transitions.push(transitionOf("always", t));
  for (const [event, list] of node.transitions) {
    for (const t of list) transitions.push(transitionOf(eventName(node, event), t));
  }
  const initial = node.type === "compound" ? (node.initial.target[0]?.key ?? null) : null;
  return {
    key: node.key,
    path: pathOf(node),
    type: node.type,
    initial,
    description: node.description ?? null,
    transitions,
    states: Object.values(node.states).map(chartState),
  };
}

/** The chart of one machine: its root state node walked down to the leaves. */
export function chartOf(machine: AnyStateMachine, actor = machine.id): Chart {
  return { actor, root: chartState(machine.root as unknown as NodeLike) };
}

/** One chart per machine: the IDE root first, then its children, then the test runner (also before any run). */
export function machineCharts(ide: Ide): Chart[] {
  return machineActors(ide.actor).map(({ id, machine }) => chartOf(machine, id));
}

/** The state value of every charted actor now. */
export function chartValues(ide: Ide): ChartValues {
  const values: ChartValues = {};
  for (const { id, value } of machineActors(ide.actor)) {
    const now = value();
    if (now !== undefined) values[id] = now;
  }
  return values;
}
