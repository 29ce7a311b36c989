// The wire form of a reply (CONTRACT section 3): a success is the route's value as it is;
// a failure is exactly { error, errorCode } and nothing else, except where section 13 adds
// the anchor's `status: "error"` and `message` (the same sentence as `error`).
import type { ErrorCode, Reply } from "../../machines/shared.types.ts";

export interface ErrorReply {
  error: string;
  errorCode: ErrorCode;
  /** Only on the routes of section 13 that add the anchor's fields: "error". */
  status?: "error";
  /** Only with `status`: the same sentence as `error`. */
  message?: string;
}

export type WireReply = unknown;

export const toWire = (reply: Reply): WireReply => {
  if (reply.ok) return reply.value;
  const wire: ErrorReply = { error: reply.error, errorCode: reply.errorCode };
  return reply.anchorFields ? { ...wire, status: "error", message: reply.error } : wire;
};

export const isErrorReply = (value: unknown): value is ErrorReply =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as ErrorReply).error === "string" &&
  typeof (value as ErrorReply).errorCode === "string";
