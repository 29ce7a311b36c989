// How a machine answers a request: a reply, and the emitted event that carries it to the
// protocol adapter, which turns it into the wire form of CONTRACT section 3. The types
// are in shared.types.ts; these are the only functions that build them, and a refusal that
// more than one place gives (Busy, a closed window) is written here once, so a plugin reads
// the same sentence whichever part of the IDE refused it.
import type { ErrorCode, Reply, RequestAnsweredEvent } from "./shared.types.ts";

export const ok = (value: unknown): Reply => ({ ok: true, value });
export const fail = (errorCode: ErrorCode, error: string): Reply => ({ ok: false, errorCode, error });

/**
 * The codes that carry the anchor's `status: "error"` and `message` on the /record/command
 * routes (CONTRACT section 13). Elsewhere the same codes are plain (an UnknownCommand of
 * POST /playback/command is `{ error, errorCode }` only), so the choice is per route family,
 * made here for every place that answers one of those routes.
 */
const ANCHORED_ON_RECORD_ROUTES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(["NoTestSelected", "UnknownCommand"]);

/** A refusal on the /record/command routes: with the anchor's fields when its code has them there. */
export const recordRouteRefusal = (errorCode: ErrorCode, error: string): Reply =>
  ANCHORED_ON_RECORD_ROUTES.has(errorCode) ? { ok: false, errorCode, error, anchorFields: true } : fail(errorCode, error);

export const answered = (requestId: number, reply: Reply): RequestAnsweredEvent => ({
  type: "request.answered",
  requestId,
  reply,
});

/** A request that needs a dialog while another dialog is open ("one dialog at a time"). */
export const busyReply = (): Reply =>
  fail("Busy", "The IDE is waiting for the user to answer another dialog; try again once it is closed.");

/** A request made while the IDE window is closed: refused at the door, and by the root if one gets past it. */
export const windowNotOpenReply = (): Reply =>
  fail("IdeNotActive", "The IDE window is closed; send the open request (openIDEIfClosed: true) first.");

/** A request that waited for the user when the window closed. */
export const windowClosedReply = (): Reply =>
  fail("IdeNotActive", "The IDE window was closed before the user answered.");
