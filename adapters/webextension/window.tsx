/// <reference types="chrome" />
// The IDE window (ide.html): the core (createIde) and the IDE UI in one extension page.
// Plugins' messages reach it directly (door.ts) or through the background worker (relay.ts);
// the statecharts show the door and the relay beside the core's machines (charts.ts);
// outbound messages leave with chrome.runtime.sendMessage; locators resolve in the tab under
// test (tabs.ts); the project and its unsaved changes are kept in storage (workspace.ts).
// When the core's window closes (POST /close, or the user's "Close the IDE") the page closes
// itself; when the page closes, every request still waiting is answered IdeNotActive.
import { render } from "preact";
import { createIde } from "../../index.ts";
import type { Ide, OutboundMessage } from "../../index.ts";
import { fail } from "../../machines/replies.ts";
import { App } from "../../ui/App.tsx";
import { localTransport } from "../../ui/localTransport.ts";
import "../../ui/styles.css";
import { toWire } from "../protocol/wire.ts";
import { extensionCharts, withCharts } from "./charts.ts";
import { WindowDoor } from "./door.ts";
import { KEEP_ALIVE_MS, readToWindow, WINDOW_PORT } from "./messages.ts";
import type { ToBackground } from "./messages.ts";
import { saveToComputer } from "./save.ts";
import { resolveInTabUnderTest, tabUnderTestId } from "./tabs.ts";
import { keepWorkspace, loadWorkspace, restoreUnsaved } from "./workspace.ts";

/** How long the page stays after its core closed, so the last replies leave first. */
const CLOSE_DELAY_MS = 100;
const RECONNECT_DELAY_MS = 50;

let ide: Ide | null = null;
let closing = false;
let port: chrome.runtime.Port | null = null;

const door = new WindowDoor((message, senderId) => ide!.handle(message, { id: senderId }));

// Added before anything async: a message that arrives while the page starts is held, not lost.
chrome.runtime.onMessageExternal.addListener((message, sender, sendResponse) => {
  if (typeof sender.id !== "string" || sender.id === "") return false;
  return door.receive(message, sender.id, sendResponse);
});

const deliver = (pluginId: string, message: OutboundMessage) => chrome.runtime.sendMessage(pluginId, message);

function post(message: ToBackground) {
  try {
    port?.postMessage(message);
  } catch {
    // The port closed between two messages; its disconnect handler makes a new one.
  }
}

function connect(core: Ide) {
  const current = chrome.runtime.connect({ name: WINDOW_PORT });
  port = current;
  current.onMessage.addListener((value) => {
    const message = readToWindow(value);
    if (message?.type === "request") {
      void core.handle(message.message, { id: message.senderId }).then((reply) => {
        if (port === current) post({ type: "reply", id: message.id, reply });
      });
    } else if (message?.type === "live") {
      door.goLive(message.forwarded);
    } else if (message?.type === "duplicate") {
      // Another IDE window was open first; it has been brought to the front.
      closing = true;
      window.close();
    }
  });
  current.onDisconnect.addListener(() => {
    if (port === current) port = null;
    door.pause();
    // The background worker was stopped by the browser: wake it with a new port.
    if (!closing) setTimeout(() => connect(core), RECONNECT_DELAY_MS);
  });
}

function closeWhenTheCoreCloses(core: Ide) {
  core.subscribe((view) => {
    if (view.window !== "closed" || closing) return;
    closing = true;
    setTimeout(() => window.close(), CLOSE_DELAY_MS);
  });
}

async function main() {
  const root = document.getElementById("app")!;
  const { workspace, problem } = await loadWorkspace(chrome.storage.local);
  const core = createIde({
    project: workspace?.project,
    deliver,
    save: saveToComputer,
    resolveLocator: resolveInTabUnderTest,
    tabUnderTest: tabUnderTestId,
  });
  ide = core;
  restoreUnsaved(core, workspace);
  if (problem) console.error(problem);
  keepWorkspace(core, chrome.storage.local, (reason) => console.error(`The project could not be kept: ${reason}`));
  closeWhenTheCoreCloses(core);

  root.replaceChildren();
  render(<App transport={withCharts(localTransport(core), extensionCharts(door))} waitingText="Starting the IDE…" />, root);

  addEventListener("pagehide", () => {
    closing = true;
    door.abandon(toWire(fail("IdeNotActive", "The IDE window was closed.")));
    core.send({ type: "user.closeWindow" });
  });
  setInterval(() => post({ type: "keepAlive" }), KEEP_ALIVE_MS);
  connect(core);
}

void main();
