// The extension's own machines in the IDE window's statecharts, beside the core's: the window's
// door, live, and the background worker's relay. The UI draws whatever charts its transport
// brings, so the window wraps the page's transport (drivers/view/localTransport.ts) and adds these to
// what the core's view relay sends: their charts to `hello`, their state values to every
// `update`, and an update of its own when only the door moved (the core's relay sends updates
// only when the core changes).
//
// The relay runs in the worker, another context the window reaches only through its port, and
// only while the relay is `present`: it takes the port in that state and leaves it only when
// the port closes. So the window charts the relay's machine definition and highlights `present`
// exactly while its door answers (the door starts answering on the `live` the relay sends as it
// becomes present, and holds again when the port closes); at other times the worker may be
// starting, or stopped, and the window cannot tell, so nothing is highlighted. Sending the
// relay's state over the port would say nothing more: the port exists only while it is present.
import type { StateValue } from "xstate";
import type { UiTransport } from "../../drivers/view/transport.ts";
import { chartOf } from "../../drivers/view/charts.ts";
import type { Chart, ChartValues, HostMessage } from "../../drivers/view/messages.ts";
import { doorMachine } from "./door.machine.ts";
import type { DoorState } from "./door.types.ts";
import { relayMachine } from "./relay.machine.ts";
import type { RelayState } from "./relay.types.ts";

type Update = Extract<HostMessage, { type: "update" }>;

/** Charts the page shows beside the core's, with their current values and a way to hear them move. */
export interface ExtraCharts {
  charts: Chart[];
  values(): ChartValues;
  subscribe(listener: () => void): { unsubscribe(): void };
}

/** The door that runs in this window, and the relay as far as the window can see it. */
export function extensionCharts(door: {
  actor: { getSnapshot(): { value: StateValue }; subscribe(listener: () => void): { unsubscribe(): void } };
}): ExtraCharts {
  return {
    charts: [chartOf(doorMachine), chartOf(relayMachine)],
    values() {
      const doorState = door.actor.getSnapshot().value as DoorState;
      const values: ChartValues = { [doorMachine.id]: doorState };
      if (doorState === "answering") values[relayMachine.id] = "present" satisfies RelayState;
      return values;
    },
    subscribe: (listener) => door.actor.subscribe(listener),
  };
}

/** The page's transport with `extra` charts added to what it brings. */
export function withCharts(transport: UiTransport, extra: ExtraCharts): UiTransport {
  return {
    // "Find" in the editor resolves through the transport it wraps.
    resolveLocator: transport.resolveLocator?.bind(transport),
    findInPage: transport.findInPage?.bind(transport),
    exportCode: transport.exportCode?.bind(transport),
    connect(handlers) {
      let last: Update | null = null;
      let lastValues = "";
      const send = (update: Update) => {
        const values = extra.values();
        lastValues = JSON.stringify(values);
        handlers.message({ ...update, states: { ...update.states, ...values } });
      };
      const connection = transport.connect({
        status: (status) => handlers.status(status),
        message(message) {
          if (message.type === "hello") return handlers.message({ ...message, charts: [...message.charts, ...extra.charts] });
          if (message.type !== "update") return handlers.message(message);
          last = message;
          send(message);
        },
      });
      const subscription = extra.subscribe(() => {
        // Only the extension's machines moved: the core as the page last had it, no new log entries.
        if (last === null || JSON.stringify(extra.values()) === lastValues) return;
        send({ type: "update", view: last.view, logs: { reset: false, entries: [], kept: last.logs.kept }, states: last.states });
      });
      return {
        send: (event) => connection.send(event),
        close() {
          subscription.unsubscribe();
          connection.close();
        },
      };
    },
  };
}
