// The page: the header and control banner on top, the open dialog over everything, the
// project, plugins and playback beside the test editor and the log, and the statecharts
// below. Where the IDE is comes in as a transport: the host's socket, or an IDE running in
// the same page; the transport may also resolve locators (the editor's "Find").
import { useEffect, useMemo, useState } from "preact/hooks";
import { useIdeConnection } from "./connection.ts";
import type { UiTransport } from "./connection.ts";
import { Dialog } from "./components/Dialog.tsx";
import { ExportPanel } from "./components/ExportPanel.tsx";
import { Header } from "./components/Header.tsx";
import { LogsPanel } from "./components/LogsPanel.tsx";
import { PagePanel } from "./components/PagePanel.tsx";
import { PlaybackPanel } from "./components/PlaybackPanel.tsx";
import { PluginsPanel } from "./components/PluginsPanel.tsx";
import { ProjectPanel } from "./components/ProjectPanel.tsx";
import { RecordingSettings } from "./components/RecordingSettings.tsx";
import { Statecharts } from "./components/Statecharts.tsx";
import { TestEditor } from "./components/TestEditor.tsx";
import { TracePanel } from "./components/TracePanel.tsx";
import { hostTraces } from "./traces.ts";
import type { PlayedTest, TraceSource } from "./traces.ts";

export interface AppProps {
  /** How the page reaches the IDE; keep one per page (a new transport is a new connection). */
  transport: UiTransport;
  /** Shown until the first update arrives. */
  waitingText?: string;
  /** Where kept runs are read for time travel: the extension's own; else the host's, when its hello says it keeps them. */
  traces?: TraceSource;
}

export function App({ transport, waitingText = "Waiting for the IDE host…", traces }: AppProps) {
  const [state, send] = useIdeConnection(transport);
  const traceSource = traces ?? (state.traces ? hostTraces : null);
  const view = state.view;
  const resolveLocator = useMemo(() => (transport.resolveLocator ? transport.resolveLocator.bind(transport) : null), [transport]);
  const exportCode = useMemo(() => (transport.exportCode ? transport.exportCode.bind(transport) : null), [transport]);
  const pageInput = useMemo(() => (transport.pageInput ? transport.pageInput.bind(transport) : null), [transport]);
  // Time travel's selected command of the run in view: the page's own (no machine holds it), dropped when a new run starts.
  const [travelIndex, setTravelIndex] = useState<number | null>(null);
  const runId = state.playback?.runId ?? null;
  const testId = state.playback?.testId ?? null;
  useEffect(() => setTravelIndex(null), [runId, testId]);
  // An ended test of a suite, picked in the Playback panel, is looked at in its trace (each pick a new one, the same test again too).
  const [opened, setOpened] = useState<{ played: PlayedTest; pick: number } | null>(null);
  const travel = useMemo(
    () =>
      traceSource
        ? { selected: travelIndex, select: setTravelIndex, open: (played: PlayedTest) => setOpened((before) => ({ played, pick: (before?.pick ?? 0) + 1 })) }
        : undefined,
    [traceSource, travelIndex],
  );
  return (
    <div class="app" data-status={state.status}>
      <Header status={state.status} view={view} send={send} />
      {view === null ? (
        <main class="main">
          <p class="loading">{waitingText}</p>
        </main>
      ) : (
        <main class="main">
          <div class="column">
            {view.window === "open" ? (
              <>
                <ProjectPanel project={view.project} send={send}>
                  <RecordingSettings settings={view.recordingSettings} healing={view.healing} send={send} />
                </ProjectPanel>
                <PluginsPanel plugins={view.plugins} controller={view.control.controller} />
                <PlaybackPanel
                  tests={state.tests}
                  suites={state.suites}
                  playback={state.playback}
                  commands={state.commands}
                  runControls={view.runControls}
                  displayedTestId={view.displayedTestId}
                  travel={travel}
                  send={send}
                />
                {exportCode && (
                  <ExportPanel tests={state.tests} suites={state.suites} displayedTestId={view.displayedTestId} exportCode={exportCode} />
                )}
              </>
            ) : (
              <section class="panel closed-notice" data-testid="closed-notice">
                <h2>The IDE window is closed</h2>
                <p>
                  Plugins are answered IdeNotActive until it opens again; a plugin asking for control opens it. The project
                  "{view.project.name}" and its unsaved changes are kept.
                </p>
              </section>
            )}
          </div>
          <div class="column column-wide">
            {view.window === "open" && (
              <TestEditor
                view={view}
                tests={state.tests}
                playback={state.playback}
                runCommands={state.commands}
                send={send}
                resolveLocator={resolveLocator}
              />
            )}
            {state.pages && <PagePanel page={state.page} onInput={pageInput} />}
            {traceSource && (
              <TracePanel playback={state.playback} commands={state.commands} selected={travelIndex} source={traceSource} opened={opened} tests={state.tests} />
            )}
            <LogsPanel logs={state.logs} dropped={view.logsDropped} />
          </div>
          <Statecharts charts={state.charts} values={state.states} />
        </main>
      )}
      {view?.dialog && <Dialog dialog={view.dialog} send={send} />}
    </div>
  );
}
