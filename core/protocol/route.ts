// What a route is (uri + verb → access rules → fields → what runs), and the small kit the
// routes tables (routes.ts, record.routes.ts) share: zod fields with problems worded for a
// person, and the access rules they use most.
import type { z } from "zod";
import type { RouteAccess } from "../../machines/ide.rules.ts";
import type { IdeSnapshot } from "../../machines/ide.selectors.ts";
import type { IdeRequestEvent } from "../../machines/ide.types.ts";
import type { Reply } from "../../machines/shared.types.ts";
import type { LogGroup } from "../../services/logs/index.ts";
import { describeZodIssue } from "../../services/validation.ts";
import type { Verb } from "./envelope.ts";
import type { Limits } from "./limits.ts";

type EventBody<E> = E extends unknown ? Omit<E, "requestId" | "sender"> : never;

/** What a route may use while it runs. */
export interface RouteScope {
  sender: string;
  snapshot: IdeSnapshot;
  /** Sends an event to the root machine; resolves with its answer. */
  dispatch(event: EventBody<IdeRequestEvent>): Promise<Reply>;
  writeLog(group: LogGroup, type: "error" | "warn" | null | undefined, message: string): void;
  resolveLocator(location: string): Promise<Reply>;
  /** GET /record/tab: the browser tab under test, or NoPage where there is none. */
  tabUnderTest(): Promise<Reply>;
}

export interface Route<F = unknown> {
  path: string;
  verb: Verb;
  access: RouteAccess;
  /** Which request-size limit applies. */
  sizeLimit: keyof Pick<Limits, "requestBytes" | "projectRequestBytes">;
  /** A string field held to `logMessageBytes`. */
  boundedField?: string;
  /** Parses the merged fields; a string is the problem, worded for a person. */
  parse(fields: Record<string, unknown>): F | string;
  run(scope: RouteScope, fields: F): Reply | Promise<Reply>;
}

const problem = (error: z.ZodError) => describeZodIssue(error, "request");

export function fieldsOf<S extends z.ZodType>(schema: S) {
  return (fields: Record<string, unknown>): z.infer<S> | string => {
    const result = schema.safeParse(fields, { reportInput: true });
    return result.success ? result.data : problem(result.error);
  };
}

export const noFields = () => ({});

export const anyone: RouteAccess = { controlledOnly: false, needsRegistration: false, opensWindow: false };
export const controlledOnly: RouteAccess = { controlledOnly: true, needsRegistration: false, opensWindow: false };

export function route<F>(r: Route<F>): Route<unknown> {
  return r as Route<unknown>;
}
