// Admission: who may make which request in the IDE's current state (CONTRACT sections 2 and 4).
// The protocol adapter asks these questions of the root actor's snapshot before it builds an
// event, in the order the contract pins: window, control mode, registration.
import type { SnapshotFrom } from "xstate";
import type { SideProject } from "../services/side/index.ts";
import { isRegistered } from "../services/plugins/index.ts";
import type { ideMachine } from "./ide.machine.ts";
import { fail, windowNotOpenReply } from "./replies.ts";
import type { Reply } from "./shared.types.ts";

export type IdeSnapshot = SnapshotFrom<typeof ideMachine>;

export interface RouteAccess {
  /** While in control mode, only the controller may call it. */
  controlledOnly: boolean;
  /** The sender must have registered in this plugin session. */
  needsRegistration: boolean;
  /** Still handled while the window is closed (POST /control opens it). */
  opensWindow: boolean;
}

export const windowIsOpen = (s: IdeSnapshot): boolean => s.matches("open");

export const controllerOf = (s: IdeSnapshot): string | null => s.context.controller;

export const senderIsRegistered = (s: IdeSnapshot, sender: string): boolean => isRegistered(s.context.plugins, sender);

export const loadedProject = (s: IdeSnapshot): SideProject => s.context.editor.getSnapshot().context.project;

/** The first admission rule the sender fails, or null when the request may go on. */
export function admissionError(s: IdeSnapshot, sender: string, access: RouteAccess): Reply | null {
  if (!access.opensWindow && !windowIsOpen(s)) {
    return windowNotOpenReply();
  }
  const controller = controllerOf(s);
  if (access.controlledOnly && controller !== null && controller !== sender) {
    return fail(
      "CannotAccessInControlMode",
      `The IDE is controlled by the plugin ${controller}; only it may make this request.`,
    );
  }
  if (access.needsRegistration && !senderIsRegistered(s, sender)) {
    return fail("MissingPlugin", `The plugin ${sender} is not registered; send POST /register first.`);
  }
  return null;
}
