// The run panel: pick a test case (or a suite) of the loaded project and play it; stop,
// pause, resume and step it; set breakpoints and the delay between commands; and watch the
// run: its status and result, the suite's position, the current command, each command's
// state as it changes, and the run's variables. Before a run the picked test's commands are
// shown from the project, so breakpoints can be set on them. The picked test is the editor's
// displayed test (picking here shows it there and the other way round); a run shows its own. Everything the run is comes from
// the IDE; the only state kept here is what the user picked and is typing.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";
import { MAX_DELAY_MS } from "../../services/playback/delay.ts";
import type { CommandRow, RunSummary, SuiteSummary, TestSummary, UiView } from "../protocol.ts";
import type { PlayedTest } from "../traces.ts";
import { CommandsTable } from "./CommandsTable.tsx";
import { VariablesTable } from "./VariablesTable.tsx";

const STATUS_TEXT: Record<RunSummary["status"], string> = {
  idle: "idle",
  starting: "starting",
  running: "running",
  paused: "paused",
  finishing: "finishing",
  ended: "ended",
};

/** A project test's commands as rows without state, made once per test so rows that do not change are not drawn again. */
const outlineRows = new WeakMap<TestSummary, CommandRow[]>();
function rowsOfTest(test: TestSummary): CommandRow[] {
  let rows = outlineRows.get(test);
  if (!rows) {
    rows = test.commands.map((c) => ({ ...c, state: null, message: null }));
    outlineRows.set(test, rows);
  }
  return rows;
}

function DelayInput({ delayMs, runDelayMs, send }: { delayMs: number; runDelayMs: number | null; send: (event: UserEventMessage) => void }) {
  // The field is the user's while they edit it: the IDE's value is written into it only when
  // it changes and the field does not have the focus, and again when the field loses it.
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  /** A delay sent and not yet back from the IDE: the field keeps showing it. */
  const sent = useRef<number | null>(null);
  useEffect(() => {
    sent.current = null;
    if (input.current && document.activeElement !== input.current) input.current.value = String(delayMs);
  }, [delayMs]);
  const commit = () => {
    const text = input.current?.value ?? "";
    const ms = Number(text);
    if (text.trim() === "" || !Number.isInteger(ms) || ms < 0 || ms > MAX_DELAY_MS) {
      setProblem("The delay is a whole number of milliseconds from 0 to 10,000.");
      return;
    }
    setProblem(null);
    if (ms !== delayMs) {
      sent.current = ms;
      send({ type: "user.setPlaybackDelay", ms });
    }
  };
  return (
    <div class="delay">
      <label>
        Delay between commands{" "}
        <input
          ref={input}
          type="number"
          data-testid="delay"
          min={0}
          max={MAX_DELAY_MS}
          step={100}
          defaultValue={String(delayMs)}
          aria-invalid={problem !== null ? "true" : undefined}
          aria-describedby={problem !== null ? "delay-problem" : undefined}
          onChange={commit}
          onKeyDown={(event) => {
            if (event.key === "Enter") commit();
          }}
          onBlur={() => {
            if (problem === null && input.current) input.current.value = String(sent.current ?? delayMs);
          }}
        />{" "}
        ms
      </label>
      {runDelayMs !== null && runDelayMs !== delayMs && (
        <span class="hint" data-testid="run-delay">
          {" "}
          (this run: {runDelayMs} ms, set by setSpeed)
        </span>
      )}
      {problem !== null && (
        <p class="field-problem" id="delay-problem" role="alert" data-testid="delay-problem">
          {problem}
        </p>
      )}
    </div>
  );
}

/**
 * A suite's tests as the run started them, each with its status and result; several play at
 * once in a parallel suite, and the user picks whose commands the table shows. A failed test
 * played again (--retries) has an entry per try, "(try N)" from the second.
 */
