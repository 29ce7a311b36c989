// What the outside reads of the IDE's actors, in one place. The adapters (protocol, view
// relay, statecharts, the extension's workspace) and the IdeView (ide.view.ts) read the root
// actor and its children only through these functions, never through `context.<child>` or an
// actor's internals, so how the root holds its children is known here and in the machines.
// The admission questions of ide.rules.ts are selectors too; they are re-exported here so
// a reader has one module to import from.
import { Actor, StateMachine } from "xstate";
import type { ActorRefFrom, AnyActorRef, AnyStateMachine, SnapshotFrom, StateValue } from "xstate";
import type { SideProject, SideTest } from "../services/side/index.ts";
import { displayedTest } from "./editor.edits.ts";
import type { ideMachine } from "./ide.machine.ts";
import { shownRunner } from "./suiteRunner.machine.ts";
import { isUnsaved } from "./projectFile.machine.ts";
import type { testRunnerMachine } from "./testRunner.machine.ts";
import type { TestRun } from "./suiteRunner.types.ts";
import { loadedProject } from "./ide.rules.ts";
import type { IdeSnapshot } from "./ide.rules.ts";

export type { IdeSnapshot } from "./ide.rules.ts";
export { controllerOf, loadedProject, senderIsRegistered, windowIsOpen } from "./ide.rules.ts";

/** The running root actor, as createIde() holds it. */
export type IdeActor = Actor<typeof ideMachine>;

/** The child actors of the root: they answer requests of their own and change the view on their own. */
export function childActors(s: IdeSnapshot) {
  const { control, projectFile, editor, suiteRunner, recording } = s.context;
  return { control, projectFile, editor, suiteRunner, recording };
}

export const controlSnapshot = (s: IdeSnapshot) => s.context.control.getSnapshot();
/** The project file: loads, closes, saves and their dialogs. */
export const projectFileSnapshot = (s: IdeSnapshot) => s.context.projectFile.getSnapshot();
/** The editor: the project as edited, the displayed test and the selection. */
export const editorSnapshot = (s: IdeSnapshot) => s.context.editor.getSnapshot();
/** The suite runner: the run as a whole (which tests, in what order, its result). */
export const suiteRunnerSnapshot = (s: IdeSnapshot) => s.context.suiteRunner.getSnapshot();
export const recordingSnapshot = (s: IdeSnapshot) => s.context.recording.getSnapshot();

export type TestRunnerRef = ActorRefFrom<typeof testRunnerMachine>;
export type TestRunnerSnapshot = SnapshotFrom<typeof testRunnerMachine>;
export type SuiteRunnerRef = IdeSnapshot["context"]["suiteRunner"];

/** A test runner of the run, by its id among the suite runner's children, while it is kept. */
function runnerRef(suite: SnapshotFrom<SuiteRunnerRef>, id: string | null): TestRunnerRef | null {
  return id ? ((suite.children as Record<string, TestRunnerRef | undefined>)[id] ?? null) : null;
}

/** The test runner shown (the one playing, or the last that played, or the one the user chose); null before the first run. */
function testRunnerIn(suite: SnapshotFrom<SuiteRunnerRef>): TestRunnerRef | null {
  // A test may give the root a stand-in for the run machine, with no context.
  const run = suite.context?.run;
  return run ? runnerRef(suite, shownRunner(run)) : null;
}

export const testRunnerSnapshot = (s: IdeSnapshot): TestRunnerSnapshot | null => testRunnerIn(suiteRunnerSnapshot(s))?.getSnapshot() ?? null;

/** The snapshot of the test runner with this id among the suite runner's children, while it is kept. */
export const testRunnerSnapshotOf = (s: IdeSnapshot, runner: string): TestRunnerSnapshot | null =>
  runnerRef(suiteRunnerSnapshot(s), runner)?.getSnapshot() ?? null;

/**
 * Calls `each` with every test runner the run machine starts, as it starts (and with those
 * there are now), with the run's record of it (its test's place, its try), and the function `each` returns when that test runner is stopped. Several
 * play at once in a parallel suite. Test runners are the run machine's children, not the
 * root's: whoever listens to the root's children (their answers, their facts, their changes)
 * listens to these through this.
 */
export function eachTestRunner(suiteRunner: SuiteRunnerRef, each: (runner: TestRunnerRef, played: TestRun) => () => void): { unsubscribe(): void } {
  const watched = new Map<TestRunnerRef, () => void>();
  const look = () => {
    const suite = suiteRunner.getSnapshot();
    const now = new Map<TestRunnerRef, TestRun>();
    for (const r of suite.context?.run?.runs ?? []) {
      const ref = runnerRef(suite, r.runner);
      if (ref) now.set(ref, r);
    }
    for (const [ref, stop] of watched) {
      if (now.has(ref)) continue;
      watched.delete(ref);
      stop();
    }
    for (const [ref, played] of now) if (!watched.has(ref)) watched.set(ref, each(ref, played));
  };
  look();
  const subscription = suiteRunner.subscribe({ next: look, error: () => {} });
  return {
    unsubscribe() {
      subscription.unsubscribe();
      for (const stop of watched.values()) stop();
      watched.clear();
    },
  };
}

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
