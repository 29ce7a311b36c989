/**
 * Recording (CONTRACT section 14): the user's actions in the page under test become commands
 * of the displayed test.
 *
 * States: idle ⇄ recording.
 * Invariants:
 * - Never beside a run: a start while a run plays (run.playing until run.over) changes nothing;
 *   the root stops a recording before any run starts, when the window closes
 *   and when another project is loaded (recording.stop).
 * - While recording, each command the page's recorder reports goes to the project (a fact,
 *   recording.commandsRecorded: inserted after the selected command, which it becomes; the
 *   project unsaved), preceded by the selectFrame steps when it was done in another frame
 *   than the last one. A recording that starts on an empty test begins with open and
 *   setWindowSize once the page is seen, and gives the project its url when it has none.
 * - Windows (CONTRACT section 19, v3's names): the tab the recording starts in is `win_ser_local`;
 *   a tab opened by a recorded tab marks the last command recorded there `opensWindow` with
 *   `windowHandleName: win_ser_N` (the first such also records `storeWindowHandle
 *   win_ser_local` after it); a command done in another known window than the last one gets
 *   `selectWindow handle=${NAME}` first (and its frame starts at the top); an opened window
 *   closed is recorded as `close` in it.
 * - What the user typed into the focused field before its change came (recorder.typing, the
 *   latest only) is recorded as that change's `type` when the recording stops, however it
 *   stops, before recording.stopped: nothing typed is lost to a Stop, a Play or a close.
 * - Every recorded command is told to every registered plugin (commandRecorded) by an actor
 *   of its own, so the recording never waits for a plugin; the first valid mutation among
 *   their answers (in the order they came) deletes or changes the command, even after the
 *   recording stopped. More than one mutation, or one of the wrong types, is a warning.
 * - A file chosen in a file input is recorded as `type` with the file's name only, with a warn
 *   log that its path must be set before the test plays (the page never tells the path).
 * - Facts for the root: recording.started and recording.stopped (told to the plugins), and
 *   the project's edits. This machine reads no other machine; the root passes it the
 *   registered plugins with each report.
 */
import { assertEvent, assign, emit, enqueueActions, fromPromise, not, setup } from "xstate";
import { frameSteps, openTarget, projectUrlFrom, readMutation, sameFrame } from "../services/recording/index.ts";
import type { FrameTargets, Mutation } from "../services/recording/index.ts";
import { adoptRoot, closeWindow, isOpenedWindow, noWindows, openWindow, pluginTabId, ROOT_WINDOW, switchTo } from "../services/recording/windows.ts";
import type {
  AskPluginsInput,
  PluginAnswers,
  RecordedCommand,
  RecorderCommandEvent,
  RecordingContext,
  RecordingEmitted,
  RecordingEvent,
} from "./recording.types.ts";

const newId = () => globalThis.crypto.randomUUID();

const uploadWarning = (names: string) =>
  `A file was chosen in a file input: the recorded type holds only its name (${JSON.stringify(names)}), as the page never tells the path. Set the path of the file to upload (absolute, or relative to the .side file or --files DIR) before playing.`;