function SuiteRuns({ run, tests, send, openTrace }: { run: RunSummary; tests: TestSummary[]; send: (event: UserEventMessage) => void; openTrace?: (played: PlayedTest) => void }) {
  const runs = run.suite?.runs ?? [];
  if (runs.length < 2) return null;
  const nameOf = (testId: string) => tests.find((t) => t.id === testId)?.name ?? testId;
  // A test tried again shows its last try (the one kept): only that entry is the one shown.
  const isShown = (i: number) => {
    const r = runs[i];
    return r.runId === run.runId && r.testId === run.testId && !runs.slice(i + 1).some((o) => o.runId === r.runId && o.testId === r.testId);
  };
  const occurrence = (i: number) => runs.slice(0, i).filter((o) => o.runId === runs[i].runId && o.testId === runs[i].testId).length;
  return (
    <ul class="suite-runs" data-testid="suite-runs" aria-label="Tests of the suite">
      {runs.map((r, i) => {
        // The IDE keeps the commands of the tests playing and of the one shown; an ended test
        // besides those is looked at in its trace (the Trace panel opens it), where traces are kept.
        const inTrace = openTrace !== undefined && r.status === "ended" && !isShown(i);
        return (
          <li key={`${r.runId}/${r.testId}/${r.tryNo}`} data-testid="suite-run" data-status={r.status} data-try={r.tryNo}>
            <button
              type="button"
              aria-pressed={isShown(i)}
              title={inTrace ? "Show this test's trace: the page after each of its commands" : "Show this test's commands"}
              onClick={() =>
                inTrace ? openTrace({ runId: r.runId, testId: r.testId, occurrence: occurrence(i) }) : send({ type: "user.showTestRun", runId: r.runId })
              }
            >
              {nameOf(r.testId)}
              {r.tryNo > 1 && ` (try ${r.tryNo})`}
            </button>{" "}
            <span class={`tag tag-${r.status}`}>{STATUS_TEXT[r.status]}</span>
            {r.result !== null && " "}
            {r.result !== null && <span class={`badge result-${r.result}`}>{r.result}</span>}
          </li>
        );
      })}
    </ul>
  );
}

function RunStatus({ run, rows }: { run: RunSummary; rows: readonly CommandRow[] }) {
  const currentIndex = run.currentCommandId === null ? -1 : rows.findIndex((r) => r.id === run.currentCommandId);
  const current = currentIndex >= 0 ? rows[currentIndex] : null;
  return (
    <div class="run-summary">
      <p class="run-line" data-testid="run-status" role="status" data-status={run.status}>
        <strong>{run.testName}</strong>{" "}
        {run.tryNo > 1 && (
          <span class="tag" data-testid="run-try" title="A failed test is played again at once (--retries)">
            try {run.tryNo}
          </span>
        )}
        {run.tryNo > 1 && " "}
        <span class={`tag tag-${run.status}`} data-testid="run-state">
          {STATUS_TEXT[run.status]}
        </span>
        {run.result !== null && (
          <span class={`badge result-${run.result}`} data-testid="run-result">
            {run.result}
          </span>
        )}
        {run.status === "paused" && current !== null && (
          <span class="run-where" data-testid="paused-at">
            {" "}
            before command {currentIndex + 1}, {current.command}
          </span>
        )}
      </p>
      {run.suite !== null && (
        <p class="run-suite" data-testid="run-suite">
          Suite <strong>{run.suite.name}</strong>: test {run.suite.testIndex + 1} of {run.suite.tests.length}
        </p>
      )}
    </div>
  );
}

