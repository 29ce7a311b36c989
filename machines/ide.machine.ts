/**
 * The root of the IDE: its window, the plugin session, and the child machines
 * (control, projectFile, editor, suiteRunner, recording) it composes.
 *
 * States: open ⇄ closed (the IDE window).
 * Invariants:
 * - One dialog at a time, decided here alone from context.dialogs (the children's dialog.opened /
 *   dialog.closed) and its own plugin alert (POST /popup/alert): a request that needs a dialog
 *   while one is open is answered Busy; a load or a close goes to the project file machine with
 *   `otherDialogOpen`. The alert is answered true on accept, false on decline or when its plugin
 *   is lost, IdeNotActive when the window closes.
 * - Closing the window ends control, answers every waiting request with IdeNotActive, stops the
 *   run and the recording and drops the registered plugins; the project and its unsaved changes stay.
 * - Recording and a run never at once: a start of a run and a load stop (or flush) a recording
 *   first, and reach their owner through this machine's own mailbox (recording.thenProject, then
 *   for a load editor.thenProjectFile), behind the recording's and the editor's facts, so the
 *   typing a stop found is in the project they see.
 * - Accepting a controller restarts the plugin session: the controller is the only plugin. A
 *   plugin the transport lost loses its dialogs (answered no) and its control, nothing else.
 * - Every request event that reaches this machine is answered exactly once, here or by the child
 *   it is forwarded to.
 * - One owner per decision: the window, the plugin session, one dialog at a time and who controls
 *   the IDE (`context.controller`, one copy) here; loads, closes and saves the project file
 *   machine; edits and the display the editor; runs the suite runner. What Play, Play suite,
 *   POST /playback/start and Record mean is a pure function of the editor's document
 *   (editor.targets.ts), the one child snapshot this machine reads.
 * Door checks and admission (ide.rules.ts) run before an event is built: only admitted requests come here.
 */
import { assertEvent, assign, emit, enqueueActions, not, raise, sendTo, setup } from "xstate";
import { pluginStrategies, registerPlugin } from "../services/plugins/index.ts";
import { newProject } from "../services/side/newProject.ts";
import { controlMachine } from "./control.machine.ts";
import { projectFileMachine } from "./projectFile.machine.ts";
import { editorMachine } from "./editor.machine.ts";
import { recordingFor, runStartFor } from "./editor.targets.ts";
import { suiteRunnerMachine } from "./suiteRunner.machine.ts";
import { recordingMachine } from "./recording.machine.ts";
import { pointingMachine } from "./pointing.machine.ts";
import { storedVariables } from "../services/recording/checks.ts";
import { answered, busyReply, fail, ok, windowClosedReply, windowNotOpenReply } from "./replies.ts";
import { outboundFor, PICK_REPORTS, pickReports, RECORDER_REPORTS, recorderReports, relayChildFacts, requestOf, TO_CONTROL, TO_PROJECT_FILE, TO_RECORDING } from "./ide.children.ts";
import { pluginAlert } from "./ide.alert.ts";
import { acceptedChanges } from "./ide.healing.ts";
import { sessionAfter, strategyDeclared } from "./ide.plugins.ts";
import type { IdeContext, IdeEmitted, IdeEvent, IdeInput } from "./ide.types.ts";

