// The live view's pace (drivers/host/screencastPace.ts) on a fake clock: a fake browser that,
// like Chromium's screencast, sends a frame at each change of the page only while it is started
// and has fewer than two frames waiting for their acknowledgement.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FRAME_INTERVAL_MS, REST_CHECK_MS, REST_MS, ScreencastPace } from "../../drivers/host/screencastPace.ts";

/** A page whose picture changes `changesPerSecond` times a second (0: still), screencast under `playing`. */
function fakeBrowser(playing: () => boolean) {
  let started = true;
  let screencast = 1; // Chromium numbers each started screencast anew
  let inFlight = 0;
  let picture = 0;
  let drawn = -1; // the picture last sent
  let owed = true; // a newly started screencast sends the page as it is
  const handed: number[] = [];
  const asked = { stops: 0, starts: 0, acks: 0 };
  const pace = new ScreencastPace(
    {
      stop: () => {
        asked.stops += 1;
        started = false;
        inFlight = 0;
      },
      start: () => {
        asked.starts += 1;
        started = true;
        screencast += 1;
        owed = true;
        send();
      },
      ack: (frame) => {
        asked.acks += 1;
        if (frame === screencast && inFlight > 0) inFlight -= 1;
        send();
      },
    },
    playing,
  );
  function send() {
    if (!started || inFlight >= 2 || (!owed && drawn === picture)) return;
    owed = false;
    drawn = picture;
    inFlight += 1;
    if (pace.frame(screencast, `picture ${picture}`)) handed.push(picture);
  }
  return {
    pace,
    handed,
    asked,
    /** The page changes once (a step of an animation). */
    change() {
      picture += 1;
      send();
    },
    start: () => send(),
  };
}

/** Steps the page `steps` times, one every `everyMs`, on the fake clock. */
async function animate(browser: ReturnType<typeof fakeBrowser>, steps: number, everyMs: number) {
  for (let i = 0; i < steps; i++) {
    browser.change();
    await vi.advanceTimersByTimeAsync(everyMs);
  }
}

describe("the live view's pace", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("hands on a frame for every step of an animation while no run plays, and never rests", async () => {
    const browser = fakeBrowser(() => false);
    browser.start();
    // 100 steps, one every 50 ms: five seconds of an animation at 20 steps a second.
    await animate(browser, 100, 50);
    expect(browser.handed.length).toBe(101); // the page as it was, then each step
    expect(browser.asked.stops).toBe(0);
    expect(browser.asked.acks).toBe(101);
  });

  it("hands on at most one frame every FRAME_INTERVAL_MS while no run plays, however fast the page changes, and the last step always", async () => {
    const browser = fakeBrowser(() => false);
    browser.start();
    // 200 steps one every 5 ms: a second, against 25 frames a second at most.
    await animate(browser, 200, 5);
    await vi.advanceTimersByTimeAsync(10 * FRAME_INTERVAL_MS);
    const seconds = (200 * 5) / 1000;
    expect(browser.handed.length).toBeGreaterThanOrEqual(10 * seconds);
    expect(browser.handed.length).toBeLessThanOrEqual((1000 / FRAME_INTERVAL_MS) * seconds + 3);
    expect(browser.handed.at(-1)).toBe(200);
  });

  it("rests REST_MS after each frame while a run plays, so the same animation is a few frames a second", async () => {
    const browser = fakeBrowser(() => true);
    browser.start();
    await animate(browser, 100, 50);
    // Five seconds: one frame, then one a rest (REST_MS, then the next change).
    const seconds = (100 * 50) / 1000;
    expect(browser.handed.length).toBeLessThanOrEqual(Math.ceil((seconds * 1000) / REST_MS) + 1);
    expect(browser.handed.length).toBeGreaterThanOrEqual(Math.floor((seconds * 1000) / (REST_MS + 100)));
    expect(browser.asked.stops).toBe(browser.handed.length);
  });

  it("stops resting as soon as the run stops playing, and rests again when the next run plays", async () => {
    let playing = true;
    const browser = fakeBrowser(() => playing);
    browser.start();
    await animate(browser, 40, 50);
    const duringRun = browser.handed.length;
    playing = false;
    await animate(browser, 40, 50);
    const afterRun = browser.handed.length - duringRun;
    // Two seconds each: a few frames a second during the run, every step after it.
    expect(duringRun).toBeLessThanOrEqual(Math.ceil(2_000 / REST_MS) + 1);
    expect(afterRun).toBeGreaterThanOrEqual(38);
    const stops = browser.asked.stops;
    playing = true;
    await animate(browser, 40, 50);
    expect(browser.asked.stops - stops).toBeGreaterThanOrEqual(2);
    expect(browser.handed.length - duringRun - afterRun).toBeLessThanOrEqual(Math.ceil(2_000 / REST_MS) + 1);
  });

  it("ends a rest within REST_CHECK_MS of the run's end, so the run's last page is shown at once", async () => {
    let playing = true;
    const browser = fakeBrowser(() => playing);
    browser.start();
    expect(browser.pace.resting).toBe(true);
    const starts = browser.asked.starts;
    await vi.advanceTimersByTimeAsync(REST_CHECK_MS);
    expect(browser.asked.starts).toBe(starts); // still playing: still resting
    browser.change(); // the run's last step, while it rests
    playing = false;
    await vi.advanceTimersByTimeAsync(REST_CHECK_MS);
    expect(browser.pace.resting).toBe(false);
    expect(browser.asked.starts).toBe(starts + 1);
    expect(browser.handed.at(-1)).toBe(1);
  });

  it("sends nothing while the page is still, and after a rest hands on nothing that did not change", async () => {
    for (const playing of [false, true]) {
      const browser = fakeBrowser(() => playing);
      browser.start();
      await animate(browser, 3, 50);
      await vi.advanceTimersByTimeAsync(2 * REST_MS);
      const handed = browser.handed.length;
      const starts = browser.asked.starts;
      await vi.advanceTimersByTimeAsync(5_000);
      expect(browser.handed.length).toBe(handed);
      expect(browser.asked.starts).toBe(starts);
      // And the next change is shown at once.
      browser.change();
      expect(browser.handed.at(-1)).toBe(4);
    }
  });

  it("asks nothing of the browser once stopped", async () => {
    const browser = fakeBrowser(() => true);
    browser.start();
    browser.change();
    browser.pace.stop();
    const asked = { ...browser.asked };
    await vi.advanceTimersByTimeAsync(5 * REST_MS);
    browser.change();
    expect(browser.asked).toEqual(asked);
  });
});
