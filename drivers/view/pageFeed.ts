// The page under test for the UI pages that watch it: after each page command of a run the
// executor's adapter pokes the feed, and the feed takes a picture of the page (URL, title,
// small image: `capture`, given by the adapter) and hands it to every relay subscribed
// (relay.ts sends it as a `page` message, messages.ts). No Node and no browser API here.
//
// Invariants:
// - nothing is captured while no one is subscribed (no UI page connected), and what was
//   captured is dropped when the last one leaves: the feed keeps only the latest picture, and
//   only while someone watches;
// - at most one capture at a time, and captures start at least `intervalMs` apart: a burst of
//   pokes is one capture now and one more when the interval is over (the latest wins, nothing
//   queues), so the page's last state is always captured, however fast the run went;
// - a capture that rejects, or takes longer than `timeoutMs`, is dropped without a word (its
//   late answer is ignored), and the next one waits longer (twice the interval per failure in a
//   row, up to MAX_BACKOFF_MS), so a page that cannot be captured is not asked a few times a
//   second; a capture answering null (no page yet) is dropped too;
// - a capture never touches the run: the adapter pokes after the command settled and does not
//   wait for anything here.
import type { PageInput, PageMessage, PageShot } from "./messages.ts";

/** At most 2 captures a second. */
export const PAGE_INTERVAL_MS = 500;
/** A capture slower than this is dropped. */
export const PAGE_CAPTURE_TIMEOUT_MS = 2_000;
/** The longest wait between two captures after failures in a row. */
export const MAX_BACKOFF_MS = 10_000;

/** What a relay reads of the page under test: the latest picture, and each new one. */
export interface PageSource {
  latest(): PageMessage | null;
  /** Listen for new pictures; returns the unsubscribe. The first subscriber starts the captures. */
  subscribe(listener: (message: PageMessage) => void): () => void;
  /** The user's click or keys on the picture, done in the page (where the page takes input: the host's). */
  input?(input: PageInput): Promise<void> | void;
}

export interface PageFeedOptions {
  /** The page as it is now; null when there is no page (the browser has not started). */
  capture(): Promise<PageShot | null>;
  /** Does the user's input in the page; a picture follows once it is done. */
  input?(input: PageInput): Promise<void>;
  intervalMs?: number;
  timeoutMs?: number;
}

export class PageFeed implements PageSource {
  private readonly listeners = new Set<(message: PageMessage) => void>();
  private readonly intervalMs: number;
  private readonly timeoutMs: number;
  private last: PageMessage | null = null;
  /** Poked since the last capture started. */
  private dirty = false;
  /** The capture in flight, by its number; 0 when none. */
  private inFlight = 0;
  private captures = 0;
  private startedAt = Number.NEGATIVE_INFINITY;
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(private readonly options: PageFeedOptions) {
    this.intervalMs = options.intervalMs ?? PAGE_INTERVAL_MS;
    this.timeoutMs = options.timeoutMs ?? PAGE_CAPTURE_TIMEOUT_MS;
  }

  /** Whether some UI page watches (captures are taken only then). */
  get watched(): boolean {
    return this.listeners.size > 0;
  }

  latest(): PageMessage | null {
    return this.last;
  }

  subscribe(listener: (message: PageMessage) => void): () => void {
    if (this.stopped) return () => {};
    const first = this.listeners.size === 0;
    this.listeners.add(listener);
    // Someone starts watching: show them the page as it is now, if there is one.
    if (first) this.poke();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size > 0) return;
      this.last = null;
      this.dirty = false;
      this.clearTimer();
    };
  }

  /** The page may have changed (a page command settled): capture it, now or when the interval allows. */
  poke(): void {
    if (this.stopped || this.listeners.size === 0) return;
    this.dirty = true;
    this.pump();
  }

  /** Done in the page; settles once it is (never rejects), so what the user does next can follow it. */
  input(input: PageInput): Promise<void> {
    if (this.stopped || !this.options.input) return Promise.resolve();
    return this.options
      .input(input)
      .catch(() => {}) // a page gone meanwhile: nothing to do, and the next picture shows it
      .finally(() => this.poke());
  }

  /** No more captures and no more messages. */
  stop(): void {
    this.stopped = true;
    this.listeners.clear();
    this.last = null;
    this.clearTimer();
  }

  private clearTimer() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private gap(): number {
    return this.failures === 0 ? this.intervalMs : Math.min(MAX_BACKOFF_MS, this.intervalMs * 2 ** this.failures);
  }

  private pump() {
    if (!this.dirty || this.inFlight !== 0 || this.timer !== null || this.stopped || this.listeners.size === 0) return;
    const wait = this.startedAt + this.gap() - Date.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.pump();
      }, wait);
      return;
    }
    this.dirty = false;
    this.startedAt = Date.now();
    const number = ++this.captures;
    this.inFlight = number;
    let limit: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      limit = setTimeout(() => reject(new Error("the capture took too long")), this.timeoutMs);
    });
    Promise.race([Promise.resolve().then(() => this.options.capture()), late])
      .then(
        (shot) => {
          this.failures = 0;
          if (shot) this.publish(shot);
        },
        () => {
          this.failures += 1;
        },
      )
      .finally(() => {
        clearTimeout(limit);
        if (this.inFlight !== number) return;
        this.inFlight = 0;
        this.pump();
      });
  }

  private publish(shot: PageShot) {
    if (this.stopped || this.listeners.size === 0) return;
    const message: PageMessage = {
      type: "page",
      url: shot.url,
      title: shot.title,
      image: shot.image,
      at: shot.at,
      ...(shot.width !== undefined && shot.height !== undefined ? { width: shot.width, height: shot.height } : {}),
    };
    this.last = message;
    for (const listener of [...this.listeners]) {
      try {
        listener(message);
      } catch {
        // One page whose socket failed does not keep the picture from the others.
      }
    }
  }
}
