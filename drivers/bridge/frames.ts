// The bridge's frame format: JSON text frames on ws://127.0.0.1:PORT/plugins. A plugin's
// request and the IDE's reply carry the same id, so a plugin can have many in flight; the
// IDE's outbound messages carry ids of their own, which the plugin's response repeats.
// docs/plugins.md ("Plugins outside a browser: the bridge") documents the same format for plugin authors.
//
// Every outbound message travels in an `event` frame, whatever its `action`: the events of
// CONTRACT sections 8 and 9 (`action: "event"`) and a plugin command's `execute` (section 10).
// One frame type keeps one correlation table and one time limit; the message's `action`
// tells a plugin what it is.
//
// `undefined` over JSON: JSON has no undefined, and `JSON.stringify({ response: undefined })`
// drops the key. So a response frame WITHOUT `response` is the answer `undefined`, which is
// what a plugin's handler that returned nothing gives; the IDE reads it exactly as
// `deliver()` resolving with `undefined` (for `execute`: fatal, "NAME did not respond", at
// once rather than after the time limit; for `saveProject`: not an error, so saved).
// `response: null` stays `null` (also "did not respond" for `execute`). A plugin that never
// sends a response at all is the time-out: `deliverTimeoutMs`, then the same fatal state.
import { z } from "zod";
import type { WireReply } from "../../core/protocol/wire.ts";
import type { OutboundMessage } from "../../machines/ide.types.ts";
import { describeZodIssue } from "../../services/validation.ts";

const frameId = z.union([z.string().min(1).max(200), z.number().finite()]);
export type FrameId = z.infer<typeof frameId>;

/** What a plugin sends. `message` is checked by the protocol adapter, not here. */
const pluginFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("request"), id: frameId, message: z.unknown() }),
  // `response` may be absent: that is the answer `undefined` (see the top of this file).
  z.object({ type: z.literal("response"), id: z.string().min(1).max(200), response: z.unknown().optional() }),
]);
export type PluginFrame = z.infer<typeof pluginFrameSchema>;

/** What the IDE sends a plugin. `event` frames carry every outbound message, `execute` included. */
export type HostFrame =
  | { type: "reply"; id: FrameId; reply: WireReply }
  | { type: "event"; id: string; message: OutboundMessage }
  | { type: "error"; id: FrameId | null; error: string; errorCode: "InvalidFrame" };

export type FrameReading = { ok: true; frame: PluginFrame } | { ok: false; id: FrameId | null; problem: string };

/** Reads one text frame: the frame, or why it is not one (with its id when that much was readable). */
export function readPluginFrame(text: string): FrameReading {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, id: null, problem: "The frame is not JSON." };
  }
  const parsed = pluginFrameSchema.safeParse(data);
  if (parsed.success) return { ok: true, frame: parsed.data };
  const readableId = frameId.safeParse((data as { id?: unknown } | null)?.id);
  const problem =
    typeof data !== "object" || data === null || Array.isArray(data)
      ? "The frame is not a JSON object."
      : `The frame is not a request or a response: ${describeZodIssue(parsed.error, "frame")}.`;
  return { ok: false, id: readableId.success ? readableId.data : null, problem };
}

export const invalidFrame = (id: FrameId | null, problem: string): HostFrame => ({
  type: "error",
  id,
  error: problem,
  errorCode: "InvalidFrame",
});
