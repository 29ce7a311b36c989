// The page under test for the UI (drivers/view/pageFeed.ts) without a browser: a scripted
// capture (and a scripted live source, for the screencast) stands for the page. Live: frames
// pass at most one every FRAME_INTERVAL_MS, the latest last; the source stops when no one
// watches; DevTools out of reach falls back to still pictures that say so; a browser gone is said. What is checked: no one watching, no capture; a burst of page
// commands is one capture now and one at the end of the interval, so the last state is shown;
// failed and slow captures are dropped and never reach a run; the relay passes the pictures
// on, the latest to a page that connects later, and only the latest to a page slow to read.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createIde } from "../../index.ts";
import type { Ide } from "../../index.ts";
import { watchedExecutor } from "../../apps/host/host.ts";
import type { HostMessage, PageInput, PageMessage, PageShot } from "../../drivers/view/messages.ts";
import { FRAME_INTERVAL_MS, MAX_BACKOFF_MS, PageFeed } from "../../drivers/view/pageFeed.ts";
import type { LiveAnswer, LiveSink } from "../../drivers/view/pageFeed.ts";
import { UPDATE_INTERVAL_MS, ViewRelay, WHEEL_INTERVAL_MS } from "../../drivers/view/relay.ts";
import type { RelaySink } from "../../drivers/view/relay.ts";
import { fakeExecutor } from "../support/executor.ts";

const INTERVAL = 400;
const TIMEOUT = 1_000;

/** A page whose title counts the captures, so each picture says which capture took it. */
function scriptedPage() {
  let taken = 0;
  const page = {
    taken: () => taken,
    answer: (n: number): Promise<PageShot | null> =>
      Promise.resolve({ url: "http://127.0.0.1:1/shop", title: `capture ${n}`, image: "data:image/jpeg;base64,AAAA", at: Date.now() }),
    capture: vi.fn((): Promise<PageShot | null> => page.answer(++taken)),
  };
  return page;
}

