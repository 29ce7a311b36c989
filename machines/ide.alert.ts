// A plugin's alert (POST /popup/alert), the one dialog the root owns: what the user is shown.
// The root decides when it opens and how it is answered; this is its content.
import type { IdeContext, IdeEvent, PluginAlert } from "./ide.types.ts";

/** The plugin's message in a dialog titled with its registered name, with its own labels or OK. */
export function pluginAlert(plugins: IdeContext["plugins"], request: Extract<IdeEvent, { type: "request.alert" }>): PluginAlert {
  const name = plugins.find((p) => p.id === request.sender)?.registration.name ?? request.sender;
  return {
    requestId: request.requestId,
    sender: request.sender,
    title: `${name} says...`,
    text: request.message,
    confirmLabel: request.confirm ?? "OK",
    cancelLabel: request.cancel ?? null,
  };
}
