// The recording machine's context, events, facts and port (CONTRACT section 14).
import type { FramePath, FrameTargets, RecordedTargets } from "../services/recording/index.ts";
import type { RecordedWindows } from "../services/recording/windows.ts";
import type { LogWrittenEvent } from "./shared.types.ts";
import type { Fingerprint } from "../services/healing/fingerprint.ts";
import type { UserEventOf } from "./userEvents.schema.ts";
import type { CheckPickedFact } from "./pointing.types.ts";

/** A command as the project holds it once recorded: an id, and v3's `targets` beside target. */
export type RecordedCommand = {
  id: string;
  command: string;
  target: string;
  targets: RecordedTargets;
  value: string;
  /** The recorded element's fingerprint (CONTRACT section 18); Selenium IDE ignores it. */
  fingerprint?: Fingerprint;
};

export interface RecordingContext {
  /** The test recorded into, its name (what plugins are told) and when it started; null while idle. */
  testId: string | null;
  testName: string;
  startedAt: number | null;
  /** The recording started on an empty test: the page, once seen, gives open and setWindowSize. */
  needsOpen: boolean;
  /** The project's url when the recording started ("" when it has none: the page's origin becomes it). */
  projectUrl: string;
  /** The frame the recorded commands play in now; the next command in another frame gets selectFrame first. */
  frame: FramePath;
  /** Commands recorded in this recording (for the log when it stops). */
  recorded: number;
  /** A run is playing (run.playing until run.over): a recording cannot start. */
  runPlaying: boolean;
  /** Ids for the plugins' answer actors. */
  asked: number;
  /** Typing in the focused field that no `type` holds yet: recorded as one when the recording stops. */
  pending: RecorderTypingEvent | null;
  /** The windows (tabs) of the recording by tab id, and the one the last command was done in (CONTRACT section 19). */
  windows: RecordedWindows;
  /** The last command recorded, and its tab: a window its tab opens next marks it `opensWindow`. */
  last: { id: string; tabId: number | null; command: string; target: string; value: string } | null;
}

/** What the page's recorder saw, admitted at the door (core/recorder.ts); `plugins` added by the root. */
export type RecorderCommandEvent = {
  type: "recorder.commandRecorded";
  command: string;
  target: string;
  targets: RecordedTargets;
  value: string;
  frame: FramePath;
  /** Each level's frame element locator, or null: the selectFrame steps name frames by it. */
  frameTargets?: FrameTargets;
  /** A file the user chose in a file input: `value` is its name only, the path is the user's to set. */
  upload?: true;
  /** The element's fingerprint, kept in the recorded command. */
  fingerprint?: Fingerprint;
  tabId: number | null;
  plugins: readonly string[];
};

/** The top frame of the tab under test as the recording starts (or loads): its url and the window's outer size. */
export type RecorderPageEvent = {
  type: "recorder.pageSeen";
  url: string;
  width: number;
  height: number;
  tabId: number | null;
  plugins: readonly string[];
};

/** What the user typed into the focused field, its change not come yet (null: nothing pending): a stop records it as `type`. */
export type RecorderTypingEvent = {
  type: "recorder.typing";
  field: { target: string; targets: RecordedTargets; value: string; fingerprint?: Fingerprint } | null;
  frame: FramePath;
  /** Each level's frame element locator, or null: the selectFrame steps name frames by it. */
  frameTargets?: FrameTargets;
  tabId: number | null;
  plugins: readonly string[];
};

/** The tab under test is gone (closed): the recording stops, keeping what it recorded. */
export type RecorderTabClosedEvent = { type: "recorder.tabClosed" };

/** A tab the recorded tab `openerTabId` opened (a click on a target=_blank link, window.open). */
export type RecorderWindowOpenedEvent = { type: "recorder.windowOpened"; tabId: number; openerTabId: number; plugins: readonly string[] };

/** A tab of the recording other than the first was closed: recorded as `close`. */
export type RecorderWindowClosedEvent = { type: "recorder.windowClosed"; tabId: number; plugins: readonly string[] };

export type RecorderEvent =
  | RecorderCommandEvent
  | RecorderPageEvent
  | RecorderTypingEvent
  | RecorderTabClosedEvent
  | RecorderWindowOpenedEvent
  | RecorderWindowClosedEvent;

/** The user's Record, resolved to the displayed test (editor.targets.ts). */
export type RecordingRequestedEvent = {
  type: "recording.requested";
  testId: string;
  testName: string;
  empty: boolean;
  projectUrl: string;
};

export type RecordingEvent =
  | RecordingRequestedEvent
  | UserEventOf<"user.stopRecording">
  /** The root stops it: a run starts, the window closes, another project is loaded. */
  | { type: "recording.stop"; reason: string }
  /** The root records the pending typing now and goes on recording (another project is about to be loaded). */
  | { type: "recording.flush" }
  | RecorderEvent
  /** A check the user picked in the page (pointing.machine.ts): recorded as the page's commands are. */
  | CheckPickedFact
  | { type: "run.playing" }
  | { type: "run.over" }
  | { type: "xstate.done.actor.plugins"; output: PluginAnswers };

/** The askPlugins port: commandRecorded to every plugin, and their answers. */
export interface AskPluginsInput {
  testId: string;
  commandId: string;
  plugins: readonly string[];
  message: CommandRecordedMessage;
}

/** The plugins' answers, in the order they came; errors, rejections and late answers left out. */
export interface PluginAnswers {
  testId: string;
  commandId: string;
  answers: Array<{ plugin: string; answer: unknown }>;
}

export type CommandRecordedMessage = {
  action: "event";
  event: "commandRecorded";
  options: { tabId: number | null; commandId: string; command: string; target: string; targets: RecordedTargets; value: string } & Record<string, unknown>;
};

export type RecordingStartedFact = { type: "recording.started"; testId: string; testName: string; startedAt: number };
export type RecordingStoppedFact = { type: "recording.stopped"; testId: string; testName: string };
/** Commands to insert into the test, in order, after the selected command (else at the end), the last selected. */
export type CommandsRecordedFact = { type: "recording.commandsRecorded"; testId: string; commands: RecordedCommand[] };
/** A plugin's mutation of a recorded command. */
export type RecordedCommandChangedFact = {
  type: "recording.commandChanged";
  testId: string;
  commandId: string;
  command: string;
  target: string;
  value: string;
  targets?: RecordedTargets;
  /** The command opened a window: v3's fields, played by waiting for the new window and storing its handle. */
  window?: { opensWindow: true; windowHandleName: string };
};
export type RecordedCommandRemovedFact = { type: "recording.commandRemoved"; testId: string; commandId: string };
/** The project had no url: the page it was recorded on gives it. */
export type ProjectUrlFoundFact = { type: "recording.urlFound"; url: string };

export type RecordingFact =
  | RecordingStartedFact
  | RecordingStoppedFact
  | CommandsRecordedFact
  | RecordedCommandChangedFact
  | RecordedCommandRemovedFact
  | ProjectUrlFoundFact;

export type RecordingEmitted = RecordingFact | LogWrittenEvent;
