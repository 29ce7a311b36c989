import type { CommandState, CommandTable } from "../services/playback/commandTable.ts";
import type { SideTest } from "../services/side/index.ts";
import type { RequestAnsweredEvent, RequestRef } from "./shared.types.ts";

export interface TestRun {
  testId: string;
  testName: string;
  projectName: string;
  commands: CommandTable;
}

export interface PlaybackContext {
  /** The running or last-run test case; null before the first start. */
  run: TestRun | null;
}

export type PlaybackEvent =
  | { type: "playback.start"; test: SideTest; projectName: string }
  | { type: "user.stopPlayback" }
  | ({ type: "request.commandState"; commandId: string; state: CommandState; message: string | null } & RequestRef)
  | { type: "window.closed" };

export type PlaybackFact = {
  type: "playback.started" | "playback.stopped";
  testId: string;
  testName: string;
  projectName: string;
};

export type PlaybackEmitted = RequestAnsweredEvent | PlaybackFact;
