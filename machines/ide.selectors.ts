// What the outside reads of the IDE's actors, in one place. The adapters (protocol, view
// relay, statecharts, the extension's workspace) and the IdeView (ide.view.ts) read the root
// actor and its children only through these functions, never through `context.<child>` or an
// actor's internals, so how the root holds its children is known here and in the machines.
// The admission questions of ide.rules.ts are selectors too; they are re-exported here so
// a reader has one module to import from.
import { Actor, StateMachine } from "xstate";
import type { AnyActorRef, AnyStateMachine, StateValue } from "xstate";
import type { SideProject, SideTest } from "../services/side/index.ts";
import { strategyTable } from "../services/locators/strategies.ts";
import type { StrategyTable } from "../services/locators/strategies.ts";
import { pluginStrategies } from "../services/plugins/index.ts";
import { displayedTest } from "./editor.edits.ts";
import type { ideMachine } from "./ide.machine.ts";
import { isUnsaved } from "./projectFile.machine.ts";
import { shownTestRunnerSnapshot, testRunnerSnapshotIn } from "./run.selectors.ts";
import type { TestRunnerSnapshot } from "./run.selectors.ts";
import { loadedProject } from "./ide.rules.ts";
import type { IdeSnapshot } from "./ide.rules.ts";

export type { IdeSnapshot } from "./ide.rules.ts";
export { controllerOf, loadedProject, senderIsRegistered, windowIsOpen } from "./ide.rules.ts";

/** The running root actor, as createIde() holds it. */
export type IdeActor = Actor<typeof ideMachine>;

/** The child actors of the root: they answer requests of their own and change the view on their own. */
export function childActors(s: IdeSnapshot) {
  const { control, projectFile, editor, suiteRunner, recording, pointing } = s.context;
  return { control, projectFile, editor, suiteRunner, recording, pointing };
}

export const controlSnapshot = (s: IdeSnapshot) => s.context.control.getSnapshot();
/** The project file: loads, closes, saves and their dialogs. */
export const projectFileSnapshot = (s: IdeSnapshot) => s.context.projectFile.getSnapshot();
/** The editor: the project as edited, the displayed test and the selection. */
export const editorSnapshot = (s: IdeSnapshot) => s.context.editor.getSnapshot();
/** The suite runner: the run as a whole (which tests, in what order, its result). */
export const suiteRunnerSnapshot = (s: IdeSnapshot) => s.context.suiteRunner.getSnapshot();
export const recordingSnapshot = (s: IdeSnapshot) => s.context.recording.getSnapshot();
/** Pointing at the page: the pick armed, if any, and what for. */
export const pointingSnapshot = (s: IdeSnapshot) => s.context.pointing.getSnapshot();

export type { SuiteRunnerRef, TestRunnerRef, TestRunnerSnapshot } from "./run.selectors.ts";
export { eachTestRunner } from "./run.selectors.ts";

export const testRunnerSnapshot = (s: IdeSnapshot): TestRunnerSnapshot | null => shownTestRunnerSnapshot(suiteRunnerSnapshot(s));

/** The snapshot of the test runner with this id among the suite runner's children, while it is kept. */
export const testRunnerSnapshotOf = (s: IdeSnapshot, runner: string): TestRunnerSnapshot | null => testRunnerSnapshotIn(suiteRunnerSnapshot(s), runner);

/** The test the UI shows (CONTRACT section 13), or null when the project has none. */
export function displayedTestOf(s: IdeSnapshot): SideTest | null {
  const { project, displayedTestId } = editorSnapshot(s).context;
  return displayedTest({ project, displayedTestId });
}

/**
 * What the journal of unsaved changes (core/journal.ts) keeps, from the project file machine:
 * its revisions, its copy of the project (the editor's, as last told: what a save writes), and
 * whether "Restore unsaved changes" is being asked.
 */
export function unsavedChangesOf(s: IdeSnapshot) {
  const file = projectFileSnapshot(s);
  const { revision, savedRevision, project } = file.context;
  return { revision, savedRevision, project, unsaved: isUnsaved(file.context), offeringRestore: file.matches({ dialog: "confirmingRestore" }) };
}

/** The project as last loaded or saved: what discarding the unsaved changes goes back to. */
export const savedProjectOf = (s: IdeSnapshot): SideProject => projectFileSnapshot(s).context.savedCopy;

/**
 * The locator strategies a locator may use now (CONTRACT section 23): those the edited project
 * carries (`locatorStrategies`), with the registered plugins' declarations over them.
 */
export function strategyTableOf(s: IdeSnapshot): StrategyTable {
  return strategyTable(editorSnapshot(s).context.project.locatorStrategies, pluginStrategies(s.context.plugins));
}

/** The plugins registered in this plugin session, in registration order. */
export const registeredPlugins = (s: IdeSnapshot) => s.context.plugins;

/** The project loaded in the running IDE now. */
export const currentProject = (actor: IdeActor): SideProject => loadedProject(actor.getSnapshot());

/** A running actor whose logic is a state machine, under the id it runs as (the root is "ide"). */
export interface MachineActor {
  id: string;
  machine: AnyStateMachine;
  /** Its current state value; undefined for the test runner while no run has started. */
  value(): StateValue | undefined;
}

/** The machine an actor runs, or null when its logic is something else (a promise, a callback). */
function machineOf(ref: AnyActorRef | undefined): AnyStateMachine | null {
  return ref instanceof Actor && ref.logic instanceof StateMachine ? ref.logic : null;
}

/**
 * The root actor and every child it holds that runs a state machine (control, projectFile, editor,
 * suiteRunner, recording), the root first, then the test runner: its machine even before
 * the first run (its value is then undefined), and the value of the test runner playing now or
 * last. Invoked helpers that are not machines are left out.
 */
export function machineActors(actor: IdeActor): MachineActor[] {
  const found: MachineActor[] = [];
  const refs: Array<[string | null, AnyActorRef | undefined]> = [[null, actor]];
  for (const [id, ref] of Object.entries(actor.getSnapshot().children ?? {})) refs.push([id, ref]);
  for (const [id, ref] of refs) {
    const machine = machineOf(ref);
    if (ref && machine) found.push({ id: id ?? machine.id, machine, value: () => ref.getSnapshot().value });
  }
  const testRunner = machineOf(actor.getSnapshot().context.suiteRunner)?.implementations.actors.testRunner;
  if (testRunner instanceof StateMachine) {
    found.push({ id: testRunner.id, machine: testRunner, value: () => testRunnerSnapshot(actor.getSnapshot())?.value });
  }
  return found;
}
