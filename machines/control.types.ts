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

export type ControlEmitted = RequestAnsweredEvent | ControlGrantedEvent;
