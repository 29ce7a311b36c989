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
  let unreachable = false;
  const inspector = createSkyInspector({
    onerror: () => {
      if (unreachable) return;
      unreachable = true;
      report(
        "The inspector cannot reach stately.ai, so the live inspector page will stay empty; restart with " +
          "--inspect to try again. Offline, use --inspect-log FILE, or watch the statecharts in the IDE's own page.",
      );
    },
  });
  // Its socket queues without limit while it cannot connect: once it has failed, nothing more is handed to it.
  return {
    inspect: { next: (event) => (unreachable ? undefined : inspector.inspect.next?.(event)) },
    stop: async () => inspector.stop(),
  };
}

/** Every inspection event as one JSON line in `path`, serialised as the live inspector would get it. */
export function fileInspector(path: string): HostInspector {
  const out: WriteStream = createWriteStream(path, { flags: "w" });
  let ended = false;
  const inspector = createInspector({
    send: (event: StatelyInspectionEvent) => {
      if (ended) return;
      let line: string;
      try {
        line = JSON.stringify(event);
      } catch {
        // A live actor's snapshot can hold references back to its parent; the rest still tells what happened.
        line = JSON.stringify({ ...event, snapshot: undefined });
      }
      out.write(`${line}\n`);
    },
  });
  inspector.start();
  return {
    inspect: inspector.inspect,
    async stop() {
      // The inspector converts events on a timer of its own; let those already queued be written.
      await new Promise((resolve) => setTimeout(resolve, 5));
      ended = true;
      inspector.stop();
      await new Promise<void>((resolve) => out.end(() => resolve()));
    },
  };
}
