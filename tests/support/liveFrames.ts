// The page panel's live frames as an IDE page's socket gets them (the host's /ui), for the
// tests that check the screencast on a local browser and through a Grid: a socket that counts
// the `page` messages, and a page under test that animates, then stops.
import type { WebDriver } from "selenium-webdriver";
import { expect, vi } from "vitest";
import WebSocket from "ws";
import type { Host } from "../../apps/host/host.ts";
import type { PageMessage } from "../../drivers/view/messages.ts";

export interface UiSocket {
  /** Every `page` message the socket got, in order. */
  pages: PageMessage[];
  /** How many of them were live frames. */
  live(): number;
  close(): Promise<void>;
}

/** An IDE page's socket to the host's relay, reading every message. */
export async function uiSocket(host: Host): Promise<UiSocket> {
  const socket = new WebSocket(`ws://127.0.0.1:${host.port}/ui?token=${host.token}`, { origin: `http://127.0.0.1:${host.port}`, handshakeTimeout: 10_000 });
  const pages: PageMessage[] = [];
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as { type: string };
    if (message.type === "page") pages.push(message as PageMessage);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  return {
    pages,
    live: () => pages.filter((p) => p.live === true).length,
    async close() {
      if (socket.readyState === WebSocket.CLOSED) return;
      const closed = new Promise((resolve) => socket.once("close", resolve));
      socket.close();
      await closed;
    },
  };
}

/** A box in the page under test that changes its text and colour every 30 ms; nothing has the focus (no caret blinks). */
export async function startAnimation(driver: WebDriver): Promise<void> {
  await driver.executeScript(`
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    const box = document.getElementById("live-box") ?? document.body.appendChild(Object.assign(document.createElement("div"), { id: "live-box" }));
    box.style.cssText = "position:fixed;top:0;left:0;width:200px;height:60px;font:20px sans-serif;z-index:9999";
    let n = 0;
    clearInterval(window.__liveTimer);
    window.__liveTimer = setInterval(() => {
      n += 1;
      box.textContent = "frame " + n;
      box.style.background = n % 2 ? "#fc0" : "#0cf";
    }, 30);
  `);
}

export async function stopAnimation(driver: WebDriver): Promise<void> {
  await driver.executeScript("clearInterval(window.__liveTimer);");
}

/**
 * Frames while the page animates (waited for, within `limitMs`), then how many come over a
 * quiet second once the animation stopped and what was in flight has arrived.
 */
export async function framesAnimatingThenQuiet(driver: WebDriver, ui: { live(): number }, limitMs: number): Promise<{ animating: number; quiet: number }> {
  const before = ui.live();
  await startAnimation(driver);
  await vi.waitFor(() => expect(ui.live() - before).toBeGreaterThan(5), { timeout: limitMs, interval: 50 });
  await stopAnimation(driver);
  const animating = ui.live() - before;
  // Frames drawn before the animation stopped may still be on their way.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const settled = ui.live();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  return { animating, quiet: ui.live() - settled };
}
