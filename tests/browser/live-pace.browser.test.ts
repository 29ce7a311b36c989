// The live view's pace in real Chromium (CONTRACT section 21): the host (startHost, as npm
// start runs it) with the WebDriver page, an IDE page's socket to its relay, and a page under
// test that steps a counter a fixed number of times. While no run plays, the screencast sends a
// frame for about every step; while a run plays it rests between frames, so the same steps are
// a few frames; a still page sends none either way. Counts of frames against counts of steps,
// never times. Never skipped: `npm test` installs Chromium and chromedriver first.
import type { WebDriver } from "selenium-webdriver";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startHost } from "../../apps/host/host.ts";
import type { Host } from "../../apps/host/host.ts";
import { startExampleSite } from "../../drivers/host/site.ts";
import type { ExampleSite } from "../../drivers/host/site.ts";
import { browserPage } from "../../drivers/host/browserPage.ts";
import type { BrowserPage } from "../../drivers/host/browserPage.ts";
import { uiSocket } from "../support/liveFrames.ts";
import type { UiSocket } from "../support/liveFrames.ts";

const WAIT = { timeout: 45_000, interval: 50 };
/** Steps of the counter, one every STEP_MS. */
const STEPS = 40;
const STEP_MS = 50;

let site: ExampleSite;
let driven: BrowserPage;
let host: Host;
let driver: WebDriver;
let ui: UiSocket;

beforeAll(async () => {
  site = await startExampleSite();
  driven = browserPage({ baseUrl: site.url });
  const project = {
    id: "live-pace",
    name: "Live pace",
    url: site.url,
    tests: [
      {
        id: "t-wait",
        name: "A run that waits",
        commands: [
          { id: "c1", command: "open", target: "/shop", value: "" },
          { id: "c2", command: "pause", target: "60000", value: "" },
        ],
      },
    ],
    suites: [],
  };
  host = await startHost({ port: 0, tokenFile: null, project, executor: driven });
  ({ driver } = await driven.sideRuntime());
  await driver.get(`${site.url}/shop`);
  ui = await uiSocket(host);
  await vi.waitFor(() => expect(ui.live()).toBeGreaterThan(0), WAIT);
}, 90_000); // a browser to start, on a machine other suites share

afterAll(async () => {
  await ui?.close();
  await host?.close();
  await driven?.close();
  await site?.close();
}, 30_000);

/** Live frames the socket gets while the page steps its counter STEPS times (waited for), and what was in flight then. */
async function framesOverSteps(): Promise<number> {
  await still();
  const before = ui.live();
  await driver.executeScript(`
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    const box = document.getElementById("live-box") ?? document.body.appendChild(Object.assign(document.createElement("div"), { id: "live-box" }));
    box.style.cssText = "position:fixed;top:0;left:0;width:200px;height:60px;font:20px sans-serif;z-index:9999;background:#fc0";
    window.__steps = 0;
    clearInterval(window.__liveTimer);
    window.__liveTimer = setInterval(() => {
      window.__steps += 1;
      box.textContent = "step " + window.__steps;
      if (window.__steps >= ${STEPS}) clearInterval(window.__liveTimer);
    }, ${STEP_MS});
  `);
  await vi.waitFor(async () => expect(await driver.executeScript("return window.__steps")).toBe(STEPS), WAIT);
  await still();
  return ui.live() - before;
}

/** Waits until a second passes with no frame; the frames that came over that second (none). */
async function still(): Promise<void> {
  for (;;) {
    const before = ui.live();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    if (ui.live() === before) return;
  }
}

/** How many frames come over a second of a page that does not change. */
async function framesOverStillSecond(): Promise<number> {
  await still();
  const before = ui.live();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  return ui.live() - before;
}

describe("the live view's pace", () => {
  it("sends a frame for about every step of the page while no run plays, and none over a still second", async () => {
    expect(host.ide.getSnapshot().playback?.running ?? false).toBe(false);
    const frames = await framesOverSteps();
    // Resting 500 ms after each frame, 40 steps 50 ms apart would be at most 5 frames (9 if the
    // machine's load stretched them to twice as long); a loaded machine merges some steps.
    expect(frames).toBeGreaterThanOrEqual(STEPS / 3);
    expect(await framesOverStillSecond()).toBe(0);
  });

  it("rests between frames while a run plays, so the same steps are a few frames, and sends none over a still second", async () => {
    host.ide.send({ type: "user.startPlayback", testId: "t-wait" });
    await vi.waitFor(() => expect(host.ide.getSnapshot().playback?.currentCommandId).toBe("c2"), WAIT);
    try {
      const frames = await framesOverSteps();
      expect(frames).toBeGreaterThan(0);
      expect(frames).toBeLessThanOrEqual(STEPS / 4);
      expect(await framesOverStillSecond()).toBe(0);
      expect(host.ide.getSnapshot().playback?.status).toBe("running");
    } finally {
      host.ide.send({ type: "user.stopPlayback" });
      await vi.waitFor(() => expect(host.ide.getSnapshot().playback?.status).toBe("ended"), WAIT);
    }
  });

  it("sends every step again once the run has ended", async () => {
    const frames = await framesOverSteps();
    expect(frames).toBeGreaterThanOrEqual(STEPS / 3);
  });
});
