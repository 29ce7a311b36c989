// The plugin interface's types as a plugin sees them on the wire (CONTRACT sections 2 to 16):
// requests, replies, the messages the IDE sends and the answers it takes. Types only: the
// plugins' client (client/) imports them with `import type`, so a plugin loads none of the
// core's code. Where the core already names a type (error codes, command states, the .side
// file, the execute message, the wire's error reply), this module re-exports it, so each has
// one owner.
import type { ErrorCode as RequestErrorCode } from "../machines/shared.types.ts";
import type { ExecuteMessage as RunExecuteMessage } from "../machines/testRunner.types.ts";
import type { CommandState } from "../services/playback/commandTable.ts";
import type { SideCommand, SideProject, SideTest } from "../services/side/index.ts";
import type { CommandRecordedMessage } from "../machines/recording.types.ts";
import type { EmitMessage as SaveEmitMessage } from "../services/export/emit.ts";
import type { ExportMessage as CodeExportMessage } from "../services/export/index.ts";
import type { Verb } from "./protocol/envelope.ts";
import type { ErrorReply as WireErrorReply } from "./protocol/wire.ts";

export type { CommandRecordedMessage, CommandState, SideCommand, SideProject, SideTest, Verb };

/** The codes of CONTRACT section 3, and the bridge's own answer to a frame it could not read. */
export type ErrorCode = RequestErrorCode | "InvalidFrame";

/**
 * A failure: `{ error, errorCode }` (CONTRACT section 3); the /record/command routes add the
 * anchor's `status: "error"` and `message` (the same sentence) to NoTestSelected and UnknownCommand.
 */
export type ErrorReply = Omit<WireErrorReply, "errorCode"> & { errorCode: ErrorCode };

/** What a route answers: its value, or an error reply. */
export type Reply<T = unknown> = T | ErrorReply;

/** The command a run reached, with `${...}` in `target` and `value` already replaced. */
export type CommandToExecute = RunExecuteMessage["command"];
/** Where the command runs (CONTRACT section 10). */
export type ExecuteOptions = RunExecuteMessage["options"];
/** What the IDE sends when a run reaches one of this plugin's commands (CONTRACT section 10). */
export type ExecuteMessage = RunExecuteMessage & {
  /** Never present: only here so that code reading `message.event` of any outbound message type-checks. */
  event?: never;
};

/** A request in either form of CONTRACT section 2: fields flat, or under `payload`. */
export interface PluginRequest {
  uri?: string;
  verb?: Verb | Uppercase<Verb> | (string & {});
  payload?: Record<string, unknown>;
  openIDEIfClosed?: boolean;
  openSeleniumIDEIfClosed?: boolean;
  [field: string]: unknown;
}

export interface PluginCommand {
  id: string;
  name: string;
  type?: "locator" | "region";
  docs?: unknown;
  [field: string]: unknown;
}

/** What `/register` and `/control` take; fields the IDE does not name are kept as sent. */
export interface Registration {
  name: string;
  version: string;
  commands?: PluginCommand[];
  dependencies?: Record<string, string>;
  jest?: unknown;
  exports?: unknown;
  [field: string]: unknown;
}

export type LogType = "error" | "warn" | null;

export interface ProjectInfo {
  id: string;
  name: string;
}

/** `POST /record/command`: a command to insert into the displayed test. */
export interface NewCommand {
  command: string;
  target?: string;
  value?: string;
  /** Where (0 to the number of commands); default: after the user's selected command, else at the end. */
  index?: number;
  /** Select the inserted command in the IDE. */
  select?: boolean;
}

/** `PUT /record/command`: what to change of a command; the fields left out stay. */
export interface CommandChange {
  command?: string;
  target?: string;
  value?: string;
  targets?: Array<[string, string]>;
}

/**
 * `POST /locator/strategy` (CONTRACT section 23): `NAME=VALUE` as a CSS or XPath template (exactly
 * one) in which `{value}` stands for the value, and the attribute the recorder builds it from.
 */
export interface LocatorStrategy {
  name: string;
  css?: string;
  xpath?: string;
  attribute?: string;
}

/** `GET /locator/strategy`: each declaration with the id of the plugin that declared it. */
export type DeclaredStrategy = LocatorStrategy & { plugin: string };

/** `POST /popup/alert`: the dialog's text and button labels (`cancel` left out: one button). */
export interface AlertOptions {
  confirm?: string;
  cancel?: string;
}

/** An event the IDE sends a plugin (CONTRACT sections 8, 9 and 14); `onMessage` handlers get these. */
export type EventMessage =
  | { action: "event"; event: "saveProject"; options: { project: SideProject } }
  | { action: "event"; event: "projectLoaded"; options: { projectId: string; projectName: string } }
  | {
      action: "event";
      event: "playbackStarted";
      /** `test` is the test case as in the `.side` file; `suiteName` only when a suite runs. */
      options: { runId: string; testId: string; testName: string; suiteName?: string; projectName: string; test: SideTest };
    }
  | {
      action: "event";
      event: "playbackStopped";
      options: { runId: string; testId: string; testName: string; suiteName?: string; projectName: string };
    }
  | { action: "event"; event: "suitePlaybackStarted"; options: { runId: string; tests: SideTest[] } }
  | { action: "event"; event: "suitePlaybackStopped"; options: { runId: string; suiteName: string; projectName: string } }
  | { action: "event"; event: "recordingStarted" | "recordingStopped"; options: { testName: string } }
  | CommandRecordedMessage;

/** Code export's question for a command's code or a hook's (CONTRACT section 15). */
export type ExportMessage = CodeExportMessage & { event?: never };
/** Saving's question to the plugins (v3's `emit`, CONTRACT section 15). */
export type EmitMessage = SaveEmitMessage & { event?: never };

/**
 * Everything the IDE sends a plugin: its events, `execute` (section 10), and code export's
 * `export` and saving's `emit` questions (section 15).
 */
export type OutboundMessage = EventMessage | ExecuteMessage | ExportMessage | EmitMessage;

/**
 * A plugin's answer to `execute`, which sets the command's state (CONTRACT section 10):
 * - `true` (or an object with neither `error` nor `status`): passed;
 * - a string: passed, with the string as the command's message;
 * - `{ status, message? }`: that state (`pending` leaves it to a later `commandState`);
 * - `{ error }`: failed, with `error` as the message; `{ error, status: "fatal" }`: fatal, the run ends;
 * - `undefined` or `null`: the IDE reads it as no answer: fatal, "PLUGIN NAME did not respond".
 *   So a handler that passes must say so (`return true`).
 */
export type CommandAnswer =
  | true
  | string
  | { status: CommandState; message?: string | null }
  | { error: string; status?: "fatal" }
  | undefined
  | null;

/** Which test or suite `startPlayback` runs: at most one field; none runs the displayed test. */
export interface PlaybackSelector {
  testId?: string;
  testName?: string;
  suiteId?: string;
  suiteName?: string;
}
