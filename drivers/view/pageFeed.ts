// The page under test for the UI pages that watch it, live where the browser's DevTools can
// be reached: the feed asks the adapter's live source (`live`: the host's DevTools screencast,
// drivers/host/screencast.ts) to follow the page, and hands each frame it sends to every relay
// subscribed (relay.ts sends it as a `page` message, messages.ts). Where there is no live source,
// or its DevTools cannot be reached (it answers "unreachable"), the feed falls back to still
// pictures: after each page command of a run the executor's adapter pokes the feed, and the feed
// takes a picture of the page (`capture`), its messages saying `live: false`. No Node and no
// browser API here.
//
// Invariants:
// - nothing is captured or streamed while no one is subscribed (no UI page connected), and what
//   was captured is dropped when the last one leaves (the screencast stops): the feed keeps only
//   the latest picture, and only while someone watches;
// - live: frames are passed on as they come, at most one every FRAME_INTERVAL_MS (the latest
//   wins, the last one always goes); the source hears from the sink whether a run plays
//   (`playing`), and rests between frames only then; a poke only makes the source follow the
//   window shown now (at most one follow at a time, `intervalMs` apart); the source ending (its browser's
//   DevTools closed), or answering "none" (no browser) after a picture was shown, sends the
//   latest picture again with `gone: true`;
// - still: at most one capture at a time, and captures start at least `intervalMs` apart: a burst
//   of pokes is one capture now and one more when the interval is over (the latest wins, nothing
//   queues), so the page's last state is always captured, however fast the run went;
// - a capture or follow that rejects, or takes longer than `timeoutMs`, is dropped without a word
//   (its late answer is ignored), and the next one waits longer (twice the interval per failure
//   in a row, up to MAX_BACKOFF_MS), so a page that cannot be captured is not asked a few times a
//   second; a capture answering null (no page yet) is dropped too;
// - nothing here touches the run: the adapter pokes after the command settled and does not
//   wait for anything here.
import type { PageInput, PageMessage, PageShot } from "./messages.ts";

/** At most 25 live frames a second. */
export const FRAME_INTERVAL_MS = 40;
/** At most 2 captures (or follows of the live page) a second. */
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

/** Where a live source sends the page's frames. */
export interface LiveSink {
  frame(shot: PageShot): void;
  /**
   * Whether a run plays now: the source may then rest between frames, so the run is not slowed
   * by pictures of it; while none plays it sends every change of the page (CONTRACT section 21).
   */
  playing?(): boolean;
  /** The source stopped: its browser's DevTools connection closed (the browser may be gone). */
  ended(): void;
}

/** The page live: "live" once it streams to the sink, "none" while there is no browser, "unreachable" when its DevTools cannot be reached from here. */
export type LiveAnswer = "live" | "none" | "unreachable";

export interface LiveSource {
  /** Start streaming the page shown now to `sink`, or follow it to the window shown now. */
  follow(sink: LiveSink): Promise<LiveAnswer>;
  /** No more frames (no one watches). */
  stop(): void;
}

export interface PageFeedOptions {
  /** The page as it is now; null when there is no page (the browser has not started). */
  capture(): Promise<PageShot | null>;
  /** The page live, where the adapter can stream it; else, and where it answers "unreachable", `capture`. */
  live?: LiveSource;
  /** Does the user's input in the page; a picture follows once it is done. */
  input?(input: PageInput): Promise<void>;
  /** Whether a run plays now (the IDE's view says), for the live source's pace; default: none plays. */
  playing?(): boolean;
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
  /** Whether the page is shown live: unknown until the live source answered (always still without one). */
  private mode: "unknown" | "live" | "still";
  private frameTimer: ReturnType<typeof setTimeout> | null = null;
  private pendingFrame: PageShot | null = null;
  private lastFrameAt = Number.NEGATIVE_INFINITY;
  private readonly sink: LiveSink = {
    frame: (shot) => this.frame(shot),
    playing: () => this.options.playing?.() ?? false,
    ended: () => this.ended(),
  };

  constructor(private readonly options: PageFeedOptions) {
    this.intervalMs = options.intervalMs ?? PAGE_INTERVAL_MS;
    this.timeoutMs = options.timeoutMs ?? PAGE_CAPTURE_TIMEOUT_MS;
    this.mode = options.live ? "unknown" : "still";
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
      this.stopLive();
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
    this.stopLive();
  }

  /** No one watches: the live source stops, and is asked afresh (live or not) when someone does again. */
  private stopLive() {
    if (this.frameTimer !== null) clearTimeout(this.frameTimer);
    this.frameTimer = null;
    this.pendingFrame = null;
    if (!this.options.live) return;
    this.options.live.stop();
    this.mode = "unknown";
  }

  /** A live frame: passed on now, or when FRAME_INTERVAL_MS since the last one is over (the latest wins). */
  private frame(shot: PageShot) {
    if (this.stopped || this.listeners.size === 0 || this.mode === "still") return;
    this.mode = "live";
    this.pendingFrame = shot;
    if (this.frameTimer !== null) return;
    const wait = this.lastFrameAt + FRAME_INTERVAL_MS - Date.now();
    if (wait > 0) {
      this.frameTimer = setTimeout(() => {
        this.frameTimer = null;
        this.flushFrame();
      }, wait);
      return;
    }
    this.flushFrame();
  }

  private flushFrame() {
    const shot = this.pendingFrame;
    this.pendingFrame = null;
    if (!shot) return;
    this.lastFrameAt = Date.now();
    this.publish({ ...shot, live: true });
  }

  /** The live source stopped: the browser may be gone (a poke asks again). */
  private ended() {
    if (this.stopped || this.mode !== "live") return;
    this.mode = "unknown";
    this.gone();
  }

  /** The latest picture again, saying the browser is gone. */
  private gone() {
    if (this.last && !this.last.gone) this.publish({ ...this.last, gone: true, at: Date.now() });
  }

  /** One step of the feed: follow the page live, or (still) capture it. */
  private async step(): Promise<PageShot | null> {
    const live = this.options.live;
    if (!live || this.mode === "still") return this.options.capture();
    const answer = await live.follow(this.sink);
    if (answer === "live") {
      this.mode = "live";
      return null;
    }
    if (answer === "none") {
      this.gone();
      return null;
    }
    // DevTools cannot be reached: still pictures from now on, which say so.
    this.mode = "still";
    return this.options.capture();
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
    Promise.race([Promise.resolve().then(() => this.step()), late])
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
      // Still pictures where the page could be live say so; a feed with no live source sends them as before.
      ...(shot.live === true ? { live: true } : this.options.live ? { live: false } : {}),
      ...(shot.gone === true ? { gone: true } : {}),
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