function watcher(feed: PageFeed) {
  const seen: PageMessage[] = [];
  const unsubscribe = feed.subscribe((message) => seen.push(message));
  return { seen, titles: () => seen.map((m) => m.title), unsubscribe };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("PageFeed", () => {
  it("takes no picture while no UI page watches, however many commands run", async () => {
    const page = scriptedPage();
    const feed = new PageFeed({ capture: page.capture, intervalMs: INTERVAL });
    for (let i = 0; i < 20; i++) feed.poke();
    await vi.advanceTimersByTimeAsync(5 * INTERVAL);
    expect(page.capture).not.toHaveBeenCalled();
    expect(feed.latest()).toBeNull();
  });

  it("shows a page that starts watching the page as it is now, and keeps it as the latest", async () => {
    const page = scriptedPage();
    const feed = new PageFeed({ capture: page.capture, intervalMs: INTERVAL });
    const ui = watcher(feed);
    await vi.advanceTimersByTimeAsync(0);
    expect(ui.seen).toEqual([{ type: "page", url: "http://127.0.0.1:1/shop", title: "capture 1", image: "data:image/jpeg;base64,AAAA", at: expect.any(Number) }]);
    expect(feed.latest()).toBe(ui.seen[0]);
  });

  it("folds a burst of page commands into one picture now and one when the interval is over, the last state", async () => {
    const page = scriptedPage();
    const feed = new PageFeed({ capture: page.capture, intervalMs: INTERVAL });
    const ui = watcher(feed);
    await vi.advanceTimersByTimeAsync(INTERVAL); // the first picture, and its interval over
    for (let i = 0; i < 50; i++) {
      feed.poke();
      await vi.advanceTimersByTimeAsync(INTERVAL / 20);
    }
    // 50 commands over 2.5 intervals: a picture at each interval's start, none queued.
    expect(page.taken()).toBeLessThanOrEqual(1 + 3);
    const before = page.taken();
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(page.taken()).toBe(before + 1); // the trailing picture, after the last command
    await vi.advanceTimersByTimeAsync(10 * INTERVAL);
    expect(page.taken()).toBe(before + 1); // and nothing after it
    expect(ui.titles().at(-1)).toBe(`capture ${page.taken()}`);
  });

  it("never starts a capture while one is in flight", async () => {
    const page = scriptedPage();
    let inFlight = 0;
    let most = 0;
    page.answer = (n) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      return new Promise((resolve) =>
        setTimeout(() => {
          inFlight -= 1;
          resolve({ url: "u", title: `capture ${n}`, image: null, at: Date.now() });
        }, 3 * INTERVAL),
      );
    };
    const feed = new PageFeed({ capture: page.capture, intervalMs: INTERVAL, timeoutMs: 10 * INTERVAL });
    watcher(feed);
    for (let i = 0; i < 40; i++) {
      feed.poke();
      await vi.advanceTimersByTimeAsync(INTERVAL / 4);
    }
    expect(most).toBe(1);
    expect(page.taken()).toBeGreaterThan(1);
  });

  it("drops a capture that fails, waits longer before the next, and shows the next one that works", async () => {
    const page = scriptedPage();
    let failing = true;
    const works = page.answer;
    page.answer = (n) => (failing ? Promise.reject(new Error("the browser is busy")) : works(n));
    const feed = new PageFeed({ capture: page.capture, intervalMs: INTERVAL });
    const ui = watcher(feed);
    await vi.advanceTimersByTimeAsync(0);
    expect(page.taken()).toBe(1);
    for (let i = 0; i < 10; i++) {
      feed.poke();
      await vi.advanceTimersByTimeAsync(INTERVAL);
    }
    // Ten intervals of commands, and backing off: far fewer than ten more attempts.
    expect(page.taken()).toBeLessThan(6);
    expect(ui.seen).toEqual([]);
    failing = false;
    feed.poke();
    await vi.advanceTimersByTimeAsync(MAX_BACKOFF_MS);
    expect(ui.titles()).toEqual([`capture ${page.taken()}`]);
    // Once it works again, the interval is the short one again.
    const before = page.taken();
    feed.poke();
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(page.taken()).toBe(before + 1);
  });

  it("drops a capture slower than its limit, and ignores its answer when it comes after all", async () => {
    const page = scriptedPage();
    const late: Array<() => void> = [];
    const works = page.answer;
    page.answer = (n) => (n === 1 ? new Promise((resolve) => late.push(() => void works(n).then(resolve))) : works(n));
    const feed = new PageFeed({ capture: page.capture, intervalMs: INTERVAL, timeoutMs: TIMEOUT });
    const ui = watcher(feed);
    await vi.advanceTimersByTimeAsync(TIMEOUT + 1);
    feed.poke();
    await vi.advanceTimersByTimeAsync(2 * INTERVAL + 1);
    expect(ui.titles()).toEqual(["capture 2"]);
    late[0]();
    await vi.advanceTimersByTimeAsync(0);
    expect(ui.titles()).toEqual(["capture 2"]);
    expect(feed.latest()?.title).toBe("capture 2");
  });

  it("publishes nothing while there is no page yet (the browser has not started)", async () => {
    const page = scriptedPage();
    page.answer = () => Promise.resolve(null);
    const feed = new PageFeed({ capture: page.capture, intervalMs: INTERVAL });
    const ui = watcher(feed);
    feed.poke();
    await vi.advanceTimersByTimeAsync(3 * INTERVAL);
    expect(page.taken()).toBeGreaterThan(0);
    expect(ui.seen).toEqual([]);
    expect(feed.latest()).toBeNull();
  });

  it("still shows the picture to the other pages when one page's listener throws", async () => {
    const page = scriptedPage();
    const feed = new PageFeed({ capture: page.capture, intervalMs: INTERVAL });
    feed.subscribe(() => {
      throw new Error("this page's socket broke");
    });
    const ui = watcher(feed);
    feed.poke();
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(ui.titles()).toEqual(["capture 1", "capture 2"]);
  });

  it("forgets the picture and stops capturing when the last UI page leaves", async () => {
    const page = scriptedPage();
    const feed = new PageFeed({ capture: page.capture, intervalMs: INTERVAL });
    const first = watcher(feed);
    const second = watcher(feed);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    first.unsubscribe();
    expect(feed.latest()).not.toBeNull();
    expect(feed.watched).toBe(true);
    second.unsubscribe();
    expect(feed.latest()).toBeNull();
    expect(feed.watched).toBe(false);
    const before = page.taken();
    feed.poke();
    await vi.advanceTimersByTimeAsync(5 * INTERVAL);
    expect(page.taken()).toBe(before);
  });
});

/** A live source the test drives: it answers follows with `answer`, and the test sends frames into the sink it was given. */
function scriptedLive(answer: LiveAnswer) {
  const live = {
    answer,
    sink: null as LiveSink | null,
    follows: 0,
    stops: 0,
    follow: (sink: LiveSink) => {
      live.follows += 1;
      live.sink = sink;
      return Promise.resolve(live.answer);
    },
    stop: () => {
      live.stops += 1;
    },
    frame: (n: number) => live.sink!.frame({ url: "http://127.0.0.1:1/shop", title: `frame ${n}`, image: "data:image/jpeg;base64,AAAA", at: Date.now(), width: 1280, height: 900 }),
  };
  return live;
}

