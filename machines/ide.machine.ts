/**
 * The root of the IDE: its window, the plugin session, and the child machines
 * (control, project, playback, recording) it composes.
 *
 * States: open ⇄ closed (the IDE window).
 * Invariants:
 * - One dialog at a time: a request that needs a dialog while one is open is answered Busy;
 *   requests that need none keep working. This machine owns one dialog itself, a plugin's
 *   alert (POST /popup/alert, context.alert): answered true on accept, false on decline or
 *   when its plugin is lost, IdeNotActive when the window closes.
 * - Closing the window ends control, answers every waiting request with IdeNotActive, stops
 *   playback and recording and drops the registered plugins; the project and its unsaved changes stay.
 * - Recording and a run never at once: every start of a run (the user's Play, a suite,
 *   POST /playback/start) stops a recording first, and so does loading another project; the
 *   recording machine refuses to start while a run plays. What a stop (or, before a load, a
 *   flush) records of the typing in the focused field reaches the project before the start or
 *   the load does: those go to the project through this machine's own mailbox
 *   (recording.thenProject), behind the recording's facts.
 * - Accepting a controller restarts the plugin session: the controller is the only plugin.
 * - A plugin the transport lost (`plugin.disconnected`) loses its dialogs (answered no) and
 *   its control, nothing else: its registration and logs stay, and so does the project.
 * - Every request event that reaches this machine is answered exactly once (an emitted
 *   request.answered), here or by the child it is forwarded to.
 * - Each decision has one owner: this machine decides the window, the plugin session and
 *   "one dialog at a time" from its own context, which the children's facts keep
 *   (control.changed, dialog.opened / dialog.closed); it never reads a child's snapshot. The
 *   project machine decides loads and closes over unsaved changes; the run machine, runs.
 * - Who controls the IDE has one copy, `context.controller`, here: this machine, admission at
 *   the door and the view all read it, and most readers are here, so keeping it anywhere else
 *   would mean a mirror or reading a child's snapshot. The control machine decides its changes
 *   (control.changed) and reads the current value from the events forwarded to it.
 * Door checks and admission (window, control mode, registration) run before an event is
 * built, with the rules in ide.rules.ts, so this machine sees only admitted requests.
 */
import { assertEvent, assign, emit, enqueueActions, not, sendTo, setup } from "xstate";
import { registerPlugin } from "../services/plugins/index.ts";
import { controlMachine } from "./control.machine.ts";
import { projectMachine } from "./project.machine.ts";
import { suiteRunnerMachine } from "./suiteRunner.machine.ts";
import { recordingMachine } from "./recording.machine.ts";
import { answered, busyReply, fail, ok, windowClosedReply, windowNotOpenReply } from "./replies.ts";
import { outboundFor, RECORDER_REPORTS, relayChildFacts, requestOf, TO_CONTROL, TO_PLAYBACK, TO_PROJECT, TO_RECORDING } from "./ide.children.ts";
import type { IdeContext, IdeEmitted, IdeEvent, IdeInput, PluginAlert } from "./ide.types.ts";


