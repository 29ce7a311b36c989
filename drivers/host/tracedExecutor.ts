// The page under test as the IDE gets it while runs keep traces (CONTRACT section 17): after
// each page command, a picture of the page (the pool's capturePage: DevTools'
// Page.captureScreenshot, JPEG, at most 1280 px wide) and, for a failed or fatal command, the
// page's URL, title, HTML and the console errors heard since the command began (pageWitness.ts),
// handed to the trace store. The picture is taken while the run goes on to its next step; the
// test's next page command waits for it, so it shows the page after its own command, never after
// a later one.
import type { Executor } from "../../core/ports.ts";
import type { PageOutcome } from "../../machines/testRunner.types.ts";
import type { PageShot } from "../view/messages.ts";
import type { PageWitness } from "./pageWitness.ts";
import type { TraceStore } from "./traceStore.ts";

export interface TracedPage extends Executor {
  capturePage(runId?: string): Promise<PageShot | null>;
  witnessOf(runId?: string): Promise<PageWitness | null>;
}

/** `page` with each page command's picture and failure handed to `store`. */
export function tracedExecutor<P extends TracedPage>(page: P, store: TraceStore): P {
  /** Per test playing: the capture after its last command, which its next command waits for. */
  const previous = new Map<string, Promise<unknown>>();
  const witnessOf = (runId: string | undefined) => page.witnessOf(runId).catch(() => null);

  return {
    ...page,
    async execute(input, signal): Promise<PageOutcome> {
      const runId = input.runId ?? "";
      await previous.get(runId);
      const before = await witnessOf(input.runId);
      const mark = before?.mark() ?? 0;
      let outcome: PageOutcome | null = null;
      let thrown: unknown = null;
      try {
        outcome = await page.execute(input, signal);
      } catch (error) {
        thrown = error;
      }
      if (!signal.aborted) {
        const failed = outcome === null || outcome.state === "failed" || outcome.state === "fatal";
        const image = page.capturePage(input.runId).then((shot) => shot?.image ?? null, () => null);
        const failure = failed
          ? image.then(async () => {
              // The first command of a browser started it: its witness is there only now.
              const witness = before ?? (await witnessOf(input.runId));
              const details = witness ? await witness.details().catch(() => null) : null;
              return { details, consoleErrors: witness ? witness.errorsSince(before ? mark : 0) : [] };
            })
          : undefined;
        store.attach(runId, failure ? { image, failure } : { image });
        previous.set(runId, Promise.all([image, failure]).catch(() => {}));
        // Heard from the first command on: the witness listens once the browser is there.
        if (!before) void witnessOf(input.runId);
      }
      if (outcome === null) throw thrown;
      return outcome;
    },
    endRun(runId: string) {
      previous.delete(runId);
      page.endRun?.(runId);
    },
  };
}
