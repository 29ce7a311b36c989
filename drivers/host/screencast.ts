// The page under test live, for the UI's page panel: DevTools' screencast (`Page.startScreencast`)
// of the window WebDriver drives, over the browser's one DevTools connection
// (devtoolsConnection.ts: a local browser's own endpoint, or a Grid's `se:cdp`). The browser
// sends a JPEG frame each time the page's picture changes, and none while it does not.
//
// Invariants:
// - after a frame is handed on the screencast rests (stopped in the browser) REST_MS, then
//   starts again; the first frame after a rest that shows nothing new is not handed on, and the
//   screencast then runs on until the page changes (so a page at rest is shown at once, a page
//   that keeps changing about five times a second, and nothing while it does not change);
// - every frame is acknowledged (`Page.screencastFrameAck`) once it has been handed on (the
//   sink sends it to the watching pages), and at most one every FRAME_INTERVAL_MS, so the
//   browser draws at most 25 frames a second for us however fast the page changes;
// - the screencast runs in a DevTools session of its own in the page; `follow` moves it to the
//   window WebDriver drives now when that changed (a new window, selectWindow), and `stop`
//   stops it and detaches, which undoes it in the browser;
// - the frame carries the page's URL and title, refreshed after frames (one request at a time):
//   a frame whose page changed its title or URL is sent again with the new ones;
// - when the DevTools connection closes (the browser quit), the sink hears `ended` once.
// Everything the browser sends is read with zod.
import type { WebDriver } from "selenium-webdriver";
import { z } from "zod";
import type { PageShot } from "../view/messages.ts";
import type { LiveAnswer, LiveSink } from "../view/pageFeed.ts";
import { drivenTarget, IMAGE_WIDTH } from "./devtools.ts";
import { devToolsOf } from "./devtoolsConnection.ts";
import type { DevToolsConnection } from "./devtoolsConnection.ts";

/** 25 frames a second at most. */
export const FRAME_INTERVAL_MS = 40;
const JPEG_QUALITY = 60;
/**
 * After each frame handed on, the screencast rests this long (stopped in the browser), then
 * starts again: a browser that screencasts draws and encodes a picture at every change of the
 * page, which on a page a run changes a hundred times a second takes most of a small machine.
 * So a page that keeps changing is shown about five times a second; a change in a page at rest
 * is shown at once (the screencast runs while nothing changes, and costs nothing then).
 */
export const REST_MS = 200;

const SCREENCAST = { format: "jpeg", quality: JPEG_QUALITY, maxWidth: IMAGE_WIDTH, maxHeight: 4 * IMAGE_WIDTH, everyNthFrame: 1 };

const Frame = z.object({
  data: z.string(),
  sessionId: z.number(),
  metadata: z.object({ deviceWidth: z.number(), deviceHeight: z.number() }),
});
const Info = z.object({ targetInfo: z.object({ url: z.string(), title: z.string() }) });

export interface Screencast {
  /** Moves the screencast to the window WebDriver drives now, if that changed; rejects when it cannot be told or started. */
  follow(): Promise<void>;
  /** False once its DevTools connection closed. */
  usable(): boolean;
  /** Stops the screencast in the browser; no frame reaches the sink after it. */
  stop(): void;
}

class LiveScreencast implements Screencast {
  private targetId: string | null = null;
  private sessionId: string | null = null;
  private url = "";
  private title = "";
  private last: PageShot | null = null;
  private lastAck = Number.NEGATIVE_INFINITY;
  private ackTimer: ReturnType<typeof setTimeout> | null = null;
  /** Frames handed on and not acknowledged yet, of the session `ackFor`, whose screencast number is `ackFrame`. */
  private acksDue = 0;
  private ackFor: string | null = null;
  private ackFrame = 0;
  private asking = false;
  private stopped = false;
  /** Resting (stopped in the browser) until this timer starts it again. */
  private restTimer: ReturnType<typeof setTimeout> | null = null;
  /** Started again after a rest: its first frame is the page as it is, new or not. */
  private resumed = false;
  private readonly unlisten: Array<() => void>;

  constructor(
    private readonly connection: DevToolsConnection,
    private readonly driver: WebDriver,
    private readonly sink: LiveSink,
  ) {
    this.unlisten = [
      connection.listen((method, params, sessionId) => {
        if (method === "Page.screencastFrame" && sessionId !== undefined && sessionId === this.sessionId) this.frame(params, sessionId);
        // The window closed: the next follow finds the one WebDriver drives now.
        if (method === "Target.detachedFromTarget" && params.sessionId === this.sessionId) this.sessionId = this.targetId = null;
      }),
      connection.onClose(() => {
        if (this.stopped) return;
        this.stop();
        this.sink.ended();
      }),
    ];
  }

  usable(): boolean {
    return !this.stopped && this.connection.isOpen;
  }