describe("PageFeed live", () => {
  it("starts the live source when a UI page watches, passes its frames at most one every FRAME_INTERVAL_MS with the latest last, and takes no still picture", async () => {
    const page = scriptedPage();
    const live = scriptedLive("live");
    const feed = new PageFeed({ capture: page.capture, live, intervalMs: INTERVAL });
    feed.poke();
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(live.follows).toBe(0); // no one watches yet
    const ui = watcher(feed);
    await vi.advanceTimersByTimeAsync(0);
    expect(live.follows).toBe(1);
    for (let n = 1; n <= 5; n++) live.frame(n);
    expect(ui.titles()).toEqual(["frame 1"]);
    await vi.advanceTimersByTimeAsync(FRAME_INTERVAL_MS);
    expect(ui.titles()).toEqual(["frame 1", "frame 5"]);
    expect(ui.seen.every((m) => m.live === true && m.width === 1280)).toBe(true);
    await vi.advanceTimersByTimeAsync(10 * FRAME_INTERVAL_MS);
    expect(ui.seen).toHaveLength(2);
    expect(page.capture).not.toHaveBeenCalled();
  });

  it("tells the live source whether a run plays as its `playing` says at each asking, and that none plays without one", async () => {
    let playing = false;
    const live = scriptedLive("live");
    const feed = new PageFeed({ capture: scriptedPage().capture, live, intervalMs: INTERVAL, playing: () => playing });
    watcher(feed);
    await vi.advanceTimersByTimeAsync(0);
    expect(live.sink!.playing!()).toBe(false);
    playing = true;
    expect(live.sink!.playing!()).toBe(true);
    const plain = scriptedLive("live");
    watcher(new PageFeed({ capture: scriptedPage().capture, live: plain, intervalMs: INTERVAL }));
    await vi.advanceTimersByTimeAsync(0);
    expect(plain.sink!.playing!()).toBe(false);
  });

  it("follows the page shown at a page command, at most once an interval, and stops the source when the last UI page leaves", async () => {
    const page = scriptedPage();
    const live = scriptedLive("live");
    const feed = new PageFeed({ capture: page.capture, live, intervalMs: INTERVAL });
    const ui = watcher(feed);
    await vi.advanceTimersByTimeAsync(0);
    for (let i = 0; i < 10; i++) feed.poke();
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(live.follows).toBe(2);
    ui.unsubscribe();
    expect(live.stops).toBe(1);
    live.frame(9);
    feed.poke();
    await vi.advanceTimersByTimeAsync(2 * INTERVAL);
    expect(live.follows).toBe(2);
    expect(feed.latest()).toBeNull();
  });

  it("falls back to still pictures that say so when the browser's DevTools cannot be reached", async () => {
    const page = scriptedPage();
    const live = scriptedLive("unreachable");
    const feed = new PageFeed({ capture: page.capture, live, intervalMs: INTERVAL });
    const ui = watcher(feed);
    await vi.advanceTimersByTimeAsync(0);
    expect(ui.seen).toEqual([expect.objectContaining({ title: "capture 1", live: false })]);
    feed.poke();
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(ui.titles()).toEqual(["capture 1", "capture 2"]);
    expect(live.follows).toBe(1);
  });

  it("sends the latest picture again saying the browser is gone when the live source ends, and live again when frames come back", async () => {
    const page = scriptedPage();
    const live = scriptedLive("live");
    const feed = new PageFeed({ capture: page.capture, live, intervalMs: INTERVAL });
    const ui = watcher(feed);
    await vi.advanceTimersByTimeAsync(0);
    live.frame(1);
    live.sink!.ended();
    expect(ui.seen.map((m) => [m.title, m.gone ?? false])).toEqual([
      ["frame 1", false],
      ["frame 1", true],
    ]);
    // No browser at the next page command: nothing more to say.
    live.answer = "none";
    feed.poke();
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(ui.seen).toHaveLength(2);
    live.answer = "live";
    feed.poke();
    await vi.advanceTimersByTimeAsync(INTERVAL);
    live.frame(2);
    expect(ui.seen.at(-1)).toMatchObject({ title: "frame 2", live: true });
    expect(ui.seen.at(-1)!.gone).toBeUndefined();
  });
});

describe("the executor as the host gives it to the IDE", () => {
  let ide: Ide;
  afterEach(() => ide?.stop());

  it("pokes the feed after each page command, and a run passes while every capture fails", async () => {
    const page = scriptedPage();
    page.answer = () => Promise.reject(new Error("no picture"));
    const feed = new PageFeed({ capture: page.capture, intervalMs: INTERVAL });
    const poke = vi.spyOn(feed, "poke");
    watcher(feed);
    const executor = fakeExecutor();
    ide = createIde({
      executor: watchedExecutor(executor, feed),
      project: {
        id: "p",
        name: "p",
        url: "http://127.0.0.1:1",
        tests: [{ id: "t", name: "t", commands: ["a", "b", "c"].map((id) => ({ id, command: "click", target: `id=${id}`, value: "" })) }],
      },
    });
    ide.send({ type: "user.startPlayback" });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(ide.getSnapshot().playback?.result).toBe("passed");
    expect(executor.executed.map((c) => c.id)).toEqual(["a", "b", "c"]);
    expect(poke.mock.calls.length).toBeGreaterThanOrEqual(3);
  });
});

