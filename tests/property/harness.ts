// What the property tests share: tracking every handle() promise, letting queued work
// run, and the checks on replies, views and the built-in prototypes.
import assert from "node:assert/strict";
import type { Ide, IdeView } from "../../index.ts";
import { fakeExecutor } from "../support/executor.ts";
import { COMMAND_STATES, ERROR_CODES, FIXTURE_PAGE_COMMANDS, FIXTURES, SENDERS } from "./arbitraries.ts";
import type { ModelStep, PluginStep, Start } from "./arbitraries.ts";

/**
 * Lets every queued promise reaction and the `deliver`/`save` ports (which answer at once)
 * run. setImmediate fires after the microtask queue is empty, like setTimeout(0), without
 * its 1 ms floor: tens of thousands of steps stay fast.
 */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export const startOptions = (start: Start) => ({
  project: start.project === "untitled" ? undefined : FIXTURES[start.project],
  window: start.window,
  executor:
    start.executor === "none"
      ? undefined
      : fakeExecutor(start.executor === "stuck" ? { hang: FIXTURE_PAGE_COMMANDS } : {}),
});

/** Takes the prelude of `start`: the first plugin asks for control and the user accepts, then edits. */
export async function applyPrelude(ide: Ide, start: Start): Promise<void> {
  if (start.prelude === "none") return;
  const sender = SENDERS[0];
  const reply = ide.handle({ uri: "/control", verb: "post", name: `Plugin ${sender}`, version: "1.0.0" }, { id: sender });
  await settle();
  ide.send({ type: "user.accept" });
  assert.equal(await reply, true, "the prelude's control request");
  if (start.prelude === "controlledUnsaved") ide.send({ type: "user.editProject" });
  await settle();
}

/** One handle() call and what became of it. */
export interface Tracked {
  outcome: "pending" | "replied" | "rejected" | "threw";
  reply?: unknown;
  problem?: unknown;
}

export function track(call: () => Promise<unknown>): Tracked {
  const tracked: Tracked = { outcome: "pending" };
  let promise: Promise<unknown>;
  try {
    promise = call();
  } catch (error) {
    tracked.outcome = "threw";
    tracked.problem = error;
    return tracked;
  }
  Promise.resolve(promise).then(
    (reply) => {
      tracked.outcome = "replied";
      tracked.reply = reply;
    },
    (error: unknown) => {
      tracked.outcome = "rejected";
      tracked.problem = error;
    },
  );
  return tracked;
}

/** Fails unless the call settled with a reply (no throw, no rejection, no waiting). */
export function assertReplied(tracked: Tracked, what: string): void {
  assert.notEqual(tracked.outcome, "pending", `${what}: handle() never settled`);
  assert.notEqual(tracked.outcome, "threw", `${what}: handle() threw ${String(tracked.problem)}`);
  assert.notEqual(tracked.outcome, "rejected", `${what}: handle() rejected with ${String(tracked.problem)}`);
}

export type ErrorReply = { error: string; errorCode: string };

/** An object that claims to be an error (has `error` or `errorCode`). */
export const looksLikeError = (reply: unknown): boolean =>
  typeof reply === "object" && reply !== null && ("error" in reply || "errorCode" in reply);

export function isErrorWithCode(reply: unknown, code: string): boolean {
  return looksLikeError(reply) && (reply as ErrorReply).errorCode === code;
}

/**
 * CONTRACT section 3: a failure is exactly `{ error, errorCode }` with a sentence and a
 * known code (section 13 adds the anchor's `status` and `message` to NoTestSelected and
 * UnknownCommand on /record/command); a success is a boolean, a string (an xpath, a `By`
 * expression), the `{ id, name }` of GET /project, the `{ runId }` of POST /playback/start, the
 * `{ commands }` of GET /record/command or the `{ id }` of GET /record/tab. Nothing else, and
 * never undefined.
 */
