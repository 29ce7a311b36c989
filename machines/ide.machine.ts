/**
 * The root of the IDE: its window, the plugin session, and the child machines
 * (control, project, playback) it composes.
 *
 * States: open ⇄ closed (the IDE window).
 * Invariants:
 * - One dialog at a time: a request that needs a dialog while one is open is answered Busy;
 *   requests that need none keep working.
 * - Closing the window ends control, answers every waiting request with IdeNotActive, stops
 *   playback and drops the registered plugins; the project and its unsaved changes stay.
 * - Accepting a controller restarts the plugin session: the controller is the only plugin.
 * - A plugin the transport lost (`plugin.disconnected`) loses its dialogs (answered no) and
 *   its control, nothing else: its registration and logs stay, and so does the project.
 * - Every request event that reaches this machine is answered exactly once (an emitted
 *   request.answered), here or by the child it is forwarded to.
 * Door checks and admission (window, control mode, registration) run before an event is
 * built, with the rules in ide.rules.ts, so this machine sees only admitted requests.
 */
import { and, assign, emit, enqueueActions, fromCallback, not, sendTo, setup } from "xstate";
import type { AnyActorRef } from "xstate";
import { registerPlugin } from "../services/plugins/index.ts";
import { controlMachine } from "./control.machine.ts";
import { isUnsaved, projectMachine } from "./project.machine.ts";
import { playbackMachine } from "./playback.machine.ts";
import { answered, fail, ok } from "./replies.ts";
import { resolveRunTarget } from "../services/playback/targets.ts";
import type { RunSelector } from "../services/playback/targets.ts";
import type { ChildFact, IdeContext, IdeEmitted, IdeEvent, IdeInput, OutboundMessage } from "./ide.types.ts";

/**
 * Relays what the child machines emit to the root. Their answers to requests are the one
 * exception: the protocol adapter listens for those on each child, which saves a root step
 * on the busiest route (command states).
 */
const relayChildFacts = fromCallback<ChildFact, { children: AnyActorRef[] }>(({ sendBack, input }) => {
  const subscriptions = input.children.map((child) =>
    child.on("*", (fact: { type: string }) => {
      if (fact.type !== "request.answered") sendBack(fact as ChildFact);
    }),
  );
  return () => subscriptions.forEach((s) => s.unsubscribe());
});

/** What the plugins are told of a fact (CONTRACT section 8), if anything; runs tell their own. */
function outboundFor(fact: IdeEvent): OutboundMessage | null {
  return fact.type === "project.loaded"
    ? { action: "event", event: "projectLoaded", options: { projectId: fact.projectId, projectName: fact.projectName } }
    : null;
}

/** What a start names, from the user's event or a plugin's request. */
function selectorOf(event: IdeEvent): RunSelector {
  switch (event.type) {
    case "user.startPlayback":
      return { testId: event.testId };
    case "user.startSuite":
      return { suiteId: event.suiteId, wholeSuite: true };
    case "request.startRun":
      return event.selector;
    default:
      return {};
  }
}

