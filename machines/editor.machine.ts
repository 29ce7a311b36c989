/**
 * The editor: the project as the user edits it, the displayed test and the selected command.
 *
 * States: editable ⇄ runPlaying (run.playing until run.over: the run's tests are locked).
 * Invariants:
 * - The displayed test (CONTRACT section 13) is always a test of the project, or null when it
 *   has none; the selected command is a command of it, or null. A load shows its first test; a
 *   return to the saved copy (or a restored journal) keeps the display where it still can.
 * - Every change of the project (the user's edits, a plugin's /record/command, recorded
 *   commands, the recorded page's url) is emitted as project.edited, so the project file
 *   machine counts it unsaved and its dialogs protect it. Selecting is never a change.
 * - The run lock: an edit of a test the run plays (run.playing until run.over) is refused:
 *   Busy to a plugin, a warning to the user. An edit that cannot be done changes nothing
 *   (editor.edits.ts holds the steps); every request is answered exactly once.
 * - The recording settings (user.changeSettings) are an edit of the project too, never locked by a run.
 * - The project is replaced only by the project file machine's facts (project.loaded,
 *   project.reverted), which are not changes; each starts an empty undo history.
 * - Every change is an immer recipe committed through the history (editor.history.ts): one undo
 *   step each, whoever made it; undo and redo apply the step's patches and are changes too
 *   (project.edited), refused like any edit when the run plays a test they would change, or
 *   when they would remove the test a recording records into.
 * - The clipboard holds copies of commands; it outlives loads (a paste into another project).
 * - Plugins that leave (plugins.left) leave the project the declarations of their locator
 *   strategies its commands use: an edit, never locked by a run (it changes no test).
 */
import { assertEvent, assign, enqueueActions, setup } from "xstate";
import type { SideProject } from "../services/side/index.ts";
import { answered, ok, recordRouteRefusal } from "./replies.ts";
import { indexAfterRecorded, planEdit, planRecorded, planRecordedChange, planUrlFromPage, select, validDisplay } from "./editor.edits.ts";
import type { Planned } from "./editor.edits.ts";
import { copyCommands, planCut, planPaste, planToggleDisabled } from "./editor.clipboard.ts";
import { applyStep, commit, EMPTY_HISTORY, moveStep, pushStep } from "./editor.history.ts";
import { planProjectEdit } from "./editor.suites.ts";
import { planKeptStrategies } from "./editor.strategies.ts";
import { CLIPBOARD_EVENTS, EDIT_EVENTS, PROJECT_EDIT_EVENTS } from "./editor.types.ts";
import type { EditorContext, EditorEmitted, EditorEvent, EditorInput } from "./editor.types.ts";

type Changed = Pick<EditorContext, "project" | "displayedTestId" | "selectedCommandId" | "history">;

/** A planned edit made: the project it gives, what the user looks at after it, and its step in the history. */
function made(context: EditorContext, plan: Planned): Changed {
  const before = { displayedTestId: context.displayedTestId, selectedCommandId: context.selectedCommandId };
  const { project, step } = commit(context.project, plan.edit, before);
  const place = { ...before, ...plan.place };
  const display = validDisplay(project, place.displayedTestId, place.selectedCommandId);
  const after = { displayedTestId: display.displayedTestId, selectedCommandId: display.selectedCommandId };
  return { ...display, history: step ? pushStep(context.history, { ...step, after }) : context.history };
}

const warning = (problem: string) => ({ type: "log.written" as const, level: "warn" as const, message: `${problem} Nothing was changed.` });

