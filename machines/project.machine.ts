/**
 * The loaded project and its unsaved changes.
 *
 * Parallel regions:
 * - dialog: idle → confirmingLoad | confirmingClose | confirmingRestore → idle. A load or close
 *   over unsaved changes waits here for the user; the request is answered exactly once (true on
 *   accept, false on decline, IdeNotActive when the window closes first). confirmingRestore is
 *   "Restore unsaved changes" (journal.restoreOffered at start): accept makes the journaled
 *   project the project, unsaved; decline keeps the project and bumps the revision, which tells
 *   the journal (core/journal.ts) to drop what it held. It has no request to answer, so it
 *   outlives a closed window: the user answers it when the window opens again.
 * - saving: idle → saving → idle, around the `saveProject` port. A save asked for while one is
 *   under way runs after it (edits made meanwhile are saved too), never in parallel.
 * Invariants:
 * - unsaved ⇔ revision ≠ savedRevision; only a load, a successful save, or the user's
 *   accept in a dialog makes the project saved again. Nothing else drops changes.
 * - A save that finishes after a newer load or save is ignored (it saved an older revision).
 * - Every request is answered exactly once; one that arrives while this machine's own dialog
 *   is open is answered Busy. A plugin whose transport drops it while its dialog is open is
 *   answered as if the user had declined: the changes are kept.
 * - The user's own load (`user.loadProject`) over unsaved changes asks in the same dialog;
 *   there is no request to answer, so nothing is emitted for it.
 * - This machine decides a load and a close over unsaved changes, and answers Busy when one
 *   would need its dialog while a dialog is open (its own, or another's: `otherDialogOpen`,
 *   a fact the root passes on). With no unsaved changes, a close is confirmed at once.
 * - Facts for the root: dialog.opened and dialog.closed around its dialogs; close.confirmed;
 *   project.loaded; run.requested, a start resolved to the project's tests.
 * - The displayed test (CONTRACT section 13) is always a test of the project, or null when it
 *   has none; the selected command is a command of it, or null. A load shows its first test.
 * - Every edit (the user's, a plugin's /record/command) goes through here and makes the
 *   project unsaved, so the dialogs above protect it. An edit of a test the run plays
 *   (run.playing until run.over) is refused: Busy to a plugin, a warning to the user. An edit
 *   that cannot be done changes nothing (project.edits.ts holds the steps).
 */
import { and, assertEvent, assign, emit, enqueueActions, fromPromise, setup } from "xstate";
import { resolveRunTarget } from "../services/playback/targets.ts";
import type { RunSelector } from "../services/playback/targets.ts";
import { messageOf } from "../services/errors.ts";
import { answered, busyReply, fail, ok, recordRouteRefusal, windowClosedReply } from "./replies.ts";
import { edit, indexAfterRecorded, insertRecorded, mutateRecorded, select, validDisplay } from "./project.edits.ts";
import { displayedTest } from "./project.edits.ts";
import type { SideProject } from "../services/side/index.ts";
import { EDIT_EVENTS } from "./project.types.ts";
import type {
  ProjectContext,
  ProjectEmitted,
  ProjectEvent,
  ProjectInput,
  SaveInput,
  SaveOutcome,
} from "./project.types.ts";

export const isUnsaved = (context: ProjectContext): boolean => context.revision !== context.savedRevision;

