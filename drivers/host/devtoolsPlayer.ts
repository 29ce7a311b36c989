// The host's one player (CONTRACT section 19): page commands played in the page under test over
// the browser's DevTools connection (devtoolsConnection.ts: a local browser's endpoint, a Grid's
// `se:cdp`), in a session of its own in the window WebDriver drives. The player
// (drivers/player/hostEntry.ts, the in-page commands) is put into an isolated world of every
// document; each command is one `Runtime.evaluate` there, and the input it asks for through its
// binding is sent as trusted DevTools input (`Input.dispatchMouseEvent`, `Input.dispatchKeyEvent`)
// and answered. What the page sends is read with zod.
//
// Navigation: a command waits while the top document loads; a document that went away under a
// command that had already acted (a click on a link) has passed; one that went away before it
// acted, or under a command that only reads, is played again in the new document. A navigation
// the command started (a form post whose answer is slow, a link, a script's location change) is
// waited for before its answer is given, as the page or the browser tells of it: the page's
// answer says `navigating` (the Navigation API's "navigate" event, page/navigating.ts), or the
// main frame asked for a navigation (`Page.frameRequestedNavigation`) or started loading while
// the command ran. It ends when the document the command ran in is gone (the next one then is
// waited for as above), when the loading stopped without a new document (a 204, a download),
// or at the page load limit. A JavaScript
// dialog the command opened ends it as passed (WebDriver plays what follows, assertAlert and the
// like), and while one is open the player declines (`null`), as it does for a page it cannot reach.
import { fileURLToPath } from "node:url";
import type { WebDriver } from "selenium-webdriver";
import { z } from "zod";
import { messageOf } from "../../services/errors.ts";
import type { InPageAnswer, InPageRequest } from "../player/index.ts";
import { browserBundle } from "./bundle.ts";
import { devToolsOf } from "./devtoolsConnection.ts";
import { INPUT_BINDING, INPUT_LIMIT_MS, PLAYER_GLOBAL, PLAYER_WORLD } from "../player/hostNames.ts";

const SETUP_LIMIT_MS = 10_000;
/** How long a new document may take to get the player's world. */
const CONTEXT_LIMIT_MS = 10_000;
/** How often a command is sent again when its document went away before it acted. */
const RESENDS = 3;
/** Time for the answer to come back beyond the command's own waits. */
const ANSWER_MARGIN_MS = 5_000;

const InputBatch = z.object({
  id: z.number().int().nonnegative(),
  events: z
    .array(z.object({ method: z.enum(["Input.dispatchMouseEvent", "Input.dispatchKeyEvent", "Input.insertText"]), params: z.record(z.string(), z.unknown()) }))
    .max(100_000),
});
const Answer = z.discriminatedUnion("state", [
  z.object({ state: z.literal("passed"), message: z.string().optional(), stored: z.object({ name: z.string(), value: z.unknown() }).optional(), healed: z.object({ locator: z.string(), score: z.number().min(0).max(1), fingerprint: z.unknown().optional() }).optional(), navigating: z.literal(true).optional() }),
  z.object({ state: z.literal("failed"), message: z.string() }),
  z.object({ state: z.literal("unsupported"), message: z.string() }),
]);
const Evaluated = z.object({
  result: z.object({ value: z.unknown().optional() }).passthrough(),
  exceptionDetails: z.object({ text: z.string(), exception: z.object({ description: z.string().optional() }).passthrough().optional() }).passthrough().optional(),
});
const ContextCreated = z.object({ context: z.object({ id: z.number(), name: z.string(), auxData: z.object({ frameId: z.string().optional() }).passthrough().optional() }) });
const FrameTree = z.object({ frameTree: z.object({ frame: z.object({ id: z.string() }) }) });

/** The player's bundle, once per process. */
async function playerSource(): Promise<string> {
  return (await browserBundle({ entry: fileURLToPath(new URL("../player/hostEntry.ts", import.meta.url)), format: "iife" })).script;
}

/** A document that went away under a command (a navigation, the window closing). */
const documentGone = (error: unknown) => /context was destroyed|Cannot find context|Inspected target navigated|Execution context/i.test(messageOf(error));

