// Time travel (CONTRACT section 17): the page as it was after a command, read from the kept runs
// of a trace source (ui/traces.ts: the host's over HTTP, the extension's IndexedDB). "Runs" picks the run: the one in the command table (its
// selected command, once the run is paused or over) or a kept one of the last 20, whose
// commands are listed here (also an ended test of a suite picked in the run bar: its kept
// run is chosen). Left/Right step through the commands. Shown for the selected
// command: the picture ("The page after command N: COMMAND"), its duration, the locator that
// found its element, and for a failed or fatal one its message, the console errors and a link
// to the DOM snapshot. A command's picture is written just after it ends, so a trace still being
// written is read again (a few times) for a picture not there yet. What is picked and what was read is this panel's own state (the IDE's
// machines know nothing of it: reading files is I/O, and looking back changes no run).
import { useEffect, useRef, useState } from "preact/hooks";
import type { CommandRow, RunSummary, TestSummary } from "../protocol.ts";
import { runLabel, stepOfCommand, traceOfPlayed, traceOfRun } from "../traces.ts";
import type { PlayedTest, TraceManifest, TraceSource, TraceStep, TraceSummary } from "../traces.ts";

/** Left/Right as a step through `count` commands from `index`; null for any other key. */
export function steppedIndex(key: string, index: number | null, count: number): number | null {
  if (count === 0 || (key !== "ArrowLeft" && key !== "ArrowRight")) return null;
  if (index === null) return key === "ArrowRight" ? 0 : count - 1;
  return Math.min(count - 1, Math.max(0, index + (key === "ArrowRight" ? 1 : -1)));
}

/** How often, and how far apart, a trace still being written is read again for a picture not written yet. */
const PICTURE_TRIES = 8;
const PICTURE_RETRY_MS = 250;

const isField = (target: EventTarget | null) => target instanceof HTMLElement && target.closest("input, select, textarea") !== null;

/** The address of one of a run's files while it is shown (null until the source gave it), released after. */
function useTraceFile(source: TraceSource, traceId: string, file: string | null | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    setUrl(null);
    if (!file) return;
    let current = true;
    let given: string | null = null;
    source.file(traceId, file).then(
      (address) => {
        given = address;
        if (current) setUrl(address);
        else source.release?.(address);
      },
      () => current && setUrl(null),
    );
    return () => {
      current = false;
      if (given !== null) source.release?.(given);
    };
  }, [source, traceId, file]);
  return url;
}

function StepDetails({ source, traceId, step, number, name }: { source: TraceSource; traceId: string; step: TraceStep | null; number: number; name: string }) {
  const label = `The page after command ${number}: ${name}`;
  const picture = useTraceFile(source, traceId, step?.screenshot);
  const dom = useTraceFile(source, traceId, step?.failure?.dom);
  if (!step) return <p class="empty" data-testid="trace-missing">Command {number} ({name}) has no trace: it did not run.</p>;
  const failed = step.state === "failed" || step.state === "fatal";
  return (
    <div class="trace-step" data-testid="trace-step">
      {step.screenshot ? (
        <div class="page-view trace-view">
          {picture ? <img class="page-shot" src={picture} alt={label} /> : <p class="empty">Reading the picture…</p>}
        </div>
      ) : (
        <p class="empty">No picture of the page after command {number}: {name}.</p>
      )}
      <dl class="trace-facts">
        <dt>Command</dt>
        <dd>
          {number}: {name} <span class={`badge state-${step.state ?? "none"}`}>{step.state ?? "not run"}</span>
        </dd>
        <dt>Duration</dt>
        <dd data-testid="trace-duration">{step.endedAt === null ? "did not end" : `${Math.max(0, step.endedAt - step.startedAt)} ms`}</dd>
        <dt>Locator</dt>
        <dd data-testid="trace-locator">{step.locator ? <code>{step.locator}</code> : "none"}</dd>
        {failed && (
          <>
            <dt>Message</dt>
            <dd data-testid="trace-message">{step.message ?? ""}</dd>
            <dt>Console errors</dt>
            <dd>
              {step.failure && step.failure.consoleErrors.length > 0 ? (
                <ul data-testid="trace-console">
                  {step.failure.consoleErrors.map((line, i) => (
                    <li key={i}>{line}</li>
                  ))}
                </ul>
              ) : (
                "none"
              )}
            </dd>
            <dt>Page</dt>
            <dd>
              {step.failure?.dom && dom ? (
                <a href={dom} target="_blank" rel="noopener noreferrer">
                  Open the DOM snapshot
                </a>
              ) : (
                "no DOM snapshot"
              )}
            </dd>
          </>
        )}
      </dl>
    </div>
  );
}

