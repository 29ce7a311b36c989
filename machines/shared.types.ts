// Types every machine shares: how a request is named, and how it is answered.
// Replies leave the machines as emitted `request.answered` events (built by replies.ts);
// the protocol adapter turns them into the wire form of CONTRACT section 3.

export type ErrorCode =
  | "InvalidRequest"
  | "NoRoute"
  | "VerbNotAllowed"
  | "PayloadTooLarge"
  | "RateLimited"
  | "IdeNotActive"
  | "CannotAccessInControlMode"
  | "NotControlled"
  | "MissingPlugin"
  | "CommandConflict"
  | "StrategyTaken"
  | "InvalidProject"
  | "Busy"
  | "NoRunningTest"
  | "UnknownCommand"
  | "InvalidLocator"
  | "ElementNotFound"
  | "NoPage"
  | "UnknownTest"
  | "NoTestSelected"
  | "ExportFailed";

export type Reply =
  | { ok: true; value: unknown }
  | {
      ok: false;
      errorCode: ErrorCode;
      error: string;
      /**
       * Also give the anchor's `status: "error"` and `message` beside `error` and `errorCode`
       * (CONTRACT section 13: the /record/command routes' NoTestSelected and UnknownCommand).
       */
      anchorFields?: true;
    };

/** Who asked, and the number the adapter matches the answer with. */
export interface RequestRef {
  requestId: number;
  sender: string;
}

export type RequestAnsweredEvent = { type: "request.answered"; requestId: number; reply: Reply };

export type LogWrittenEvent = {
  type: "log.written";
  level: "info" | "warn" | "error";
  message: string;
  /** The playback group for what a run writes; the system group when absent. */
  group?: "system" | "playback";
  /** Who wrote it: a plugin's sender id; the IDE when absent. */
  source?: string;
};