export function assertReplyShape(reply: unknown, what: string): void {
  if (looksLikeError(reply)) {
    const error = reply as Record<string, unknown>;
    // Section 13: on the /record/command routes these two carry the anchor's status and message too.
    const anchored = (error.errorCode === "NoTestSelected" || error.errorCode === "UnknownCommand") && Object.hasOwn(error, "status");
    if (anchored) {
      assert.equal(error.status, "error", `${what}: an anchored error's status is not "error"`);
      assert.equal(error.message, error.error, `${what}: an anchored error's message is not its error`);
    }
    const keys = anchored ? ["error", "errorCode", "message", "status"] : ["error", "errorCode"];
    assert.deepEqual(Reflect.ownKeys(error).sort(), keys, `${what}: an error reply has other keys`);
    assert.equal(Object.getPrototypeOf(error), Object.prototype, `${what}: an error reply is not a plain object`);
    assert.equal(typeof error.error, "string", `${what}: error is not a string`);
    assert.ok((error.error as string).length > 0, `${what}: error is an empty string`);
    assert.ok(ERROR_CODES.has(error.errorCode as string), `${what}: unknown errorCode ${String(error.errorCode)}`);
    return;
  }
  if (typeof reply === "boolean" || typeof reply === "string") return;
  assert.ok(typeof reply === "object" && reply !== null, `${what}: the reply ${String(reply)} is neither a value nor an error`);
  if (Object.hasOwn(reply, "commands")) {
    assert.deepEqual(Object.keys(reply), ["commands"], `${what}: an object reply that is not { commands }`);
    assert.ok(Array.isArray((reply as { commands: unknown }).commands), `${what}: commands is not an array`);
    return;
  }
  if (Object.keys(reply).length === 1 && typeof (reply as { id?: unknown }).id === "number") return; // GET /record/tab
  if (Object.hasOwn(reply, "strategies")) {
    // GET /locator/strategy (CONTRACT section 23).
    assert.deepEqual(Object.keys(reply), ["strategies"], `${what}: an object reply that is not { strategies }`);
    assert.ok(Array.isArray((reply as { strategies: unknown }).strategies), `${what}: strategies is not an array`);
    return;
  }
  if (Object.hasOwn(reply, "runId")) {
    assert.deepEqual(Object.keys(reply), ["runId"], `${what}: an object reply that is not { runId }`);
    assert.equal(typeof (reply as { runId: unknown }).runId, "string", `${what}: runId is not a string`);
    return;
  }
  assert.deepEqual(Object.keys(reply).sort(), ["id", "name"], `${what}: an object reply that is not { id, name }`);
  const { id, name } = reply as Record<string, unknown>;
  assert.equal(typeof id, "string", `${what}: project id is not a string`);
  assert.equal(typeof name, "string", `${what}: project name is not a string`);
}