function PastSteps({ manifest, index, onSelect }: { manifest: TraceManifest; index: number | null; onSelect(index: number): void }) {
  return (
    <table class="commands trace-commands" data-testid="trace-commands" tabIndex={0} aria-label={`Commands of ${manifest.testName}`}>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Command</th>
          <th scope="col">Target</th>
          <th scope="col">State</th>
        </tr>
      </thead>
      <tbody>
        {manifest.steps.map((step, i) => (
          <tr key={i} data-testid="trace-row" class={i === index ? "selected" : undefined} aria-current={i === index ? "true" : undefined} onClick={() => onSelect(i)}>
            <td class="command-index">{step.index}</td>
            <td class="command-name">{step.command}</td>
            <td>
              <code>{step.target}</code>
            </td>
            <td>
              <span class={`badge state-${step.state ?? "none"}`}>{step.state ?? "not run"}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface TracePanelProps {
  playback: RunSummary | null;
  commands: readonly CommandRow[];
  /** The command selected in the command table (index), or null. */
  selected: number | null;
  /** Where the kept runs are read. */
  source: TraceSource;
  /** An ended test of a suite the user picked in the run bar: its kept run is opened here (each pick once). */
  opened?: { played: PlayedTest; pick: number } | null;
  /** The project's tests, to name a picked test that has no kept run. */
  tests?: readonly TestSummary[];
}

export function TracePanel({ playback, commands, selected, source, opened = null, tests = [] }: TracePanelProps) {
  const [runs, setRuns] = useState<TraceSummary[]>([]);
  /** The kept run picked in "Runs"; "" is the run in the command table. */
  const [chosen, setChosen] = useState("");
  const [manifest, setManifest] = useState<TraceManifest | null>(null);
  const [pastIndex, setPastIndex] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const looking = playback !== null && (playback.status === "paused" || playback.status === "ended");
  const runTrace = playback ? traceOfRun(runs, playback.runId, playback.testId) : null;
  const traceId = chosen !== "" ? chosen : (runTrace?.traceId ?? null);

  // The list again when a run pauses or ends, a command is picked, or "Runs" is opened; never
  // command by command while a run plays (the run is not to wait for the page's reading).
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    let current = true;
    source.runs().then(
      (list) => current && (setRuns(list), setProblem(null)),
      (error: Error) => current && setProblem(error.message),
    );
    return () => void (current = false);
  }, [source, playback?.runId, looking, selected, chosen, asked]);

  // The manifest of the run looked at, read again as the run in view moves on (a paused run's grows).
  const [again, setAgain] = useState(0);
  useEffect(() => {
    if (traceId === null || (chosen === "" && !looking)) return setManifest(null);
    let current = true;
    source.trace(traceId).then(
      (read) => current && (setManifest(read), setProblem(null)),
      (error: Error) => current && setProblem(error.message),
    );
    return () => void (current = false);
  }, [source, traceId, chosen, looking, playback?.currentCommandId, playback?.status, selected, again]);

  useEffect(() => setPastIndex(null), [chosen]);

  // A test of the suite picked in the run bar: its kept run, read from a fresh list, is chosen in "Runs".
  const panel = useRef<HTMLElement>(null);
  const [notKept, setNotKept] = useState<string | null>(null);
  useEffect(() => {
    if (opened === null) return;
    let current = true;
    source.runs().then(
      (list) => {
        if (!current) return;
        setRuns(list);
        const found = traceOfPlayed(list, opened.played);
        const name = tests.find((t) => t.id === opened.played.testId)?.name ?? opened.played.testId;
        setNotKept(found ? null : `No trace of "${name}" in that run is kept (traces are off, or it passed under retain-on-failure, or it is older than the last 20).`);
        if (found) setChosen(found.traceId);
        panel.current?.scrollIntoView?.({ block: "nearest" });
      },
      (error: Error) => current && setProblem(error.message),
    );
    return () => void (current = false);
  }, [opened]);
  useEffect(() => setNotKept(null), [chosen, playback?.runId]);

  const past = chosen !== "" && manifest?.traceId === chosen ? manifest : null;
  let shown: { step: TraceStep | null; number: number; name: string } | null = null;
  if (chosen === "" && looking && selected !== null && commands[selected]) {
    shown = { step: stepOfCommand(manifest, commands[selected].id), number: selected + 1, name: commands[selected].command };
  } else if (past && pastIndex !== null && past.steps[pastIndex]) {
    const step = past.steps[pastIndex];
    shown = { step, number: step.index, name: step.command };
  }

  // A command's picture is written just after it ended (drivers/traces/traceStore.ts): one read
  // of a trace still being written (a test of a suite may still be, after the suite ended) may
  // come before it, so it is read again, a few times; a command without one (control flow, a
  // picture that could not be taken) is read no more after that.
  const waitsForPicture = shown?.step != null && shown.step.endedAt !== null && shown.step.screenshot === null;
  const shownKey = `${traceId}/${chosen === "" ? selected : pastIndex}`;
  const [tries, setTries] = useState({ key: "", count: 0 });
  useEffect(() => {
    const count = tries.key === shownKey ? tries.count : 0;
    if (!waitsForPicture || count >= PICTURE_TRIES) return;
    const timer = setTimeout(() => {
      setTries({ key: shownKey, count: count + 1 });
      setAgain((n) => n + 1);
    }, PICTURE_RETRY_MS);
    return () => clearTimeout(timer);
  }, [waitsForPicture, shownKey, manifest]);

  return (
    <section
      class="panel trace-panel"
      ref={panel}
      aria-labelledby="trace-heading"
      data-testid="trace-panel"
      onKeyDown={(event) => {
        if (!past || isField(event.target)) return;
        const next = steppedIndex(event.key, pastIndex, past.steps.length);
        if (next === null) return;
        event.preventDefault();
        setPastIndex(next);
      }}
    >
      <h2 id="trace-heading">The page after a command</h2>
      <label>
        Runs{" "}
        <select data-testid="trace-runs" value={chosen} onFocus={() => setAsked((n) => n + 1)} onChange={(event) => setChosen((event.currentTarget as HTMLSelectElement).value)}>
          <option value="">The run in the command table</option>
          {runs.map((run) => (
            <option key={run.traceId} value={run.traceId}>
              {runLabel(run)}
            </option>
          ))}
        </select>
      </label>
      {problem && (
        <p class="load-error" role="alert" data-testid="trace-problem">
          {problem}
        </p>
      )}
      {notKept && (
        <p class="hint" role="status" data-testid="trace-not-kept">
          {notKept}
        </p>
      )}
      {chosen === "" && !shown && (
        <p class="hint" data-testid="trace-hint">
          {looking
            ? "Select a command in the command table (Left/Right step through them) to see the page as it was after it."
            : "Once a run is paused or over, select one of its commands to see the page as it was after it."}
        </p>
      )}
      {past && <PastSteps manifest={past} index={pastIndex} onSelect={setPastIndex} />}
      {shown && traceId !== null && <StepDetails source={source} traceId={traceId} {...shown} />}
    </section>
  );
}