type Update = Extract<HostMessage, { type: "update" }>;

function recordingSink(extra: Partial<RelaySink> = {}): RelaySink & { messages: HostMessage[] } {
  const messages: HostMessage[] = [];
  return { messages, send: (message) => messages.push(message), ...extra };
}

describe("ViewRelay with the page under test", () => {
  let ide: Ide;
  beforeEach(() => {
    ide = createIde();
  });
  afterEach(() => ide.stop());

  it("sends each new picture as a page message, and a page that connects later gets the latest one after its first update", async () => {
    const page = scriptedPage();
    const feed = new PageFeed({ capture: page.capture, intervalMs: INTERVAL });
    const early = recordingSink();
    new ViewRelay(ide, early, { page: feed });
    await vi.advanceTimersByTimeAsync(INTERVAL);
    feed.poke();
    await vi.advanceTimersByTimeAsync(INTERVAL);
    const pictures = early.messages.filter((m): m is PageMessage => m.type === "page");
    expect(pictures.map((m) => m.title)).toEqual(["capture 1", "capture 2"]);

    const late = recordingSink();
    new ViewRelay(ide, late, { page: feed });
    expect(late.messages.map((m) => m.type)).toEqual(["hello", "update", "page"]);
    expect((late.messages[2] as PageMessage).title).toBe("capture 2");
    expect((late.messages[1] as Update).logs.reset).toBe(true);
  });

  it("gives a page slow to read only the latest picture, once it has caught up", async () => {
    const page = scriptedPage();
    const feed = new PageFeed({ capture: page.capture, intervalMs: INTERVAL });
    let backlogged = true;
    const slow = recordingSink({ backlogged: () => backlogged });
    new ViewRelay(ide, slow, { page: feed });
    for (let i = 0; i < 5; i++) {
      feed.poke();
      await vi.advanceTimersByTimeAsync(INTERVAL);
    }
    expect(page.taken()).toBeGreaterThan(2);
    expect(slow.messages.filter((m) => m.type === "page")).toEqual([]);
    backlogged = false;
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS + 1);
    const pictures = slow.messages.filter((m): m is PageMessage => m.type === "page");
    expect(pictures.map((m) => m.title)).toEqual([`capture ${page.taken()}`]);
  });

  it("does the page panel's inputs in order, merges the wheel turns that wait into one, and takes nothing that is not an input", async () => {
    const done: PageInput[] = [];
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const feed = new PageFeed({
      capture: scriptedPage().capture,
      intervalMs: INTERVAL,
      input: async (input) => {
        done.push(input);
        if (done.length === 1) await blocked;
      },
    });
    const relay = new ViewRelay(ide, recordingSink(), { page: feed });
    const send = (input: unknown) => relay.receive({ type: "page.input", input });
    send({ kind: "click", x: 10, y: 20 });
    // Not inputs: a wheel too far, one with no point, a kind nobody knows.
    send({ kind: "wheel", x: 5, y: 5, deltaX: 0, deltaY: 1e9 });
    send({ kind: "wheel", deltaX: 0, deltaY: 100 });
    send({ kind: "scroll", x: 1, y: 1 });
    // While the click is being done, six turns of the wheel wait: one wheel, at the last point.
    for (let i = 0; i < 6; i++) send({ kind: "wheel", x: 100 + i, y: 50, deltaX: 0, deltaY: 100 });
    send({ kind: "key", key: "Enter" });
    send({ kind: "wheel", x: 1, y: 1, deltaX: -30, deltaY: 0 });
    release();
    await vi.advanceTimersByTimeAsync(5 * WHEEL_INTERVAL_MS);
    expect(done).toEqual([
      { kind: "click", x: 10, y: 20, double: false },
      { kind: "wheel", x: 105, y: 50, deltaX: 0, deltaY: 600 },
      { kind: "key", key: "Enter" },
      { kind: "wheel", x: 1, y: 1, deltaX: -30, deltaY: 0 },
    ]);
  });

  it("stops watching when its page goes: with no page left, no more pictures are taken", async () => {
    const page = scriptedPage();
    const feed = new PageFeed({ capture: page.capture, intervalMs: INTERVAL });
    const relay = new ViewRelay(ide, recordingSink(), { page: feed });
    expect(feed.watched).toBe(true);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    relay.stop();
    expect(feed.watched).toBe(false);
    const before = page.taken();
    feed.poke();
    await vi.advanceTimersByTimeAsync(5 * INTERVAL);
    expect(page.taken()).toBe(before);
  });
});
