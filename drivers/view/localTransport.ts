// The transport of a page that embeds the IDE itself (createIde() in the same page, as the
// browser extension's IDE page does): no socket, so it is connected at once and stays so.
// The relay hands its messages over as they are; it never changes one it has sent. Locators
// are resolved by asking the IDE itself, as a plugin would (GET /playback/location).
import type { Ide } from "../../core/ide.ts";
import { UI_SENDER, ViewRelay } from "./relay.ts";
import type { UiTransport } from "./transport.ts";

export function localTransport(ide: Ide): UiTransport {
  return {
    resolveLocator: (location) => ide.handle({ uri: "/playback/location", verb: "get", payload: { location } }, UI_SENDER),
    findInPage: (location, outline) => ide.findInPage({ location, outline }),
    exportCode: (request) => ide.exportCode(request),
    connect(handlers) {
      handlers.status("connected");
      const relay = new ViewRelay(ide, { send: (message) => handlers.message(message) });
      return {
        send: (event) => relay.receive(event),
        close: () => relay.stop(),
      };
    },
  };
}