export const ideMachine = setup({
  types: {
    context: {} as IdeContext,
    events: {} as IdeEvent,
    emitted: {} as IdeEmitted,
    input: {} as IdeInput,
  },
  actors: {
    control: controlMachine,
    projectFile: projectFileMachine,
    editor: editorMachine,
    suiteRunner: suiteRunnerMachine,
    recording: recordingMachine,
    pointing: pointingMachine,
    relayChildFacts,
  },
  guards: {
    startsClosed: ({ context }) => !context.openAtStart,
    senderIsController: ({ context, event }) => "sender" in event && context.controller === event.sender,
    inControlMode: ({ context }) => context.controller !== null,
    notInControlMode: not("inControlMode"),
    dialogIsOpen: ({ context }) => context.dialogs.control || context.dialogs.projectFile || context.alert !== null,
    heldIsLoad: ({ event }) =>
      event.type === "recording.thenProject" && (event.event.type === "user.loadProject" || event.event.type === "request.loadProject" || event.event.type === "user.openRecent"),
    alertIsOpen: ({ context }) => context.alert !== null,
    disconnectedOpenedAlert: ({ context, event }) => event.type === "plugin.disconnected" && context.alert?.sender === event.sender,
  },
  actions: {
    answerTrue: emit(({ event }) => answered(requestOf(event).requestId, ok(true))),
    answerBusy: emit(({ event }) => answered(requestOf(event).requestId, busyReply())),
    answerNotControlled: emit(({ event }) => answered(requestOf(event).requestId, fail("NotControlled", NOT_CONTROLLED))),
    answerWindowClosed: emit(({ event }) => answered(requestOf(event).requestId, windowNotOpenReply())),
    /** Registers the sender (replacing its earlier entry) and tells the run, or refuses a clash. */
    register: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, "request.register");
      const result = registerPlugin(context.plugins, event.sender, event.registration);
      if (!result.ok) {
        const { commandId, owner } = result.conflict;
        enqueue.emit(
          answered(
            event.requestId,
            fail("CommandConflict", `The command id "${commandId}" is already registered by the plugin ${owner}; nothing was registered.`),
          ),
        );
        return;
      }
      enqueue.assign({ plugins: result.registry });
      enqueue.sendTo(context.suiteRunner, { type: "plugins.changed", plugins: result.registry });
      enqueue.emit(answered(event.requestId, ok(true)));
    }),
    /** POST /locator/strategy: into the sender's entry and told to the run, or refused (ide.plugins.ts). */
    declareStrategy: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, "request.declareStrategy");
      const { registry, reply } = strategyDeclared(context.plugins, event);
      if (registry !== context.plugins) enqueue.sendTo(context.suiteRunner, { type: "plugins.changed", plugins: registry });
      enqueue.assign({ plugins: registry });
      enqueue.emit(answered(event.requestId, reply));
    }),
    /** The session ends (a granted control restarts it with the controller alone, ide.plugins.ts); the project keeps the strategies it uses of those who leave. */
    dropPlugins: enqueueActions(({ context, event, enqueue }) => {
      const { plugins, left } = sessionAfter(context.plugins, event);
      if (left.length > 0) enqueue.sendTo(context.editor, { type: "plugins.left", strategies: left });
      enqueue.assign({ plugins });
    }),
    /** The run needs to know who owns which command and whom to tell of its start and end. */
    tellSuiteRunnerPlugins: sendTo(
      ({ context }) => context.suiteRunner,
      ({ context }) => ({ type: "plugins.changed" as const, plugins: context.plugins }),
    ),
    /** With who controls the IDE now: the control machine decides changes of it from this machine's copy. */
    forwardToControl: sendTo(
      ({ context }) => context.control,
      ({ context, event }) => {
        assertEvent(event, [...TO_CONTROL]);
        return { ...event, controller: context.controller };
      },
    ),
    /** Loads and closes carry whether another dialog is open: this machine decides "one dialog at a time". */
    forwardToProjectFile: sendTo(
      ({ context }) => context.projectFile,
      ({ context, event }) => {
        assertEvent(event, [...TO_PROJECT_FILE]);
        return event.type === "request.loadProject" || event.type === "request.close" || event.type === "user.loadProject"
          ? { ...event, otherDialogOpen: otherDialogOpen(context) }
          : event;
      },
    ),
    acceptHealed: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, ["user.acceptHealed", "user.acceptAllHealed"]);
      for (const change of acceptedChanges(context.suiteRunner.getSnapshot(), event)) enqueue.sendTo(context.editor, change);
    }),
    /** Held in this machine's own mailbox behind the recording's facts (the typing a stop or flush found), so a run or a load sees them. */
    holdBehindRecording: sendTo(
      ({ self }) => self,
      ({ event }) => {
        assertEvent(event, ["user.startPlayback", "user.startSuite", "user.executeCommand", "request.startRun", "user.loadProject", "request.loadProject", "user.openRecent"]);
        return { type: "recording.thenProject" as const, event };
      },
    ),
    /** A load held behind the recording's facts waits once more, behind the editor's (project.edited), so the project file knows what is unsaved. */
    holdBehindEditor: sendTo(
      ({ self }) => self,
      ({ event }) => {
        assertEvent(event, "recording.thenProject");
        assertEvent(event.event, ["user.loadProject", "request.loadProject", "user.openRecent"]);
        return { type: "editor.thenProjectFile" as const, event: event.event };
      },
    ),
    forwardHeldToProjectFile: sendTo(
      ({ context }) => context.projectFile,
      ({ context, event }) => {
        assertEvent(event, "editor.thenProjectFile");
        return { ...event.event, otherDialogOpen: otherDialogOpen(context) };
      },
    ),
    /** A request held behind the recording's facts while the window closed: answered as every request then is. */
    answerHeldWindowClosed: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, ["recording.thenProject", "editor.thenProjectFile"]);
      if ("requestId" in event.event) enqueue.emit(answered(event.event.requestId, windowNotOpenReply()));
    }),
    /** New project is a load of an empty project: asked over unsaved changes, held behind the recording, like any load. */
    loadNewProject: raise(() => ({ type: "user.loadProject" as const, project: newProject() })),
    /** What was typed into the focused field is recorded now; the recording goes on. */
    flushRecording: sendTo(({ context }) => context.recording, { type: "recording.flush" as const }),
    logPluginDisconnected: emit(({ event }) => {
      assertEvent(event, "plugin.disconnected");
      const message = `The plugin ${event.sender} disconnected; any dialog it opened was answered no, and it no longer controls the IDE.`;
      return { type: "log.written" as const, level: "info" as const, message };
    }),
    /** The one copy of who controls the IDE: the control machine decides, this machine keeps it. */
    rememberController: assign(({ event }) => {
      assertEvent(event, "control.changed");
      return { controller: event.controller };
    }),
    /** One dialog at a time: the root keeps whose is open (the one copy), and says so with each load and close. */
    rememberDialog: assign({
      dialogs: ({ context, event }) => {
        assertEvent(event, ["dialog.opened", "dialog.closed"]);
        return { ...context.dialogs, [event.owner]: event.type === "dialog.opened" };
      },
    }),
    /** POST /popup/alert: the plugin's message in a dialog titled with its registered name. */
    openAlert: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, "request.alert");
      enqueue.assign({ alert: pluginAlert(context.plugins, event) });
    }),
    answerAlert: enqueueActions(({ context, enqueue }, params: { reply: "confirmed" | "declined" | "windowClosed" }) => {
      const alert = context.alert;
      if (!alert) return;
      enqueue.emit(answered(alert.requestId, params.reply === "windowClosed" ? windowClosedReply() : ok(params.reply === "confirmed")));
      enqueue.assign({ alert: null });
    }),
    forwardToRecording: sendTo(
      ({ context }) => context.recording,
      ({ event }) => {
        assertEvent(event, [...TO_RECORDING]);
        return event;
      },
    ),
    /** A recorded command is told to the plugins registered now. */
    forwardRecorderReport: sendTo(
      ({ context }) => context.recording,
      ({ context, event }) => {
        assertEvent(event, [...RECORDER_REPORTS]);
        return { ...event, plugins: context.plugins.map((p) => p.id) };
      },
    ),
    /** A pick's element, with the plugins to tell of a check and the variables the test recorded into (else the displayed one) stores. */
    forwardPickReport: sendTo(
      ({ context }) => context.pointing,
      ({ context, event }) => {
        assertEvent(event, [...PICK_REPORTS]);
        if (event.type !== "recorder.picked") return event;
        const { project, recordingTestId, displayedTestId } = context.editor.getSnapshot().context;
        const test = project.tests.find((t) => t.id === (recordingTestId ?? displayedTestId));
        return { ...event, plugins: context.plugins.map((p) => p.id), variables: storedVariables(test?.commands ?? []) };
      },
    ),
    stopRecording: sendTo(
      ({ context }) => context.recording,
      (_, params: { reason: string }) => ({ type: "recording.stop" as const, reason: params.reason }),
    ),
    /**
     * Play, Play suite, POST /playback/start: what they mean (editor.targets.ts, from the editor's
     * project and displayed test), or why nothing starts. The run goes to the suite runner by
     * way of this machine's own mailbox, behind the fact of the recording it stopped, so plugins
     * hear recordingStopped before playbackStarted.
     */
    startRun: enqueueActions(({ context, event: held, enqueue, self }) => {
      assertEvent(held, "recording.thenProject");
      const event = held.event;
      assertEvent(event, ["user.startPlayback", "user.startSuite", "user.executeCommand", "request.startRun"]);
      const start = runStartFor(context.editor.getSnapshot().context, event, pluginStrategies(context.plugins));
      if (start.ok) enqueue.sendTo(context.suiteRunner, start.value);
      else if (event.type === "request.startRun") enqueue.emit(answered(event.requestId, fail("UnknownTest", start.problem)));
      else enqueue.emit({ type: "log.written", level: "warn", message: `${start.problem} Nothing was started.` });
    }),
    /** Record: into the editor's displayed test, told to the recording machine, or why not. */
    startRecording: enqueueActions(({ context, enqueue }) => {
      const recording = recordingFor(context.editor.getSnapshot().context);
      if (recording.ok) enqueue.sendTo(context.recording, recording.value);
      else enqueue.emit({ type: "log.written", level: "warn", message: recording.problem });
    }),
    tellChildrenWindowClosed: enqueueActions(({ context, enqueue }) => {
      enqueue.sendTo(context.control, { type: "window.closed" });
      enqueue.sendTo(context.projectFile, { type: "window.closed" });
      enqueue.sendTo(context.suiteRunner, { type: "window.closed" });
      enqueue.sendTo(context.recording, { type: "recording.stop", reason: "the IDE window closed" });
    }),
    /** Save, or Save as (`path`): the project file machine decides where, and that a controller gets it instead. */
    requestSave: sendTo(
      ({ context }) => context.projectFile,
      ({ context, event }) => {
        assertEvent(event, "user.saveProject");
        return { type: "project.saveRequested" as const, controller: context.controller, ...(event.path === undefined ? {} : { path: event.path }) };
      },
    ),
    reemit: emit(({ event }) => {
      assertEvent(event, "log.written");
      return event;
    }),
    answerCloseConfirmed: emit(({ event }) => {
      assertEvent(event, "close.confirmed");
      return answered(event.requestId, ok(true));
    }),
    tellEveryPlugin: enqueueActions(({ context, event, enqueue }) => {
      const message = outboundFor(event);
      if (!message) return;
      for (const plugin of context.plugins) enqueue.emit({ type: "outbound.requested", to: plugin.id, message });
    }),
  },
}).createMachine({
  id: "ide",
  context: ({ input, spawn }) => ({
    control: spawn("control", { id: "control", systemId: "control" }),
    projectFile: spawn("projectFile", { id: "projectFile", systemId: "projectFile", input: { project: input.project, path: input.projectPath, recentProjects: input.recentProjects } }),
    editor: spawn("editor", { id: "editor", systemId: "editor", input: { project: input.project } }),
    suiteRunner: spawn("suiteRunner", { id: "suiteRunner", systemId: "suiteRunner", input: { workers: input.workers ?? 1, heal: input.heal !== false, retries: input.retries ?? 0, variables: input.variables } }),
    recording: spawn("recording", { id: "recording", systemId: "recording" }),
    pointing: spawn("pointing", { id: "pointing", systemId: "pointing" }),
    plugins: [],
    openAtStart: input.window !== "closed",
    controller: null,
    dialogs: { control: false, projectFile: false },
    alert: null,
  }),
  invoke: {
    src: "relayChildFacts",
    input: ({ context }) => ({
      children: { control: context.control, projectFile: context.projectFile, editor: context.editor, suiteRunner: context.suiteRunner, recording: context.recording, pointing: context.pointing },
    }),
  },
  initial: "starting",
  on: {
    "log.written": { actions: "reemit" },
    "control.changed": { actions: "rememberController" },
    "dialog.opened": { actions: "rememberDialog" },
    "dialog.closed": { actions: "rememberDialog" },
    // The editor has the new project already (FACT_CONSUMERS): what it shows and records into is gone.
    "project.loaded": { actions: ["tellEveryPlugin", { type: "stopRecording", params: { reason: "another project was loaded" } }] },
    "recording.started": { actions: "tellEveryPlugin" },
    "recording.stopped": { actions: "tellEveryPlugin" },
  },
  states: {
    starting: {
      always: [
        { guard: "startsClosed", target: "closed" },
        { target: "open" },
      ],
    },
    open: {
      on: {
        "user.closeWindow": {
          target: "closed",
          actions: [{ type: "answerAlert", params: { reply: "windowClosed" } }, "tellChildrenWindowClosed", "dropPlugins", "tellSuiteRunnerPlugins"],
        },
        "close.confirmed": {
          target: "closed",
          actions: ["answerCloseConfirmed", { type: "answerAlert", params: { reply: "windowClosed" } }, "tellChildrenWindowClosed", "dropPlugins", "tellSuiteRunnerPlugins"],
        },
        "control.granted": { actions: ["dropPlugins", "tellSuiteRunnerPlugins"] },
        "request.open": { actions: "answerTrue" },
        "request.register": { actions: "register" },
        "request.declareStrategy": { actions: "declareStrategy" },
        "request.control": [
          { guard: "senderIsController", actions: "answerTrue" },
          { guard: "dialogIsOpen", actions: "answerBusy" },
          { actions: "forwardToControl" },
        ],
        "request.loadProject": { actions: ["flushRecording", "holdBehindRecording"] },
        "request.close": [{ guard: "notInControlMode", actions: "answerNotControlled" }, { actions: "forwardToProjectFile" }],
        "request.startRun": { actions: [{ type: "stopRecording", params: { reason: "a run started" } }, "holdBehindRecording"] },
        "request.alert": [{ guard: "dialogIsOpen", actions: "answerBusy" }, { actions: "openAlert" }],
        // A dialog's answer and a lost plugin concern every owner of a dialog; only one is open.
        "user.accept": [
          { guard: "alertIsOpen", actions: { type: "answerAlert", params: { reply: "confirmed" } } },
          { actions: ["forwardToControl", "forwardToProjectFile"] },
        ],
        "user.decline": [
          { guard: "alertIsOpen", actions: { type: "answerAlert", params: { reply: "declined" } } },
          { actions: ["forwardToControl", "forwardToProjectFile"] },
        ],
        "user.saveProject": { actions: "requestSave" },
        "user.startPlayback": { actions: [{ type: "stopRecording", params: { reason: "a run started" } }, "holdBehindRecording"] },
        "user.startSuite": { actions: [{ type: "stopRecording", params: { reason: "a run started" } }, "holdBehindRecording"] },
        "user.executeCommand": { actions: [{ type: "stopRecording", params: { reason: "a command was executed" } }, "holdBehindRecording"] },
        "recording.thenProject": [{ guard: "heldIsLoad", actions: "holdBehindEditor" }, { actions: "startRun" }],
        "editor.thenProjectFile": { actions: "forwardHeldToProjectFile" },
        "user.startRecording": { actions: "startRecording" },
        ...recorderReports,
        ...pickReports,
        "recorder.tabClosed": { actions: "forwardToRecording" },
        "user.loadProject": { actions: ["flushRecording", "holdBehindRecording"] },
        "user.openRecent": { actions: ["flushRecording", "holdBehindRecording"] },
        "user.newProject": { actions: "loadNewProject" },
        "user.acceptHealed": { actions: "acceptHealed" },
        "user.acceptAllHealed": { actions: "acceptHealed" },
        "plugin.disconnected": [
          { guard: "disconnectedOpenedAlert", actions: [{ type: "answerAlert", params: { reply: "declined" } }, "forwardToControl", "forwardToProjectFile", "logPluginDisconnected"] },
          { actions: ["forwardToControl", "forwardToProjectFile", "logPluginDisconnected"] },
        ],
      },
    },
    closed: {
      description: "The IDE window is closed: only opening it, or a plugin asking for control, does anything.",
      on: {
        "user.openWindow": { target: "open", actions: ["dropPlugins", "tellSuiteRunnerPlugins"] },
        "request.open": { target: "open", actions: ["dropPlugins", "tellSuiteRunnerPlugins", "answerTrue"] },
        "request.control": { target: "open", actions: ["dropPlugins", "tellSuiteRunnerPlugins", "forwardToControl"] },
        "request.register": { actions: "answerWindowClosed" },
        "request.declareStrategy": { actions: "answerWindowClosed" },
        "request.loadProject": { actions: "answerWindowClosed" },
        "request.close": { actions: "answerWindowClosed" },
        "request.commandState": { actions: "answerWindowClosed" },
        "request.setVariable": { actions: "answerWindowClosed" },
        "request.startRun": { actions: "answerWindowClosed" },
        "request.stopRun": { actions: "answerWindowClosed" },
        "request.alert": { actions: "answerWindowClosed" },
        "request.addCommand": { actions: "answerWindowClosed" },
        "request.changeCommand": { actions: "answerWindowClosed" },
        "request.deleteCommand": { actions: "answerWindowClosed" },
        "recording.thenProject": { actions: "answerHeldWindowClosed" },
        "editor.thenProjectFile": { actions: "answerHeldWindowClosed" },
      },
    },
  },
});

const NOT_CONTROLLED = "The IDE is not in control mode, so it cannot be closed by a plugin.";

/** Whether a dialog other than the project file's is open: this machine alone decides "one dialog at a time". */
function otherDialogOpen(context: IdeContext): boolean {
  return context.dialogs.control || context.alert !== null;
}
