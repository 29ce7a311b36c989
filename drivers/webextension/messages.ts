// What the extension's own parts say to each other. Plugins never see these: their requests
// and replies are CONTRACT's, read by the core's protocol adapter. These travel inside one
// extension (Chromium delivers them only between its own contexts), so the checks here are
// for bugs and stale pages, not for hostile senders.
//
// The IDE window and the background service worker share a long-lived port (WINDOW_PORT):
//
// window → background
//   { type: "reply", id, reply }      the answer to a request the background forwarded
//   { type: "keepAlive" }             every KEEP_ALIVE_MS while the window is open, so the
//                                     browser does not stop the worker the window talks to
// background → window
//   { type: "request", id, senderId, message }
//                                     a plugin request the background took while the window
//                                     was not yet taking requests itself (it was closed, or
//                                     opening, or the worker had just restarted)
//   { type: "live", forwarded }       from now on the window answers plugins itself; `forwarded`
//                                     lists requestKey() of every request the background forwarded
//                                     (the window drops its own copies of those)
//   { type: "duplicate" }             another IDE window is already open: this one closes
//
// The IDE window → the content script in the tab under test (chrome.tabs.sendMessage, to
// one frame: the run's selected frame, else the top one):
//   { type: "locator.resolve", location } → { ok: true, xpath } | { ok: false, errorCode, error }
//   { type: "locator.find", location, outline }
//                                          → drivers/findInPage/'s FindAnswer: { ok: true, count,
//                                            shown } | { ok: false, errorCode, error }; with
//                                            `outline` the first match is outlined for 2 s
//   { type: "page.command", request, trusted }
//                                          → InPageAnswer (page/index.ts: runInPage's answer);
//                                            `trusted`: the window holds the tab through
//                                            chrome.debugger, so the content script asks it for
//                                            input as { type: "page.input", events } (debugger.ts)
//   { type: "page.abort" }                 → true: lets go of every command waiting in that
//                                            frame (the run was stopped, or the window closed)
//   { type: "frame.locate", location, implicitWaitMs }
//                                          → { ok: true, index } (the frame element's place in
//                                            window.frames) | { ok: false, error }
import { z } from "zod";
import type { InPageAnswer, InPageRequest } from "../player/index.ts";
import type { WireReply } from "../../core/protocol/wire.ts";

export const WINDOW_PORT = "ide-window";
export const WINDOW_PAGE = "ide.html";
export const KEEP_ALIVE_MS = 20_000;

export type ToBackground = { type: "reply"; id: number; reply: WireReply } | { type: "keepAlive" };

export type ToWindow =
  | { type: "request"; id: number; senderId: string; message: unknown }
  | { type: "live"; forwarded: string[] }
  | { type: "duplicate" };

export type ResolveLocatorMessage = { type: "locator.resolve"; location: string };
export type ResolveLocatorAnswer = { ok: true; xpath: string } | { ok: false; errorCode: string; error: string };

/**
 * One request as both of its receivers see it. Chromium delivers a plugin's message to every
 * context of the extension that listens, each deserialising the same JSON, so the background
 * and the window compute the same key for the same request.
 */
export function requestKey(senderId: string, message: unknown): string {
  return `${senderId}\n${JSON.stringify(message)}`;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function readToBackground(value: unknown): ToBackground | null {
  if (!isObject(value)) return null;
  if (value.type === "keepAlive") return { type: "keepAlive" };
  if (value.type === "reply" && typeof value.id === "number" && "reply" in value) {
    return { type: "reply", id: value.id, reply: value.reply as WireReply };
  }
  return null;
}

export function readToWindow(value: unknown): ToWindow | null {
  if (!isObject(value)) return null;
  if (value.type === "duplicate") return { type: "duplicate" };
  if (value.type === "live" && Array.isArray(value.forwarded) && value.forwarded.every((k) => typeof k === "string")) {
    return { type: "live", forwarded: value.forwarded as string[] };
  }
  if (value.type === "request" && typeof value.id === "number" && typeof value.senderId === "string") {
    return { type: "request", id: value.id, senderId: value.senderId, message: value.message };
  }
  return null;
}

export function readResolveLocator(value: unknown): ResolveLocatorMessage | null {
  return isObject(value) && value.type === "locator.resolve" && typeof value.location === "string"
    ? { type: "locator.resolve", location: value.location }
    : null;
}

/** "Find target in page" and the alternatives' counts (CONTRACT section 21), answered with drivers/findInPage/'s FindAnswer. */
export type FindLocatorMessage = { type: "locator.find"; location: string; outline: boolean };

const findLocatorSchema = z.strictObject({ type: z.literal("locator.find"), location: z.string(), outline: z.boolean() });

export function readFindLocator(value: unknown): FindLocatorMessage | null {
  const read = findLocatorSchema.safeParse(value);
  return read.success ? read.data : null;
}

export type PageCommandMessage = { type: "page.command"; request: InPageRequest; trusted?: boolean };
export type PageAbortMessage = { type: "page.abort" };
export type FrameLocateMessage = { type: "frame.locate"; location: string; implicitWaitMs: number };
export type FrameLocateAnswer = { ok: true; index: number } | { ok: false; error: string };

const inPageRequestSchema = z.object({
  command: z.string(),
  target: z.string(),
  value: z.string(),
  targets: z.array(z.string()),
  implicitWaitMs: z.number().min(0),
  fingerprint: z.unknown().optional(),
  // Declarations the IDE checked when they were declared: their shape is all the tab needs to see.
  strategies: z.array(z.object({ name: z.string(), css: z.string().optional(), xpath: z.string().optional(), attribute: z.string().optional() })).optional(),
});

/** What the content script takes: a page command, an abort, or a frame to find; null for anything else. */
export function readToContent(value: unknown): PageCommandMessage | PageAbortMessage | FrameLocateMessage | null {
  if (!isObject(value)) return null;
  if (value.type === "page.abort") return { type: "page.abort" };
  if (value.type === "page.command") {
    const parsed = inPageRequestSchema.safeParse(value.request);
    return parsed.success ? { type: "page.command", request: parsed.data, trusted: value.trusted === true } : null;
  }
  if (value.type === "frame.locate" && typeof value.location === "string" && typeof value.implicitWaitMs === "number") {
    return { type: "frame.locate", location: value.location, implicitWaitMs: value.implicitWaitMs };
  }
  return null;
}

const inPageAnswerSchema = z.discriminatedUnion("state", [
  z.object({
    state: z.literal("passed"),
    message: z.string().optional(),
    stored: z.object({ name: z.string(), value: z.unknown() }).optional(),
    healed: z.object({ locator: z.string(), score: z.number().min(0).max(1), fingerprint: z.unknown().optional() }).optional(),
    navigating: z.literal(true).optional(),
  }),
  z.object({ state: z.literal("failed"), message: z.string() }),
  z.object({ state: z.literal("unsupported"), message: z.string() }),
]);

/** The content script's answer to a page command, or null when it is not one (a stale or broken content script). */
export function readInPageAnswer(value: unknown): InPageAnswer | null {
  const parsed = inPageAnswerSchema.safeParse(value);
  return parsed.success ? (parsed.data as InPageAnswer) : null;
}

export function readFrameLocateAnswer(value: unknown): FrameLocateAnswer | null {
  if (!isObject(value)) return null;
  if (value.ok === true && typeof value.index === "number") return { ok: true, index: value.index };
  if (value.ok === false && typeof value.error === "string") return { ok: false, error: value.error };
  return null;
}
