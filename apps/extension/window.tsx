/// <reference types="chrome" />
// The IDE window (ide.html): the core (createIde) and the IDE UI in one extension page.
// Plugins' messages reach it directly (door.ts) or through the background worker (relay.ts);
// the statecharts show the door and the relay beside the core's machines (charts.ts);
// outbound messages leave with chrome.runtime.sendMessage; runs play in the tab under test
// (tabPage.ts) and locators resolve there (tabs.ts); the saved project is kept in storage
// (workspace.ts), and the unsaved changes in the journal (journal.ts), offered back as
// "Restore unsaved changes" when a window starts after one closed with changes unsaved. The window holds the run: the worker, which the browser may
// stop, is not needed for a run to go on. Runs keep their traces in the window's IndexedDB,
// pictured after each page command, and the window's time travel reads them (traces.ts).
// When the core's window closes (POST /close, or the user's "Close the IDE") the page closes
// itself; when the page closes, every request still waiting is answered IdeNotActive, and a
// run under way ends as if the user pressed Stop: its plugins hear playbackStopped, sent
// before the page is gone.
import { render } from "preact";
import { createIde } from "../../index.ts";
import type { Ide, OutboundMessage } from "../../index.ts";
import { fail } from "../../machines/replies.ts";
import { App } from "../../ui/App.tsx";
import { localTransport } from "../../drivers/view/localTransport.ts";
import "../../ui/styles.css";
import { toWire } from "../../core/protocol/wire.ts";
import { extensionCharts, withCharts } from "./charts.ts";
import { WindowDoor } from "./door.ts";
import { KEEP_ALIVE_MS, readToWindow, WINDOW_PORT } from "../../drivers/webextension/messages.ts";
import type { ToBackground } from "../../drivers/webextension/messages.ts";
import { tabPage } from "../../drivers/webextension/tabPage.ts";
import { debuggerInput } from "../../drivers/webextension/debugger.ts";
import { saveToComputer } from "../../drivers/webextension/save.ts";
import { locatorsInTabUnderTest, tabUnderTestId } from "../../drivers/webextension/tabs.ts";
import { findInTabUnderTest } from "../../drivers/webextension/findInTab.ts";
import { recordInTabUnderTest } from "../../drivers/webextension/recording.ts";
import { pickInTabUnderTest } from "../../drivers/webextension/pointing.ts";
import { checksInContextMenu } from "../../drivers/webextension/contextChecks.ts";
import { keepWorkspace, loadWorkspace, restoreUnsaved } from "./workspace.ts";
import { readStoredJournal, storageJournal } from "./journal.ts";
import { extensionTraceSource, storedTraceMode } from "./traces.ts";
import { traceKeeper } from "../../drivers/traces/traceStore.ts";
import { tracedBy } from "../../drivers/traces/tracedExecutor.ts";
import { picturePolicy } from "../../services/traces/index.ts";
import { tabEyes } from "../../drivers/webextension/camera.ts";
import { indexedDbTraces } from "../../drivers/webextension/traceShelf.ts";
import { carriedDataReader } from "../../drivers/webextension/dataFiles.ts";

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

/** A run's tab is picked as the run starts, so its plugins' commands carry the tab's ids from the first. */
function followRuns(core: Ide, executor: Pick<ReturnType<typeof tabPage>, "beginRun">, underWay: (yes: boolean) => void) {
  let lastRun: string | null = null;
  core.subscribe((view) => {
    const run = view.playback;
    underWay(run?.running === true);
    if (!run?.running || run.runId === lastRun) return;
    lastRun = run.runId;
    executor.beginRun(run.runId);
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
  const savedAt = workspace?.savedAt ?? 0;
  const found = await readStoredJournal(chrome.storage.local, savedAt);
  const trace = await storedTraceMode(chrome.storage.local);
  // The run's clicks and keys as trusted input, through chrome.debugger (Chromium shows its
  // debugging bar while held), which hears the tab's console errors for the traces too.
  const trustedInput = debuggerInput({ console: trace.mode !== "off" });
  const tabs = tabPage({ trustedInput });
  // CONTRACT section 17: each run's trace in IndexedDB, a picture after each page command.
  const kept = trace.mode === "off" ? null : indexedDbTraces();
  const traces = kept ? traceKeeper(kept.shelf, { problem: (message) => console.error(message) }) : null;
  const executor = traces ? tracedBy(tabs, traces, tabEyes(() => tabs.current(), trustedInput.console), picturePolicy(trace.mode)) : tabs;
  let runUnderWay = false;
  // Pointing at the page (CONTRACT section 21): picks in the tab under test.
  const pick = pickInTabUnderTest();
  const core = createIde({
    project: workspace?.project,
    deliver,
    save: saveToComputer,
    executor,
    trace: trace.mode,
    traces: traces ?? undefined,
    // While a run is under way, plugins resolve locators in its tab and frame.
    resolveLocator: locatorsInTabUnderTest(() => (runUnderWay ? executor.current() : null)),
    // "Find target in page" and the alternatives' counts (CONTRACT section 21), where locators resolve.
    findInPage: findInTabUnderTest(() => (runUnderWay ? executor.current() : null)),
    pickInPage: pick.pickInPage,
    tabUnderTest: tabUnderTestId(() => (runUnderWay ? executor.current() : null)),
    // loadVars reads the data files the project carries: the extension cannot read the disk.
    readData: carriedDataReader(() => core.getProject()),
    // Forgetting the journal (a load, a save, a discard) keeps the new saved project in the same write.
    journal: storageJournal(chrome.storage.local, found, () => core.getSavedProject()),
  });
  followRuns(core, executor, (yes) => (runUnderWay = yes));
  // Recording (CONTRACT section 14): the user's actions in the tab under test.
  recordInTabUnderTest(core);
  pick.follow(core);
  // The checks in the tab's context menu while recording; tests reach Chrome's click through it.
  Object.defineProperty(globalThis, "ideCoreContextMenu", { value: checksInContextMenu(core) });
  ide = core;
  // For the window's DevTools console (and the record benchmark): the window's core, as createIde gave it.
  Object.defineProperty(globalThis, "ideCore", { value: core });
  restoreUnsaved(core, workspace);
  if (problem) console.error(problem);
  if (trace.problem) console.error(trace.problem);
  keepWorkspace(core, chrome.storage.local, (reason) => console.error(`The project could not be kept: ${reason}`), savedAt);
  closeWhenTheCoreCloses(core);

  root.replaceChildren();
  const traceSource = kept && traces ? extensionTraceSource(kept, traces) : undefined;
  // "Save as…" is the browser's save dialog (chrome.downloads, saveAs: true), which every save here opens.
  const transport = { ...withCharts(localTransport(core), extensionCharts(door)), saveAs: () => core.send({ type: "user.saveProject" }) };
  render(<App transport={transport} waitingText="Starting the IDE…" traces={traceSource} />, root);

  // The window is going: the core ends a run under way as Stop does, and the messages that
  // tells plugins (playbackStopped) are sent at once, before the page is torn down; their
  // answers are not waited for.
  addEventListener("pagehide", () => {
    closing = true;
    door.abandon(toWire(fail("IdeNotActive", "The IDE window was closed.")));
    core.send({ type: "user.closeWindow" });
  });
  setInterval(() => post({ type: "keepAlive" }), KEEP_ALIVE_MS);
  connect(core);
}

void main();
