// The user's events at the door (CONTRACT section 5): what the IDE UI sends through
// ide.send(). Anything else — an unknown type, a testId that is not a string — is not an
// event of the contract and changes nothing, so a broken UI cannot stop the IDE.
import { z } from "zod";
import type { UserEvent } from "../machines/ide.types.ts";

const bare = (type: Exclude<UserEvent["type"], "user.startPlayback">) => z.object({ type: z.literal(type) });

const userEventSchema = z.discriminatedUnion("type", [
  bare("user.openWindow"),
  bare("user.closeWindow"),
  bare("user.accept"),
  bare("user.decline"),
  bare("user.editProject"),
  bare("user.saveProject"),
  z.object({ type: z.literal("user.startPlayback"), testId: z.string().optional() }),
  bare("user.stopPlayback"),
]);

/** The event as the machines take it (extra fields dropped), or null when it is not one. */
export function readUserEvent(input: unknown): UserEvent | null {
  try {
    const result = userEventSchema.safeParse(input);
    return result.success ? (result.data as UserEvent) : null;
  } catch {
    return null; // a hostile getter or proxy
  }
}
