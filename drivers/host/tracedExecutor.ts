// The host's page under test while runs keep traces (CONTRACT section 17): its camera is the
// pool's capturePage (DevTools' Page.captureScreenshot, JPEG, at most 1280 px wide), its
// witness the pool's (pageWitness.ts); when and how pictures are taken is the traced
// executor's (drivers/traces/tracedExecutor.ts).
import type { Executor } from "../../core/ports.ts";
import type { PageShot } from "../view/messages.ts";
import { tracedBy } from "../traces/tracedExecutor.ts";
import type { TracedOptions } from "../traces/tracedExecutor.ts";
import type { TraceStore } from "../traces/traceStore.ts";
import type { PageWitness } from "./pageWitness.ts";

export interface TracedPage extends Executor {
  capturePage(runId?: string): Promise<PageShot | null>;
  witnessOf(runId?: string): Promise<PageWitness | null>;
}

/** `page` with each page command's picture and failure handed to `store`. */
export function tracedExecutor<P extends TracedPage>(page: P, store: TraceStore, options: TracedOptions = {}): P {
  return tracedBy(
    page,
    store,
    {
      // A capture that failed is tried once more: a browser just started may drop the first ones
      // (its page swapped for the site's, or busy starting the live view), and a gap in a trace stays.
      camera: (runId) =>
        page
          .capturePage(runId)
          .catch(() => page.capturePage(runId))
          .then((shot) => shot?.image ?? null),
      witness: (runId) => page.witnessOf(runId),
    },
    options,
  );
}