export const editorMachine = setup({
  types: {
    context: {} as EditorContext,
    events: {} as EditorEvent,
    emitted: {} as EditorEmitted,
    input: {} as EditorInput,
  },
  actions: {
    /** Another project, or the saved copy: the display stays valid, at the first test for a load; nothing to undo. */
    replaceProject: assign(({ context }, params: { project: SideProject; keepDisplay: boolean }) => ({
      ...(params.keepDisplay ? validDisplay(params.project, context.displayedTestId, context.selectedCommandId) : validDisplay(params.project, null, null)),
      history: EMPTY_HISTORY,
    })),
    /**
     * An edit of the project: done and a plugin answered true; or not done, and the plugin
     * answered why (replies.ts chooses which codes carry the anchor's fields) or the user warned.
     */
    applyEdit: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, [...EDIT_EVENTS, ...PROJECT_EDIT_EVENTS]);
      // During a recording a plugin's command without an index follows the last recorded one.
      const placed =
        event.type === "request.addCommand" && event.index === undefined && context.lastRecordedId
          ? { ...event, index: indexAfterRecorded(context, context.lastRecordedId) }
          : event;
      const plan = (PROJECT_EDIT_EVENTS as readonly string[]).includes(placed.type)
        ? planProjectEdit(context, placed as Parameters<typeof planProjectEdit>[1])
        : planEdit(context, placed as Parameters<typeof planEdit>[1]);
      if (plan.ok) {
        const changed = made(context, plan);
        enqueue.assign(changed);
        enqueue.emit({ type: "project.edited", project: changed.project });
        if ("requestId" in event) enqueue.emit(answered(event.requestId, ok(true)));
        return;
      }
      if ("requestId" in event) enqueue.emit(answered(event.requestId, recordRouteRefusal(plan.errorCode, plan.problem)));
      else enqueue.emit(warning(plan.problem));
    }),
    /** Copy fills the clipboard; cut fills it and removes the commands; paste and disable are edits of the displayed test. */
    applyClipboard: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, [...CLIPBOARD_EVENTS]);
      if (event.type === "user.copyCommands") {
        const copied = copyCommands(context, event.commandIds);
        if (copied.ok) enqueue.assign({ clipboard: copied.clipboard });
        else enqueue.emit(warning(copied.problem));
        return;
      }
      const plan =
        event.type === "user.cutCommands"
          ? planCut(context, event.commandIds)
          : event.type === "user.pasteCommands"
            ? planPaste(context, event, context.clipboard)
            : planToggleDisabled(context, event.commandIds);
      if (!plan.ok) {
        enqueue.emit(warning(plan.problem));
        return;
      }
      const changed = made(context, plan);
      enqueue.assign(event.type === "user.cutCommands" && "clipboard" in plan ? { ...changed, clipboard: plan.clipboard as EditorContext["clipboard"] } : changed);
      enqueue.emit({ type: "project.edited", project: changed.project });
    }),
    /** Undo and redo: the last step's patches, refused while the run plays a test they change or when they would remove the test recorded into. */
    applyHistory: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, ["user.undo", "user.redo"]);
      const direction = event.type === "user.undo" ? "undo" : "redo";
      const step = (direction === "undo" ? context.history.done : context.history.undone).at(-1);
      if (!step) {
        enqueue.emit(warning(`There is nothing to ${direction}.`));
        return;
      }
      const played = context.project.tests.find((t) => step.tests.includes(t.id) && context.playing.includes(t.id));
      if (played) {
        enqueue.emit(warning(`"${step.label}" changed the test "${played.name}", which is being played; it cannot be ${direction === "undo" ? "undone" : "redone"} until the run is over.`));
        return;
      }
      const project = applyStep(context.project, step, direction);
      const recorded = context.recordingTestId;
      if (recorded !== null && !project.tests.some((t) => t.id === recorded)) {
        enqueue.emit(warning(`${direction === "undo" ? "Undoing" : "Redoing"} "${step.label}" would remove the test being recorded into; stop the recording first.`));
        return;
      }
      const place = direction === "undo" ? step.before : step.after;
      enqueue.assign({ ...validDisplay(project, place.displayedTestId, place.selectedCommandId), history: moveStep(context.history, direction) });
      enqueue.emit({ type: "project.edited", project });
    }),
    /** Select target in page (CONTRACT section 21): the command's target, alternatives and fingerprint, a change of the command like the form's. */
    applyPickedTarget: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, "pointing.targetPicked");
      const { type: _, ...picked } = event;
      const plan = planEdit(context, { type: "user.changeCommand", ...picked } as Parameters<typeof planEdit>[1]);
      if (!plan.ok) return void enqueue.emit(warning(`Select target in page: ${plan.problem}`));
      const changed = made(context, plan);
      enqueue.assign(changed);
      enqueue.emit({ type: "project.edited", project: changed.project });
    }),
    /** Plugins left: the project keeps the declarations of their strategies its commands use (editor.strategies.ts). */
    keepStrategies: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, "plugins.left");
      const plan = planKeptStrategies(context.project, event.strategies);
      if (!plan) return;
      const changed = made(context, plan);
      enqueue.assign(changed);
      enqueue.emit({ type: "project.edited", project: changed.project });
    }),
    /** What the user looks at: never an edit. */
    applySelect: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, ["user.selectTest", "user.selectCommand"]);
      const result = select(context, event);
      if (result.ok) enqueue.assign(result.display);
      else enqueue.emit({ type: "log.written", level: "warn", message: result.problem });
    }),
    rememberPlaying: assign({ playing: (_, testIds: readonly string[]) => testIds }),
    forgetPlaying: assign({ playing: [] }),
    /** Recording starts with no command recorded yet; it stops with none to follow. */
    rememberRecording: assign((_, testId: string | null) => ({ lastRecordedId: testId === null ? undefined : null, recordingTestId: testId })),
    /** Recorded commands are edits: the project becomes unsaved, and each is a step of the history. */
    applyRecorded: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, ["recording.commandsRecorded", "recording.commandChanged", "recording.commandRemoved", "recording.urlFound"]);
      const plan =
        event.type === "recording.commandsRecorded"
          ? planRecorded(context, event.testId, event.commands)
          : event.type === "recording.urlFound"
            ? planUrlFromPage(context.project, event.url)
            : planRecordedChange(context, event.testId, event.commandId, event.type === "recording.commandRemoved" ? "delete" : event);
      if (!plan) return;
      const changed = made(context, plan);
      enqueue.assign(changed);
      enqueue.emit({ type: "project.edited", project: changed.project });
      if (event.type === "recording.commandsRecorded" && context.lastRecordedId !== undefined) {
        enqueue.assign({ lastRecordedId: event.commands[event.commands.length - 1].id });
      }
    }),
  },
}).createMachine({
  id: "editor",
  context: ({ input }) => ({ ...validDisplay(input.project, null, null), playing: [], recordingTestId: null, history: EMPTY_HISTORY, clipboard: [] }),
  initial: "editable",
  states: {
    editable: {},
    runPlaying: { description: "A run plays `playing`: edits of those tests (and undoing or redoing them) are refused, every other edit is done." },
  },
  on: {
    "project.loaded": { actions: { type: "replaceProject", params: ({ event }) => ({ project: event.project, keepDisplay: false }) } },
    "project.reverted": { actions: { type: "replaceProject", params: ({ event }) => ({ project: event.project, keepDisplay: true }) } },
    "user.selectTest": { actions: "applySelect" },
    "user.selectCommand": { actions: "applySelect" },
    "user.addTest": { actions: "applyEdit" },
    "user.renameTest": { actions: "applyEdit" },
    "user.addCommand": { actions: "applyEdit" },
    "user.changeCommand": { actions: "applyEdit" },
    "user.chooseLocator": { actions: "applyEdit" },
    "user.moveCommand": { actions: "applyEdit" },
    "user.deleteCommand": { actions: "applyEdit" },
    "user.changeSettings": { actions: "applyEdit" },
    "request.addCommand": { actions: "applyEdit" },
    "request.changeCommand": { actions: "applyEdit" },
    "request.deleteCommand": { actions: "applyEdit" },
    "user.changeProject": { actions: "applyEdit" },
    "user.duplicateTest": { actions: "applyEdit" },
    "user.deleteTest": { actions: "applyEdit" },
    "user.addSuite": { actions: "applyEdit" },
    "user.renameSuite": { actions: "applyEdit" },
    "user.deleteSuite": { actions: "applyEdit" },
    "user.setSuiteTests": { actions: "applyEdit" },
    "user.changeSuite": { actions: "applyEdit" },
    "user.addDataFile": { actions: "applyEdit" },
    "user.removeDataFile": { actions: "applyEdit" },
    "user.copyCommands": { actions: "applyClipboard" },
    "user.cutCommands": { actions: "applyClipboard" },
    "user.pasteCommands": { actions: "applyClipboard" },
    "user.toggleCommandsDisabled": { actions: "applyClipboard" },
    "pointing.targetPicked": { actions: "applyPickedTarget" },
    "plugins.left": { actions: "keepStrategies" },
    "user.undo": { actions: "applyHistory" },
    "user.redo": { actions: "applyHistory" },
    "run.playing": { target: ".runPlaying", actions: { type: "rememberPlaying", params: ({ event }) => event.testIds } },
    "run.over": { target: ".editable", actions: "forgetPlaying" },
    "recording.started": { actions: { type: "rememberRecording", params: ({ event }) => event.testId } },
    "recording.stopped": { actions: { type: "rememberRecording", params: null } },
    "recording.commandsRecorded": { actions: "applyRecorded" },
    "recording.commandChanged": { actions: "applyRecorded" },
    "recording.commandRemoved": { actions: "applyRecorded" },
    "recording.urlFound": { actions: "applyRecorded" },
  },
});
