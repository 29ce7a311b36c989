// handle() under random, malformed and hostile messages (CONTRACT sections 1 to 3): it never
// throws or rejects, every call settles (requests waiting on a dialog once the window closes
// or the IDE stops), every failure is exactly { error, errorCode }, /health answers a
// boolean or an error, and nothing reaches Object.prototype or Array.prototype.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createIde } from "../../index.ts";
import { fixtureDocument } from "../support/shared.ts";
import {
  buildHostile,
  buildSender,
  endingArb,
  hostileStepArb,
  isJsonHostile,
  limitsArb,
  messageOf,
  requestsOf,
  resolveStep,
  runs,
  timeoutFor,
  startArb,
} from "./arbitraries.ts";
import type { Hostile } from "./arbitraries.ts";
import {
  applyPrelude,
  assertPrototypesUnchanged,
  assertReplied,
  assertReplyShape,
  assertViewConsistent,
  describeStep,
  isErrorWithCode,
  jsonOrNull,
  looksLikeError,
  prototypeState,
  settle,
  startOptions,
  track,
} from "./harness.ts";
import type { Tracked } from "./harness.ts";

/** Whether a generated message names /health as its `uri` (any case, with or without /v1). */
function namesHealth(node: Hostile): boolean {
  if (node.t !== "object" && node.t !== "value") return false;
  let uri: unknown;
  if (node.t === "object") {
    const entry = node.entries.filter(([key]) => key === "uri").pop()?.[1];
    uri = entry?.t === "value" ? entry.v : undefined;
  } else if (typeof node.v === "object" && node.v !== null && Object.hasOwn(node.v, "uri")) {
    uri = (node.v as { uri: unknown }).uri;
  }
  if (typeof uri !== "string") return false;
  const path = uri.toLowerCase();
  return path === "/health" || path === "/v1/health";
}

interface Call {
  what: string;
  tracked: Tracked;
  health: boolean;
  /** The message as JSON before handle() saw it, when it is plain JSON data. */
  json: string | null;
  message: unknown;
}

describe("handle() with random, malformed and hostile messages", () => {
  const document = fixtureDocument();

  it("never throws or rejects, always settles with a contract reply, and leaves the built-in prototypes alone", async () => {
    await fc.assert(
      fc.asyncProperty(
        startArb,
        limitsArb,
        fc.array(hostileStepArb, { minLength: 1, maxLength: 12, size: "medium" }),
        endingArb,
        async (start, limits, steps, ending) => {
          const prototypes = prototypeState();
          const ide = createIde({ ...startOptions(start), limits, document, deliver: async () => true });
          const calls: Call[] = [];
          try {
            if (limits === undefined) await applyPrelude(ide, start);
            for (const [index, step] of steps.entries()) {
              const what = describeStep(step, index);
              if (step.kind === "hostile") {
                const message = buildHostile(step.message);
                const json = isJsonHostile(step.message) ? jsonOrNull(message) : null;
                const tracked = track(() => ide.handle(message, buildSender(step.sender)));
                calls.push({ what, tracked, health: namesHealth(step.message), json, message });
                if (step.settle) await settle();
              } else {
                for (const planned of requestsOf(step)) {
                  const request = resolveStep(planned, ide.getSnapshot());
                  const message = messageOf(request);
                  const tracked = track(() => ide.handle(message, { id: request.sender }));
                  calls.push({ what, tracked, health: request.request.route === "health", json: jsonOrNull(message), message });
                }
                if (step.kind === "user") ide.send(step.event);
                await settle();
              }
              assertViewConsistent(ide.getSnapshot(), what);
            }
            await settle();
            if (ending === "closeWindow") ide.send({ type: "user.closeWindow" });
            else ide.stop();
            await settle();

            for (const call of calls) {
              assertReplied(call.tracked, call.what);
              assertReplyShape(call.tracked.reply, call.what);
              if (call.health) {
                expect(
                  typeof call.tracked.reply === "boolean" || looksLikeError(call.tracked.reply),
                  `${call.what}: /health answered ${String(call.tracked.reply)}`,
                ).toBe(true);
              }
              if (call.json !== null) {
                expect(jsonOrNull(call.message), `${call.what}: handle() changed the message`).toBe(call.json);
              }
            }
            if (ending === "closeWindow") {
              const view = ide.getSnapshot();
              expect(view.window).toBe("closed");
              assertViewConsistent(view, "after the user closed the window");
            }
            assertPrototypesUnchanged(prototypes, "after the run");
          } finally {
            ide.stop();
          }
        },
      ),
      { numRuns: runs },
    );
  }, timeoutFor(8));

  it("answers requests that still wait on a dialog with IdeNotActive once the window closes or the IDE stops", async () => {
    // A narrower property than the one above: every run opens a dialog first, so the
    // waiting path is exercised every time rather than by chance.
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("control", "load", "close"),
        fc.array(hostileStepArb, { maxLength: 4 }),
        endingArb,
        async (dialog, noise, ending) => {
          const ide = createIde({ ...startOptions({ project: "shop", window: "open", prelude: "none", executor: "none" }), document, deliver: async () => true });
          try {
            const registration = { name: "Waiter", version: "1" };
            if (dialog !== "control") {
              ide.handle({ uri: "/control", verb: "post", ...registration }, { id: "ext-a" });
              await settle();
              ide.send({ type: "user.accept" });
              await settle();
              await ide.handle({ uri: "/register", verb: "post", ...registration }, { id: "ext-a" });
              ide.send({ type: "user.editProject" });
            }
            const message =
              dialog === "control"
                ? { uri: "/control", verb: "post", ...registration }
                : dialog === "load"
                  ? { uri: "/project", verb: "post", project: { id: "p", name: "P", tests: [] } }
                  : { uri: "/close", verb: "post" };
            const waiting = track(() => ide.handle(message, { id: "ext-a" }));
            await settle();
            expect(waiting.outcome, "the request waits on the user").toBe("pending");
            const others: Tracked[] = [];
            for (const step of noise) {
              if (step.kind !== "hostile") continue; // only plugins speak here: the user stays silent
              const message = buildHostile(step.message);
              others.push(track(() => ide.handle(message, buildSender(step.sender))));
            }
            await settle();
            if (ending === "closeWindow") ide.send({ type: "user.closeWindow" });
            else ide.stop();
            await settle();
            assertReplied(waiting, `the ${dialog} request`);
            expect(isErrorWithCode(waiting.reply, "IdeNotActive"), `the ${dialog} request got ${JSON.stringify(waiting.reply)}`).toBe(true);
            others.forEach((other, i) => {
              assertReplied(other, `hostile message ${i}`);
              assertReplyShape(other.reply, `hostile message ${i}`);
            });
          } finally {
            ide.stop();
          }
        },
      ),
      { numRuns: runs },
    );
  }, timeoutFor(4));
});