export function PlaybackPanel({
  tests,
  suites,
  playback,
  commands,
  runControls,
  displayedTestId,
  travel,
  send,
}: {
  tests: TestSummary[];
  suites: SuiteSummary[];
  playback: RunSummary | null;
  commands: CommandRow[];
  runControls: UiView["runControls"];
  /** The test the editor shows: picking a test here shows it there, and the other way round. */
  displayedTestId: string | null;
  /**
   * Time travel: the run's command selected, and picking one (once the run is paused or over and
   * the host keeps traces); `open` looks at an ended test of the suite in its trace.
   */
  travel?: { selected: number | null; select(index: number): void; open(played: PlayedTest): void };
  send: (event: UserEventMessage) => void;
}) {
  const [pickedTest, setPickedTest] = useState<string | null>(null);
  const [pickedSuite, setPickedSuite] = useState<string | null>(null);
  // A new run (the user's, or a plugin's) shows itself: the picks give way to it.
  const runId = playback?.runId ?? null;
  useEffect(() => {
    setPickedTest(null);
    setPickedSuite(null);
  }, [runId]);
  // A test picked in the editor is picked here too.
  useEffect(() => {
    if (displayedTestId !== null) setPickedTest(displayedTestId);
  }, [displayedTestId]);

  const running = playback?.running === true;
  const status = playback?.status ?? "idle";
  const hasTest = (id: string | null | undefined): id is string => tests.some((t) => t.id === id);
  const hasSuite = (id: string | null | undefined): id is string => suites.some((s) => s.id === id);
  // While a run is under way its test is shown; else the user's pick, the last run's test, or the first.
  const shownTestId = running
    ? playback!.testId
    : hasTest(pickedTest)
      ? pickedTest
      : hasTest(playback?.testId)
        ? playback!.testId
        : hasTest(displayedTestId)
          ? displayedTestId
          : (tests[0]?.id ?? "");
  const shownSuiteId = running && hasSuite(playback?.suite?.id) ? playback!.suite!.id : hasSuite(pickedSuite) ? pickedSuite : (suites[0]?.id ?? "");
  const shownTest = tests.find((t) => t.id === shownTestId) ?? null;
  const showsRun = playback !== null && playback.testId === shownTestId;
  const rows = showsRun ? commands : shownTest ? rowsOfTest(shownTest) : [];
  const breakpoints = useMemo(() => new Set(runControls.breakpoints), [runControls.breakpoints.join("\u0000")]);
  const pausable = playback?.canPause === true;

  return (
    <section class="panel" aria-labelledby="playback-heading" data-testid="playback">
      <h2 id="playback-heading">Playback</h2>
      <div class="buttons run-pick">
        <label>
          Test{" "}
          <select
            data-testid="test-picker"
            value={shownTestId}
            disabled={tests.length === 0 || running}
            onChange={(event) => {
              const testId = (event.currentTarget as HTMLSelectElement).value;
              setPickedTest(testId);
              send({ type: "user.selectTest", testId });
            }}
          >
            {tests.map((test) => (
              <option key={test.id} value={test.id}>
                {test.name}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          class="primary"
          disabled={shownTest === null || running}
          onClick={() => send({ type: "user.startPlayback", testId: shownTestId })}
        >
          Play
        </button>
        <label>
          Suite{" "}
          <select
            data-testid="suite-picker"
            value={shownSuiteId}
            disabled={suites.length === 0 || running}
            onChange={(event) => setPickedSuite((event.currentTarget as HTMLSelectElement).value)}
          >
            {suites.length === 0 && <option value="">no suites</option>}
            {suites.map((suite) => (
              <option key={suite.id} value={suite.id}>
                {suite.name}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          disabled={shownSuiteId === "" || running}
          onClick={() => send({ type: "user.startSuite", suiteId: shownSuiteId })}
        >
          Play suite
        </button>
      </div>
      <div class="buttons run-controls" role="group" aria-label="Run controls">
        <button
          type="button"
          class="danger"
          disabled={!(pausable || status === "paused")}
          onClick={() => send({ type: "user.stopPlayback" })}
        >
          Stop
        </button>
        {status === "paused" ? (
          <button type="button" onClick={() => send({ type: "user.resumePlayback" })}>
            Resume
          </button>
        ) : (
          <button type="button" disabled={!pausable} onClick={() => send({ type: "user.pausePlayback" })}>
            Pause
          </button>
        )}
        <button type="button" disabled={status !== "paused"} onClick={() => send({ type: "user.stepPlayback" })}>
          Step
        </button>
        <DelayInput delayMs={runControls.delayMs} runDelayMs={running ? playback!.delayMs : null} send={send} />
      </div>
      {playback === null ? (
        <p class="empty" data-testid="no-run">
          No test case has run yet.
        </p>
      ) : (
        <>
          <RunStatus run={playback} rows={commands} />
          <SuiteRuns run={playback} tests={tests} send={send} openTrace={travel?.open} />
        </>
      )}
      {playback !== null && !showsRun && shownTest !== null && (
        <p class="hint" data-testid="shown-test-note">
          Showing "{shownTest.name}" as the project has it; the last run played "{playback.testName}".
        </p>
      )}
      {rows.length > 0 ? (
        <CommandsTable
          rows={rows}
          breakpoints={breakpoints}
          currentCommandId={showsRun && running ? playback!.currentCommandId : null}
          paused={status === "paused"}
          selectedIndex={travel?.selected ?? null}
          onSelect={travel && showsRun && (status === "paused" || status === "ended") ? travel.select : undefined}
          send={send}
        />
      ) : (
        shownTest !== null && <p class="empty">"{shownTest.name}" has no commands.</p>
      )}
      {playback !== null && <VariablesTable variables={playback.variables} />}
    </section>
  );
}
