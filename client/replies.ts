import type { ErrorReply } from "./types.ts";

/** Whether a reply is an error reply (`{ error, errorCode }`) rather than a route's value. */
export function isErrorReply(reply: unknown): reply is ErrorReply {
  return (
    typeof reply === "object" &&
    reply !== null &&
    typeof (reply as ErrorReply).error === "string" &&
    typeof (reply as ErrorReply).errorCode === "string"
  );
}
