// The user's events (CONTRACT section 5) as a zod schema: what the IDE UI may send through
// ide.send(). The schema is the one description of them. The door (core/userEvents.ts)
// parses raw input with it, and the machines take their event types from it with z.infer,
// so a field added here is checked at the door and typed in the machines at once. It lives
// beside the machines because they may not import the core; nothing here runs in a machine.
import { z } from "zod";
import { MAX_DELAY_MS } from "../services/playback/delay.ts";
import type { SideProject } from "../services/side/index.ts";
import { locatorOrderSchema, testIdAttributesSchema } from "../services/side/settings.ts";
import { FingerprintSchema } from "../services/healing/schema.ts";

const bare = <T extends `user.${string}`>(type: T) => z.object({ type: z.literal(type) });
const index = z.number().int().min(0);

export const userEventSchema = z.discriminatedUnion("type", [
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
  /** Which test of a parallel suite the view shows (its runId, from playback.suite.runs). */
  z.object({ type: z.literal("user.showTestRun"), runId: z.string().min(1).max(200) }),
  z.object({ type: z.literal("user.setPlaybackDelay"), ms: z.number().int().min(0).max(MAX_DELAY_MS) }),
  // Not in CONTRACT section 5 before issue 3: the UI's "load a .side file". The project is
  // checked by the .side schema at the door, which names the first problem.
  z.object({ type: z.literal("user.loadProject"), project: z.unknown() }),
  // The displayed test and its editor (CONTRACT section 13). What depends on the project (an
  // unknown id, a duplicate name, an index past the end) is the editor's to refuse.
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
    // The element's fingerprint (CONTRACT section 18): what accepting a healed command refreshes.
    fingerprint: FingerprintSchema.optional(),
  }),
  z.object({ type: z.literal("user.moveCommand"), commandId: z.string(), toIndex: index }),
  z.object({ type: z.literal("user.deleteCommand"), commandId: z.string() }),
  // CONTRACT section 18: a healed command's working locator becomes its target.
  z.object({ type: z.literal("user.acceptHealed"), commandId: z.string() }),
  bare("user.acceptAllHealed"),
  // Recording (CONTRACT section 14): into the displayed test.
  bare("user.startRecording"),
  bare("user.stopRecording"),
  // The project's recording settings (CONTRACT section 18): each given one replaces the project's.
  z.object({
    type: z.literal("user.changeSettings"),
    locatorOrder: locatorOrderSchema.optional(),
    testIdAttributes: testIdAttributesSchema.optional(),
    heal: z.boolean().optional(),
  }),
]);

/** What ide.send takes: a user event, where a project the user picked is not parsed yet. */
export type UserEventInput = z.infer<typeof userEventSchema>;

/** A user event as the machines take it: past the door, so a loaded project is a parsed .side project. */
export type UserEvent =
  | Exclude<UserEventInput, { type: "user.loadProject" }>
  | { type: "user.loadProject"; project: SideProject };

/** The user events of these types, as the schema gives them: a machine takes its user events from here, never restates them. */
export type UserEventOf<T extends UserEvent["type"]> = Extract<UserEvent, { type: T }>;

/** What the user looks at: not an edit, the project stays as saved as it was. */
export type UserSelectEvent = Extract<UserEvent, { type: "user.selectTest" | "user.selectCommand" }>;

/** The user's edits of the displayed test and the project's tests. */
export type UserEditEvent = Extract<
  UserEvent,
  { type: "user.addTest" | "user.renameTest" | "user.addCommand" | "user.changeCommand" | "user.moveCommand" | "user.deleteCommand" | "user.changeSettings" }
>;
