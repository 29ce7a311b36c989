// The page under test is gone: a browser, chromedriver or remote end that is not there any
// more, told from a command that merely failed; and a failed command's message as the run shows it.
import { messageOf } from "../../services/errors.ts";

/** The page under test is gone: the run cannot go on. */
export class PageGoneError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PageGoneError";
  }
}

const GONE = /ECONNREFUSED|ECONNRESET|EPIPE|socket hang up|invalid session id|session deleted|no such session|chrome not reachable|disconnected: not connected to DevTools|target crashed|session not created|Unable to receive message from renderer/i;

/** A browser, chromedriver or remote end that is not there any more. */
export function isGone(error: unknown): boolean {
  if (error instanceof PageGoneError) return true;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === "NoSuchSessionError" || name === "SessionNotCreatedError") return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ECONNREFUSED" || code === "ECONNRESET") return true;
  return GONE.test(messageOf(error));
}

/** A failed command's message without chromedriver's "(Session info: chrome=…)" line, which says nothing of the command. */
export function commandMessage(error: unknown): string {
  return messageOf(error).replace(/\n\s*\(Session info: [^)\n]*\)\s*$/, "");
}