  async follow(): Promise<void> {
    if (!this.usable()) throw new Error("the screencast's DevTools connection is closed");
    const target = await drivenTarget(this.connection, this.driver);
    if (this.stopped || (target.targetId === this.targetId && this.sessionId !== null)) return;
    this.detach();
    this.targetId = target.targetId;
    this.url = target.url;
    this.title = target.title;
    const sessionId = await this.connection.attach(target.targetId);
    if (this.stopped || this.targetId !== target.targetId) {
      void this.connection.send("Target.detachFromTarget", { sessionId }).catch(() => {});
      return;
    }
    this.sessionId = sessionId;
    await this.connection.send("Page.startScreencast", SCREENCAST, sessionId);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const unlisten of this.unlisten) unlisten();
    if (this.ackTimer !== null) clearTimeout(this.ackTimer);
    this.ackTimer = null;
    if (this.restTimer !== null) clearTimeout(this.restTimer);
    this.restTimer = null;
    this.detach();
  }

  private detach() {
    const sessionId = this.sessionId;
    this.sessionId = this.targetId = null;
    if (sessionId === null || !this.connection.isOpen) return;
    // Detaching undoes the screencast in the page; the connection is the browser's and stays.
    void this.connection
      .send("Page.stopScreencast", {}, sessionId)
      .catch(() => {})
      .finally(() => this.connection.send("Target.detachFromTarget", { sessionId }).catch(() => {}));
  }

  private frame(params: Record<string, unknown>, sessionId: string) {
    const parsed = Frame.safeParse(params);
    if (!parsed.success || this.stopped) return;
    const { data, metadata } = parsed.data;
    const image = `data:image/jpeg;base64,${data}`;
    if (this.resumed) {
      this.resumed = false;
      // Nothing changed while it rested: the page is at rest, and the screencast runs on.
      if (image === this.last?.image) return this.ack(parsed.data.sessionId, sessionId);
    }
    const shot: PageShot = {
      url: this.url,
      title: this.title,
      image,
      at: Date.now(),
      width: Math.round(metadata.deviceWidth),
      height: Math.round(metadata.deviceHeight),
    };
    this.last = shot;
    this.sink.frame(shot);
    this.ack(parsed.data.sessionId, sessionId);
    this.refreshInfo();
    this.rest(sessionId);
  }

  /** Stops the screencast in the browser for REST_MS, then starts it again in the same session. */
  private rest(sessionId: string) {
    if (this.restTimer !== null || this.stopped) return;
    void this.connection.send("Page.stopScreencast", {}, sessionId).catch(() => {});
    this.restTimer = setTimeout(() => {
      this.restTimer = null;
      if (this.stopped || this.sessionId !== sessionId) return;
      this.resumed = true;
      void this.connection.send("Page.startScreencast", SCREENCAST, sessionId).catch(() => {});
    }, REST_MS);
  }

  /**
   * The browser sends the next frame once it has an acknowledgement for each it sent (it keeps
   * a couple in flight): each frame is acknowledged, at most one every FRAME_INTERVAL_MS.
   */
  private ack(frame: number, sessionId: string) {
    if (this.ackFor !== sessionId) this.acksDue = 0;
    this.ackFor = sessionId;
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
    const sessionId = this.ackFor;
    if (sessionId !== null && sessionId === this.sessionId) void this.connection.send("Page.screencastFrameAck", { sessionId: this.ackFrame }, sessionId).catch(() => {});
    this.pumpAcks();
  }

  /** The page's URL and title as the browser has them now; a change sends the latest frame again with them. */
  private refreshInfo() {
    const targetId = this.targetId;
    if (this.asking || targetId === null) return;
    this.asking = true;
    this.connection
      .send("Target.getTargetInfo", { targetId })
      .then((result) => {
        const { url, title } = Info.parse(result).targetInfo;
        if (this.stopped || this.targetId !== targetId || (url === this.url && title === this.title)) return;
        this.url = url;
        this.title = title;
        if (this.last) this.sink.frame({ ...this.last, url, title, at: Date.now() });
      })
      .catch(() => {})
      .finally(() => (this.asking = false));
  }
}

/** The screencast of the window `driver` drives, started; null when its browser's DevTools cannot be reached from here. Rejects when it cannot start. */
export async function startScreencast(driver: WebDriver, sink: LiveSink): Promise<Screencast | null> {
  const connection = await devToolsOf(driver);
  if (!connection) return null;
  const cast = new LiveScreencast(connection, driver, sink);
  try {
    await cast.follow();
  } catch (error) {
    cast.stop();
    throw error;
  }
  return cast;
}

/** The live page of one browser page: one screencast for its browser session, started at the first follow and again after its connection closed. */
export function liveScreencast(): { follow(driver: WebDriver | null, sink: LiveSink): Promise<LiveAnswer>; stop(): void } {
  let current: { driver: WebDriver; cast: Promise<Screencast | null> } | null = null;
  const stop = () => {
    void current?.cast.then((cast) => cast?.stop(), () => {});
    current = null;
  };
  return {
    async follow(driver, sink) {
      if (driver === null) {
        stop();
        return "none";
      }
      const kept = current?.driver === driver ? await current.cast.catch(() => undefined) : undefined;
      if (kept === null) return "unreachable";
      if (kept?.usable()) {
        await kept.follow();
        return "live";
      }
      stop();
      const started = { driver, cast: startScreencast(driver, sink) };
      current = started;
      try {
        return (await started.cast) ? "live" : "unreachable";
      } catch (error) {
        if (current === started) current = null;
        throw error;
      }
    },
    stop,
  };
}
