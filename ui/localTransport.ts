// The transport of a page that embeds the IDE itself (createIde() in the same page, as the
// browser extension's IDE page does): no socket, so it is connected at once and stays so.
// The relay hands its messages over as they are; it never changes one it has sent.
import type { Ide } from "../index.ts";
import { ViewRelay } from "../adapters/view/relay.ts";
import type { UiTransport } from "./connection.ts";

export function localTransport(ide: Ide): UiTransport {
  return {
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
