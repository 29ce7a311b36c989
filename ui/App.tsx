// The page, one IDE layout (DESIGN, Round 5): the header with the project's line (undo, redo,
// new, save, save as, load) and the control banner; at the side the tests and suites (with the
// picked suite's settings), the project's settings, the plugins and code export; in the middle
// the run's bar over ONE command table, edited and played in place, with the command form
// under it; beside it the page under test; under both, tabs for the log, the variables, the
// commands' reference, the kept runs (time travel) and the statecharts. The open dialog goes
// over everything. Where the IDE is comes in as a transport: the host's socket, or an IDE
// running in the same page; the transport may also resolve locators (the form's "Find"),
// export code and save with the browser's own dialog.
import { useEffect, useMemo, useState } from "preact/hooks";
import { useIdeConnection } from "./connection.ts";
import { pageFinder, PageFinderContext } from "./pageFinder.ts";
import type { UiTransport } from "./connection.ts";
import { commandChoices } from "./commandNames.ts";
import { Dialog } from "./components/Dialog.tsx";
import { ExportPanel } from "./components/ExportPanel.tsx";
import { Header } from "./components/Header.tsx";
import { LogsPanel } from "./components/LogsPanel.tsx";
import { PagePanel } from "./components/PagePanel.tsx";
import { PlaybackPanel } from "./components/PlaybackPanel.tsx";
import { PluginsPanel } from "./components/PluginsPanel.tsx";
import { ProjectSettings } from "./components/ProjectSettings.tsx";
import { DataFiles } from "./components/DataFiles.tsx";
import { RecordingSettings } from "./components/RecordingSettings.tsx";
import { ReferencePanel } from "./components/ReferencePanel.tsx";
import { Statecharts } from "./components/Statecharts.tsx";
import { SuiteList } from "./components/SuiteList.tsx";
import { Tabs } from "./components/Tabs.tsx";
import type { TabSpec } from "./components/Tabs.tsx";
import { TestEditor } from "./components/TestEditor.tsx";
import { TestList } from "./components/TestList.tsx";
import { TracePanel } from "./components/TracePanel.tsx";
import { VariablesTable } from "./components/VariablesTable.tsx";
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
  // "Find target in page" and the alternatives' counts; counted again when the page under test may have changed.
  const pageKey = [state.page?.url, state.page?.title, state.playback?.runId, state.playback?.status, view?.recording?.startedAt].join("\n");
  const playing = ["starting", "running", "finishing"].includes(state.playback?.status ?? "idle");
  const finder = useMemo(() => (transport.findInPage ? pageFinder(transport.findInPage.bind(transport), pageKey, playing) : null), [transport, pageKey, playing]);
  const pageInput = useMemo(() => (transport.pageInput ? transport.pageInput.bind(transport) : null), [transport]);
  const saveAs = useMemo(() => (transport.saveAs ? transport.saveAs.bind(transport) : null), [transport]);
  const [tab, setTab] = useState("log");

  // The table follows a run's test (a suite's next one too) until the user picks a test.
  const runId = state.playback?.runId ?? null;
  const runTestId = state.playback?.testId ?? null;
  const displayedTestId = view?.displayedTestId ?? null;
  const [picked, setPicked] = useState(false);
  useEffect(() => setPicked(true), [displayedTestId]);
  useEffect(() => setPicked(false), [runId]);
  const following = state.playback !== null && (state.playback.running || !picked) && state.tests.some((t) => t.id === runTestId);
  const shownTestId = following ? runTestId : displayedTestId;
  const shownTest = state.tests.find((t) => t.id === shownTestId) ?? null;

  // The suite picked at the side: the page's own choice, the first until the user picks one.
  const [pickedSuite, setPickedSuite] = useState<string | null>(null);
  const runSuiteId = state.playback?.running ? (state.playback.suite?.id ?? null) : null;
  const suiteId = [runSuiteId, pickedSuite].find((id) => state.suites.some((s) => s.id === id)) ?? state.suites[0]?.id ?? null;

  // Time travel's selected command of the run in view: the page's own (no machine holds it), dropped when a new run starts.
  const [travelIndex, setTravelIndex] = useState<number | null>(null);
  useEffect(() => setTravelIndex(null), [runId, runTestId]);
  const [opened, setOpened] = useState<{ played: PlayedTest; pick: number } | null>(null);
  const status = state.playback?.status;
  const looking = traceSource !== null && state.playback !== null && state.playback.testId === shownTestId && (status === "paused" || status === "ended");
  const travel = useMemo(
    () =>
      looking
        ? {
            index: travelIndex,
            select(index: number) {
              setTravelIndex(index);
              setTab("runs");
            },
          }
        : null,
    [looking, travelIndex],
  );
  const openTrace = useMemo(
    () =>
      traceSource
        ? (played: PlayedTest) => {
            setOpened((before) => ({ played, pick: (before?.pick ?? 0) + 1 }));
            setTab("runs");
          }
        : undefined,
    [traceSource],
  );
  const breakpointKey = view?.runControls.breakpoints.join("\u0000") ?? "";
  const breakpoints = useMemo(() => new Set(view?.runControls.breakpoints ?? []), [breakpointKey]);
  const choices = useMemo(() => commandChoices(view?.plugins ?? []), [view?.plugins]);
  const selectedCommand = shownTest?.commands.find((c) => c.id === view?.selectedCommandId)?.command ?? null;

  if (view === null) {
    return (
      <div class="app" data-status={state.status}>
        <Header status={state.status} view={null} send={send} saveAs={saveAs} />
        <main class="main">
          <p class="loading">{waitingText}</p>
        </main>
      </div>
    );
  }

  const tabs: TabSpec[] = [
    { id: "log", label: "Log", render: () => <LogsPanel logs={state.logs} dropped={view.logsDropped} /> },
    { id: "variables", label: "Variables", render: () => <VariablesTable variables={state.playback?.variables ?? {}} /> },
    { id: "reference", label: "Reference", render: () => <ReferencePanel choices={choices} selectedCommand={selectedCommand} /> },
    ...(traceSource
      ? [
          {
            id: "runs",
            label: "Runs",
            render: () => (
              <TracePanel
                playback={state.playback}
                commands={state.commands}
                selected={looking ? travelIndex : null}
                source={traceSource}
                opened={opened}
                tests={state.tests}
              />
            ),
          },
        ]
      : []),
    { id: "statecharts", label: "Statecharts", render: () => <Statecharts charts={state.charts} values={state.states} /> },
  ];

  return (
    <div class="app" data-status={state.status}>
      <Header status={state.status} view={view} send={send} saveAs={saveAs} />
      {view.window === "open" ? (
        <main class={state.pages ? "ide with-page" : "ide"}>
          <aside class="side" aria-label="Tests, suites and the project">
            <TestList
              tests={state.tests}
              displayedTestId={displayedTestId}
              shownTestId={shownTestId}
              playingTestIds={state.playback?.playingTestIds ?? []}
              send={send}
              onPick={() => setPicked(true)}
            />
            <SuiteList suites={state.suites} tests={state.tests} pickedSuiteId={suiteId} running={state.playback?.running === true} send={send} onPick={setPickedSuite} />
            <ProjectSettings name={view.project.name} url={state.url} send={send}>
              <RecordingSettings settings={view.recordingSettings} healing={view.healing} send={send} />
              <DataFiles files={view.dataFiles} send={send} />
            </ProjectSettings>
            <PluginsPanel plugins={view.plugins} controller={view.control.controller} />
            {exportCode && <ExportPanel tests={state.tests} suites={state.suites} displayedTestId={displayedTestId} exportCode={exportCode} />}
          </aside>
          <div class="work">
            <PlaybackPanel
              shownTest={shownTest}
              tests={state.tests}
              playback={state.playback}
              commands={state.commands}
              runControls={view.runControls}
              openTrace={openTrace}
              send={send}
            />
            <PageFinderContext.Provider value={finder}>
              <TestEditor
                view={view}
                shown={shownTest}
                playback={state.playback}
                runCommands={state.commands}
                breakpoints={breakpoints}
                travel={travel}
                send={send}
                resolveLocator={resolveLocator}
              />
            </PageFinderContext.Provider>
          </div>
          {state.pages && (
            <div class="page-column">
              <PagePanel page={state.page} onInput={pageInput} recording={view.recording !== null} pick={view.pick} send={send} />
            </div>
          )}
          <div class="bottom">
            <Tabs label="Log, variables, reference, runs and statecharts" tabs={tabs} chosen={tab} onChoose={setTab} />
          </div>
        </main>
      ) : (
        <main class="ide closed">
          <section class="panel closed-notice" data-testid="closed-notice">
            <h2>The IDE window is closed</h2>
            <p>
              Plugins are answered IdeNotActive until it opens again; a plugin asking for control opens it. The project "{view.project.name}" and its
              unsaved changes are kept.
            </p>
          </section>
          <div class="bottom">
            <Tabs label="Log, variables, reference, runs and statecharts" tabs={tabs} chosen={tab} onChoose={setTab} />
          </div>
        </main>
      )}
      {view.dialog && <Dialog dialog={view.dialog} send={send} />}
    </div>
  );
}
