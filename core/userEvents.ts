// The user's events at the door (CONTRACT section 5): what the IDE UI sends through
// ide.send(). Anything else — an unknown type, a testId that is not a string — is not an
// event of the contract and changes nothing, so a broken UI cannot stop the IDE.
import { z } from "zod";
import type { UserEvent } from "../machines/ide.types.ts";
import { parseSideProject } from "../services/side/index.ts";

type BareEvent = Extract<
  UserEvent,
  { type: "user.openWindow" | "user.closeWindow" | "user.accept" | "user.decline" | "user.editProject" | "user.saveProject" }
    | { type: "user.stopPlayback" | "user.pausePlayback" | "user.resumePlayback" | "user.stepPlayback" }
    | { type: "user.startRecording" | "user.stopRecording" }
>["type"];
const bare = (type: BareEvent) => z.object({ type: z.literal(type) });
const index = z.number().int().min(0);

const userEventSchema = z.discriminatedUnion("type", [
  bare("user.openWindow"),
  bare("user.closeWindow"),
  bare("user.accept"),
  bare("user.decline"),
  bare("user.editProject"),
  bare("user.saveProject"),
  z.object({ type: z.literal("user.startPlayback"), testId: z.string().optional(), fromCommandId: z.string().optional() }),
  z.object({ type: z.literal("user.startSuite"), suiteId: z.string().optional() }),
  bare("user.stopPlayback"),
  bare("user.pausePlayback"),
  bare("user.resumePlayback"),
  bare("user.stepPlayback"),
  z.object({ type: z.literal("user.toggleBreakpoint"), commandId: z.string() }),
  z.object({ type: z.literal("user.setPlaybackDelay"), ms: z.number().int().min(0).max(10_000) }),
  // The project is checked by the .side schema below, which names the first problem.
  z.object({ type: z.literal("user.loadProject"), project: z.unknown() }),
  // The displayed test and its editor (CONTRACT section 13). What depends on the project (an
  // unknown id, a duplicate name, an index past the end) is the project machine's to refuse.
  z.object({ type: z.literal("user.selectTest"), testId: z.string() }),
  z.object({ type: z.literal("user.selectCommand"), commandId: z.string().nullable() }),
  z.object({ type: z.literal("user.addTest"), name: z.string() }),
  z.object({ type: z.literal("user.renameTest"), testId: z.string(), name: z.string() }),
  z.object({
    type: z.literal("user.addCommand"),
    command: z.string(),
    target: z.string().optional(),
    value: z.string().optional(),
    index: index.optional(),
  }),
  z.object({
    type: z.literal("user.changeCommand"),
    commandId: z.string(),
    command: z.string().optional(),
    target: z.string().optional(),
    value: z.string().optional(),
  }),
  z.object({ type: z.literal("user.moveCommand"), commandId: z.string(), toIndex: index }),
  z.object({ type: z.literal("user.deleteCommand"), commandId: z.string() }),
  // Recording (CONTRACT section 14): into the displayed test.
  bare("user.startRecording"),
  bare("user.stopRecording"),
]);

/** A user event the UI sent that carries something unusable: what to tell the user. */
export interface UserEventProblem {
  problem: string;
}

/**
 * The event as the machines take it (extra fields dropped), a problem to tell the user (a
 * project file that is not a usable .side project), or null when it is not an event at all.
 */
export function readUserEvent(input: unknown): UserEvent | UserEventProblem | null {
  try {
    const result = userEventSchema.safeParse(input);
    if (!result.success) return null;
    if (result.data.type !== "user.loadProject") return result.data as UserEvent;
    const parsed = parseSideProject(result.data.project);
    return parsed.ok
      ? { type: "user.loadProject", project: parsed.project }
      : { problem: `The file is not a usable .side project: ${parsed.problem}.` };
  } catch {
    return null; // a hostile getter or proxy
  }
}
