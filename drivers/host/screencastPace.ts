// When the live view's screencast (screencast.ts) rests, and when it acknowledges a frame: the
// pacing of one screencast session in a page, apart from the DevTools messages that carry it
// (`PaceBrowser`), so that it can be followed step by step on a fake clock.
//
// Invariants:
// - while a run plays (`playing()`, asked at each frame handed on), the screencast rests after
//   each frame handed on: it is stopped in the browser for REST_MS, then started again, or
//   sooner once no run plays (asked every REST_CHECK_MS), so a run's last page is shown at once;
//   the first frame after a rest that shows nothing new is not handed on, and the screencast
//   then runs on until the page changes. Each frame costs the browser about 40 ms of CPU
//   (Chromium's browser and GPU processes draw it, scale it and encode it), on the cores the run
//   plays on, so a watched run is shown about twice a second and stays fast;
// - while no run plays it never rests: every change of the page is a frame (the browser sends
//   none while the page is still), up to one every FRAME_INTERVAL_MS, so what the user does on
//   the page (recording, or just using it) is seen as it moves;
// - every frame is acknowledged, the one handed on once it has been, and at most one
//   acknowledgement every FRAME_INTERVAL_MS: the browser sends the next frame only then (it
//   keeps a couple in flight), so it draws at most 25 frames a second for us however fast the
//   page changes;
// - nothing is asked of the browser after `stop`.

/** 25 frames a second at most. */
export const FRAME_INTERVAL_MS = 40;
/** How long the screencast rests after each frame while a run plays (200 ms cost a watched run 1.2–1.7× on a loaded machine). */
export const REST_MS = 500;
/** While it rests, whether a run still plays is asked this often. */
export const REST_CHECK_MS = 100;

/** What the pace asks of the browser, in the screencast's page session. */
export interface PaceBrowser {
  /** `Page.stopScreencast`: no frame until `start`. */
  stop(): void;
  /** `Page.startScreencast`: its first frame is the page as it is now, new or not. */
  start(): void;
  /** `Page.screencastFrameAck` of the frame numbered `frame`: the browser may send the next. */
  ack(frame: number): void;
}

export class ScreencastPace {
  private lastImage: string | null = null;
  private lastAck = Number.NEGATIVE_INFINITY;
  private ackTimer: ReturnType<typeof setTimeout> | null = null;
  /** Frames not acknowledged yet; the browser counts acknowledgements of its latest screencast's number, `ackFrame`. */
  private acksDue = 0;
  private ackFrame = 0;
  /** Resting (stopped in the browser) until this timer starts it again. */
  private restTimer: ReturnType<typeof setTimeout> | null = null;
  /** Started again after a rest: its first frame is the page as it is, new or not. */
  private resumed = false;
  private stopped = false;

  constructor(
    private readonly browser: PaceBrowser,
    /** Whether a run plays now: the screencast rests between frames only then. */
    private readonly playing: () => boolean,
  ) {}

  /** A frame came (numbered `frame` by its screencast); true when it is to be handed on, which the caller does before the next call. */
  frame(frame: number, image: string): boolean {
    if (this.stopped) return false;
    const resumed = this.resumed;
    this.resumed = false;
    // Nothing changed while it rested: the page is at rest, and the screencast runs on.
    const handOn = !(resumed && image === this.lastImage);
    this.lastImage = image;
    this.ack(frame);
    if (handOn && this.playing()) this.rest();
    return handOn;
  }

  /** Whether it rests now (stopped in the browser). */
  get resting(): boolean {
    return this.restTimer !== null;
  }

  stop(): void {
    this.stopped = true;
    if (this.ackTimer !== null) clearTimeout(this.ackTimer);
    if (this.restTimer !== null) clearTimeout(this.restTimer);
    this.ackTimer = this.restTimer = null;
  }

  /** Stops the screencast in the browser for REST_MS, or until no run plays, then starts it again. */
  private rest() {
    if (this.restTimer !== null) return;
    this.browser.stop();
    const until = Date.now() + REST_MS;
    const check = () => {
      this.restTimer = null;
      if (this.stopped) return;
      const left = until - Date.now();
      if (left > 0 && this.playing()) {
        this.restTimer = setTimeout(check, Math.min(left, REST_CHECK_MS));
        return;
      }
      this.resumed = true;
      this.browser.start();
    };
    this.restTimer = setTimeout(check, Math.min(REST_MS, REST_CHECK_MS));
  }

  private ack(frame: number) {
    this.ackFrame = frame;
    this.acksDue += 1;
    this.pumpAcks();
  }

  private pumpAcks() {
    if (this.ackTimer !== null || this.acksDue === 0 || this.stopped) return;
    const wait = this.lastAck + FRAME_INTERVAL_MS - Date.now();
    if (wait > 0) {
      this.ackTimer = setTimeout(() => {
        this.ackTimer = null;
        this.pumpAcks();
      }, wait);
      return;
    }
    this.acksDue -= 1;
    this.lastAck = Date.now();
    this.browser.ack(this.ackFrame);
    this.pumpAcks();
  }
}
