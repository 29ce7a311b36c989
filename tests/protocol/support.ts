// Helpers for the protocol tests: every test drives the IDE through the public API only
// (createIde().handle / send / getSnapshot / subscribe), never through machines or adapters.
import { expect, vi } from "vitest";
import { createIde } from "../../index.ts";
import type { Ide, IdeOptions, IdeView, OutboundMessage, UserEvent } from "../../index.ts";
import { fakeExecutor } from "../support/executor.ts";
import { fixtureDocument, otherProject, sharedJson, shopProject } from "../support/shared.ts";

export { createIde, fakeExecutor, fixtureDocument, otherProject, shopProject };
export type { Ide, IdeOptions, IdeView, OutboundMessage, UserEvent };

/** ../shared/fixtures/plugin-run.side: plugin commands, loops, variables, `run`, a broken control flow. */
export const pluginRunProject = () => sharedJson("fixtures/plugin-run.side") as Record<string, unknown>;

// Written out from CONTRACT sections 3, 12 and 13 on purpose, not imported from machines/: the tests'
// list is the oracle, so a code added or dropped in the code fails type checks here.
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
  | "UnknownTest"
  | "NoTestSelected"
  | "ExportFailed"
  | "InvalidLocator"
  | "ElementNotFound"
  | "NoPage";

/** The two request forms of CONTRACT section 2. */
export type Form = "flat" | "payload";
export const FORMS: readonly Form[] = ["flat", "payload"];

/** A request in either form: fields beside `uri`/`verb`, or under `payload`. */
export function request(uri: string, verb: string, fields: Record<string, unknown> = {}, form: Form = "flat") {
  return form === "flat" ? { uri, verb, ...fields } : { uri, verb, payload: { ...fields } };
}

export const SHOP = { id: "6f1d2c7a-3b0e-4c55-9d0e-1b2a3c4d5e6f", name: "Shop checkout" } as const;
export const OTHER = { id: "0b9a8c7d-1e2f-4a3b-8c5d-6e7f8a9b0c1d", name: "Search smoke" } as const;

/**
 * Asserts the reply is exactly `{ error, errorCode }` (CONTRACT section 3): no other
 * top-level key, `errorCode` the expected code, `error` a non-empty sentence. Returns `error`.
 */
export function expectError(reply: unknown, code: ErrorCode): string {
  const shown = JSON.stringify(reply);
  expect(typeof reply, `not an object: ${shown}`).toBe("object");
  expect(reply, shown).not.toBeNull();
  expect(Array.isArray(reply), shown).toBe(false);
  expect(Object.keys(reply as object).sort(), shown).toEqual(["error", "errorCode"]);
  const { error, errorCode } = reply as { error: unknown; errorCode: unknown };
  expect(errorCode, shown).toBe(code);
  expect(typeof error, shown).toBe("string");
  expect((error as string).trim().length, shown).toBeGreaterThan(0);
  return error as string;
}

/** Lets pending promises and timers of a few milliseconds run. */
export const settle = (ms = 5) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Whether `promise` is still unsettled once everything already under way without a timer has
 * run. XState takes an event synchronously: a reply the machines decide on that event is
 * emitted before `send` returns and reaches the caller of `handle` through promise reactions
 * alone, however many `await`s lie between. Node runs every microtask, including the ones
 * those queue, before a `setImmediate` callback, so when the check phase comes and the promise
 * has not settled, only something later can settle it (a user event, a plugin's answer, a
 * timer; one already due may run before the check, and then the answer is rightly false).
 * The answer depends on what is queued, not on time: with a fixed wait (it was 5 ms) a timer
 * of a few milliseconds settled the promise before the check or not, by the machine's load.
 */
export async function isPending(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise<void>((resolve) => setImmediate(resolve));
  return !settled;
}

export const registrationOf = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  version: "1.0.0",
  ...extra,
});

/** `POST /register` from `id`, which must succeed. */
export async function register(ide: Ide, id: string, extra: Record<string, unknown> = {}): Promise<void> {
  expect(await ide.handle(request("/register", "post", registrationOf(`Plugin ${id}`, extra)), { id })).toBe(true);
}

export async function waitForDialog(ide: Ide, kind: NonNullable<IdeView["dialog"]>["kind"]) {
  await vi.waitFor(() => expect(ide.getSnapshot().dialog?.kind).toBe(kind));
  return ide.getSnapshot().dialog!;
}

