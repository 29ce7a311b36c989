// The user's events at the door (CONTRACT section 5): what the IDE UI sends through
// ide.send(). Anything else — an unknown type, a testId that is not a string — is not an
// event of the contract and changes nothing, so a broken UI cannot stop the IDE. The schema
// (machines/userEvents.schema.ts) is the one description of the events; this is the door.
import { userEventSchema } from "../machines/userEvents.schema.ts";
import type { UserEvent } from "../machines/userEvents.schema.ts";
import { parseSideProject } from "../services/side/index.ts";
import { describeZodIssue } from "../services/validation.ts";

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
    if (!result.success) return settingsProblem(input, result.error);
    if (result.data.type !== "user.loadProject") return result.data;
    const parsed = parseSideProject(result.data.project);
    return parsed.ok
      ? { type: "user.loadProject", project: parsed.project }
      : { problem: `The file is not a usable .side project: ${parsed.problem}.` };
  } catch {
    return null; // a hostile getter or proxy
  }
}

/** Settings the user chose that cannot be (an unknown builder, a name twice) are told, not dropped in silence. */
function settingsProblem(input: unknown, error: Parameters<typeof describeZodIssue>[0]): UserEventProblem | null {
  const type = (input as { type?: unknown } | null)?.type;
  // A path the user typed (Save as, a recent file) that cannot be one is told too: nothing was written or opened.
  if (type === "user.saveProject") return { problem: `The project was not saved: ${describeZodIssue(error, "path")}.` };
  if (type === "user.openRecent") return { problem: `No project was opened: ${describeZodIssue(error, "path")}.` };
  if (type !== "user.changeSettings") return null;
  return { problem: `The recording settings were not changed: ${describeZodIssue(error, "settings")}.` };
}
