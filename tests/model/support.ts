// Helpers shared by the model-based tests: fixtures as the machines see them (parsed at the
// door), replaying an xstate/graph path on a real actor, state-node reachability, and the
// "every request is answered exactly once" bookkeeping.
import { expect } from "vitest";
import { fromPromise } from "xstate";
import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from "xstate";
import { getAdjacencyMap, getShortestPaths, getStateNodes } from "xstate/graph";
import type { TraversalOptions } from "xstate/graph";
import type { SaveInput, SaveOutcome } from "../../machines/projectFile.types.ts";
import type { RunStartEvent } from "../../machines/suiteRunner.types.ts";
import type { Registration } from "../../services/plugins/index.ts";
import { parseSideProject } from "../../services/side/index.ts";
import type { SideProject } from "../../services/side/index.ts";
import { otherProject, shopProject } from "../support/shared.ts";

/** A fixture as the machines get it: through the door's parser. */
export function parsedProject(raw: unknown): SideProject {
  const result = parseSideProject(raw);
  if (!result.ok) throw new Error(`fixture is not a usable .side project: ${result.problem}`);
  return result.project;
}

/** A command of a test, as a .side file holds it (no other locators). */
export const command = (id: string, name: string, target = "", value = "") => ({ id, command: name, target, value });

/** A parsed project at http://127.0.0.1:8080 with these tests and suites. */
export function modelProject(id: string, name: string, tests: unknown[], suites: unknown[]): SideProject {
  return parsedProject({ id, name, url: "http://127.0.0.1:8080", tests, suites });
}

/** The root's run.start of `project`'s tests `testIds`, as a suite's or alone (`suite` null). */
export function runStartOf(project: SideProject, testIds: string[], suite: RunStartEvent["suite"], requestId?: number): RunStartEvent {
  return { type: "run.start", projectName: project.name, baseUrl: project.url, tests: project.tests, testIds, suite, requestId };
}

export const shop = (): SideProject => parsedProject(shopProject());
export const other = (): SideProject => parsedProject(otherProject());

export const registration = (name: string, ...commandIds: string[]): Registration => ({
  name,
  version: "1.0.0",
  commands: commandIds.map((id) => ({ id, name: `${name} ${id}` })),
});

/** A generated path, as far as replaying it needs: its steps, each an event and the state it led to. */
export interface ModelPath<TSnapshot, TEvent extends EventObject> {
  steps: ReadonlyArray<{ event: TEvent; state: TSnapshot }>;
}

/** The events of a path, for failure messages. */
export const describeSteps = (path: ModelPath<unknown, EventObject>): string =>
  path.steps.map((step) => step.event.type).join(" → ");

export interface PathDriver<TSnapshot, TEvent extends EventObject> {
  /** Makes the real actor take the step's event (and waits for anything it starts). */
  send(event: TEvent): void | Promise<void>;
  /** Asserts that the real actor is where the path says, after the step. */
  check(expected: TSnapshot, where: string): void;
}

/**
 * Replays one generated path on a real actor. xstate/graph paths start with an
 * `xstate.init` step holding the initial state; every later step is the event taken and
 * the state it led to, so the state is checked after each event, the initial one included.
 */
export async function replayPath<TSnapshot, TEvent extends EventObject>(
  path: ModelPath<TSnapshot, TEvent>,
  driver: PathDriver<TSnapshot, TEvent>,
): Promise<void> {
  const route = describeSteps(path);
  for (const [index, step] of path.steps.entries()) {
    if (step.event.type !== "xstate.init") await driver.send(step.event);
    driver.check(step.state, `after step ${index} (${step.event.type}) of ${route}`);
  }
}

/**
 * Replays a path on a real actor and checks, after each step (or after the last one only:
 * `lastOnly`, for a transition path whose steps before its last are a shortest path, checked
 * already), that it has the path's state value and serialised state, then `also`, given the
 * events sent so far.
 */
export async function replayOnRealActor<TSnapshot extends AnyMachineSnapshot, TEvent extends EventObject>(
  path: ModelPath<TSnapshot, TEvent>,
  actor: { send(event: TEvent): void; getSnapshot(): TSnapshot },
  serializeState: (snapshot: TSnapshot) => string,
  also: (actual: TSnapshot, sent: readonly TEvent[], where: string) => void,
  lastOnly = false,
): Promise<void> {
  const sent: TEvent[] = [];
  const last = path.steps[path.steps.length - 1];
  await replayPath(path, {
    send(event) {
      sent.push(event);
      actor.send(event);
    },
    check(expected, where) {
      if (lastOnly && expected !== last.state) return;
      const actual = actor.getSnapshot();
      expect(actual.value, `state value ${where}`).toEqual(expected.value);
      expect(serializeState(actual), `state ${where}`).toBe(serializeState(expected));
      also(actual, sent, where);
    },
  });
}