/** CONTRACT section 5: the view is consistent with itself, whatever happened before. */
export function assertViewConsistent(view: IdeView, what: string): void {
  const { control, dialog, plugins, playback } = view;
  assert.equal(
    control.mode === "awaitingConsent",
    dialog?.kind === "controlConsent",
    `${what}: awaitingConsent (${control.mode}) and a consent dialog (${dialog?.kind ?? "none"}) disagree`,
  );
  assert.equal(
    control.candidate !== null,
    control.mode === "awaitingConsent",
    `${what}: candidate ${control.candidate} while ${control.mode}`,
  );
  if (dialog?.kind === "controlConsent") {
    assert.equal(dialog.requester, control.candidate, `${what}: the consent dialog names someone other than the candidate`);
  }
  if (dialog) {
    for (const key of ["requester", "title", "text"] as const) {
      assert.equal(typeof dialog[key], "string", `${what}: dialog.${key} is not a string`);
    }
  }
  if (view.window === "closed") {
    assert.deepEqual(plugins, [], `${what}: plugins stay registered while the window is closed`);
    assert.equal(control.mode, "notControlled", `${what}: control outlives the window`);
    assert.equal(dialog, null, `${what}: a dialog is open in a closed window`);
  }
  if (control.mode === "controlled") assert.notEqual(control.controller, null, `${what}: controlled with no controller`);
  if (control.mode === "notControlled") assert.equal(control.controller, null, `${what}: a controller while notControlled`);
  if (control.mode !== "notControlled" && control.controller !== null) {
    // Accepting restarts the plugin session; controlled-only /register keeps everyone else out.
    assert.deepEqual(
      plugins.map((p) => p.id),
      [control.controller],
      `${what}: while controlled, plugins other than the controller are registered`,
    );
  }
  assert.equal(new Set(plugins.map((p) => p.id)).size, plugins.length, `${what}: a plugin is registered twice`);
  if (playback) {
    // CONTRACT sections 9 and 12: `running` is true from starting to finishing, the result is
    // known once the run ended, and nothing is left pending once it is over.
    const live = ["starting", "running", "paused", "finishing"].includes(playback.status);
    assert.ok(["idle", "ended", "starting", "running", "paused", "finishing"].includes(playback.status), `${what}: run status ${playback.status}`);
    assert.equal(playback.running, live, `${what}: running is ${playback.running} while the run is ${playback.status}`);
    assert.equal(playback.result === null, playback.status !== "ended", `${what}: result ${playback.result} while ${playback.status}`);
    if (playback.status === "ended") {
      assert.equal(playback.currentCommandId, null, `${what}: a run that ended still has a current command`);
      const pending = playback.commands.filter((c) => c.state === "pending").map((c) => c.id);
      assert.deepEqual(pending, [], `${what}: commands left pending after the run ended`);
      const failed = playback.commands.some((c) => c.state === "failed" || c.state === "fatal");
      if (failed) assert.equal(playback.result, "failed", `${what}: a command ended failed or fatal, and the run passed`);
    }
    assert.equal(typeof playback.runId, "string", `${what}: runId is not a string`);
    for (const command of playback.commands) {
      assert.ok(
        command.state === null || (COMMAND_STATES as readonly string[]).includes(command.state),
        `${what}: command ${command.id} has the state ${String(command.state)}`,
      );
      assert.ok(command.message === null || typeof command.message === "string", `${what}: command message is not a string`);
    }
  }
}

type Descriptors = Map<PropertyKey, PropertyDescriptor>;

/** The own properties of Object.prototype and Array.prototype, to compare later. */
export function prototypeState(): { object: Descriptors; array: Descriptors } {
  const read = (target: object): Descriptors =>
    new Map(Reflect.ownKeys(target).map((key) => [key, Reflect.getOwnPropertyDescriptor(target, key)!]));
  return { object: read(Object.prototype), array: read(Array.prototype) };
}

export function assertPrototypesUnchanged(before: ReturnType<typeof prototypeState>, what: string): void {
  const after = prototypeState();
  for (const kind of ["object", "array"] as const) {
    const name = kind === "object" ? "Object.prototype" : "Array.prototype";
    const added = [...after[kind].keys()].filter((key) => !before[kind].has(key)).map(String);
    assert.deepEqual(added, [], `${what}: ${name} gained keys`);
    for (const [key, descriptor] of before[kind]) {
      const now = after[kind].get(key);
      assert.ok(
        now && now.value === descriptor.value && now.get === descriptor.get && now.set === descriptor.set,
        `${what}: ${name}.${String(key)} was changed or removed`,
      );
    }
  }
}

/** A short name of a step for failure messages. */
export function describeStep(step: ModelStep | { kind: "hostile" }, index: number): string {
  if (step.kind === "user") return `step ${index} (${step.event.type}${step.saveOutcome ? `, save ${step.saveOutcome}` : ""})`;
  if (step.kind === "plugin") return `step ${index} (${step.sender} ${describeRequest(step)})`;
  if (step.kind === "port") return `step ${index} (a held save answers ${step.outcome})`;
  if (step.kind === "burst") {
    return `step ${index} (in one tick: ${step.steps.map((s) => `${s.sender} ${describeRequest(s)}`).join(", ")})`;
  }
  return `step ${index} (hostile message)`;
}

const describeRequest = (step: PluginStep) =>
  step.request.route === "loadProject" ? `loadProject ${step.request.fixture}` : step.request.route;

/** `JSON.stringify`, or a note that it failed: for before/after comparisons of a message. */
export function jsonOrNull(value: unknown): string | null {
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}
