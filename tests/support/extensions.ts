// Extensions made for tests and the benchmark, loaded beside the built IDE extension in one
// headless Chromium: a plugin that sends requests and keeps what the IDE sends it, and two
// bare echoes (one answering from its worker, one from an extension page) as baselines.
// Their code is plain JavaScript in strings: it runs inside Chromium, and functions from
// this file would carry tsx's `__name` helper, which the browser does not have.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Worker } from "playwright-core";
import { newExtensionKey } from "../../adapters/webextension/extensionId.ts";

export interface MadeExtension {
  id: string;
  dir: string;
}

function writeExtension(name: string, files: Record<string, string>, manifest: Record<string, unknown>): MadeExtension {
  const { key, id } = newExtensionKey();
  const dir = mkdtempSync(join(tmpdir(), `ide-core-${name}-`));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "manifest.json"), JSON.stringify({ manifest_version: 3, name, version: "1.0.0", key, ...manifest }));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return { id, dir };
}

// `plugin` in the worker: send(to, message) gives { reply } or { rejected } (the text of a
// rejection, such as Chromium's "message port closed"); received holds what other extensions
// sent it, answered with `answer` (true unless a test changes it); roundTrips times n
// sequential sends and gives the milliseconds of each.
const PLUGIN_WORKER = `
const received = [];
let answer = true;
chrome.runtime.onMessageExternal.addListener((message, sender, sendResponse) => {
  received.push({ from: sender.id, message });
  sendResponse(answer);
});
globalThis.plugin = {
  received,
  setAnswer(value) { answer = value; },
  async send(to, message) {
    try { return { reply: await chrome.runtime.sendMessage(to, message) }; }
    catch (error) { return { rejected: String((error && error.message) || error) }; }
  },
  async roundTrips(to, message, n) {
    const times = [];
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      await chrome.runtime.sendMessage(to, message);
      times.push(performance.now() - started);
    }
    return times;
  },
};
`;

export function makePluginExtension(name = "test-plugin"): MadeExtension {
  return writeExtension(name, { "worker.js": PLUGIN_WORKER }, { background: { service_worker: "worker.js" } });
}

/** Answers every message with itself, from its service worker: the floor of a round trip. */
export function makeWorkerEcho(): MadeExtension {
  const worker = "chrome.runtime.onMessageExternal.addListener((message, sender, sendResponse) => { sendResponse(message); });\n";
  return writeExtension("echo-worker", { "worker.js": worker }, { background: { service_worker: "worker.js" } });
}

/**
 * Answers every message with itself, from an extension page (open echo.html first), as the IDE
 * window does. With `workerListens`, its worker also listens and leaves every message to the
 * page, as the IDE's worker does while the window is open.
 */
export function makePageEcho(options: { workerListens?: boolean } = {}): MadeExtension {
  const script = "chrome.runtime.onMessageExternal.addListener((message, sender, sendResponse) => { sendResponse(message); });\n";
  const page = '<!doctype html><title>echo</title><script src="echo.js"></script>\n';
  if (!options.workerListens) return writeExtension("echo-page", { "echo.html": page, "echo.js": script }, {});
  const worker = "chrome.runtime.onMessageExternal.addListener(() => false);\n";
  return writeExtension(
    "echo-page-and-worker",
    { "echo.html": page, "echo.js": script, "worker.js": worker },
    { background: { service_worker: "worker.js" } },
  );
}

/** The first service worker `matches` picks, once it runs. */
export async function workerWhere(
  context: BrowserContext,
  matches: (worker: Worker) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<Worker> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = context.serviceWorkers().find(matches);
    if (found) return found;
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`The service worker of ${what} did not start within ${timeoutMs} ms.`);
    await context.waitForEvent("serviceworker", { timeout: left }).catch(() => undefined);
  }
}

/** The worker of the extension `id`, once it runs. */
export function workerOf(context: BrowserContext, id: string): Promise<Worker> {
  return workerWhere(context, (w) => w.url().startsWith(`chrome-extension://${id}/`), `extension ${id}`);
}

export type SendResult = { reply: unknown } | { rejected: string };

/** A plugin's request to `to`, sent from inside the plugin's worker. */
export function sendFrom(plugin: Worker, to: string, message: unknown): Promise<SendResult> {
  return plugin.evaluate(`plugin.send(${JSON.stringify(to)}, ${JSON.stringify(message)})`) as Promise<SendResult>;
}

export function profileDir(): string {
  return mkdtempSync(join(tmpdir(), "ide-core-profile-"));
}
