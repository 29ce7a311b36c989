// The ports through which the core reaches the outside: delivering messages to plugins,
// saving to the computer, and resolving locators. Each turns a rejection, a time-out or an
// error answer into something the machines understand; none decides policy.
import { fromPromise } from "xstate";
import type { OutboundMessage } from "../machines/ide.types.ts";
import type { SaveInput, SaveOutcome } from "../machines/project.types.ts";
import { fail, ok } from "../machines/shared.types.ts";
import type { Reply } from "../machines/shared.types.ts";
import { LocatorError, parseLocator, resolveInDocument } from "../services/locators/index.ts";
import type { SideProject } from "../services/side/index.ts";

export type Deliver = (pluginId: string, message: OutboundMessage) => Promise<unknown>;
export type Save = (project: SideProject) => Promise<void>;
export type ResolveLocator = (locator: string) => Promise<string>;

export class TimeoutError extends Error {}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** An answer a plugin gives to say no: an object with `error`. */
export const isErrorAnswer = (answer: unknown): answer is { error: unknown } =>
  typeof answer === "object" && answer !== null && "error" in answer;

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Sends to a plugin and settles with what went wrong, or null when it arrived. */
export async function deliverTo(
  deliver: Deliver | undefined,
  timeoutMs: number,
  to: string,
  message: OutboundMessage,
): Promise<string | null> {
  if (!deliver) return "no channel to plugins is set up (createIde was given no `deliver`)";
  try {
    const answer = await withTimeout(Promise.resolve().then(() => deliver(to, message)), timeoutMs, `the plugin ${to}`);
    return isErrorAnswer(answer) ? `the plugin ${to} answered with an error: ${String(answer.error)}` : null;
  } catch (error) {
    return reasonOf(error);
  }
}

/** The project machine's save port: to the controller while controlled, else `save`. */
export const saveProjectPort = (deliver: Deliver | undefined, save: Save | undefined, timeoutMs: number) =>
  fromPromise<SaveOutcome, SaveInput>(async ({ input }) => {
    if (input.controller !== null) {
      const problem = await deliverTo(deliver, timeoutMs, input.controller, {
        action: "event",
        event: "saveProject",
        options: { project: input.project },
      });
      return problem === null ? { ok: true } : { ok: false, reason: problem };
    }
    try {
      if (save) await save(input.project);
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: reasonOf(error) };
    }
  });

const LOCATOR_CODES = new Set(["InvalidLocator", "ElementNotFound", "NoPage"]);

/** GET /playback/location: parse first (InvalidLocator before NoPage), then the page. */
export function locatorResolver(document: Document | undefined, port: ResolveLocator | undefined) {
  return async (location: string): Promise<Reply> => {
    try {
      if (!port) return ok(resolveInDocument(document, location));
      parseLocator(location);
      const xpath = await port(location);
      if (typeof xpath !== "string") return fail("ElementNotFound", `The resolver gave no xpath for "${location}".`);
      return ok(xpath);
    } catch (error) {
      const code = (error as { errorCode?: unknown } | null)?.errorCode;
      if (error instanceof LocatorError || (typeof code === "string" && LOCATOR_CODES.has(code))) {
        return fail(code as "InvalidLocator", reasonOf(error));
      }
      return fail("ElementNotFound", `The locator "${location}" could not be resolved: ${reasonOf(error)}`);
    }
  };
}
