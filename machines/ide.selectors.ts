// What the outside reads of the IDE's actors, in one place. The adapters (protocol, view
// relay, statecharts, the extension's workspace) and the IdeView (ide.view.ts) read the root
// actor and its children only through these functions, never through `context.<child>` or an
// actor's internals, so how the root holds its children is known here and in the machines.
// The admission questions of ide.rules.ts are selectors too; they are re-exported here so
// a reader has one module to import from.
import { Actor, StateMachine } from "xstate";
import type { AnyActorRef, AnyStateMachine, StateValue } from "xstate";
import type { SideProject, SideTest } from "../services/side/index.ts";
import { displayedTest } from "./project.edits.ts";
import type { ideMachine } from "./ide.machine.ts";
import { loadedProject } from "./ide.rules.ts";
import type { IdeSnapshot } from "./ide.rules.ts";

export type { IdeSnapshot } from "./ide.rules.ts";
export { controllerOf, loadedProject, senderIsRegistered, windowIsOpen } from "./ide.rules.ts";

/** The running root actor, as createIde() holds it. */
export type IdeActor = Actor<typeof ideMachine>;

/** The child actors of the root: they answer requests of their own and change the view on their own. */
export function childActors(s: IdeSnapshot) {
  const { control, project, playback, recording } = s.context;
  return { control, project, playback, recording };
}

export const controlSnapshot = (s: IdeSnapshot) => s.context.control.getSnapshot();
export const projectSnapshot = (s: IdeSnapshot) => s.context.project.getSnapshot();
export const playbackSnapshot = (s: IdeSnapshot) => s.context.playback.getSnapshot();
export const recordingSnapshot = (s: IdeSnapshot) => s.context.recording.getSnapshot();

/** The test the UI shows (CONTRACT section 13), or null when the project has none. */
export function displayedTestOf(s: IdeSnapshot): SideTest | null {
  const { project, displayedTestId } = projectSnapshot(s).context;
  return displayedTest({ project, displayedTestId });
}

/** The project loaded in the running IDE now. */
export const currentProject = (actor: IdeActor): SideProject => loadedProject(actor.getSnapshot());

/** A running actor whose logic is a state machine, under the id it runs as (the root is "ide"). */
export interface MachineActor {
  id: string;
  machine: AnyStateMachine;
  /** Its current state value. */
  value(): StateValue;
}

/** The machine an actor runs, or null when its logic is something else (a promise, a callback). */
function machineOf(ref: AnyActorRef | undefined): AnyStateMachine | null {
  return ref instanceof Actor && ref.logic instanceof StateMachine ? ref.logic : null;
}

/**
 * The root actor and every child it holds that runs a state machine (control, project,
 * playback, recording), the root first; invoked helpers that are not machines are left out.
 */
export function machineActors(actor: IdeActor): MachineActor[] {
  const found: MachineActor[] = [];
  const refs: Array<[string | null, AnyActorRef | undefined]> = [[null, actor]];
  for (const [id, ref] of Object.entries(actor.getSnapshot().children ?? {})) refs.push([id, ref]);
  for (const [id, ref] of refs) {
    const machine = machineOf(ref);
    if (ref && machine) found.push({ id: id ?? machine.id, machine, value: () => ref.getSnapshot().value });
  }
  return found;
}
