/// <reference types="chrome" />
// The recorder's content script (recorder.js), declared in the manifest for every frame of
// every tab (all_frames) so each new document, a navigation's or a new frame's, has it from
// the start. It records only where the IDE window says so: each document opens a port to the
// window (RECORDER_PORT) as it loads, and the window answers on it when its tab is the one
// recorded, and again when a recording starts and stops. A port rather than runtime.onMessage:
// a listener here would answer, empty, the messages the window sends content.js (locators and
// page commands), where it must learn instead that content.js is not there yet.
// Commands go back on the port, the extension's own messaging, which the page's scripts cannot
// reach (this script's world is isolated, and the manifest lets no web page message the
// extension); and the recorder (drivers/recorder/) listens to trusted events only, so a page
// cannot forge a command.
import { attachRecorder } from "../recorder/recorder.ts";
import { readRecorderControl, RECORDER_PORT } from "./recording.ts";
import type { RecorderActionMessage } from "./recording.ts";

const LOADED = "__ideCoreRecorder";
const scope = globalThis as typeof globalThis & { [LOADED]?: () => void };

// Injected again by the window (a tab opened before the extension, or before the window, whose
// port reached no window): it connects again, and never runs twice.
if (scope[LOADED]) scope[LOADED]();
else {
  let port: chrome.runtime.Port | null = null;
  let detach: (() => void) | null = null;
  const stop = () => {
    detach?.();
    detach = null;
  };
  const start = () => {
    detach ??= attachRecorder(window, (action) => {
      const message: RecorderActionMessage = { type: "recorder.action", action };
      try {
        port?.postMessage(message);
      } catch {
        // The window went away: the recording ended with it.
      }
    });
  };
  const connect = () => {
    const previous = port;
    port = null;
    previous?.disconnect();
    const current = chrome.runtime.connect({ name: RECORDER_PORT });
    port = current;
    current.onMessage.addListener((value) => {
      const control = readRecorderControl(value);
      if (control === "start") start();
      else if (control === "stop") stop();
    });
    current.onDisconnect.addListener(() => {
      void chrome.runtime.lastError; // no IDE window: nothing records
      if (port === current) port = null;
      stop();
    });
  };
  scope[LOADED] = connect;
  connect();
}
