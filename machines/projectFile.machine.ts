/**
 * The project file: which project is loaded, whether its changes are saved, and the dialogs
 * that protect them. The editor (editor.machine.ts) makes the changes and tells each one
 * (project.edited); this machine decides loads, closes and saves.
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
import { answered, busyReply, ok, windowClosedReply } from "./replies.ts";
import type {
  ProjectFileContext,
  ProjectFileEmitted,
  ProjectFileEvent,
  ProjectFileInput,
  ReadProjectInput,
  SaveInput,
  SaveOutcome,
} from "./projectFile.types.ts";
import { RECENT_PROJECTS } from "./projectFile.types.ts";
import { FILE_LOGS, fileToWrite, namedBySave, withRecent } from "./projectFile.paths.ts";

export { withRecent };

export const isUnsaved = (context: Pick<ProjectFileContext, "revision" | "savedRevision">): boolean => context.revision !== context.savedRevision;

export const projectFileMachine = setup({
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
    rememberLoad: assign({
      pendingLoad: ({ event }) => {
        assertEvent(event, ["request.loadProject", "user.loadProject"]);
        return event.type === "request.loadProject"
          ? { requestId: event.requestId, sender: event.sender, project: event.project, path: null }
          : { requestId: null, sender: "ide", project: event.project, path: null };
      },
    }),
    /** The user's recent file, read: it waits for the user like their own load, and names its file. */
    rememberOpenedLoad: assign(({ context }, project: SideProject) => ({
      pendingLoad: { requestId: null, sender: "ide", project, path: context.opening!.path },
    })),
    rememberOpening: assign({
      opening: ({ event }) => {
        assertEvent(event, "user.openRecent");
        return { path: event.path, otherDialogOpen: event.otherDialogOpen };
      },
    }),
    forgetOpening: assign({ opening: null }),
    reportOpenFailed: emit(({ context }, params: { reason: string }) => FILE_LOGS.openFailed(context.opening?.path ?? "file", params.reason)),
    logOpenedAfterADialog: emit(({ context }) => FILE_LOGS.openedAfterADialog(context.opening?.path ?? "file")),
    logStillOpening: emit(({ context, event }) =>
      FILE_LOGS.stillOpening("path" in event && typeof event.path === "string" ? event.path : null, context.opening?.path ?? "another file"),
    ),
    rememberClose: assign({
      pendingClose: ({ event }) => {
        assertEvent(event, "request.close");
        return { requestId: event.requestId, sender: event.sender };
      },
    }),
    /**
     * A project becomes the loaded one, saved as it is; the editor shows its first test. Its
     * path is the file it was opened from, or none (a page's Load, New project, a plugin's):
     * a later Save must not write another project's file.
     */
    load: assign(({ context }, params: { project: SideProject; path: string | null }) => ({
      project: params.project,
      savedCopy: params.project,
      revision: context.revision + 1,
      savedRevision: context.revision + 1,
      path: params.path,
      recentProjects: params.path === null ? context.recentProjects : withRecent(context.recentProjects, params.path),
      loads: context.loads + 1,
    })),
    announceLoaded: emit(({ context }) => ({
      type: "project.loaded" as const,
      projectId: context.project.id,
      projectName: context.project.name,
      project: context.project,
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
      project: context.savedCopy,
      revision: context.revision + 1,
      savedRevision: context.revision + 1,
    })),
    announceReverted: emit(({ context }) => ({ type: "project.reverted" as const, project: context.savedCopy })),
    confirmClose: emit(({ context }) => ({
      type: "close.confirmed" as const,
      requestId: context.pendingClose!.requestId,
    })),
    /** Nothing to lose: the close goes ahead without asking. */
    confirmCloseNow: emit(({ event }) => {
      assertEvent(event, "request.close");
      return { type: "close.confirmed" as const, requestId: event.requestId };
    }),
    announceDialogOpened: emit({ type: "dialog.opened" as const, owner: "projectFile" as const }),
    announceDialogClosed: emit({ type: "dialog.closed" as const, owner: "projectFile" as const }),
    logAnswerTheOpenDialogFirst: emit({
      type: "log.written" as const,
      level: "warn" as const,
      message: "The project was not loaded: answer the open dialog first, then load it again.",
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
      project: context.pendingRestore!,
      revision: context.revision + 1,
      pendingRestore: null,
    })),
    /** The editor shows the restored project, as it does the saved copy after a discard. */
    announceRestored: emit(({ context }) => ({ type: "project.reverted" as const, project: context.project })),
    /** No: the project stays as it is; the new revision (saved if it was) makes the journal drop the offered one. */
    declineRestore: assign(({ context }) => ({
      revision: context.revision + 1,
      savedRevision: isUnsaved(context) ? context.savedRevision : context.revision + 1,
      pendingRestore: null,
    })),
    markEdited: assign({ revision: ({ context }) => context.revision + 1 }),
    /** The editor changed the project: it is what a save writes now, and unsaved. */
    takeEdit: assign(({ context }, project: SideProject) => ({ project, revision: context.revision + 1 })),
    /** While controlled the project goes to the controller (CONTRACT section 8), so a Save as's path is not written. */
    startSaving: assign({
      saving: ({ context, event }) => {
        assertEvent(event, "project.saveRequested");
        const path = fileToWrite(context, event.controller, event.path);
        return { revision: context.revision, loads: context.loads, project: context.project, controller: event.controller, path };
      },
    }),
    queueSave: assign({
      queuedSave: ({ context, event }) => {
        assertEvent(event, "project.saveRequested");
        // A plain Save asked after a Save as still writes the Save as's file.
        return { controller: event.controller, path: event.controller === null ? (event.path ?? context.queuedSave?.path ?? null) : null };
      },
    }),
    startQueuedSave: assign(({ context }) => {
      const { controller, path } = context.queuedSave!;
      return {
        saving: { revision: context.revision, loads: context.loads, project: context.project, controller, path: fileToWrite(context, controller, path) },
        queuedSave: null,
      };
    }),
    logPathGoesToController: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, "project.saveRequested");
      if (event.controller !== null && event.path !== undefined) enqueue.emit(FILE_LOGS.pathGoesToController(event.controller, event.path, context.path));
    }),
    answerBusy: emit(({ event }) => {
      assertEvent(event, ["request.loadProject", "request.close"]);
      return answered(event.requestId, busyReply());
    }),
    recordSaved: assign(({ context }, outcome: SaveOutcome) => {
      const saving = context.saving!;
      const named = namedBySave(context, outcome);
      // A load or a later save already moved past what this save wrote.
      if (saving.revision <= context.savedRevision) return named;
      return { ...named, savedRevision: saving.revision, savedCopy: saving.project };
    }),
    /** Where the project went, when the port says (the host's file, the browser's download). */
    reportSaved: enqueueActions(({ context, enqueue }, outcome: SaveOutcome) => {
      if (outcome.ok && outcome.location !== undefined) enqueue.emit(FILE_LOGS.saved(context.saving!.project.name, outcome.location));
    }),
    /** Why the save failed: the port's reason (onDone) or its error (onError). */
    reportSaveFailed: emit(({ context }, params: { reason: string }) => FILE_LOGS.saveFailed(context.saving, params.reason)),
    finishSaving: assign({ saving: null }),
  },
}).createMachine({
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
            "request.loadProject": { actions: "answerBusy" },
            "user.loadProject": { actions: "logAnswerTheOpenDialogFirst" },
            "user.openRecent": { actions: "logAnswerTheOpenDialogFirst" },
            "request.close": [{ guard: "hasUnsavedChanges", actions: "answerBusy" }, { actions: "confirmCloseNow" }],
            "user.accept": { target: "idle", actions: ["restoreJournaled", "announceRestored"] },
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
            "user.openRecent": { actions: "logAnswerTheOpenDialogFirst" },
            "request.close": [{ guard: "hasUnsavedChanges", actions: "answerBusy" }, { actions: "confirmCloseNow" }],
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
            "request.loadProject": { actions: "answerBusy" },
            "user.loadProject": { actions: "logAnswerTheOpenDialogFirst" },
            "user.openRecent": { actions: "logAnswerTheOpenDialogFirst" },
            "request.close": [{ guard: "hasUnsavedChanges", actions: "answerBusy" }, { actions: "confirmCloseNow" }],
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

