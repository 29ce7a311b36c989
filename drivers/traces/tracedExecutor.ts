// The page under test as the IDE gets it while runs keep traces (CONTRACT section 17): after
// each page command, a picture of the page (the camera: JPEG, at most 1280 px wide) and, for a
// failed or fatal command, the page's URL, title, HTML and the console errors heard since the
// command began (the witness, witness.ts), handed to the trace store. The host's camera is
// DevTools' Page.captureScreenshot (drivers/host/tracedExecutor.ts), the extension's
// chrome.tabs.captureVisibleTab (drivers/webextension/camera.ts).
//
// Pictures never hold a passing run (issue 28). A command's picture is the first capture
// started after it ended. Each test playing (runId) has one capture at a time: a command that
// ends while none is being taken starts one at once; commands that end while one is being taken
// wait for the next, which starts as soon as that one is done, and share it (the store keeps it
// once). So a picture shows the page after its command, or a few commands later when the page
// plays faster than it is pictured, never before it. A failed or fatal command is the
// exception: its picture and its page's details are taken before the run goes on. With
// `spacingMs` (services/traces' picturePolicy: five a second under "on", two under
// "retain-on-failure", whose passing tests' pictures are thrown away) captures start at most
// that often, so fewer commands have a picture of their own; a failed command's is taken at
// once all the same, and one put off is taken before the run lets its page go (under
// "retain-on-failure" only after a failure).
import type { Executor } from "../../core/ports.ts";
import type { PageOutcome } from "../../machines/testRunner.types.ts";
import type { PageWitness } from "./witness.ts";
import type { TraceStore } from "./traceStore.ts";
import type { PicturePolicy } from "../../services/traces/index.ts";

/** How the page under test is seen: each call has its own time limit, and may answer null. */
export interface PageEyes {
  /** A picture of the run's page now, as a JPEG data URL. */
  camera(runId: string | undefined): Promise<string | null>;
  /** The witness of the run's page: its console errors and details. */
  witness(runId: string | undefined): Promise<PageWitness | null>;
}

/** Per test playing: the capture being taken, and the one that starts after it for the commands that ended meanwhile. */
interface Lane {
  taking: Promise<string | null> | null;
  next: { promise: Promise<string | null>; resolve(image: Promise<string | null>): void } | null;
  /** A failed command waits for `next`: it starts as soon as nothing is being taken, whatever the spacing. */
  urgent: boolean;
  /** When the last capture started. */
  startedAt: number;
  /** `next`, put off until the spacing from the last start has passed. */
  timer: ReturnType<typeof setTimeout> | null;
  /** A command of the test failed: its trace is kept whatever the mode. */
  failed: boolean;
}

/** When pictures are taken (services/traces' picturePolicy); by default one at once after another, and the last always. */
export type TracedOptions = Partial<PicturePolicy>;

/** `page` with each page command's picture and failure, as `eyes` see them, handed to `store`. */
export function tracedBy<P extends Executor>(page: P, store: TraceStore, eyes: PageEyes, options: TracedOptions = {}): P {
  const spacing = options.spacingMs ?? 0;
  const endPicture = options.endPicture ?? "always";
  const lanes = new Map<string, Lane>();
  /** Pictures of tests that ended, still being taken: the next command waits for them (see execute). */
  const settling = new Set<Promise<unknown>>();
  const witnessOf = (runId: string | undefined) => eyes.witness(runId).catch(() => null);

  /** Starts the capture the commands waiting for `next` share, now. */
  function start(runId: string | undefined, lane: Lane) {
    if (lane.timer) clearTimeout(lane.timer);
    lane.timer = null;
    const next = lane.next;
    lane.next = null;
    lane.urgent = false;
    lane.startedAt = Date.now();
    const taken = eyes.camera(runId).catch(() => null);
    lane.taking = taken;
    void taken.then(() => {
      lane.taking = null;
      if (lane.next) schedule(runId, lane);
    });
    next?.resolve(taken);
  }

  /** With nothing being taken and commands waiting: their capture now, or once the spacing allows. */
  function schedule(runId: string | undefined, lane: Lane) {
    const wait = lane.urgent ? 0 : spacing - (Date.now() - lane.startedAt);
    if (wait <= 0) start(runId, lane);
    else lane.timer ??= setTimeout(() => start(runId, lane), wait);
  }

  /** The test's lane; a new one counts from the test's first command's start, as if a picture had been started then. */
  function laneOf(runId: string | undefined): Lane {
    const key = runId ?? "";
    let lane = lanes.get(key);
    if (!lane) lanes.set(key, (lane = { taking: null, next: null, urgent: false, startedAt: Date.now(), timer: null, failed: false }));
    return lane;
  }

  /** The picture of a command that ended just now: the first capture started from now on. */
  function pictureAfter(runId: string | undefined, urgent: boolean): Promise<string | null> {
    const lane = laneOf(runId);
    if (!lane.next) {
      let resolve!: (image: Promise<string | null>) => void;
      const promise = new Promise<string | null>((r) => (resolve = r));
      lane.next = { promise, resolve };
    }
    const { promise } = lane.next;
    lane.urgent ||= urgent;
    lane.failed ||= urgent;
    if (!lane.taking) schedule(runId, lane);
    return promise;
  }

  return {
    ...page,
    async execute(input, signal): Promise<PageOutcome> {
      const runId = input.runId ?? "";
      // A test that ended may still be pictured; the next may start a fresh browser in place of
      // its one (CONTRACT section 22), so it begins once those pictures are in (each has its limit).
      if (settling.size > 0) await Promise.all(settling);
      laneOf(input.runId);
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
        const image = pictureAfter(input.runId, failed);
        if (failed) {
          const failure = image.then(async () => {
            // The first command of a browser started it: its witness is there only now.
            const witness = before ?? (await witnessOf(input.runId));
            const details = witness ? await witness.details().catch(() => null) : null;
            return { details, consoleErrors: witness ? witness.errorsSince(before ? mark : 0) : [] };
          });
          store.attach(runId, { image, failure });
          // The failure is pictured before the run goes on (each capture and request has its limit).
          await failure.catch(() => {});
        } else store.attach(runId, { image });
        // Heard from the first command on: the witness listens once the browser is there.
        if (!before) void witnessOf(input.runId);
      }
      if (outcome === null) throw thrown;
      return outcome;
    },
    endRun(runId: string) {
      // A picture put off for the spacing is taken before the run lets its browser go, unless the
      // trace is thrown away (a test without a failure under "retain-on-failure").
      const lane = lanes.get(runId);
      if (lane?.timer) {
        if (endPicture === "always" || lane.failed) start(runId, lane);
        else {
          clearTimeout(lane.timer);
          lane.next?.resolve(Promise.resolve(null));
        }
      }
      lanes.delete(runId);
      for (const pending of [lane?.taking, lane?.next?.promise]) {
        if (!pending) continue;
        const settled: Promise<boolean> = pending.then(() => settling.delete(settled));
        settling.add(settled);
      }
      page.endRun?.(runId);
    },
  };
}
