// The page under test live, for the UI's page panel: DevTools' screencast (`Page.startScreencast`)
// of the window WebDriver drives, over the browser's one DevTools connection
// (devtoolsConnection.ts: a local browser's own endpoint, or a Grid's `se:cdp`). The browser
// sends a JPEG frame each time the page's picture changes, and none while it does not.
//
// Invariants:
// - its pace (screencastPace.ts): while a run plays (the sink's `playing`), it rests REST_MS
//   after each frame handed on, so a watched run stays fast; while none plays, every change of
//   the page is a frame, up to 25 a second, and none while the page is still;
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
import { ScreencastPace } from "./screencastPace.ts";

const JPEG_QUALITY = 60;

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
  /** The pace of the screencast in the session `sessionId`; a new one for each session. */
  private pace: ScreencastPace | null = null;
  private asking = false;
  private stopped = false;
  private readonly unlisten: Array<() => void>;

  constructor(
    private readonly connection: DevToolsConnection,
    private readonly driver: WebDriver,
    private readonly sink: LiveSink,
  ) {
    this.unlisten = [
      connection.listen((method, params, sessionId) => {
        if (method === "Page.screencastFrame" && sessionId !== undefined && sessionId === this.sessionId) this.frame(params);
        // The window closed: the next follow finds the one WebDriver drives now.
        if (method === "Target.detachedFromTarget" && params.sessionId === this.sessionId) {
          this.sessionId = this.targetId = null;
          this.pace?.stop();
          this.pace = null;
        }
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
    this.pace = this.paceIn(sessionId);
    await this.connection.send("Page.startScreencast", SCREENCAST, sessionId);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const unlisten of this.unlisten) unlisten();
    this.detach();
  }

  private detach() {
    const sessionId = this.sessionId;
    this.sessionId = this.targetId = null;
    this.pace?.stop();
    this.pace = null;
    if (sessionId === null || !this.connection.isOpen) return;
    // Detaching undoes the screencast in the page; the connection is the browser's and stays.
    void this.connection
      .send("Page.stopScreencast", {}, sessionId)
      .catch(() => {})
      .finally(() => this.connection.send("Target.detachFromTarget", { sessionId }).catch(() => {}));
  }

  /** The pace's requests, in the page session `sessionId` while the screencast is there. */
  private paceIn(sessionId: string): ScreencastPace {
    const send = (method: string, params: Record<string, unknown>) => {
      if (this.sessionId === sessionId) void this.connection.send(method, params, sessionId).catch(() => {});
    };
    return new ScreencastPace(
      {
        stop: () => send("Page.stopScreencast", {}),
        start: () => send("Page.startScreencast", SCREENCAST),
        ack: (frame) => send("Page.screencastFrameAck", { sessionId: frame }),
      },
      () => this.sink.playing?.() ?? false,
    );
  }

  private frame(params: Record<string, unknown>) {
    const parsed = Frame.safeParse(params);
    const pace = this.pace;
    if (!parsed.success || this.stopped || pace === null) return;
    const { data, metadata } = parsed.data;
    const image = `data:image/jpeg;base64,${data}`;
    if (!pace.frame(parsed.data.sessionId, image)) return;
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
    this.refreshInfo();
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
