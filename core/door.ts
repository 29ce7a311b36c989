// The door's routing (DESIGN, Round 5): a user event or a plugin's request goes to the
// machine that owns it, by the tables of machines/ide.routing.ts, instead of through a root
// transition that only passes it on. The root still takes its own events and, while the window
// is closed, every event: what a closed window does with an event is its decision alone.
import type { Actor } from "xstate";
import type { ideMachine } from "../machines/ide.machine.ts";
import { ownerOf } from "../machines/ide.routing.ts";
import { childActors, windowIsOpen } from "../machines/ide.selectors.ts";
import type { IdeRequestEvent, UserEvent } from "../machines/ide.types.ts";

/** Sends `event` to its owner: the child machine that owns it while the window is open, else the root. */
export function route(actor: Actor<typeof ideMachine>, event: UserEvent | IdeRequestEvent): void {
  const owner = ownerOf(event);
  const snapshot = actor.getSnapshot();
  if (owner === "root" || !windowIsOpen(snapshot)) {
    actor.send(event);
    return;
  }
  (childActors(snapshot)[owner] as { send(event: UserEvent | IdeRequestEvent): void }).send(event);
}