export const ideMachine = setup({
  types: {
    context: {} as IdeContext,
    events: {} as IdeEvent,
    emitted: {} as IdeEmitted,
    input: {} as IdeInput,
  },
  actors: {
    control: controlMachine,
    project: projectMachine,
    playback: suiteRunnerMachine,
    recording: recordingMachine,
    relayChildFacts,
  },
  guards: {
    startsClosed: ({ context }) => !context.openAtStart,
    senderIsController: ({ context, event }) => "sender" in event && context.controller === event.sender,
    inControlMode: ({ context }) => context.controller !== null,
    notInControlMode: not("inControlMode"),
    dialogIsOpen: ({ context }) => context.dialogs.control || context.dialogs.project || context.alert !== null,
    alertIsOpen: ({ context }) => context.alert !== null,
    disconnectedOpenedAlert: ({ context, event }) => event.type === "plugin.disconnected" && context.alert?.sender === event.sender,
  },
  actions: {
    answerTrue: emit(({ event }) => answered(requestOf(event).requestId, ok(true))),
    answerBusy: emit(({ event }) => answered(requestOf(event).requestId, busyReply())),
    answerNotControlled: emit(({ event }) =>
      answered(requestOf(event).requestId, fail("NotControlled", "The IDE is not in control mode, so it cannot be closed by a plugin.")),
    ),
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
      enqueue.sendTo(context.playback, { type: "plugins.changed", plugins: result.registry });
      enqueue.emit(answered(event.requestId, ok(true)));
    }),
    restartPluginSession: assign({
      plugins: ({ event }) =>
        event.type === "control.granted" ? [{ id: event.controller, registration: event.registration }] : [],
    }),
    dropPlugins: assign({ plugins: [] }),
    /** The run needs to know who owns which command and whom to tell of its start and end. */
    tellPlaybackPlugins: sendTo(
      ({ context }) => context.playback,
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
    forwardToProject: sendTo(
      ({ context }) => context.project,
      ({ event }) => {
        assertEvent(event, [...TO_PROJECT]);
        return event;
      },
    ),
    /** To the project once the recording's facts queued before it are handled (the root's mailbox keeps their order). */
    forwardToProjectAfterRecording: sendTo(
      ({ self }) => self,
      ({ event }) => {
        assertEvent(event, ["user.startPlayback", "user.startSuite", "request.startRun", "user.loadProject", "request.loadProject"]);
        return { type: "recording.thenProject" as const, event };
      },
    ),
    forwardHeldToProject: sendTo(
      ({ context }) => context.project,
      ({ event }) => {
        assertEvent(event, "recording.thenProject");
        return event.event;
      },
    ),
    /** What was typed into the focused field is recorded now; the recording goes on. */
    flushRecording: sendTo(({ context }) => context.recording, { type: "recording.flush" as const }),
    forwardToPlayback: sendTo(
      ({ context }) => context.playback,
      ({ event }) => {
        assertEvent(event, [...TO_PLAYBACK]);
        return event;
      },
    ),
    logPluginDisconnected: emit(({ event }) => {
      assertEvent(event, "plugin.disconnected");
      return {
        type: "log.written" as const,
        level: "info" as const,
        message: `The plugin ${event.sender} disconnected; any dialog it opened was answered no, and it no longer controls the IDE.`,
      };
    }),
    /** The one copy of who controls the IDE: the control machine decides, this machine keeps it. */
    rememberController: assign({
      controller: ({ event }) => {
        assertEvent(event, "control.changed");
        return event.controller;
      },
    }),
    /** One dialog at a time: the root keeps whose is open, and tells the project of the others'. */
    rememberDialog: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, ["dialog.opened", "dialog.closed"]);
      const open = event.type === "dialog.opened";
      enqueue.assign({ dialogs: { ...context.dialogs, [event.owner]: open } });
      if (event.owner === "control") enqueue.sendTo(context.project, { type: "dialog.elsewhere", open: open || context.alert !== null });
    }),
    /** POST /popup/alert: the plugin's message in a dialog titled with its registered name. */
    openAlert: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, "request.alert");
      const name = context.plugins.find((p) => p.id === event.sender)?.registration.name ?? event.sender;
      const alert: PluginAlert = {
        requestId: event.requestId,
        sender: event.sender,
        title: `${name} says...`,
        text: event.message,
        confirmLabel: event.confirm ?? "OK",
        cancelLabel: event.cancel ?? null,
      };
      enqueue.assign({ alert });
      enqueue.sendTo(context.project, { type: "dialog.elsewhere", open: true });
    }),
    answerAlert: enqueueActions(({ context, enqueue }, params: { reply: "confirmed" | "declined" | "windowClosed" }) => {
      const alert = context.alert;
      if (!alert) return;
      enqueue.emit(answered(alert.requestId, params.reply === "windowClosed" ? windowClosedReply() : ok(params.reply === "confirmed")));
      enqueue.assign({ alert: null });
      enqueue.sendTo(context.project, { type: "dialog.elsewhere", open: context.dialogs.control });
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
    stopRecording: sendTo(
      ({ context }) => context.recording,
      (_, params: { reason: string }) => ({ type: "recording.stop" as const, reason: params.reason }),
    ),
    startRun: sendTo(
      ({ context }) => context.playback,
      ({ event }) => {
        assertEvent(event, "run.requested");
        return { ...event, type: "run.start" as const };
      },
    ),
    tellChildrenWindowClosed: enqueueActions(({ context, enqueue }) => {
      enqueue.sendTo(context.control, { type: "window.closed" });
      enqueue.sendTo(context.project, { type: "window.closed" });
      enqueue.sendTo(context.playback, { type: "window.closed" });
      enqueue.sendTo(context.recording, { type: "recording.stop", reason: "the IDE window closed" });
    }),
    requestSave: sendTo(
      ({ context }) => context.project,
      ({ context }) => ({ type: "project.saveRequested" as const, controller: context.controller }),
    ),
    reemit: emit(({ event }) => event as IdeEmitted),
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
    project: spawn("project", { id: "project", systemId: "project", input: { project: input.project } }),
    playback: spawn("playback", { id: "playback", systemId: "playback", input: { workers: input.workers ?? 1 } }),
    recording: spawn("recording", { id: "recording", systemId: "recording" }),
    plugins: [],
    openAtStart: input.window !== "closed",
    controller: null,
    dialogs: { control: false, project: false },
    alert: null,
  }),
  invoke: {
    src: "relayChildFacts",
    input: ({ context }) => ({ children: [context.control, context.project, context.recording], playback: context.playback }),
  },
  initial: "starting",
  on: {
    "log.written": { actions: "reemit" },
    "control.changed": { actions: "rememberController" },
    "dialog.opened": { actions: "rememberDialog" },
    "dialog.closed": { actions: "rememberDialog" },
    "project.loaded": { actions: ["tellEveryPlugin", { type: "stopRecording", params: { reason: "another project was loaded" } }] },
    "run.requested": { actions: "startRun" },
    // Which tests a run plays, for the project's edits and the recording: told whether the window is open or not.
    "run.playing": { actions: ["forwardToProject", "forwardToRecording"] },
    "run.over": { actions: ["forwardToProject", "forwardToRecording"] },
    "recording.requested": { actions: "forwardToRecording" },
    "recording.started": { actions: ["tellEveryPlugin", "forwardToProject"] },
    "recording.stopped": { actions: ["tellEveryPlugin", "forwardToProject"] },
    "recording.commandsRecorded": { actions: "forwardToProject" },
    "recording.commandChanged": { actions: "forwardToProject" },
    "recording.commandRemoved": { actions: "forwardToProject" },
    "recording.urlFound": { actions: "forwardToProject" },
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
          actions: [{ type: "answerAlert", params: { reply: "windowClosed" } }, "tellChildrenWindowClosed", "dropPlugins", "tellPlaybackPlugins"],
        },
        "close.confirmed": {
          target: "closed",
          actions: [
            "answerCloseConfirmed",
            { type: "answerAlert", params: { reply: "windowClosed" } },
            "tellChildrenWindowClosed",
            "dropPlugins",
            "tellPlaybackPlugins",
          ],
        },
        "control.granted": { actions: ["restartPluginSession", "tellPlaybackPlugins"] },
        "request.open": { actions: "answerTrue" },
        "request.register": { actions: "register" },
        "request.control": [
          { guard: "senderIsController", actions: "answerTrue" },
          { guard: "dialogIsOpen", actions: "answerBusy" },
          { actions: "forwardToControl" },
        ],
        "request.loadProject": { actions: ["flushRecording", "forwardToProjectAfterRecording"] },
        "request.close": [{ guard: "notInControlMode", actions: "answerNotControlled" }, { actions: "forwardToProject" }],
        "request.commandState": { actions: "forwardToPlayback" },
        "request.setVariable": { actions: "forwardToPlayback" },
        "request.stopRun": { actions: "forwardToPlayback" },
        "request.startRun": { actions: [{ type: "stopRecording", params: { reason: "a run started" } }, "forwardToProjectAfterRecording"] },
        "request.alert": [{ guard: "dialogIsOpen", actions: "answerBusy" }, { actions: "openAlert" }],
        "request.addCommand": { actions: "forwardToProject" },
        "request.changeCommand": { actions: "forwardToProject" },
        "request.deleteCommand": { actions: "forwardToProject" },
        // A dialog's answer and a lost plugin concern every owner of a dialog; only one is open.
        "user.accept": [
          { guard: "alertIsOpen", actions: { type: "answerAlert", params: { reply: "confirmed" } } },
          { actions: ["forwardToControl", "forwardToProject"] },
        ],
        "user.decline": [
          { guard: "alertIsOpen", actions: { type: "answerAlert", params: { reply: "declined" } } },
          { actions: ["forwardToControl", "forwardToProject"] },
        ],
        "user.editProject": { actions: "forwardToProject" },
        "user.saveProject": { actions: "requestSave" },
        "user.startPlayback": { actions: [{ type: "stopRecording", params: { reason: "a run started" } }, "forwardToProjectAfterRecording"] },
        "user.startSuite": { actions: [{ type: "stopRecording", params: { reason: "a run started" } }, "forwardToProjectAfterRecording"] },
        "recording.thenProject": { actions: "forwardHeldToProject" },
        "user.startRecording": { actions: "forwardToProject" },
        "user.stopRecording": { actions: "forwardToRecording" },
        "recorder.commandRecorded": { actions: "forwardRecorderReport" },
        "recorder.pageSeen": { actions: "forwardRecorderReport" },
        "recorder.typing": { actions: "forwardRecorderReport" },
        "recorder.tabClosed": { actions: "forwardToRecording" },
        "user.stopPlayback": { actions: "forwardToPlayback" },
        "user.pausePlayback": { actions: "forwardToPlayback" },
        "user.resumePlayback": { actions: "forwardToPlayback" },
        "user.stepPlayback": { actions: "forwardToPlayback" },
        "user.toggleBreakpoint": { actions: "forwardToPlayback" },
        "user.showTestRun": { actions: "forwardToPlayback" },
        "user.setPlaybackDelay": { actions: "forwardToPlayback" },
        "user.loadProject": { actions: ["flushRecording", "forwardToProjectAfterRecording"] },
        "user.selectTest": { actions: "forwardToProject" },
        "user.selectCommand": { actions: "forwardToProject" },
        "user.addTest": { actions: "forwardToProject" },
        "user.renameTest": { actions: "forwardToProject" },
        "user.addCommand": { actions: "forwardToProject" },
        "user.changeCommand": { actions: "forwardToProject" },
        "user.moveCommand": { actions: "forwardToProject" },
        "user.deleteCommand": { actions: "forwardToProject" },
        "plugin.disconnected": [
          {
            guard: "disconnectedOpenedAlert",
            actions: [{ type: "answerAlert", params: { reply: "declined" } }, "forwardToControl", "forwardToProject", "logPluginDisconnected"],
          },
          { actions: ["forwardToControl", "forwardToProject", "logPluginDisconnected"] },
        ],
      },
    },
    closed: {
      description: "The IDE window is closed: only opening it, or a plugin asking for control, does anything.",
      on: {
        "user.openWindow": { target: "open", actions: ["dropPlugins", "tellPlaybackPlugins"] },
        "request.open": { target: "open", actions: ["dropPlugins", "tellPlaybackPlugins", "answerTrue"] },
        "request.control": { target: "open", actions: ["dropPlugins", "tellPlaybackPlugins", "forwardToControl"] },
        "request.register": { actions: "answerWindowClosed" },
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
      },
    },
  },
});
