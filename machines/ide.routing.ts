// Who owns which event: the door's routing table (DESIGN, Round 5: "the door routes, the root
// decides"). A user event's owner is written beside its schema (USER_EVENT_OWNER); a request's
// here, beside the request types; a child machine's fact names the machines that act on it.
// The door (core/door.ts) sends an event owned by a child straight to it while the window is
// open; the root takes what spans children (the window, one dialog at a time, the run lock,
// what a run or a recording starts on) and every event while the window is closed, so the
// window's rule stays the root's alone.
import { USER_EVENT_OWNER } from "./userEvents.schema.ts";
import type { UserEventOwner } from "./userEvents.schema.ts";
import type { ChildFact, IdeRequestEvent, UserEvent } from "./ide.types.ts";

export type Owner = UserEventOwner;
export type ChildName = Exclude<Owner, "root">;

export { USER_EVENT_OWNER };

/** The plugins' requests (core/protocol): a run's commands and variables go to the run, the displayed test's edits to the editor. */
export const REQUEST_OWNER = {
  "request.open": "root",
  "request.register": "root",
  "request.control": "root",
  "request.loadProject": "root",
  "request.close": "root",
  "request.alert": "root",
  "request.declareStrategy": "root",
  "request.startRun": "root",
  "request.commandState": "suiteRunner",
  "request.setVariable": "suiteRunner",
  "request.stopRun": "suiteRunner",
  "request.addCommand": "editor",
  "request.changeCommand": "editor",
  "request.deleteCommand": "editor",
} as const satisfies Record<IdeRequestEvent["type"], Owner>;

/**
 * The children's facts that other children act on, and who: relayed to them straight from
 * the child that emitted them (ide.children.ts), in the order emitted. A fact not named
 * here goes to the root; "root" beside a child means the root has a decision of its own to
 * take on it (telling the plugins of a recording).
 */
export const FACT_CONSUMERS: Partial<Record<ChildFact["type"], readonly Owner[]>> = {
  // The editor shows the new project; the root tells the plugins and stops a recording into the old one.
  "project.loaded": ["editor", "root"],
  "project.reverted": ["editor"],
  "project.edited": ["projectFile"],
  // Which tests a run plays, for the editor's lock and the recording: told whether the window is open or not.
  "run.playing": ["editor", "recording"],
  "run.over": ["editor", "recording"],
  "recording.started": ["root", "editor", "pointing"],
  "recording.stopped": ["root", "editor", "pointing"],
  // A check picked is recorded as the page's commands are; a target picked is the editor's edit.
  "pointing.checkPicked": ["recording"],
  "pointing.targetPicked": ["editor"],
  "recording.commandsRecorded": ["editor"],
  "recording.commandChanged": ["editor"],
  "recording.commandRemoved": ["editor"],
  "recording.urlFound": ["editor"],
};

/** The machine that owns a user event or a plugin's request. */
export function ownerOf(event: UserEvent | IdeRequestEvent): Owner {
  const table: Record<string, Owner> = event.type.startsWith("user.") ? USER_EVENT_OWNER : REQUEST_OWNER;
  return table[event.type] ?? "root";
}
