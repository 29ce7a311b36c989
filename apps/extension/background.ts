/// <reference types="chrome" />
// The extension's background service worker: binds chrome's events to BackgroundRelay
// (relay.ts), whose machine (relay.machine.ts) says what happens to a plugin's request while
// no IDE window answers it.
// Listeners are added at the top level, as MV3 requires for a worker the browser may stop and
// start again for the next event.
import { createIde } from "../../index.ts";
import { BackgroundRelay } from "./relay.ts";
import type { WindowPort } from "./relay.ts";
import { WINDOW_PAGE, WINDOW_PORT } from "../../drivers/webextension/messages.ts";

const pageUrl = chrome.runtime.getURL(WINDOW_PAGE);

const relay = new BackgroundRelay({
  createClosedIde: () => createIde({ window: "closed" }),
  async openWindow() {
    await chrome.windows.create({ url: pageUrl, type: "popup", width: 1280, height: 860, focused: true });
  },
  async windowExists() {
    const contexts = await chrome.runtime.getContexts({ documentUrls: [pageUrl] });
    return contexts.length > 0;
  },
});

chrome.runtime.onMessageExternal.addListener((message, sender, sendResponse) => {
  // The sender is who Chromium says it is; a `sender` field in the message means nothing.
  if (typeof sender.id !== "string" || sender.id === "") return false;
  return relay.receive(message, sender.id, sendResponse);
});

chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== WINDOW_PORT || port.sender?.id !== chrome.runtime.id) return;
  const windowId = port.sender.tab?.windowId;
  const end: WindowPort = {
    post: (message) => {
      try {
        port.postMessage(message);
      } catch {
        // The window went between two messages; its disconnect is on its way.
      }
    },
    focus: () => {
      if (windowId !== undefined) void chrome.windows.update(windowId, { focused: true }).catch(() => {});
    },
  };
  port.onMessage.addListener((message) => relay.fromWindow(end, message));
  port.onDisconnect.addListener(() => relay.disconnected(end));
  relay.connected(end);
});

chrome.action.onClicked.addListener(() => relay.showWindow());

void relay.start();
