// The picture of the page under test for the UI's "Page under test" panel: its URL, its title
// and a small JPEG of what it shows, taken over the Chrome DevTools Protocol.
//
// Two ways, the first that works for the session:
// - straight to the browser over its one DevTools connection (devtoolsConnection.ts: the
//   browser's own endpoint, or a Grid's `se:cdp`): a capture then never waits behind the run's
//   WebDriver commands in chromedriver's queue, nor holds them up. Used when that endpoint is
//   reachable from here and knows the window WebDriver drives;
// - else through WebDriver (chromedriver's `goog/cdp/execute`, `getCurrentUrl`, `getTitle`):
//   every Chromium driver has it, but each capture queues with the run's commands. A remote
//   end without it gives the URL and title and no image.
//
// The picture is the visible viewport, scaled so it is at most IMAGE_WIDTH CSS pixels wide.
// Everything the browser sends back is read with zod; a capture that fails rejects, and the
// caller (drivers/view/pageFeed.ts) drops it.
import type { WebDriver } from "selenium-webdriver";
import { z } from "zod";
import type { PageShot } from "../view/messages.ts";
import { devToolsOf } from "./devtoolsConnection.ts";
import type { DevToolsConnection, PageTarget } from "./devtoolsConnection.ts";

/** The picture's width in CSS pixels at most: a page up to this wide is pictured at its own size, so its text reads in the panel. */
export const IMAGE_WIDTH = 1280;
const JPEG_QUALITY = 60;

const Viewport = z.object({
  cssVisualViewport: z.object({ pageX: z.number(), pageY: z.number(), clientWidth: z.number(), clientHeight: z.number() }),
});
const Screenshot = z.object({ data: z.string() });

/** The viewport as a small JPEG data URL, and its size in CSS pixels, through whichever way `send` reaches the page. */
async function viewportJpeg(send: (method: string, params?: Record<string, unknown>) => Promise<unknown>): Promise<{ image: string; width: number; height: number }> {
  const { cssVisualViewport: viewport } = Viewport.parse(await send("Page.getLayoutMetrics"));
  const width = Math.max(1, viewport.clientWidth);
  const height = Math.max(1, viewport.clientHeight);
  const scale = Math.min(1, IMAGE_WIDTH / width);
  const { data } = Screenshot.parse(
    await send("Page.captureScreenshot", {
      format: "jpeg",
      quality: JPEG_QUALITY,
      // Half the browser's CPU per picture (about 13 ms instead of 30 here), for the same bytes.
      optimizeForSpeed: true,
      clip: { x: viewport.pageX, y: viewport.pageY, width, height, scale },
    }),
  );
  return { image: `data:image/jpeg;base64,${data}`, width, height };
}

/** The browser's page that WebDriver drives now; rejects when it is not among the browser's pages. */
export async function drivenTarget(connection: DevToolsConnection, driver: WebDriver): Promise<PageTarget> {
  const open = await connection.pages();
  // One window is the one WebDriver drives; with more, WebDriver says which (one queued call).
  let target = open.length === 1 ? open[0] : undefined;
  if (!target) {
    const current = await driver.getWindowHandle();
    target = open.find((t) => t.targetId === current);
  }
  if (!target) throw new Error("the window WebDriver drives is not among the browser's pages");
  return target;
}

export interface PageCamera {
  /** The page WebDriver drives now: its URL, title and picture. Rejects when it cannot be taken. */
  capture(): Promise<PageShot>;
  /** False once it can take no more pictures (its DevTools connection closed): make a new one. */
  usable(): boolean;
  close(): void;
}

/** Straight to the browser over its one DevTools connection (devtoolsConnection.ts), or null when there is none. */
async function directCamera(driver: WebDriver): Promise<PageCamera | null> {
  const connection = await devToolsOf(driver);
  if (!connection) return null;
  // The camera's own session in each page it takes; one the browser drops is attached again.
  const sessions = new Map<string, Promise<string>>();
  const stopListening = connection.listen((method, params) => {
    if (method !== "Target.detachedFromTarget" || typeof params.sessionId !== "string") return;
    for (const [targetId, session] of sessions) void session.then((id) => id === params.sessionId && sessions.delete(targetId), () => {});
  });
  const sessionOf = (targetId: string) => {
    let session = sessions.get(targetId);
    if (!session) {
      session = connection.attach(targetId);
      session.catch(() => sessions.delete(targetId));
      sessions.set(targetId, session);
    }
    return session;
  };
  return {
    async capture() {
      const target = await drivenTarget(connection, driver);
      const sessionId = await sessionOf(target.targetId);
      const { image, width, height } = await viewportJpeg((method, params) => connection.send(method, params, sessionId));
      return { url: target.url, title: target.title, image, width, height, at: Date.now() };
    },
    usable: () => connection.isOpen,
    close() {
      stopListening();
      // The connection is the browser's, not the camera's: only the camera's sessions go.
      for (const session of sessions.values()) void session.then((sessionId) => connection.send("Target.detachFromTarget", { sessionId }), () => {}).catch(() => {});
      sessions.clear();
    },
  };
}

/** Through WebDriver itself: chromedriver's CDP command for the picture, when the remote end has it. */
export function webdriverCamera(driver: WebDriver): PageCamera {
  const cdp = (driver as unknown as { sendAndGetDevToolsCommand?: (cmd: string, params?: object) => Promise<unknown> }).sendAndGetDevToolsCommand;
  let imageWorks = typeof cdp === "function";
  return {
    async capture() {
      const url = await driver.getCurrentUrl();
      const title = await driver.getTitle();
      let image: string | null = null;
      let size: { width?: number; height?: number } = {};
      if (imageWorks) {
        try {
          const shot = await viewportJpeg((method, params) => cdp!.call(driver, method, params ?? {}));
          image = shot.image;
          size = { width: shot.width, height: shot.height };
        } catch {
          imageWorks = false; // a remote end without it: URL and title only from now on
        }
      }
      return { url, title, image, ...size, at: Date.now() };
    },
    usable: () => true,
    close() {},
  };
}

/** The camera for one WebDriver session: straight to DevTools when it can be, else through WebDriver. */
export async function pageCamera(driver: WebDriver): Promise<PageCamera> {
  return (await directCamera(driver).catch(() => null)) ?? webdriverCamera(driver);
}
