// The wire form of a reply (CONTRACT section 3): a success is the route's value as it is;
// a failure is exactly { error, errorCode } and nothing else.
import type { ErrorCode, Reply } from "../../machines/shared.types.ts";

export interface ErrorReply {
  error: string;
  errorCode: ErrorCode;
}

export type WireReply = unknown;

export const toWire = (reply: Reply): WireReply =>
  reply.ok ? reply.value : ({ error: reply.error, errorCode: reply.errorCode } satisfies ErrorReply);

export const isErrorReply = (value: unknown): value is ErrorReply =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as ErrorReply).error === "string" &&
  typeof (value as ErrorReply).errorCode === "string";
