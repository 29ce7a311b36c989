// Time travel (CONTRACT section 17): the page as it was after a command, read from the host's
// kept runs (ui/traces.ts). "Runs" picks the run: the one in the run panel (its table's
// selected command, once the run is paused or over) or a kept one of the last 20, whose
// commands are listed here. Left/Right step through the commands. Shown for the selected
// command: the picture ("The page after command N: COMMAND"), its duration, the locator that
// found its element, and for a failed or fatal one its message, the console errors and a link
// to the DOM snapshot. A command's picture is written just after it ends, so a trace still being
// written is read again (a few times) for a picture not there yet. What is picked and what was read is this panel's own state (the IDE's
// machines know nothing of it: reading files is I/O, and looking back changes no run).
import { useEffect, useState } from "preact/hooks";
import type { CommandRow, RunSummary } from "../protocol.ts";
import { fetchRuns, fetchTrace, runLabel, stepOfCommand, traceOfRun, traceUrl } from "../traces.ts";
import type { TraceManifest, TraceStep, TraceSummary } from "../traces.ts";

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

function StepDetails({ traceId, step, number, name }: { traceId: string; step: TraceStep | null; number: number; name: string }) {
  const label = `The page after command ${number}: ${name}`;
  if (!step) return <p class="empty" data-testid="trace-missing">Command {number} ({name}) has no trace: it did not run.</p>;
  const failed = step.state === "failed" || step.state === "fatal";
  return (
    <div class="trace-step" data-testid="trace-step">
      {step.screenshot ? (
        <div class="page-view trace-view">
          <img class="page-shot" src={traceUrl(traceId, step.screenshot)} alt={label} />
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
              {step.failure?.dom ? (
                <a href={traceUrl(traceId, step.failure.dom)} target="_blank" rel="noopener noreferrer">
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
  /** The command selected in the run panel's table (index), or null. */
  selected: number | null;
}

export function TracePanel({ playback, commands, selected }: TracePanelProps) {
  const [runs, setRuns] = useState<TraceSummary[]>([]);
  /** The kept run picked in "Runs"; "" is the run in the run panel. */
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
    fetchRuns().then(
      (list) => current && (setRuns(list), setProblem(null)),
      (error: Error) => current && setProblem(error.message),
    );
    return () => void (current = false);
  }, [playback?.runId, looking, selected, chosen, asked]);

  // The manifest of the run looked at, read again as the run in view moves on (a paused run's grows).
  const [again, setAgain] = useState(0);
  useEffect(() => {
    if (traceId === null || (chosen === "" && !looking)) return setManifest(null);
    let current = true;
    fetchTrace(traceId).then(
      (read) => current && (setManifest(read), setProblem(null)),
      (error: Error) => current && setProblem(error.message),
    );
    return () => void (current = false);
  }, [traceId, chosen, looking, playback?.currentCommandId, playback?.status, selected, again]);

  useEffect(() => setPastIndex(null), [chosen]);

  const past = chosen !== "" && manifest?.traceId === chosen ? manifest : null;
  let shown: { step: TraceStep | null; number: number; name: string } | null = null;
  if (chosen === "" && looking && selected !== null && commands[selected]) {
    shown = { step: stepOfCommand(manifest, commands[selected].id), number: selected + 1, name: commands[selected].command };
  } else if (past && pastIndex !== null && past.steps[pastIndex]) {
    const step = past.steps[pastIndex];
    shown = { step, number: step.index, name: step.command };
  }

  // A command's picture is written just after it ended (drivers/host/traceStore.ts): one read
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
          <option value="">The run in the Playback panel</option>
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
      {chosen === "" && !shown && (
        <p class="hint" data-testid="trace-hint">
          {looking
            ? "Select a command in the run's table (Left/Right step through them) to see the page as it was after it."
            : "Once a run is paused or over, select one of its commands to see the page as it was after it."}
        </p>
      )}
      {past && <PastSteps manifest={past} index={pastIndex} onSelect={setPastIndex} />}
      {shown && traceId !== null && <StepDetails traceId={traceId} {...shown} />}
    </section>
  );
}
