// The bridge's frame format: JSON text frames on ws://127.0.0.1:PORT/plugins. A plugin's
// request and the IDE's reply carry the same id, so a plugin can have many in flight; the
// IDE's outbound events carry ids of their own, which the plugin's response repeats.
// The README's "Plugin bridge" section documents the same format for plugin authors.
import { z } from "zod";
import type { WireReply } from "../protocol/wire.ts";
import type { OutboundMessage } from "../../machines/ide.types.ts";
import { describeZodIssue } from "../../services/validation.ts";

const frameId = z.union([z.string().min(1).max(200), z.number().finite()]);
export type FrameId = z.infer<typeof frameId>;

/** What a plugin sends. `message` is checked by the protocol adapter, not here. */
const pluginFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("request"), id: frameId, message: z.unknown() }),
  z.object({ type: z.literal("response"), id: z.string().min(1).max(200), response: z.unknown() }),
]);
export type PluginFrame = z.infer<typeof pluginFrameSchema>;

/** What the IDE sends a plugin. */
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
