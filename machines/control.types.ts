import type { Registration } from "../services/plugins/index.ts";
import type { RequestAnsweredEvent, RequestRef } from "./shared.types.ts";
import type { UserEventOf } from "./userEvents.schema.ts";

export interface ControlCandidate extends RequestRef {
  registration: Registration;
}

export interface ControlContext {
  /** The plugin asking for control while the consent dialog is open. */
  candidate: ControlCandidate | null;
}

/** Who controls the IDE as the event arrives (null: nobody): the root's fact, which it adds to what it forwards. */
export interface ToldController {
  controller: string | null;
}

export type ControlEvent =
  | ({ type: "request.control"; registration: Registration } & RequestRef & ToldController)
  | (UserEventOf<"user.accept" | "user.decline"> & ToldController)
  | { type: "window.closed" }
  | ({ type: "plugin.disconnected"; sender: string } & ToldController);

export type ControlGrantedEvent = {
  type: "control.granted";
  controller: string;
  registration: Registration;
};

/** Who controls the IDE now (null: nobody); emitted whenever it changes. */
export type ControlChangedEvent = { type: "control.changed"; controller: string | null };

/** A dialog of a child machine opened or closed; the root keeps "one dialog at a time" with these. */
export type DialogFactEvent = { type: "dialog.opened" | "dialog.closed"; owner: "control" | "projectFile" };

export type ControlEmitted = RequestAnsweredEvent | ControlGrantedEvent | ControlChangedEvent | DialogFactEvent;