export const projectMachine = setup({
  types: {
    context: {} as ProjectContext,
    events: {} as ProjectEvent,
    emitted: {} as ProjectEmitted,
    input: {} as ProjectInput,
  },
  actors: {
    // The default port: "save to computer" keeps the saved copy in memory, which the
    // onDone transition records. Adapters provide the real one (deliver or options.save).
    saveProject: fromPromise<SaveOutcome, SaveInput>(async () => ({ ok: true })),
  },
  guards: {
    hasUnsavedChanges: ({ context }) => isUnsaved(context),
    otherDialogIsOpen: ({ context }) => context.otherDialogOpen,
    /** It would need this machine's dialog while another dialog is open. */
    needsASecondDialog: and(["hasUnsavedChanges", "otherDialogIsOpen"]),
    saveIsQueued: ({ context }) => context.queuedSave !== null,
    saveSucceeded: ({ event }) => (event as { output?: SaveOutcome }).output?.ok === true,
    disconnectedAskedToLoad: ({ context, event }) =>
      event.type === "plugin.disconnected" && context.pendingLoad?.sender === event.sender,
    disconnectedAskedToClose: ({ context, event }) =>
      event.type === "plugin.disconnected" && context.pendingClose?.sender === event.sender,
  },
  actions: {
    rememberLoad: assign({
      pendingLoad: ({ event }) => {
        assertEvent(event, ["request.loadProject", "user.loadProject"]);
        return event.type === "request.loadProject"
          ? { requestId: event.requestId, sender: event.sender, project: event.project }
          : { requestId: null, sender: "ide", project: event.project };
      },
    }),
    rememberClose: assign({
      pendingClose: ({ event }) => {
        assertEvent(event, "request.close");
        return { requestId: event.requestId, sender: event.sender };
      },
    }),
    /** A project becomes the loaded one, saved as it is; its first test is shown. */
    load: assign(({ context }, params: { project: SideProject }) => ({
      ...validDisplay(params.project, null, null),
      savedCopy: params.project,
      revision: context.revision + 1,
      savedRevision: context.revision + 1,
    })),
    announceLoaded: emit(({ context }) => ({
      type: "project.loaded" as const,
      projectId: context.project.id,
      projectName: context.project.name,
    })),
    answerLoadRequested: emit(({ event }) => {
      assertEvent(event, "request.loadProject");
      return answered(event.requestId, ok(true));
    }),
    /** Answers the plugin whose load waited for the user; the user's own load has nobody to answer. */
    answerPendingLoad: enqueueActions(({ context, enqueue }, params: { reply: "loaded" | "kept" | "windowClosed" }) => {
      const requestId = context.pendingLoad?.requestId;
      if (requestId === null || requestId === undefined) return;
      enqueue.emit(answered(requestId, params.reply === "windowClosed" ? windowClosedReply() : ok(params.reply === "loaded")));
    }),
    forgetLoad: assign({ pendingLoad: null }),
    discardChanges: assign(({ context }) => ({
      ...validDisplay(context.savedCopy, context.displayedTestId, context.selectedCommandId),
      revision: context.revision + 1,
      savedRevision: context.revision + 1,
    })),
    confirmClose: emit(({ context }) => ({
      type: "close.confirmed" as const,
      requestId: context.pendingClose!.requestId,
    })),
    /** Nothing to lose: the close goes ahead without asking. */
    confirmCloseNow: emit(({ event }) => {
      assertEvent(event, "request.close");
      return { type: "close.confirmed" as const, requestId: event.requestId };
    }),
    announceDialogOpened: emit({ type: "dialog.opened" as const, owner: "project" as const }),
    announceDialogClosed: emit({ type: "dialog.closed" as const, owner: "project" as const }),
    rememberOtherDialog: assign({
      otherDialogOpen: ({ event }) => {
        assertEvent(event, "dialog.elsewhere");
        return event.open;
      },
    }),
    logAnswerTheOpenDialogFirst: emit({
      type: "log.written" as const,
      level: "warn" as const,
      message: "The project was not loaded: answer the open dialog first, then load it again.",
    }),
    /** A start names tests of this project: resolved here, played by the run machine. */
    requestRun: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, ["user.startPlayback", "user.startSuite", "request.startRun"]);
      const selector: RunSelector =
        event.type === "user.startPlayback"
          ? { testId: event.testId ?? context.displayedTestId ?? undefined }
          : event.type === "user.startSuite"
            ? { suiteId: event.suiteId, wholeSuite: true }
            : event.selector;
      const target = resolveRunTarget(context.project, selector);
      if (!target.ok) {
        if (event.type === "request.startRun") enqueue.emit(answered(event.requestId, fail("UnknownTest", target.problem)));
        else enqueue.emit({ type: "log.written", level: "warn", message: `${target.problem} Nothing was started.` });
        return;
      }
      enqueue.emit({
        type: "run.requested",
        projectName: context.project.name,
        baseUrl: context.project.url,
        tests: context.project.tests,
        testIds: target.testIds,
        suite: target.suite,
        fromCommandId: event.type === "user.startPlayback" ? event.fromCommandId : undefined,
        requestId: event.type === "request.startRun" ? event.requestId : undefined,
      });
    }),
    answerPendingCloseKept: emit(({ context }) => answered(context.pendingClose!.requestId, ok(false))),
    answerPendingCloseWindowClosed: emit(({ context }) =>
      answered(context.pendingClose!.requestId, windowClosedReply()),
    ),
    forgetClose: assign({ pendingClose: null }),
    rememberRestore: assign({
      pendingRestore: ({ event }) => {
        assertEvent(event, "journal.restoreOffered");
        return event.project;
      },
    }),
    /** Yes to "Restore unsaved changes": the journaled project, unsaved against the saved copy. */
    restoreJournaled: assign(({ context }) => ({
      ...validDisplay(context.pendingRestore!, null, null),
      revision: context.revision + 1,
      pendingRestore: null,
    })),
    /** No: the project stays as it is; the new revision (saved if it was) makes the journal drop the offered one. */
    declineRestore: assign(({ context }) => ({
      revision: context.revision + 1,
      savedRevision: isUnsaved(context) ? context.savedRevision : context.revision + 1,
      pendingRestore: null,
    })),
    markEdited: assign({ revision: ({ context }) => context.revision + 1 }),
    /**
     * An edit of the project's tests: done and unsaved, and a plugin answered true; or not
     * done, and the plugin answered why (replies.ts chooses which codes carry the anchor's fields)
     * or the user warned.
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
        enqueue.assign({ ...result.display, revision: context.revision + 1 });
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
    rememberPlaying: assign({
      playing: ({ event }) => {
        assertEvent(event, "run.playing");
        return event.testIds;
      },
    }),
    forgetPlaying: assign({ playing: [] }),
    /** The user's Record: the displayed test, resolved here and recorded by the recording machine. */
    requestRecording: enqueueActions(({ context, enqueue }) => {
      const test = displayedTest(context);
      if (!test) {
        enqueue.emit({ type: "log.written", level: "warn", message: "There is no test to record into: add a test first. Nothing was recorded." });
        return;
      }
      enqueue.emit({ type: "recording.requested", testId: test.id, testName: test.name, empty: test.commands.length === 0, projectUrl: context.project.url });
    }),
    rememberRecording: assign(({ event }) => ({ lastRecordedId: event.type === "recording.started" ? null : undefined })),
    /** Recorded commands are edits: the project becomes unsaved. */
    applyRecorded: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, ["recording.commandsRecorded", "recording.commandChanged", "recording.commandRemoved"]);
      const display =
        event.type === "recording.commandsRecorded"
          ? insertRecorded(context, event.testId, event.commands)
          : mutateRecorded(context, event.testId, event.commandId, event.type === "recording.commandRemoved" ? "delete" : event);
      if (!display) return;
      enqueue.assign({ ...display, revision: context.revision + 1 });
      if (event.type === "recording.commandsRecorded" && context.lastRecordedId !== undefined) {
        enqueue.assign({ lastRecordedId: event.commands[event.commands.length - 1].id });
      }
    }),
    /** The project had no url: the recorded page's origin. */
    setUrlFromPage: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, "recording.urlFound");
      if (context.project.url !== "") return;
      enqueue.assign({ project: { ...context.project, url: event.url }, revision: context.revision + 1 });
    }),
    startSaving: assign({
      saving: ({ context, event }) => {
        assertEvent(event, "project.saveRequested");
        return { revision: context.revision, project: context.project, controller: event.controller };
      },
    }),
    queueSave: assign({
      queuedSave: ({ event }) => {
        assertEvent(event, "project.saveRequested");
        return { controller: event.controller };
      },
    }),
    startQueuedSave: assign(({ context }) => ({
      saving: { revision: context.revision, project: context.project, controller: context.queuedSave!.controller },
      queuedSave: null,
    })),
    answerBusy: emit(({ event }) => {
      assertEvent(event, ["request.loadProject", "request.close"]);
      return answered(event.requestId, busyReply());
    }),
    recordSaved: assign(({ context }) => {
      const saving = context.saving!;
      // A load or a later save already moved past what this save wrote.
      if (saving.revision <= context.savedRevision) return {};
      return { savedRevision: saving.revision, savedCopy: saving.project };
    }),
    reportSaveFailed: emit(({ context, event }) => {
      const output = (event as { output?: SaveOutcome }).output;
      const error = (event as { error?: unknown }).error;
      const reason =
        output && !output.ok ? output.reason : messageOf(error ?? "unknown error");
      const where = context.saving?.controller
        ? `to the plugin in control (${context.saving.controller})`
        : "to the computer";
      return {
        type: "log.written" as const,
        level: "error" as const,
        message: `Saving the project ${where} failed: ${reason}. Your changes are kept and still unsaved.`,
      };
    }),
    finishSaving: assign({ saving: null }),
  },
}).createMachine({
  id: "project",
  type: "parallel",
  context: ({ input }) => ({
    savedCopy: input.project,
    revision: 0,
    savedRevision: 0,
    pendingLoad: null,
    pendingClose: null,
    pendingRestore: null,
    saving: null,
    queuedSave: null,
    otherDialogOpen: false,
    ...validDisplay(input.project, null, null),
    playing: [],
  }),
  on: {
    "user.editProject": { actions: "markEdited" },
    "user.selectTest": { actions: "applySelect" },
    "user.selectCommand": { actions: "applySelect" },
    "user.addTest": { actions: "applyEdit" },
    "user.renameTest": { actions: "applyEdit" },
    "user.addCommand": { actions: "applyEdit" },
    "user.changeCommand": { actions: "applyEdit" },
    "user.moveCommand": { actions: "applyEdit" },
    "user.deleteCommand": { actions: "applyEdit" },
    "request.addCommand": { actions: "applyEdit" },
    "request.changeCommand": { actions: "applyEdit" },
    "request.deleteCommand": { actions: "applyEdit" },
    "run.playing": { actions: "rememberPlaying" },
    "run.over": { actions: "forgetPlaying" },
    "dialog.elsewhere": { actions: "rememberOtherDialog" },
    "user.startPlayback": { actions: "requestRun" },
    "user.startSuite": { actions: "requestRun" },
    "request.startRun": { actions: "requestRun" },
    "user.startRecording": { actions: "requestRecording" },
    "recording.started": { actions: "rememberRecording" },
    "recording.stopped": { actions: "rememberRecording" },
    "recording.commandsRecorded": { actions: "applyRecorded" },
    "recording.commandChanged": { actions: "applyRecorded" },
    "recording.commandRemoved": { actions: "applyRecorded" },
    "recording.urlFound": { actions: "setUrlFromPage" },
  },
  states: {
    dialog: {
      initial: "idle",
      states: {
        idle: {
          on: {
            "request.loadProject": [
              { guard: "needsASecondDialog", actions: "answerBusy" },
              { guard: "hasUnsavedChanges", target: "confirmingLoad", actions: "rememberLoad" },
              {
                actions: [
                  { type: "load", params: ({ event }) => ({ project: (event as { project: SideProject }).project }) },
                  "announceLoaded",
                  "answerLoadRequested",
                ],
              },
            ],
            "user.loadProject": [
              { guard: "needsASecondDialog", actions: "logAnswerTheOpenDialogFirst" },
              { guard: "hasUnsavedChanges", target: "confirmingLoad", actions: "rememberLoad" },
              {
                actions: [
                  { type: "load", params: ({ event }) => ({ project: (event as { project: SideProject }).project }) },
                  "announceLoaded",
                ],
              },
            ],
            "request.close": [
              { guard: "needsASecondDialog", actions: "answerBusy" },
              { guard: "hasUnsavedChanges", target: "confirmingClose", actions: "rememberClose" },
              { actions: "confirmCloseNow" },
            ],
            "journal.restoreOffered": { target: "confirmingRestore", actions: "rememberRestore" },
          },
        },
        confirmingRestore: {
          description: "Asks the user whether to restore the unsaved changes a journal kept from before a crash.",
          entry: "announceDialogOpened",
          exit: "announceDialogClosed",
          on: {
            "request.loadProject": { actions: "answerBusy" },
            "user.loadProject": { actions: "logAnswerTheOpenDialogFirst" },
            "request.close": [{ guard: "hasUnsavedChanges", actions: "answerBusy" }, { actions: "confirmCloseNow" }],
            "user.accept": { target: "idle", actions: "restoreJournaled" },
            "user.decline": { target: "idle", actions: "declineRestore" },
          },
        },
        confirmingLoad: {
          description: "Asks the user whether to load another project and lose the unsaved changes.",
          entry: "announceDialogOpened",
          exit: "announceDialogClosed",
          on: {
            "request.loadProject": { actions: "answerBusy" },
            "user.loadProject": { actions: "logAnswerTheOpenDialogFirst" },
            "request.close": [{ guard: "hasUnsavedChanges", actions: "answerBusy" }, { actions: "confirmCloseNow" }],
            "user.accept": {
              target: "idle",
              actions: [
                { type: "load", params: ({ context }) => ({ project: context.pendingLoad!.project }) },
                "announceLoaded",
                { type: "answerPendingLoad", params: { reply: "loaded" } },
                "forgetLoad",
              ],
            },
            "user.decline": { target: "idle", actions: [{ type: "answerPendingLoad", params: { reply: "kept" } }, "forgetLoad"] },
            // Closing the window ends every dialog; the user's own load is then simply not done.
            "window.closed": {
              target: "idle",
              actions: [{ type: "answerPendingLoad", params: { reply: "windowClosed" } }, "forgetLoad"],
            },
            "plugin.disconnected": {
              guard: "disconnectedAskedToLoad",
              target: "idle",
              actions: [{ type: "answerPendingLoad", params: { reply: "kept" } }, "forgetLoad"],
            },
          },
        },
        confirmingClose: {
          description: "Asks the user whether to discard the unsaved changes and close, or keep the IDE open.",
          entry: "announceDialogOpened",
          exit: "announceDialogClosed",
          on: {
            "request.loadProject": { actions: "answerBusy" },
            "user.loadProject": { actions: "logAnswerTheOpenDialogFirst" },
            "request.close": [{ guard: "hasUnsavedChanges", actions: "answerBusy" }, { actions: "confirmCloseNow" }],
            "user.accept": { target: "idle", actions: ["discardChanges", "confirmClose", "forgetClose"] },
            "user.decline": { target: "idle", actions: ["answerPendingCloseKept", "forgetClose"] },
            "window.closed": { target: "idle", actions: ["answerPendingCloseWindowClosed", "forgetClose"] },
            "plugin.disconnected": {
              guard: "disconnectedAskedToClose",
              target: "idle",
              actions: ["answerPendingCloseKept", "forgetClose"],
            },
          },
        },
      },
    },
    saving: {
      initial: "idle",
      states: {
        idle: {
          always: { guard: "saveIsQueued", target: "saving", actions: "startQueuedSave" },
          on: { "project.saveRequested": { target: "saving", actions: "startSaving" } },
        },
        saving: {
          description: "The project is with the save port (the controller or `save`); it counts as saved only on success.",
          on: { "project.saveRequested": { actions: "queueSave" } },
          invoke: {
            src: "saveProject",
            input: ({ context }) => ({ project: context.saving!.project, controller: context.saving!.controller }),
            onDone: [
              { guard: "saveSucceeded", target: "idle", actions: ["recordSaved", "finishSaving"] },
              { target: "idle", actions: ["reportSaveFailed", "finishSaving"] },
            ],
            onError: { target: "idle", actions: ["reportSaveFailed", "finishSaving"] },
          },
        },
      },
    },
  },
});