/** The request ids among events sent. */
export const requestIdsOf = (events: readonly EventObject[]): number[] =>
  events.flatMap((e) => ("requestId" in e && typeof e.requestId === "number" ? [e.requestId] : []));

/**
 * One path per transition of the graph: the shortest path to a state, then one event from
 * it, for every event the traversal tries there (those the state ignores included). Shortest
 * paths alone take a transition only when it is the quickest way to a state, so a transition
 * into an already-known state (a failed save leaving the project unsaved) would go untried.
 */
export function transitionPaths<TSnapshot extends AnyMachineSnapshot, TEvent extends EventObject, TInput>(
  machine: AnyStateMachine,
  options: TraversalOptions<TSnapshot, TEvent, TInput> & { serializeState: (snapshot: TSnapshot) => string },
): Array<ModelPath<TSnapshot, TEvent>> {
  const serialize = options.serializeState;
  const shortest = new Map<string, ModelPath<TSnapshot, TEvent>>();
  for (const path of getShortestPaths(machine, options as never) as unknown as Array<ModelPath<TSnapshot, TEvent> & { state: TSnapshot }>) {
    shortest.set(serialize(path.state), path);
  }
  const adjacency = getAdjacencyMap<TSnapshot, TEvent, TInput>(machine as never, options);
  return Object.values(adjacency).flatMap(({ state, transitions }) => {
    const head = shortest.get(serialize(state));
    if (!head) throw new Error(`no shortest path to ${serialize(state)}`);
    const edges = Object.values(transitions) as Array<{ event: TEvent; state: TSnapshot }>;
    return edges.map(({ event, state: next }) => ({ steps: [...head.steps, { event, state: next }] }));
  });
}

/**
 * Every state a path passes through. A TestModel drops the paths that are a prefix of a
 * longer one (allowDuplicatePaths defaults to false), so a state may appear only inside
 * another path's steps, never as a path's end state.
 */
export const statesAlong = <TSnapshot>(paths: ReadonlyArray<{ steps: ReadonlyArray<{ state: TSnapshot }> }>): TSnapshot[] =>
  paths.flatMap((path) => path.steps.map((step) => step.state));

/** Every state node id of a machine (the root excluded), in document order. */
export const stateNodeIds = (machine: AnyStateMachine): string[] => getStateNodes(machine.root).map((node) => node.id);

/** The ids of the state nodes that none of the snapshots is in. */
export function unreachedStateNodes(machine: AnyStateMachine, snapshots: Iterable<AnyMachineSnapshot>): string[] {
  const reached = new Set<string>();
  for (const snapshot of snapshots) {
    for (const node of snapshot._nodes) reached.add(node.id);
  }
  return stateNodeIds(machine).filter((id) => !reached.has(id));
}

/**
 * Exactly once, as a count that holds at every moment: each request id asked is either
 * answered (once) or still waiting in the machine's context, never both, never neither.
 * Graph events reuse their request ids, so the comparison is of multisets.
 */
export function expectEachRequestAnsweredOnce(
  asked: readonly number[],
  answered: readonly number[],
  waiting: readonly number[],
  where: string,
): void {
  const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);
  expect(sorted([...answered, ...waiting]), `answered + waiting vs asked, ${where}`).toEqual(sorted(asked));
}

/** A save port whose outcome the test decides, one save at a time. */
export interface ControlledSavePort {
  readonly logic: ReturnType<typeof fromPromise<SaveOutcome, SaveInput>>;
  /** The inputs of every save the machine started, oldest first. */
  readonly inputs: SaveInput[];
  /** Whether a save is waiting for its outcome. */
  pending(): boolean;
  resolve(outcome: SaveOutcome): Promise<void>;
  reject(error: unknown): Promise<void>;
}

/** Lets promise callbacks and the events they send run to the end. */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function controlledSavePort(): ControlledSavePort {
  const inputs: SaveInput[] = [];
  let waiting: { resolve(outcome: SaveOutcome): void; reject(error: unknown): void } | null = null;
  const take = () => {
    if (!waiting) throw new Error("no save is waiting for its outcome");
    const current = waiting;
    waiting = null;
    return current;
  };
  return {
    logic: fromPromise<SaveOutcome, SaveInput>(({ input }) => {
      inputs.push(input);
      return new Promise<SaveOutcome>((resolve, reject) => {
        waiting = { resolve, reject };
      });
    }),
    inputs,
    pending: () => waiting !== null,
    async resolve(outcome) {
      take().resolve(outcome);
      await settle();
    },
    async reject(error) {
      take().reject(error);
      await settle();
    },
  };
}
