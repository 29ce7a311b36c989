/// <reference types="chrome" />
// The recorder's content script (recorder.js), declared in the manifest for every frame of
// every tab (all_frames) so each new document, a navigation's or a new frame's, has it from
// the start. It records only where the IDE window says so: each document asks once as it
// loads (recorder.hello: "is my tab the one recorded?"), and only a frame of the recorded tab
// opens a port to the window (RECORDER_PORT), on which the window starts and stops it and it
// reports what it recorded; each start brings the project's recording settings. A port rather than a runtime.onMessage listener here: that would
// answer, empty, the messages the window sends content.js (locators and page commands), which
// must learn instead that content.js is not there yet.
// The extension's own messaging is out of the page's scripts' reach (this script's world is
// isolated, and the manifest lets no web page message the extension); and the recorder
// (drivers/recorder/) listens to trusted events only, so a page cannot forge a command.
import type { BuildOptions } from "../../services/locators/builders.ts";
import { attachRecorder } from "../recorder/recorder.ts";
import { setUpPointing } from "./pointingContent.ts";
import { readRecorderControl, RECORDER_PORT } from "./recording.ts";
import type { RecorderActionMessage, RecorderHelloMessage, RecorderStartedMessage } from "./recording.ts";

const LOADED = "__ideCoreRecorder";
const scope = globalThis as typeof globalThis & { [LOADED]?: () => void };

// Injected again by the window when a recording starts (a tab opened before the extension, or
// before the window was there to answer): it asks again, and never runs twice.
if (scope[LOADED]) scope[LOADED]();
else {
  let port: chrome.runtime.Port | null = null;
  let detach: (() => void) | null = null;
  // The project's recording settings, as the last start brought them (read at each command).
  let settings: BuildOptions = {};
  const stop = () => {
    detach?.();
    detach = null;
  };
  const start = () => {
    detach ??= attachRecorder(
      window,
      (action) => {
        const message: RecorderActionMessage = { type: "recorder.action", action };
        try {
          port?.postMessage(message);
        } catch {
          // The window went away: the recording ended with it.
        }
      },
      () => settings,
    );
  };
  const connect = () => {
    if (port) return;
    const current = chrome.runtime.connect({ name: RECORDER_PORT });
    port = current;
    current.onMessage.addListener((value) => {
      const told = readRecorderControl(value);
      if (told?.control === "start") {
        settings = told.settings;
        start();
        // The window tells the core of the page once every frame listens (recording.ts).
        const started: RecorderStartedMessage = { type: "recorder.started" };
        current.postMessage(started);
      } else if (told?.control === "stop") stop();
    });
    current.onDisconnect.addListener(() => {
      void chrome.runtime.lastError;
      if (port === current) port = null;
      stop();
    });
  };
  const hello = () => {
    const message: RecorderHelloMessage = { type: "recorder.hello" };
    chrome.runtime
      .sendMessage(message)
      .then((answer: unknown) => {
        if ((answer as { record?: unknown } | undefined)?.record === true) connect();
      })
      .catch(() => {
        // No IDE window is open: nothing records.
      });
  };
  scope[LOADED] = hello;
  // Pointing at the page (a check from the context menu, Select target in page), recording or not.
  setUpPointing(window);
  hello();
}