export interface DevToolsPlayer {
  /** The WebDriver window handle (the page's target id) this player plays in. */
  readonly handle: string;
  /** Whether its DevTools session still works. */
  usable(): boolean;
  /** Whether the last command sent the browser input (it may have acted even if its answer was lost). */
  inputSent(): boolean;
  /** One page command in the top document; null when the player declines it now (a dialog is open), so WebDriver plays it. */
  run(request: InPageRequest, acts: boolean, signal: AbortSignal): Promise<InPageAnswer | null>;
  close(): void;
}

export interface DevToolsPlayerLimits {
  /** How long a loading document may take before a command runs anyway. */
  loadTimeoutMs: number;
}

/** The player in the window `handle` of the browser `driver` drives; null when that browser has no DevTools this host can reach. */
export async function devtoolsPlayer(driver: WebDriver, handle: string, limits: DevToolsPlayerLimits): Promise<DevToolsPlayer | null> {
  const devtools = await devToolsOf(driver);
  if (!devtools) return null;
  const sessionId = await devtools.attach(handle, SETUP_LIMIT_MS);
  const contexts = new Map<string, number>();
  let mainFrame = "";
  let loading = false;
  let dialogOpen = false;
  let detached = false;
  /** Set when the running command's input reached the browser; `sent` once it went out. */
  let acted = false;
  let sent = false;
  /** Since the running command was sent: the main frame asked for a navigation, started loading. */
  let navigationRequested = false;
  let startedLoading = false;
  const wakers = new Set<() => void>();
  const wake = () => wakers.forEach((w) => w());
  const send = (method: string, params: Record<string, unknown>, timeoutMs = SETUP_LIMIT_MS) => devtools.send(method, params, sessionId, timeoutMs);

  async function dispatch(payload: unknown, contextId: unknown) {
    let batch;
    try {
      batch = InputBatch.parse(JSON.parse(String(payload)));
    } catch {
      return; // not the player's
    }
    let error: string | null = null;
    sent = true;
    try {
      // Sent in order without waiting for each: the browser takes them in order.
      await Promise.all(batch.events.map((event) => send(event.method, event.params, INPUT_LIMIT_MS)));
      acted = true;
    } catch (failure) {
      error = `the browser refused the input: ${messageOf(failure)}`;
    }
    if (typeof contextId !== "number") return;
    send("Runtime.evaluate", { expression: `globalThis.${PLAYER_GLOBAL}.inputDone(${batch.id}, ${JSON.stringify(error)})`, contextId }).catch(() => {});
  }

  const stopListening = devtools.listen((method, params, from) => {
    if (from !== sessionId) return;
    if (method === "Runtime.executionContextCreated") {
      const created = ContextCreated.safeParse(params);
      const frameId = created.success ? created.data.context.auxData?.frameId : undefined;
      if (created.success && created.data.context.name === PLAYER_WORLD && frameId) contexts.set(frameId, created.data.context.id);
    } else if (method === "Runtime.executionContextDestroyed") {
      for (const [frame, id] of contexts) if (id === params.executionContextId) contexts.delete(frame);
    } else if (method === "Runtime.executionContextsCleared") {
      contexts.clear();
    } else if (method === "Page.frameStartedLoading" && params.frameId === mainFrame) {
      loading = true;
      startedLoading = true;
    } else if (method === "Page.frameRequestedNavigation" && params.frameId === mainFrame && params.disposition === "currentTab") {
      navigationRequested = true;
    } else if (method === "Page.frameStoppedLoading" && params.frameId === mainFrame) {
      loading = false;
    } else if (method === "Page.javascriptDialogOpening") {
      dialogOpen = true;
    } else if (method === "Page.javascriptDialogClosed") {
      dialogOpen = false;
    } else if (method === "Runtime.bindingCalled" && params.name === INPUT_BINDING) {
      void dispatch(params.payload, params.executionContextId);
    } else if (method === "Inspector.detached") {
      detached = true;
    }
    wake();
  });

  /** Resolves with `check()`'s first defined answer, or undefined after `limitMs` or an abort. */
  function until<T>(check: () => T | undefined, limitMs: number, signal: AbortSignal): Promise<T | undefined> {
    const now = check();
    if (now !== undefined || signal.aborted) return Promise.resolve(now);
    return new Promise((resolve) => {
      const finish = (value: T | undefined) => {
        clearTimeout(timer);
        wakers.delete(waker);
        signal.removeEventListener("abort", aborted);
        resolve(value);
      };
      const waker = () => {
        const value = check();
        if (value !== undefined) finish(value);
      };
      const aborted = () => finish(undefined);
      const timer = setTimeout(() => finish(undefined), limitMs);
      wakers.add(waker);
      signal.addEventListener("abort", aborted, { once: true });
    });
  }

  try {
    await send("Runtime.enable", {});
    await send("Page.enable", {});
    mainFrame = FrameTree.parse(await send("Page.getFrameTree", {})).frameTree.frame.id;
    await send("Runtime.addBinding", { name: INPUT_BINDING, executionContextName: PLAYER_WORLD });
    await send("Page.addScriptToEvaluateOnNewDocument", { source: await playerSource(), worldName: PLAYER_WORLD, runImmediately: true });
  } catch (error) {
    stopListening();
    devtools.send("Target.detachFromTarget", { sessionId }).catch(() => {});
    throw error;
  }

  /** One try in the document there is now: the answer, or "again" when the document went away before the command acted. */
  async function attempt(request: InPageRequest, acts: boolean, signal: AbortSignal): Promise<InPageAnswer | "again"> {
    if (loading) await until(() => (loading ? undefined : true), limits.loadTimeoutMs, signal);
    const contextId = await until(() => contexts.get(mainFrame), CONTEXT_LIMIT_MS, signal);
    if (signal.aborted) throw new Error("the run let go of the command");
    if (contextId === undefined) throw new Error(`the page's document did not get the player within ${CONTEXT_LIMIT_MS} ms`);
    acted = false;
    sent = false;
    navigationRequested = false;
    startedLoading = false;
    const expression = `globalThis.${PLAYER_GLOBAL}.run(${JSON.stringify(request)}, ${limits.loadTimeoutMs})`;
    const limit = request.implicitWaitMs + limits.loadTimeoutMs + INPUT_LIMIT_MS + ANSWER_MARGIN_MS;
    const evaluation = send("Runtime.evaluate", { expression, contextId, awaitPromise: true, returnByValue: true }, limit);
    const abort = () => send("Runtime.evaluate", { expression: `globalThis.${PLAYER_GLOBAL}.abort()`, contextId }).catch(() => {});
    signal.addEventListener("abort", abort, { once: true });
    // A dialog the command opened blocks the page (and so the answer) until it is dealt with.
    // Its watch ends with the command.
    const settled = new AbortController();
    const dialog = until(() => (dialogOpen ? ("dialog" as const) : undefined), limit, AbortSignal.any([signal, settled.signal]));
    try {
      const outcome = await Promise.race([evaluation, dialog]);
      if (outcome === "dialog") {
        evaluation.catch(() => {});
        return { state: "passed" };
      }
      if (outcome === undefined) {
        evaluation.catch(() => {});
        throw new Error("the run let go of the command");
      }
      const evaluated = Evaluated.parse(outcome);
      if (evaluated.exceptionDetails) {
        if (documentGone(evaluated.exceptionDetails.exception?.description ?? evaluated.exceptionDetails.text)) return acts && acted ? { state: "passed" } : "again";
        return { state: "failed", message: `${request.command} failed in the page: ${evaluated.exceptionDetails.exception?.description ?? evaluated.exceptionDetails.text}` };
      }
      const answer = Answer.parse(evaluated.result.value);
      if (answer.state === "passed" && acts && (answer.navigating || navigationRequested || startedLoading)) {
        const over = () => (contexts.get(mainFrame) !== contextId || (startedLoading && !loading) ? true : undefined);
        await until(over, limits.loadTimeoutMs, signal);
      }
      return answer;
    } catch (error) {
      if (!signal.aborted && documentGone(error)) return acts && acted ? { state: "passed" } : "again";
      throw error;
    } finally {
      settled.abort();
      signal.removeEventListener("abort", abort);
    }
  }

  return {
    handle,
    usable: () => devtools.isOpen && !detached,
    inputSent: () => sent,
    async run(request, acts, signal) {
      if (dialogOpen) return null;
      for (let tries = 0; ; tries++) {
        const answer = await attempt(request, acts, signal);
        if (answer !== "again") return answer;
        if (tries >= RESENDS) throw new Error(`the page's document kept going away under ${request.command}`);
      }
    },
    close() {
      stopListening();
      wakers.clear();
      devtools.send("Target.detachFromTarget", { sessionId }).catch(() => {});
    },
  };
}
