/**
 * The project file: which project is loaded, whether its changes are saved, and the dialogs
 * that protect them. The editor (editor.machine.ts) makes the changes and tells each one
 * (project.edited); this machine decides loads, closes and saves. What each step makes of the
 * context, and what it tells, are pure functions beside it, by behaviour: projectFile.loads.ts
 * (loads, opening a recent file, their dialog's answers), projectFile.closes.ts (a close, its
 * discard), projectFile.restore.ts (the journal's restore offer), projectFile.saves.ts (saves
 * and Save as) and projectFile.paths.ts (which file a save writes, the recent list, the logs
 * about files); isUnsaved is in projectFile.types.ts. Here are only when each step is taken.
 *
 * Parallel regions:
 * - dialog: idle → opening | confirmingLoad | confirmingClose | confirmingRestore → idle. A load or close
 *   over unsaved changes waits here for the user; the request is answered exactly once (true on
 *   accept, false on decline, IdeNotActive when the window closes first). confirmingRestore is
 *   "Restore unsaved changes" (journal.restoreOffered at start): accept makes the journaled
 *   project the project, unsaved; decline keeps the project and bumps the revision, which tells
 *   the journal (core/journal.ts) to drop what it held. It has no request to answer, so it
 *   outlives a closed window: the user answers it when the window opens again.
 *   opening (user.openRecent) reads the file through the `readProject` port, then loads it as
 *   the user's own load does (confirmingLoad over unsaved changes); a file that cannot be read
 *   or is no .side project is an error log and changes nothing.
 * - saving: idle → saving → idle, around the `saveProject` port. A save asked for while one is
 *   under way runs after it (changes made meanwhile are saved too), never in parallel. A save
 *   writes `path` (a Save as's, else the project's; null: the port's default place).
 * - The project's path (the file a plain Save writes) changes only by a successful Save as (to
 *   its file) and by a load (to the opened file, or to none): a failed save leaves it as it was,
 *   and while controlled a Save as's path is not written (the controller gets the project).
 *   The recent list gets each file saved or opened, newest first, at most 10.
 * Invariants:
 * - unsaved ⇔ revision ≠ savedRevision; only a load, a successful save, or the user's
 *   accept in a dialog makes the project saved again. Nothing else drops changes.
 * - A save that finishes after a newer load or save is ignored (it saved an older revision).
 * - Every request is answered exactly once; one that arrives while this machine's own dialog
 *   is open is answered Busy. A plugin whose transport drops it while its dialog is open is
 *   answered as if the user had declined: the changes are kept.
 * - The user's own load (`user.loadProject`) over unsaved changes asks in the same dialog;
 *   there is no request to answer, so nothing is emitted for it.
 * - One dialog at a time, decided by the root: it adds to each load and close whether another
 *   machine's dialog is open (`otherDialogOpen`); one over unsaved changes then is answered Busy
 *   (the user's own load, a warning), as is any while this machine's own dialog is open.
 *   With no unsaved changes, a close is confirmed at once.
 * - The project kept here is the editor's, as it last told it (project.edited), or the one a
 *   load or a discard brought: what a save writes. Only the editor changes it.
 * - Facts for the root: dialog.opened and dialog.closed around its dialogs; close.confirmed;
 *   project.loaded and project.reverted (the editor shows the project they carry: the saved
 *   copy after a discard, the journaled project after a restore).
 */
import { assertEvent, assign, emit, enqueueActions, fromPromise, setup } from "xstate";
import { messageOf } from "../services/errors.ts";
import type { SideProject } from "../services/side/index.ts";
import { answered, busyReply, ok } from "./replies.ts";
import type {
  ProjectFileContext,
  ProjectFileEmitted,
  ProjectFileEvent,
  ProjectFileInput,
  ReadProjectInput,
  SaveInput,
  SaveOutcome,
} from "./projectFile.types.ts";
import { isUnsaved, RECENT_PROJECTS } from "./projectFile.types.ts";
import { FILE_LOGS, withRecent } from "./projectFile.paths.ts";
import { askedLoad, askedOpening, LOAD_LOGS, loaded, loadedFact, openedLoad, pendingLoadAnswer, type LoadReply } from "./projectFile.loads.ts";
import { askedClose, closeConfirmed, closeConfirmedNow, discarded, pendingCloseAnswer, revertedFact } from "./projectFile.closes.ts";
import { offeredRestore, restoreDeclined, restored } from "./projectFile.restore.ts";
import { askedSave, pathGoesToControllerLog, queuedSave, queuedSaveStarting, recordedSave, savedLog } from "./projectFile.saves.ts";

