// The run's bar above the command table: Play the shown test; Stop, Pause or Resume, and Step
// the run; the delay between commands; and the run's line: its status and result, where it
// paused, the suite's position and the suite's tests as they play. The commands' states are on
// the table's own rows, the variables in their tab. Everything the run is comes from the IDE;
// the only state kept here is what the user is typing.
import { useEffect, useRef, useState } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";
import { MAX_DELAY_MS } from "../../services/playback/delay.ts";
import type { CommandRow, RunSummary, TestSummary, UiView } from "../protocol.ts";
import type { PlayedTest } from "../traces.ts";
import { DataRowsLine } from "./DataRow.tsx";

const STATUS_TEXT: Record<RunSummary["status"], string> = {
  idle: "idle",
  starting: "starting",
  running: "running",
  paused: "paused",
  finishing: "finishing",
  ended: "ended",
};

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
    <ul class="suite-runs" data-testid="suite-runs" aria-label="The suite's run, test by test">
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
      <p class="run-line" data-testid="run-status" role="status" data-status={run.status} data-run-id={run.runId}>
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
      <DataRowsLine rows={run.dataRows} />
      {run.suite !== null && (
        <p class="run-suite" data-testid="run-suite">
          Suite <strong>{run.suite.name}</strong>: test {run.suite.testIndex + 1} of {run.suite.tests.length}
        </p>
      )}
    </div>
  );
}

export function PlaybackPanel({
  shownTest,
  tests,
  playback,
  commands,
  runControls,
  openTrace,
  send,
}: {
  /** The test the table shows: Play plays it. */
  shownTest: TestSummary | null;
  tests: TestSummary[];
  playback: RunSummary | null;
  commands: CommandRow[];
  runControls: UiView["runControls"];
  /** Time travel, where traces are kept: an ended test of the suite looked at in its trace. */
  openTrace?: (played: PlayedTest) => void;
  send: (event: UserEventMessage) => void;
}) {
  const running = playback?.running === true;
  const status = playback?.status ?? "idle";
  const pausable = playback?.canPause === true;
  return (
    <section class="run-bar" aria-label="Playback" data-testid="playback">
      <div class="buttons run-controls" role="group" aria-label="Run controls">
        <button
          type="button"
          class="primary"
          disabled={shownTest === null || running}
          title={shownTest ? `Plays "${shownTest.name}"` : undefined}
          onClick={() => shownTest && send({ type: "user.startPlayback", testId: shownTest.id })}
        >
          Play
        </button>
        <button type="button" class="danger" disabled={!(pausable || status === "paused")} onClick={() => send({ type: "user.stopPlayback" })}>
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
          <SuiteRuns run={playback} tests={tests} send={send} openTrace={openTrace} />
        </>
      )}
    </section>
  );
}
