import type { Registration } from "../services/plugins/index.ts";
import type { RequestAnsweredEvent, RequestRef } from "./shared.types.ts";

export interface ControlCandidate extends RequestRef {
  registration: Registration;
}

export interface ControlContext {
  /** Sender id of the plugin in control, or null. */
  controller: string | null;
  /** The plugin asking for control while the consent dialog is open. */
  candidate: ControlCandidate | null;
}

export type ControlEvent =
  | ({ type: "request.control"; registration: Registration } & RequestRef)
  | { type: "user.accept" }
  | { type: "user.decline" }
  | { type: "window.closed" }
  | { type: "plugin.disconnected"; sender: string };

export type ControlGrantedEvent = {
  type: "control.granted";
  controller: string;
  registration: Registration;
};

/** Who controls the IDE now (null: nobody); emitted whenever it changes. */
export type ControlChangedEvent = { type: "control.changed"; controller: string | null };

/** A dialog of a child machine opened or closed; the root keeps "one dialog at a time" with these. */
export type DialogFactEvent = { type: "dialog.opened" | "dialog.closed"; owner: "control" | "project" };

export type ControlEmitted = RequestAnsweredEvent | ControlGrantedEvent | ControlChangedEvent | DialogFactEvent;