export { isUnsaved, withRecent };

const projectFileSetup = setup({
  types: {
    context: {} as ProjectFileContext,
    events: {} as ProjectFileEvent,
    emitted: {} as ProjectFileEmitted,
    input: {} as ProjectFileInput,
  },
  actors: {
    // The default port: "save to computer" keeps the saved copy in memory, which the
    // onDone transition records. Adapters provide the real one (deliver or options.save).
    saveProject: fromPromise<SaveOutcome, SaveInput>(async () => ({ ok: true })),
    // user.openRecent reads a file: without a port that can (createIde's readProject) there is nothing to read.
    readProject: fromPromise<SideProject, ReadProjectInput>(async () => {
      throw new Error("this IDE cannot read project files (createIde was given no readProject)");
    }),
  },
  guards: {
    hasUnsavedChanges: ({ context }) => isUnsaved(context),
    /** It would need this machine's dialog while another is open (the root says which are: one decider). */
    needsASecondDialog: ({ context }, otherDialogOpen: boolean) => isUnsaved(context) && otherDialogOpen,
    /** The file read for user.openRecent would need this machine's dialog while another was open when it was asked for. */
    openedNeedsASecondDialog: ({ context }) => isUnsaved(context) && context.opening?.otherDialogOpen === true,
    saveIsQueued: ({ context }) => context.queuedSave !== null,
    saveSucceeded: (_, outcome: SaveOutcome) => outcome.ok,
    disconnectedAskedToLoad: ({ context, event }) =>
      event.type === "plugin.disconnected" && context.pendingLoad?.sender === event.sender,
    disconnectedAskedToClose: ({ context, event }) =>
      event.type === "plugin.disconnected" && context.pendingClose?.sender === event.sender,
  },
  actions: {
    // Loads and their dialog (projectFile.loads.ts).
    rememberLoad: assign({ pendingLoad: ({ event }) => askedLoad(event) }),
    rememberOpenedLoad: assign(({ context }, project: SideProject) => ({ pendingLoad: openedLoad(context.opening!, project) })),
    rememberOpening: assign({ opening: ({ event }) => askedOpening(event) }),
    forgetOpening: assign({ opening: null }),
    reportOpenFailed: emit(({ context }, params: { reason: string }) => LOAD_LOGS.openFailed(context.opening, params.reason)),
    logOpenedAfterADialog: emit(({ context }) => LOAD_LOGS.openedAfterADialog(context.opening)),
    logStillOpening: emit(({ context, event }) => LOAD_LOGS.stillOpening(context.opening, event)),
    load: assign(({ context }, params: { project: SideProject; path: string | null }) => loaded(context, params.project, params.path)),
    announceLoaded: emit(({ context }) => loadedFact(context.project)),
    answerLoadRequested: emit(({ event }) => {
      assertEvent(event, "request.loadProject");
      return answered(event.requestId, ok(true));
    }),
    answerPendingLoad: enqueueActions(({ context, enqueue }, params: { reply: LoadReply }) => {
      const answer = pendingLoadAnswer(context.pendingLoad, params.reply);
      if (answer) enqueue.emit(answer);
    }),
    forgetLoad: assign({ pendingLoad: null }),
    logAnswerTheOpenDialogFirst: emit(LOAD_LOGS.answerTheOpenDialogFirst),
    // Closes (projectFile.closes.ts).
    rememberClose: assign({ pendingClose: ({ event }) => askedClose(event) }),
    discardChanges: assign(({ context }) => discarded(context)),
    announceReverted: emit(({ context }) => revertedFact(context.savedCopy)),
    confirmClose: emit(({ context }) => closeConfirmed(context.pendingClose!)),
    confirmCloseNow: emit(({ event }) => closeConfirmedNow(event)),
    answerPendingCloseKept: emit(({ context }) => pendingCloseAnswer(context.pendingClose!, "kept")),
    answerPendingCloseWindowClosed: emit(({ context }) => pendingCloseAnswer(context.pendingClose!, "windowClosed")),
    forgetClose: assign({ pendingClose: null }),
    // The journal's restore offer (projectFile.restore.ts).
    rememberRestore: assign({ pendingRestore: ({ event }) => offeredRestore(event) }),
    restoreJournaled: assign(({ context }) => restored(context)),
    announceRestored: emit(({ context }) => revertedFact(context.project)),
    declineRestore: assign(({ context }) => restoreDeclined(context)),
    // Every dialog.
    announceDialogOpened: emit({ type: "dialog.opened" as const, owner: "projectFile" as const }),
    announceDialogClosed: emit({ type: "dialog.closed" as const, owner: "projectFile" as const }),
    /** A load or close that would need a second dialog ("one dialog at a time"). */
    answerBusy: emit(({ event }) => {
      assertEvent(event, ["request.loadProject", "request.close"]);
      return answered(event.requestId, busyReply());
    }),
    // The editor's changes.
    markEdited: assign({ revision: ({ context }) => context.revision + 1 }),
    /** The editor changed the project: it is what a save writes now, and unsaved. */
    takeEdit: assign(({ context }, project: SideProject) => ({ project, revision: context.revision + 1 })),
    // Saves and Save as (projectFile.saves.ts, projectFile.paths.ts).
    startSaving: assign({ saving: ({ context, event }) => askedSave(context, event) }),
    queueSave: assign({ queuedSave: ({ context, event }) => queuedSave(context, event) }),
    startQueuedSave: assign(({ context }) => queuedSaveStarting(context)),
    logPathGoesToController: enqueueActions(({ context, event, enqueue }) => {
      const log = pathGoesToControllerLog(context, event);
      if (log) enqueue.emit(log);
    }),
    recordSaved: assign(({ context }, outcome: SaveOutcome) => recordedSave(context, outcome)),
    reportSaved: enqueueActions(({ context, enqueue }, outcome: SaveOutcome) => {
      const log = savedLog(context, outcome);
      if (log) enqueue.emit(log);
    }),
    /** Why the save failed: the port's reason (onDone) or its error (onError). */
    reportSaveFailed: emit(({ context }, params: { reason: string }) => FILE_LOGS.saveFailed(context.saving, params.reason)),
    finishSaving: assign({ saving: null }),
  },
});

