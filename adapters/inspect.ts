// XState inspector wiring for the host (development only): `--inspect` streams the whole
// actor system to Stately's live inspector page (needs access to stately.ai);
// `--inspect-log FILE` writes the same inspection events as JSON lines, which works offline.
// The UI's own statecharts (ui/) need neither.
import { createWriteStream } from "node:fs";
import type { WriteStream } from "node:fs";
import { createInspector, createSkyInspector } from "@statelyai/inspect";
import type { StatelyInspectionEvent } from "@statelyai/inspect";
import type { InspectionEvent, Observer } from "xstate";

export interface HostInspector {
  /** The observer createIde() takes as `options.inspect`. */
  inspect: Observer<InspectionEvent>;
  stop(): Promise<void>;
}

/** Stately's live inspector: it prints the page's address once it has connected. */
export function skyInspector(report: (line: string) => void): HostInspector {
  let warned = false;
  const inspector = createSkyInspector({
    onerror: () => {
      if (warned) return;
      warned = true;
      report(
        "The inspector cannot reach stately.ai, so the live inspector page will stay empty. " +
          "Offline, use --inspect-log FILE, or watch the statecharts in the IDE's own page.",
      );
    },
  });
  return { inspect: inspector.inspect, stop: async () => inspector.stop() };
}

/** Every inspection event as one JSON line in `path`, serialised as the live inspector would get it. */
export function fileInspector(path: string): HostInspector {
  const out: WriteStream = createWriteStream(path, { flags: "w" });
  const inspector = createInspector({
    send: (event: StatelyInspectionEvent) => {
      let line: string;
      try {
        line = JSON.stringify(event);
      } catch (error) {
        line = JSON.stringify({ type: event.type, unserialisable: String(error) });
      }
      out.write(`${line}\n`);
    },
  });
  inspector.start();
  return {
    inspect: inspector.inspect,
    stop: () =>
      new Promise((resolve) => {
        inspector.stop();
        out.end(() => resolve());
      }),
  };
}
