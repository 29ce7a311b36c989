// Accepting healed commands (CONTRACT section 18): the user's "Accept" on a command the run
// healed, or "Accept all", makes the locator that worked its target. Read from the run the IDE
// shows; each acceptance is the editor's own `user.changeCommand` (the target, and the element's
// fingerprint as the player found it), so the project is unsaved and the .side file's diff shows
// the repair. A command not healed in that run is left as it is.
import { playbackView } from "./run.view.ts";
import type { SuiteRunnerSnapshot } from "./run.selectors.ts";
import type { UserEventOf } from "./userEvents.schema.ts";
import type { Fingerprint } from "../services/healing/fingerprint.ts";

/** The edits that accept the healed commands `event` names: each one's working locator as its target. */
export function acceptedChanges(
  suite: SuiteRunnerSnapshot,
  event: UserEventOf<"user.acceptHealed" | "user.acceptAllHealed">,
): Array<UserEventOf<"user.changeCommand">> {
  const rows = playbackView(suite)?.commands ?? [];
  return rows.flatMap((row) =>
    row.healed && (event.type === "user.acceptAllHealed" || row.id === event.commandId) && row.target !== row.healed.locator
      ? [{ type: "user.changeCommand" as const, commandId: row.id, target: row.healed.locator, ...(row.healedFingerprint ? { fingerprint: row.healedFingerprint as Fingerprint } : {}) }]
      : [],
  );
}