const requestRef = (event: IdeEvent) => ("requestId" in event && event.type.startsWith("request.") ? event.requestId : -1);
const senderOf = (event: IdeEvent) => ("sender" in event ? event.sender : "");

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
    playback: playbackMachine,
    relayChildFacts,
  },
  guards: {
    startsClosed: ({ context }) => !context.openAtStart,
    senderIsController: ({ context, event }) => context.control.getSnapshot().context.controller === senderOf(event),
    inControlMode: ({ context }) => context.control.getSnapshot().context.controller !== null,
    dialogIsOpen: ({ context }) =>
      context.control.getSnapshot().matches("awaitingConsent") ||
      !context.project.getSnapshot().matches({ dialog: "idle" }),
    projectHasUnsavedChanges: ({ context }) => isUnsaved(context.project.getSnapshot().context),
    projectHasNoUnsavedChanges: not("projectHasUnsavedChanges"),
    notInControlMode: not("inControlMode"),
    /** The load would need the unsaved-changes dialog while another dialog is open. */
    loadNeedsSecondDialog: and(["projectHasUnsavedChanges", "dialogIsOpen"]),
    registrationClashes: ({ context, event }) =>
      event.type === "request.register" && !registerPlugin(context.plugins, event.sender, event.registration).ok,
    runTargetExists: ({ context, event }) => resolveRunTarget(context.project.getSnapshot().context.project, selectorOf(event)).ok,
  },
  actions: {
    answerTrue: emit(({ event }) => answered(requestRef(event), ok(true))),
    answerBusy: emit(({ event }) =>
      answered(
        requestRef(event),
        fail("Busy", "The IDE is waiting for the user to answer another dialog; try again once it is closed."),
      ),
    ),
    answerNotControlled: emit(({ event }) =>
      answered(requestRef(event), fail("NotControlled", "The IDE is not in control mode, so it cannot be closed by a plugin.")),
    ),
    answerWindowClosed: emit(({ event }) =>
      answered(requestRef(event), fail("IdeNotActive", "The IDE window is closed; open it first.")),
    ),
    answerCommandConflict: emit(({ context, event }) => {
      const result =
        event.type === "request.register" ? registerPlugin(context.plugins, event.sender, event.registration) : null;
      const conflict = result && !result.ok ? result.conflict : { commandId: "?", owner: "?" };
      return answered(
        requestRef(event),
        fail(
          "CommandConflict",
          `The command id "${conflict.commandId}" is already registered by the plugin ${conflict.owner}; nothing was registered.`,
        ),
      );
    }),
    register: assign({
      plugins: ({ context, event }) => {
        if (event.type !== "request.register") return context.plugins;
        const result = registerPlugin(context.plugins, event.sender, event.registration);
        return result.ok ? result.registry : context.plugins;
      },
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
    forwardToControl: sendTo(({ context }) => context.control, ({ event }) => event as never),
    forwardToProject: sendTo(({ context }) => context.project, ({ event }) => event as never),
    forwardToPlayback: sendTo(({ context }) => context.playback, ({ event }) => event as never),
    forwardDialogAnswer: enqueueActions(({ context, event, enqueue }) => {
      enqueue.sendTo(context.control, event as never);
      enqueue.sendTo(context.project, event as never);
    }),
    tellChildrenPluginDisconnected: enqueueActions(({ context, event, enqueue }) => {
      enqueue.sendTo(context.control, event as never);
      enqueue.sendTo(context.project, event as never);
    }),
    logPluginDisconnected: emit(({ event }) => ({
      type: "log.written" as const,
      level: "info" as const,
      message: `The plugin ${senderOf(event)} disconnected; any dialog it opened was answered no, and it no longer controls the IDE.`,
    })),
    logAnswerTheOpenDialogFirst: emit({
      type: "log.written" as const,
      level: "warn" as const,
      message: "The project was not loaded: answer the open dialog first, then load it again.",
    }),
    tellChildrenWindowClosed: enqueueActions(({ context, enqueue }) => {
      enqueue.sendTo(context.control, { type: "window.closed" });
      enqueue.sendTo(context.project, { type: "window.closed" });
      enqueue.sendTo(context.playback, { type: "window.closed" });
    }),
    requestSave: sendTo(
      ({ context }) => context.project,
      ({ context }) => ({
        type: "project.saveRequested" as const,
        controller: context.control.getSnapshot().context.controller,
      }),
    ),
    startRun: sendTo(
      ({ context }) => context.playback,
      ({ context, event }) => {
        const project = context.project.getSnapshot().context.project;
        const target = resolveRunTarget(project, selectorOf(event));
        if (!target.ok) throw new Error(target.problem); // the guard runTargetExists comes first
        return {
          type: "run.start" as const,
          projectName: project.name,
          baseUrl: project.url,
          tests: project.tests,
          testIds: target.testIds,
          suite: target.suite,
          fromCommandId: event.type === "user.startPlayback" ? event.fromCommandId : undefined,
          requestId: event.type === "request.startRun" ? event.requestId : undefined,
        };
      },
    ),
    logUnknownTest: emit(({ context, event }) => {
      const target = resolveRunTarget(context.project.getSnapshot().context.project, selectorOf(event));
      return { type: "log.written" as const, level: "warn" as const, message: `${target.ok ? "" : target.problem} Nothing was started.` };
    }),
    answerUnknownTest: emit(({ context, event }) => {
      const target = resolveRunTarget(context.project.getSnapshot().context.project, selectorOf(event));
      return answered(requestRef(event), fail("UnknownTest", target.ok ? "The test is unknown." : target.problem));
    }),
    reemit: emit(({ event }) => event as IdeEmitted),
    answerCloseConfirmed: emit(({ event }) =>
      answered(event.type === "close.confirmed" ? event.requestId : -1, ok(true)),
    ),
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
    playback: spawn("playback", { id: "playback", systemId: "playback" }),
    plugins: [],
    openAtStart: input.window !== "closed",
  }),
  invoke: {
    src: "relayChildFacts",
    input: ({ context }) => ({ children: [context.control, context.project, context.playback] }),
  },
  initial: "starting",
  on: {
    "log.written": { actions: "reemit" },
    "control.granted": { actions: ["restartPluginSession", "tellPlaybackPlugins"] },
    "project.loaded": { actions: "tellEveryPlugin" },
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
        "user.closeWindow": { target: "closed", actions: ["tellChildrenWindowClosed", "dropPlugins", "tellPlaybackPlugins"] },
        "close.confirmed": {
          target: "closed",
          actions: ["answerCloseConfirmed", "tellChildrenWindowClosed", "dropPlugins", "tellPlaybackPlugins"],
        },
        "request.open": { actions: "answerTrue" },
        "request.register": [
          { guard: "registrationClashes", actions: "answerCommandConflict" },
          { actions: ["register", "answerTrue", "tellPlaybackPlugins"] },
        ],
        "request.control": [
          { guard: "senderIsController", actions: "answerTrue" },
          { guard: "dialogIsOpen", actions: "answerBusy" },
          { actions: "forwardToControl" },
        ],
        "request.loadProject": [
          { guard: "loadNeedsSecondDialog", actions: "answerBusy" },
          { actions: "forwardToProject" },
        ],
        "request.close": [
          { guard: "notInControlMode", actions: "answerNotControlled" },
          {
            guard: "projectHasNoUnsavedChanges",
            target: "closed",
            actions: ["answerTrue", "tellChildrenWindowClosed", "dropPlugins", "tellPlaybackPlugins"],
          },
          { guard: "dialogIsOpen", actions: "answerBusy" },
          { actions: "forwardToProject" },
        ],
        "request.commandState": { actions: "forwardToPlayback" },
        "request.setVariable": { actions: "forwardToPlayback" },
        "request.stopRun": { actions: "forwardToPlayback" },
        "request.startRun": [{ guard: "runTargetExists", actions: "startRun" }, { actions: "answerUnknownTest" }],
        "user.accept": { actions: "forwardDialogAnswer" },
        "user.decline": { actions: "forwardDialogAnswer" },
        "user.editProject": { actions: "forwardToProject" },
        "user.saveProject": { actions: "requestSave" },
        "user.startPlayback": [{ guard: "runTargetExists", actions: "startRun" }, { actions: "logUnknownTest" }],
        "user.startSuite": [{ guard: "runTargetExists", actions: "startRun" }, { actions: "logUnknownTest" }],
        "user.stopPlayback": { actions: "forwardToPlayback" },
        "user.pausePlayback": { actions: "forwardToPlayback" },
        "user.resumePlayback": { actions: "forwardToPlayback" },
        "user.stepPlayback": { actions: "forwardToPlayback" },
        "user.toggleBreakpoint": { actions: "forwardToPlayback" },
        "user.setPlaybackDelay": { actions: "forwardToPlayback" },
        "user.loadProject": [
          { guard: "loadNeedsSecondDialog", actions: "logAnswerTheOpenDialogFirst" },
          { actions: "forwardToProject" },
        ],
        "plugin.disconnected": { actions: ["tellChildrenPluginDisconnected", "logPluginDisconnected"] },
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
      },
    },
  },
});