export const recordingMachine = setup({
  types: {
    context: {} as RecordingContext,
    events: {} as RecordingEvent,
    emitted: {} as RecordingEmitted,
  },
  actors: {
    // The default port answers for no plugin; createIde provides one over `deliver`.
    askPlugins: fromPromise<PluginAnswers, AskPluginsInput>(async ({ input }) => ({
      testId: input.testId,
      commandId: input.commandId,
      answers: [],
    })),
  },
  guards: {
    runIsPlaying: ({ context }) => context.runPlaying,
    noRunPlaying: not("runIsPlaying"),
    needsOpen: ({ context }) => context.needsOpen,
  },
  actions: {
    begin: assign(({ event }) => {
      assertEvent(event, "recording.requested");
      return {
        testId: event.testId,
        testName: event.testName,
        startedAt: Date.now(),
        needsOpen: event.empty,
        projectUrl: event.projectUrl,
        frame: [],
        recorded: 0,
        pending: null,
        windows: noWindows(),
        last: null,
      };
    }),
    end: assign({ testId: null, testName: "", startedAt: null, needsOpen: false, projectUrl: "", frame: [], pending: null, windows: noWindows(), last: null }),
    announceStarted: emit(({ context }) => ({
      type: "recording.started" as const,
      testId: context.testId!,
      testName: context.testName,
      startedAt: context.startedAt!,
    })),
    announceStopped: emit(({ context }) => ({
      type: "recording.stopped" as const,
      testId: context.testId!,
      testName: context.testName,
    })),
    logStopped: emit(({ context, event }) => {
      assertEvent(event, ["recording.stop", "recorder.tabClosed"]);
      const kept = `what it recorded into "${context.testName}" (${context.recorded} command${context.recorded === 1 ? "" : "s"}) is kept`;
      return event.type === "recorder.tabClosed"
        ? { type: "log.written" as const, level: "warn" as const, message: `The tab under test was closed, so the recording stopped; ${kept}.` }
        : { type: "log.written" as const, level: "info" as const, message: `The recording stopped: ${event.reason}; ${kept}.` };
    }),
    rememberRunPlaying: assign({ runPlaying: true }),
    forgetRunPlaying: assign({ runPlaying: false }),
    /** open (path and query) and setWindowSize (outer size), and the project's url when it has none. */
    recordOpen: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, "recorder.pageSeen");
      const target = openTarget(event.url, context.projectUrl);
      if (target === null) return; // not a web page (about:blank, a file): wait for one
      if (context.projectUrl === "") {
        const url = projectUrlFrom(event.url)!;
        enqueue.emit({ type: "recording.urlFound", url });
        enqueue.assign({ projectUrl: url });
      }
      const commands: RecordedCommand[] = [
        { id: newId(), command: "open", target, targets: [], value: "" },
        { id: newId(), command: "setWindowSize", target: `${event.width}x${event.height}`, targets: [], value: "" },
      ];
      enqueue.assign({ needsOpen: false, windows: adoptRoot(context.windows, event.tabId) });
      const done = recordingOf(context, commands, event.tabId, event.plugins);
      enqueue.emit(done.fact);
      enqueue.assign(done.counters);
      for (const ask of done.asks) enqueue.spawnChild("askPlugins", ask);
    }),
    /** The page's command (or a check picked in the page), after the selectFrame steps to its frame when it changed. */
    recordCommand: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, ["recorder.commandRecorded", "pointing.checkPicked"]);
      // assertTitle names no element: it plays in whatever frame the test is in.
      const done = recordedFrom(context, event.type === "pointing.checkPicked" && event.anyFrame ? { ...event, frame: context.frame, frameTargets: undefined } : event);
      enqueue.emit(done.fact);
      if (event.type === "recorder.commandRecorded" && event.upload) enqueue.emit({ type: "log.written" as const, level: "warn" as const, message: uploadWarning(event.value) });
      enqueue.assign({ ...done.counters, frame: done.frame, windows: done.windows, last: done.last });
      for (const ask of done.asks) enqueue.spawnChild("askPlugins", ask);
    }),
    /** A tab a recorded tab opened: the last command done there opened it (v3's opensWindow), and it gets its name. */
    recordWindowOpened: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, "recorder.windowOpened");
      const last = context.last;
      const opened = openWindow(adoptRoot(context.windows, event.openerTabId), event.tabId, event.openerTabId);
      // Only a window a recorded command opened can be selected in playback: its handle is stored by that command.
      if (!opened || !last || last.tabId !== event.openerTabId) return;
      const { id, tabId: _, ...fields } = last;
      enqueue.emit({
        type: "recording.commandChanged",
        testId: context.testId!,
        commandId: id,
        ...fields,
        window: { opensWindow: true, windowHandleName: opened.name },
      });
      enqueue.assign({ windows: { ...opened.windows, rootStored: true } });
      if (context.windows.rootStored) return;
      // The first window's handle, stored while playback is still in it, so selectWindow can come back to it.
      const store: RecordedCommand = { id: newId(), command: "storeWindowHandle", target: ROOT_WINDOW, targets: [], value: "" };
      const done = recordingOf(context, [store], event.openerTabId, event.plugins);
      enqueue.emit(done.fact);
      enqueue.assign(done.counters);
      for (const ask of done.asks) enqueue.spawnChild("askPlugins", ask);
    }),
    /** An opened window closed: `close`, done in it. */
    recordWindowClosed: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, "recorder.windowClosed");
      if (!isOpenedWindow(context.windows, event.tabId)) return;
      const done = recordedFrom(context, { command: "close", target: "", targets: [], value: "", frame: [], tabId: event.tabId, plugins: event.plugins });
      enqueue.emit(done.fact);
      enqueue.assign({ ...done.counters, frame: [], windows: closeWindow(done.windows, event.tabId), last: null });
      for (const ask of done.asks) enqueue.spawnChild("askPlugins", ask);
    }),
    rememberTyping: assign(({ event }) => {
      assertEvent(event, "recorder.typing");
      return { pending: event.field === null ? null : event };
    }),
    /** A stop first records what was typed into the focused field before its change came, as that change would have. */
    recordPendingTyping: enqueueActions(({ context, enqueue }) => {
      const typing = context.pending;
      if (!typing?.field) return;
      const done = recordedFrom(context, { ...typing, command: "type", ...typing.field });
      enqueue.emit(done.fact);
      enqueue.assign({ ...done.counters, frame: done.frame, windows: done.windows, last: done.last, pending: null });
      for (const ask of done.asks) enqueue.spawnChild("askPlugins", ask);
    }),
    /** The first valid mutation the plugins answered with, in the order they answered. */
    applyPluginAnswers: enqueueActions(({ context, event, enqueue }) => {
      const { testId, commandId, answers } = (event as { output: PluginAnswers }).output;
      const mutations: Array<{ plugin: string; mutation: Mutation }> = [];
      for (const { plugin, answer } of answers) {
        const mutation = readMutation(answer);
        if (mutation === "invalid") {
          enqueue.emit({
            type: "log.written",
            level: "warn",
            message: `The plugin ${plugin} answered commandRecorded with a mutation whose fields have the wrong types; it was ignored.`,
          });
        } else if (mutation !== "none") mutations.push({ plugin, mutation });
      }
      const [first] = mutations;
      if (!first) return;
      if (mutations.length > 1) {
        enqueue.emit({
          type: "log.written",
          level: "warn",
          message: `${mutations.length} plugins (${mutations.map((m) => m.plugin).join(", ")}) answered a recorded command with a mutation; the first, from ${first.plugin}, was used.`,
        });
      }
      const { mutation } = first;
      // The last command as the plugin left it: a window it opens marks that, not the command before the change.
      if (context.last?.id === commandId) {
        enqueue.assign({ last: mutation.mutation === "delete" ? null : { ...context.last, command: mutation.command, target: mutation.target, value: mutation.value } });
      }
      if (mutation.mutation === "delete") enqueue.emit({ type: "recording.commandRemoved", testId, commandId });
      else {
        enqueue.emit({
          type: "recording.commandChanged",
          testId,
          commandId,
          command: mutation.command,
          target: mutation.target,
          value: mutation.value,
          ...(mutation.targets ? { targets: mutation.targets } : {}),
        });
      }
    }),
  },
}).createMachine({
  id: "recording",
  context: {
    testId: null,
    testName: "",
    startedAt: null,
    needsOpen: false,
    projectUrl: "",
    frame: [],
    recorded: 0,
    runPlaying: false,
    asked: 0,
    pending: null,
    windows: noWindows(),
    last: null,
  },
  on: {
    "run.playing": { actions: "rememberRunPlaying" },
    "run.over": { actions: "forgetRunPlaying" },
    // Answers to commandRecorded: applied whenever they come, the recording never waits.
    "xstate.done.actor.*": { actions: "applyPluginAnswers" },
  },
  initial: "idle",
  states: {
    idle: {
      // Cleared on the way in, so the stop's own log still names the test.
      entry: "end",
      on: {
        // While a run plays the start is refused and changes nothing (CONTRACT section 14); the UI's Record is off then.
        "recording.requested": { guard: "noRunPlaying", target: "recording", actions: "begin" },
      },
    },
    recording: {
      description: "The page's recorder reports the user's actions; each becomes a command of the test recorded into.",
      entry: "announceStarted",
      // However it stops (the user, a run, the window, another project, the tab), the pending typing is recorded first.
      exit: ["recordPendingTyping", "announceStopped"],
      on: {
        "user.stopRecording": { target: "idle" },
        "recording.stop": { target: "idle", actions: "logStopped" },
        "recorder.tabClosed": { target: "idle", actions: "logStopped" },
        "recorder.pageSeen": { guard: "needsOpen", actions: "recordOpen" },
        "recorder.commandRecorded": { actions: "recordCommand" },
        "pointing.checkPicked": { actions: "recordCommand" },
        "recorder.typing": { actions: "rememberTyping" },
        "recorder.windowOpened": { actions: "recordWindowOpened" },
        "recorder.windowClosed": { actions: "recordWindowClosed" },
        "recording.flush": { actions: "recordPendingTyping" },
      },
    },
  },
});

