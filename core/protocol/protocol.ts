// handle(): one plugin request in, one reply out. The checks run in the order CONTRACT
// section 2 pins: shape, rate, route, verb, size, window, control mode, registration, then
// the route's own fields and rules. Nothing here decides policy: admission asks
// machines/ide.rules.ts, and state changes are events the root machine answers.
import type { Actor } from "xstate";
import type { ideMachine } from "../../machines/ide.machine.ts";
import { admissionError } from "../../machines/ide.rules.ts";
import { childActors, eachTestRunner } from "../../machines/ide.selectors.ts";
import type { IdeSnapshot } from "../../machines/ide.selectors.ts";
import type { IdeRequestEvent } from "../../machines/ide.types.ts";
import { fail } from "../../machines/replies.ts";
import type { Reply, RequestAnsweredEvent } from "../../machines/shared.types.ts";
import { messageOf } from "../../services/errors.ts";
import type { LogGroup, LogInput } from "../../services/logs/index.ts";
import { route } from "../door.ts";
import { readEnvelope } from "./envelope.ts";
import { overBytes, RateLimiter } from "./limits.ts";
import type { Limits } from "./limits.ts";
import { matchRoute } from "./routes.ts";
import type { RouteScope } from "./routes.ts";
import { toWire } from "./wire.ts";
import type { WireReply } from "./wire.ts";

export interface ProtocolDeps {
  actor: Actor<typeof ideMachine>;
  appendLog(entry: LogInput): void;
  limits: Limits;
  resolveLocator(location: string): Promise<Reply>;
  /** GET /record/tab: the tab under test's `{ id }`, or NoPage. */
  tabUnderTest(): Promise<Reply>;
  now?: () => number;
}

export interface Protocol {
  handle(message: unknown, sender: { id: string }): Promise<WireReply>;
  /** Answers every request still waiting, when the IDE stops. */
  abandonAll(reply: Reply): void;
}

interface ScopeIo {
  dispatch(sender: string, body: Record<string, unknown>): Promise<Reply>;
  writeLog(sender: string, group: LogGroup, type: "error" | "warn" | null | undefined, message: string): void;
  resolveLocator(location: string): Promise<Reply>;
  tabUnderTest(): Promise<Reply>;
}

// A class rather than an object of closures: it is made for every request, on the hot path.
class RequestScope implements RouteScope {
  constructor(
    private readonly io: ScopeIo,
    readonly sender: string,
    readonly snapshot: IdeSnapshot,
  ) {}
  dispatch(event: Parameters<RouteScope["dispatch"]>[0]) {
    return this.io.dispatch(this.sender, event as Record<string, unknown>);
  }
  writeLog(group: LogGroup, type: "error" | "warn" | null | undefined, message: string) {
    this.io.writeLog(this.sender, group, type, message);
  }
  resolveLocator(location: string) {
    return this.io.resolveLocator(location);
  }
  tabUnderTest() {
    return this.io.tabUnderTest();
  }
}

export function createProtocol(deps: ProtocolDeps): Protocol {
  const { actor, limits } = deps;
  const rate = new RateLimiter(limits.requestsPerSecond, limits.requestBurst, deps.now);
  const waiting = new Map<number, (reply: Reply) => void>();
  let nextRequestId = 1;

  // The root, each child machine and each test runner answer the requests they decide.
  const answer = ({ requestId, reply }: RequestAnsweredEvent) => {
    const resolve = waiting.get(requestId);
    if (!resolve) return;
    waiting.delete(requestId);
    resolve(reply);
  };
  const { control, projectFile, editor, suiteRunner } = childActors(actor.getSnapshot());
  actor.on("request.answered", answer);
  control.on("request.answered", answer);
  projectFile.on("request.answered", answer);
  editor.on("request.answered", answer);
  suiteRunner.on("request.answered", answer);
  eachTestRunner(suiteRunner, (runner) => {
    const subscription = runner.on("request.answered", answer);
    return () => subscription.unsubscribe();
  });

  function dispatch(sender: string, body: Record<string, unknown>): Promise<Reply> {
    const requestId = nextRequestId++;
    return new Promise<Reply>((resolve) => {
      waiting.set(requestId, resolve);
      if (actor.getSnapshot().status !== "active") {
        waiting.delete(requestId);
        resolve(fail("IdeNotActive", "The IDE has stopped."));
        return;
      }
      route(actor, { ...body, requestId, sender } as IdeRequestEvent);
    });
  }

  function writeLog(sender: string, group: LogGroup, type: "error" | "warn" | null | undefined, message: string) {
    deps.appendLog({ group, level: type ?? "info", message, source: sender, at: Date.now() });
  }

  const io: ScopeIo = { dispatch, writeLog, resolveLocator: deps.resolveLocator, tabUnderTest: deps.tabUnderTest };

  async function decide(message: unknown, senderId: string): Promise<Reply> {
    const door = readEnvelope(message);
    if (!door.ok) return door.reply;
    const { envelope } = door;
    // Part of the shape: a request is JSON. Serialised once, here, and measured below.
    let serialised: string;
    try {
      serialised = JSON.stringify(message);
    } catch {
      return fail("InvalidRequest", "The request must be plain JSON (no cycles, no BigInt).");
    }
    if (!rate.take(senderId)) {
      return fail("RateLimited", `Too many requests from ${senderId}; the limit is ${limits.requestsPerSecond} a second.`);
    }
    if (envelope.uri === null) {
      // A bare open request: nothing else to check.
      return dispatch(senderId, { type: "request.open" });
    }
    const match = matchRoute(envelope.uri, envelope.verb!);
    if (!match.ok) return match.reply;
    const { route } = match;

    const sizeLimit = limits[route.sizeLimit];
    if (overBytes(serialised, sizeLimit)) {
      return fail("PayloadTooLarge", `The request is over the ${route.sizeLimit} limit of ${sizeLimit} bytes.`);
    }
    const bounded = route.boundedField ? envelope.fields[route.boundedField] : undefined;
    if (typeof bounded === "string" && overBytes(bounded, limits.logMessageBytes)) {
      return fail(
        "PayloadTooLarge",
        `\`${route.boundedField}\` is over the logMessageBytes limit of ${limits.logMessageBytes} bytes.`,
      );
    }

    if (envelope.open) await dispatch(senderId, { type: "request.open" });

    const snapshot = actor.getSnapshot();
    const refused = admissionError(snapshot, senderId, route.access);
    if (refused) return refused;

    const fields = route.parse(envelope.fields);
    if (typeof fields === "string") return fail("InvalidRequest", `The request is not valid: ${fields}.`);

    return route.run(new RequestScope(io, senderId, snapshot), fields);
  }

  return {
    async handle(message, sender) {
      try {
        const senderId = typeof sender?.id === "string" ? sender.id : "";
        if (actor.getSnapshot().status !== "active") return toWire(fail("IdeNotActive", "The IDE has stopped."));
        return toWire(await decide(message, senderId));
      } catch (error) {
        // A hostile message (a throwing getter, a proxy) must still get an answer.
        const text = messageOf(error);
        return toWire(fail("InvalidRequest", `The request could not be read: ${text}`));
      }
    },
    abandonAll(reply) {
      for (const [id, resolve] of waiting) {
        waiting.delete(id);
        resolve(reply);
      }
    },
  };
}