/**
 * One dialog at a time, in each of this machine's dialogs: a load or a recent file is refused
 * (a plugin's answered Busy, the user's a warning); a close over unsaved changes is answered
 * Busy, and one with nothing to lose is confirmed at once.
 */
const whileAsking = {
  "request.loadProject": { actions: "answerBusy" },
  "user.loadProject": { actions: "logAnswerTheOpenDialogFirst" },
  "user.openRecent": { actions: "logAnswerTheOpenDialogFirst" },
  "request.close": [{ guard: "hasUnsavedChanges", actions: "answerBusy" }, { actions: "confirmCloseNow" }],
} as const;

export const projectFileMachine = projectFileSetup.createMachine({
  id: "projectFile",
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
    project: input.project,
    path: input.path ?? null,
    recentProjects: (input.recentProjects ?? []).slice(0, RECENT_PROJECTS),
    loads: 0,
    opening: null,
  }),
  on: {
    "user.editProject": { actions: "markEdited" },
    "project.edited": { actions: { type: "takeEdit", params: ({ event }) => event.project } },
  },
  states: {
    dialog: {
      initial: "idle",
      states: {
        idle: {
          on: {
            "request.loadProject": [
              { guard: { type: "needsASecondDialog", params: ({ event }) => event.otherDialogOpen }, actions: "answerBusy" },
              { guard: "hasUnsavedChanges", target: "confirmingLoad", actions: "rememberLoad" },
              {
                actions: [
                  { type: "load", params: ({ event }) => ({ project: event.project, path: null }) },
                  "announceLoaded",
                  "answerLoadRequested",
                ],
              },
            ],
            "user.loadProject": [
              { guard: { type: "needsASecondDialog", params: ({ event }) => event.otherDialogOpen }, actions: "logAnswerTheOpenDialogFirst" },
              { guard: "hasUnsavedChanges", target: "confirmingLoad", actions: "rememberLoad" },
              {
                actions: [
                  { type: "load", params: ({ event }) => ({ project: event.project, path: null }) },
                  "announceLoaded",
                ],
              },
            ],
            "request.close": [
              { guard: { type: "needsASecondDialog", params: ({ event }) => event.otherDialogOpen }, actions: "answerBusy" },
              { guard: "hasUnsavedChanges", target: "confirmingClose", actions: "rememberClose" },
              { actions: "confirmCloseNow" },
            ],
            "journal.restoreOffered": { target: "confirmingRestore", actions: "rememberRestore" },
            "user.openRecent": { target: "opening", actions: "rememberOpening" },
          },
        },
        opening: {
          description: "Reads the recent file the user chose (user.openRecent); once read it loads as the user's own load does, asking over unsaved changes.",
          invoke: {
            src: "readProject",
            input: ({ context }) => ({ path: context.opening!.path }),
            onDone: [
              { guard: "openedNeedsASecondDialog", target: "idle", actions: ["logOpenedAfterADialog", "forgetOpening"] },
              {
                guard: "hasUnsavedChanges",
                target: "confirmingLoad",
                actions: [{ type: "rememberOpenedLoad", params: ({ event }) => event.output }, "forgetOpening"],
              },
              {
                target: "idle",
                actions: [
                  { type: "load", params: ({ context, event }) => ({ project: event.output, path: context.opening!.path }) },
                  "announceLoaded",
                  "forgetOpening",
                ],
              },
            ],
            onError: {
              target: "idle",
              actions: [{ type: "reportOpenFailed", params: ({ event }) => ({ reason: messageOf(event.error ?? "unknown error") }) }, "forgetOpening"],
            },
          },
          on: {
            // A file is read in a moment: what would need the dialog waits for nothing, it is refused.
            "request.loadProject": { actions: "answerBusy" },
            "user.loadProject": { actions: "logStillOpening" },
            "user.openRecent": { actions: "logStillOpening" },
            "request.close": [{ guard: "hasUnsavedChanges", actions: "answerBusy" }, { actions: "confirmCloseNow" }],
            "window.closed": { target: "idle", actions: "forgetOpening" },
          },
        },
        confirmingRestore: {
          description: "Asks the user whether to restore the unsaved changes a journal kept from before a crash.",
          entry: "announceDialogOpened",
          exit: "announceDialogClosed",
          on: {
            ...whileAsking,
            "user.accept": { target: "idle", actions: ["restoreJournaled", "announceRestored"] },
            "user.decline": { target: "idle", actions: "declineRestore" },
          },
        },
        confirmingLoad: {
          description: "Asks the user whether to load another project and lose the unsaved changes.",
          entry: "announceDialogOpened",
          exit: "announceDialogClosed",
          on: {
            ...whileAsking,
            "user.accept": {
              target: "idle",
              actions: [
                { type: "load", params: ({ context }) => ({ project: context.pendingLoad!.project, path: context.pendingLoad!.path }) },
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
            ...whileAsking,
            "user.accept": { target: "idle", actions: ["discardChanges", "announceReverted", "confirmClose", "forgetClose"] },
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
          on: { "project.saveRequested": { target: "saving", actions: ["logPathGoesToController", "startSaving"] } },
        },
        saving: {
          description: "The project is with the save port (the controller or `save`); it counts as saved only on success.",
          on: { "project.saveRequested": { actions: ["logPathGoesToController", "queueSave"] } },
          invoke: {
            src: "saveProject",
            input: ({ context }) => ({ project: context.saving!.project, controller: context.saving!.controller, path: context.saving!.path }),
            onDone: [
              {
                guard: { type: "saveSucceeded", params: ({ event }) => event.output },
                target: "idle",
                actions: [
                  { type: "recordSaved", params: ({ event }) => event.output },
                  { type: "reportSaved", params: ({ event }) => event.output },
                  "finishSaving",
                ],
              },
              {
                target: "idle",
                actions: [{ type: "reportSaveFailed", params: ({ event }) => ({ reason: event.output.ok ? "" : event.output.reason }) }, "finishSaving"],
              },
            ],
            onError: { target: "idle", actions: [{ type: "reportSaveFailed", params: ({ event }) => ({ reason: messageOf(event.error ?? "unknown error") }) }, "finishSaving"] },
          },
        },
      },
    },
  },
});