/** `POST /control` from `id`, accepted by the user: `id` is then the controller. */
export async function takeControl(ide: Ide, id: string, extra: Record<string, unknown> = {}): Promise<void> {
  const reply = ide.handle(request("/control", "post", registrationOf(`Plugin ${id}`, extra)), { id });
  await waitForDialog(ide, "controlConsent");
  ide.send({ type: "user.accept" });
  expect(await reply).toBe(true);
  expect(ide.getSnapshot().control).toMatchObject({ mode: "controlled", controller: id });
}

export interface Delivered {
  to: string;
  message: OutboundMessage;
}

/** A `deliver` that records every call and answers with `answer` (default: `true`). */
export function recordingDeliver(answer: (to: string, message: OutboundMessage) => unknown = () => true) {
  const calls: Delivered[] = [];
  const deliver = async (to: string, message: OutboundMessage): Promise<unknown> => {
    calls.push({ to, message });
    return answer(to, message);
  };
  return { calls, deliver };
}

export const logsOf = (ide: Ide) => ide.getSnapshot().logs;

/** The messages of one outbound event, in the order they were delivered. */
export const byEvent = (calls: readonly Delivered[], event: string) =>
  calls.filter((c) => "event" in c.message && c.message.event === event);

/** Waits until the run in the view has the status `status`. */
export async function waitForStatus(ide: Ide, status: NonNullable<IdeView["playback"]>["status"]): Promise<NonNullable<IdeView["playback"]>> {
  await vi.waitFor(() => expect(ide.getSnapshot().playback?.status).toBe(status));
  return ide.getSnapshot().playback!;
}

/** Each command of the run in the view as [id, state, message]. */
export const statesOf = (ide: Ide) => ide.getSnapshot().playback?.commands.map((c) => [c.id, c.state, c.message]) ?? [];

/** Every route of CONTRACT section 4, with fields that pass its own checks. */
export interface RouteCase {
  verb: string;
  uri: string;
  fields: Record<string, unknown>;
}

export const ROUTE_CASES: readonly RouteCase[] = [
  { verb: "get", uri: "/health", fields: {} },
  { verb: "post", uri: "/register", fields: registrationOf("Any plugin") },
  { verb: "post", uri: "/log", fields: { message: "hello" } },
  { verb: "get", uri: "/project", fields: {} },
  { verb: "post", uri: "/project", fields: { project: otherProject() } },
  { verb: "post", uri: "/control", fields: registrationOf("Any plugin") },
  { verb: "post", uri: "/close", fields: {} },
  { verb: "get", uri: "/playback/location", fields: { location: "id=user" } },
  { verb: "post", uri: "/playback/command", fields: { commandId: "c-open", state: "passed" } },
  { verb: "post", uri: "/playback/log", fields: { message: "hello" } },
  { verb: "put", uri: "/playback/var", fields: { name: "n", contents: "1" } },
  { verb: "post", uri: "/playback/start", fields: { testId: "t-login" } },
  { verb: "post", uri: "/playback/stop", fields: {} },
  { verb: "get", uri: "/record/command", fields: {} },
  { verb: "post", uri: "/record/command", fields: { command: "echo", target: "hi" } },
  { verb: "put", uri: "/record/command", fields: { id: "c-open", value: "changed" } },
  { verb: "delete", uri: "/record/command", fields: { id: "c-open" } },
  { verb: "get", uri: "/record/tab", fields: {} },
  { verb: "post", uri: "/popup/alert", fields: { message: "hello" } },
  { verb: "get", uri: "/export/location", fields: { location: "id=user" } },
  { verb: "post", uri: "/locator/strategy", fields: { name: "qa", css: '[data-qa="{value}"]' } },
  { verb: "get", uri: "/locator/strategy", fields: {} },
];

export const CONTROLLED_ONLY: readonly RouteCase[] = ROUTE_CASES.filter((r) =>
  [
    "post /register",
    "post /log",
    "get /project",
    "post /project",
    "post /close",
    "post /playback/start",
    "post /playback/stop",
    "get /record/command",
    "post /record/command",
    "put /record/command",
    "delete /record/command",
  ].includes(
    `${r.verb} ${r.uri}`,
  ),
);