/**
 * One command of the page, after selectWindow when it was done in another window and the
 * selectFrame steps to its frame when it changed: the frame and windows it leaves the
 * recording in, and what recording them does.
 */
function recordedFrom(
  context: RecordingContext,
  report: Pick<RecorderCommandEvent, "command" | "target" | "targets" | "value" | "frame" | "tabId" | "plugins" | "fingerprint"> & { frameTargets?: FrameTargets | undefined },
) {
  const { select, windows } = switchTo(context.windows, report.tabId);
  // selectWindow leaves playback in the window's top frame.
  const from = select === null ? context.frame : [];
  const selects: RecordedCommand[] = select === null ? [] : [{ id: newId(), command: "selectWindow", target: select, targets: [[select]], value: "" }];
  const frames: RecordedCommand[] = frameSteps(from, report.frame, report.frameTargets).map((targets) => ({
    id: newId(),
    command: "selectFrame",
    target: targets[0]![0],
    targets,
    value: "",
  }));
  const command: RecordedCommand = { id: newId(), command: report.command, target: report.target, targets: report.targets, value: report.value };
  if (report.fingerprint) command.fingerprint = report.fingerprint;
  const done = recordingOf(context, [...selects, ...frames, command], report.tabId, report.plugins);
  const last = { id: command.id, tabId: report.tabId, command: command.command, target: command.target, value: command.value };
  return { frame: sameFrame(from, report.frame) ? from : [...report.frame], windows, last, ...done };
}

/** What recording `commands` does: the project's fact, the counters, and one plugins' actor per command. */
function recordingOf(context: RecordingContext, commands: RecordedCommand[], tabId: number | null, plugins: readonly string[]) {
  const testId = context.testId!;
  const asks: Array<{ id: string; input: AskPluginsInput }> = plugins.length === 0 ? [] : commands.map((c, i) => ({
    id: `plugins-${context.asked + i}`,
    input: {
      testId,
      commandId: c.id,
      plugins,
      message: {
        action: "event" as const,
        event: "commandRecorded" as const,
        options: { tabId: pluginTabId(tabId), commandId: c.id, command: c.command, target: c.target, targets: c.targets, value: c.value },
      },
    },
  }));
  return {
    fact: { type: "recording.commandsRecorded" as const, testId, commands },
    counters: { recorded: context.recorded + commands.length, asked: context.asked + asks.length },
    asks,
  };
}
