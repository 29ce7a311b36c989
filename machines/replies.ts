// How a machine answers a request: a reply, and the emitted event that carries it to the
// protocol adapter, which turns it into the wire form of CONTRACT section 3. The types
// are in shared.types.ts; these are the only functions that build them.
import type { ErrorCode, Reply, RequestAnsweredEvent } from "./shared.types.ts";

export const ok = (value: unknown): Reply => ({ ok: true, value });
export const fail = (errorCode: ErrorCode, error: string): Reply => ({ ok: false, errorCode, error });

/** A failure that also carries the anchor's `status: "error"` and `message` (CONTRACT section 13). */
export const failWithAnchorFields = (errorCode: ErrorCode, error: string): Reply => ({
  ok: false,
  errorCode,
  error,
  anchorFields: true,
});

export const answered = (requestId: number, reply: Reply): RequestAnsweredEvent => ({
  type: "request.answered",
  requestId,
  reply,
});

export const windowClosedReply = (): Reply =>
  fail("IdeNotActive", "The IDE window was closed before the user answered.");
