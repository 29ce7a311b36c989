/**
 * The loaded project and its unsaved changes.
 *
 * Parallel regions:
 * - dialog: idle → confirmingLoad | confirmingClose → idle. A load or close over unsaved
 *   changes waits here for the user; the request is answered exactly once (true on accept,
 *   false on decline, IdeNotActive when the window closes first).
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
 */
import { assign, emit, fromPromise, setup } from "xstate";
import { messageOf } from "../services/errors.ts";
import { answered, fail, ok, windowClosedReply } from "./replies.ts";
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
    saveIsQueued: ({ context }) => context.queuedSave !== null,
    saveSucceeded: ({ event }) => (event as { output?: SaveOutcome }).output?.ok === true,
    pendingLoadIsTheUsers: ({ context }) => context.pendingLoad?.requestId === null,
    disconnectedAskedToLoad: ({ context, event }) =>
      event.type === "plugin.disconnected" && context.pendingLoad?.sender === event.sender,
    disconnectedAskedToClose: ({ context, event }) =>
      event.type === "plugin.disconnected" && context.pendingClose?.sender === event.sender,
  },
  actions: {
    rememberLoad: assign({
      pendingLoad: ({ event }) =>
        event.type === "request.loadProject"
          ? { requestId: event.requestId, sender: event.sender, project: event.project }
          : null,
    }),
    rememberUserLoad: assign({
      pendingLoad: ({ event }) =>
        event.type === "user.loadProject" ? { requestId: null, sender: "ide", project: event.project } : null,
    }),
    loadChosen: assign(({ context, event }) => {
      const project = event.type === "user.loadProject" ? event.project : context.project;
      return { project, savedCopy: project, revision: context.revision + 1, savedRevision: context.revision + 1 };
    }),
    rememberClose: assign({
      pendingClose: ({ event }) =>
        event.type === "request.close" ? { requestId: event.requestId, sender: event.sender } : null,
    }),
    loadRequested: assign(({ context, event }) => {
      const project = event.type === "request.loadProject" ? event.project : context.project;
      return { project, savedCopy: project, revision: context.revision + 1, savedRevision: context.revision + 1 };
    }),
    loadPending: assign(({ context }) => {
      const project = context.pendingLoad!.project;
      return { project, savedCopy: project, revision: context.revision + 1, savedRevision: context.revision + 1 };
    }),
    announceLoaded: emit(({ context }) => ({
      type: "project.loaded" as const,
      projectId: context.project.id,
      projectName: context.project.name,
    })),
    answerLoadRequested: emit(({ event }) =>
      answered(event.type === "request.loadProject" ? event.requestId : -1, ok(true)),
    ),
    answerPendingLoad: emit(({ context }, params: { loaded: boolean }) =>
      answered(context.pendingLoad!.requestId ?? -1, ok(params.loaded)),
    ),
    answerPendingLoadWindowClosed: emit(({ context }) =>
      answered(context.pendingLoad!.requestId ?? -1, windowClosedReply()),
    ),
    forgetLoad: assign({ pendingLoad: null }),
    discardChanges: assign(({ context }) => ({
      project: context.savedCopy,
      revision: context.revision + 1,
      savedRevision: context.revision + 1,
    })),
    confirmClose: emit(({ context }) => ({
      type: "close.confirmed" as const,
      requestId: context.pendingClose!.requestId,
    })),
    answerPendingCloseKept: emit(({ context }) => answered(context.pendingClose!.requestId, ok(false))),
    answerPendingCloseWindowClosed: emit(({ context }) =>
      answered(context.pendingClose!.requestId, windowClosedReply()),
    ),
    forgetClose: assign({ pendingClose: null }),
    markEdited: assign({ revision: ({ context }) => context.revision + 1 }),
    startSaving: assign({
      saving: ({ context, event }) => ({
        revision: context.revision,
        project: context.project,
        controller: event.type === "project.saveRequested" ? event.controller : null,
      }),
    }),
    queueSave: assign({
      queuedSave: ({ event }) => (event.type === "project.saveRequested" ? { controller: event.controller } : null),
    }),
    startQueuedSave: assign(({ context }) => ({
      saving: { revision: context.revision, project: context.project, controller: context.queuedSave!.controller },
      queuedSave: null,
    })),
    answerBusy: emit(({ event }) =>
      answered(
        "requestId" in event ? event.requestId : -1,
        fail("Busy", "The IDE is waiting for the user to answer another dialog about the project; try again once it is closed."),
      ),
    ),
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
    project: input.project,
    savedCopy: input.project,
    revision: 0,
    savedRevision: 0,
    pendingLoad: null,
    pendingClose: null,
    saving: null,
    queuedSave: null,
  }),
  on: {
    "user.editProject": { actions: "markEdited" },
  },
  states: {
    dialog: {
      initial: "idle",
      states: {
        idle: {
          on: {
            "request.loadProject": [
              { guard: "hasUnsavedChanges", target: "confirmingLoad", actions: "rememberLoad" },
              { actions: ["loadRequested", "announceLoaded", "answerLoadRequested"] },
            ],
            "user.loadProject": [
              { guard: "hasUnsavedChanges", target: "confirmingLoad", actions: "rememberUserLoad" },
              { actions: ["loadChosen", "announceLoaded"] },
            ],
            // The root sends a close here only when there are unsaved changes to ask about.
            "request.close": { target: "confirmingClose", actions: "rememberClose" },
          },
        },
        confirmingLoad: {
          description: "Asks the user whether to load another project and lose the unsaved changes.",
          on: {
            "request.loadProject": { actions: "answerBusy" },
            "request.close": { actions: "answerBusy" },
            "user.accept": [
              { guard: "pendingLoadIsTheUsers", target: "idle", actions: ["loadPending", "announceLoaded", "forgetLoad"] },
              {
                target: "idle",
                actions: ["loadPending", "announceLoaded", { type: "answerPendingLoad", params: { loaded: true } }, "forgetLoad"],
              },
            ],
            "user.decline": [
              { guard: "pendingLoadIsTheUsers", target: "idle", actions: "forgetLoad" },
              { target: "idle", actions: [{ type: "answerPendingLoad", params: { loaded: false } }, "forgetLoad"] },
            ],
            "window.closed": [
              // Closing the window ends every dialog; the user's own load is then simply not done.
              { guard: "pendingLoadIsTheUsers", target: "idle", actions: "forgetLoad" },
              { target: "idle", actions: ["answerPendingLoadWindowClosed", "forgetLoad"] },
            ],
            "plugin.disconnected": {
              guard: "disconnectedAskedToLoad",
              target: "idle",
              actions: [{ type: "answerPendingLoad", params: { loaded: false } }, "forgetLoad"],
            },
          },
        },
        confirmingClose: {
          description: "Asks the user whether to discard the unsaved changes and close, or keep the IDE open.",
          on: {
            "request.loadProject": { actions: "answerBusy" },
            "request.close": { actions: "answerBusy" },
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

