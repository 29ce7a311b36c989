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
 *   project.reverted), which are not changes.
 */
import { assertEvent, assign, enqueueActions, setup } from "xstate";
import type { SideProject } from "../services/side/index.ts";
import { answered, ok, recordRouteRefusal } from "./replies.ts";
import { edit, indexAfterRecorded, insertRecorded, mutateRecorded, select, validDisplay } from "./editor.edits.ts";
import { EDIT_EVENTS } from "./editor.types.ts";
import type { EditorContext, EditorEmitted, EditorEvent, EditorInput } from "./editor.types.ts";

export const editorMachine = setup({
  types: {
    context: {} as EditorContext,
    events: {} as EditorEvent,
    emitted: {} as EditorEmitted,
    input: {} as EditorInput,
  },
  actions: {
    /** Another project, or the saved copy: the display stays valid, at the first test for a load. */
    replaceProject: assign(({ context }, params: { project: SideProject; keepDisplay: boolean }) =>
      params.keepDisplay ? validDisplay(params.project, context.displayedTestId, context.selectedCommandId) : validDisplay(params.project, null, null),
    ),
    /**
     * An edit of the project's tests: done and a plugin answered true; or not done, and the
     * plugin answered why (replies.ts chooses which codes carry the anchor's fields) or the user warned.
     */
    applyEdit: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, EDIT_EVENTS);
      // During a recording a plugin's command without an index follows the last recorded one.
      const placed =
        event.type === "request.addCommand" && event.index === undefined && context.lastRecordedId
          ? { ...event, index: indexAfterRecorded(context, context.lastRecordedId) }
          : event;
      const result = edit(context, placed);
      if (result.ok) {
        enqueue.assign(result.display);
        enqueue.emit({ type: "project.edited", project: result.display.project });
        if ("requestId" in event) enqueue.emit(answered(event.requestId, ok(true)));
        return;
      }
      if ("requestId" in event) {
        enqueue.emit(answered(event.requestId, recordRouteRefusal(result.errorCode, result.problem)));
      } else {
        enqueue.emit({ type: "log.written", level: "warn", message: `${result.problem} Nothing was changed.` });
      }
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
    rememberRecording: assign({ lastRecordedId: (_, recording: boolean) => (recording ? null : undefined) }),
    /** Recorded commands are edits: the project becomes unsaved. */
    applyRecorded: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, ["recording.commandsRecorded", "recording.commandChanged", "recording.commandRemoved"]);
      const display =
        event.type === "recording.commandsRecorded"
          ? insertRecorded(context, event.testId, event.commands)
          : mutateRecorded(context, event.testId, event.commandId, event.type === "recording.commandRemoved" ? "delete" : event);
      if (!display) return;
      enqueue.assign(display);
      enqueue.emit({ type: "project.edited", project: display.project });
      if (event.type === "recording.commandsRecorded" && context.lastRecordedId !== undefined) {
        enqueue.assign({ lastRecordedId: event.commands[event.commands.length - 1].id });
      }
    }),
    /** The project had no url: the recorded page's origin. */
    setUrlFromPage: enqueueActions(({ context, enqueue }, url: string) => {
      if (context.project.url !== "") return;
      const project = { ...context.project, url };
      enqueue.assign({ project });
      enqueue.emit({ type: "project.edited", project });
    }),
  },
}).createMachine({
  id: "editor",
  context: ({ input }) => ({ ...validDisplay(input.project, null, null), playing: [] }),
  initial: "editable",
  states: {
    editable: {},
    runPlaying: { description: "A run plays `playing`: edits of those tests are refused, every other edit is done." },
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
    "user.moveCommand": { actions: "applyEdit" },
    "user.deleteCommand": { actions: "applyEdit" },
    "user.changeSettings": { actions: "applyEdit" },
    "request.addCommand": { actions: "applyEdit" },
    "request.changeCommand": { actions: "applyEdit" },
    "request.deleteCommand": { actions: "applyEdit" },
    "run.playing": { target: ".runPlaying", actions: { type: "rememberPlaying", params: ({ event }) => event.testIds } },
    "run.over": { target: ".editable", actions: "forgetPlaying" },
    "recording.started": { actions: { type: "rememberRecording", params: true } },
    "recording.stopped": { actions: { type: "rememberRecording", params: false } },
    "recording.commandsRecorded": { actions: "applyRecorded" },
    "recording.commandChanged": { actions: "applyRecorded" },
    "recording.commandRemoved": { actions: "applyRecorded" },
    "recording.urlFound": { actions: { type: "setUrlFromPage", params: ({ event }) => event.url } },
  },
});
