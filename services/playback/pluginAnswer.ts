// How a plugin's answer to `execute` sets its command's state (CONTRACT section 10). One pure
// function, shared by every transport: the extension's, the bridge's and an in-process one.
import { COMMAND_STATES } from "./commandTable.ts";
import type { CommandState } from "./commandTable.ts";

export interface CommandVerdict {
  state: CommandState;
  message: string | null;
}

/** What came back from delivering `execute`: an answer, or nothing (failed, timed out). */
export type Delivery = { answered: true; answer: unknown } | { answered: false; reason: string };

const isState = (value: unknown): value is CommandState =>
  typeof value === "string" && (COMMAND_STATES as readonly string[]).includes(value);

const text = (value: unknown): string | null =>
  value === undefined || value === null ? null : typeof value === "string" ? value : JSON.stringify(value) ?? String(value);

export function readPluginAnswer(delivery: Delivery, pluginName: string): CommandVerdict {
  const silent: CommandVerdict = { state: "fatal", message: `${pluginName} did not respond` };
  if (!delivery.answered) return { state: "fatal", message: `${pluginName} did not respond (${delivery.reason})` };
  const answer = delivery.answer;
  if (answer === undefined || answer === null) return silent;
  if (typeof answer === "string") return { state: "passed", message: answer };
  if (typeof answer === "object" && !Array.isArray(answer)) {
    const { error, status, message } = answer as { error?: unknown; status?: unknown; message?: unknown };
    if (error !== undefined) {
      return { state: status === "fatal" ? "fatal" : "failed", message: text(error) };
    }
    if (isState(status)) return { state: status, message: text(message) };
  }
  return { state: "passed", message: null };
}

/** An answer to `playbackStarted` that stops the run before its first command. */
export function refusesToStart(delivery: Delivery): string | null {
  if (!delivery.answered) return null;
  const answer = delivery.answer;
  if (typeof answer !== "object" || answer === null) return null;
  const { error, status, message } = answer as { error?: unknown; status?: unknown; message?: unknown };
  if (error !== undefined) return text(error);
  if (status === "fatal") return text(message) ?? "fatal";
  return null;
}
