// The test case: pick one of the loaded project's tests, start and stop it, and watch each
// command's state as plugins report it. The state is a badge whose class names the state,
// so colour and text always agree.
import { useState } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";
import type { PlaybackView, TestSummary } from "../protocol.ts";

const STATE_LABEL: Record<string, string> = {
  passed: "passed",
  failed: "failed",
  fatal: "fatal",
  pending: "pending",
  undetermined: "undetermined",
};

export function PlaybackPanel({
  tests,
  playback,
  send,
}: {
  tests: TestSummary[];
  playback: PlaybackView;
  send: (event: UserEventMessage) => void;
}) {
  const [picked, setPicked] = useState<string | null>(null);
  // The user's pick while the project has it; else the test case last run, if it is still there.
  const known = (id: string | null | undefined): id is string => tests.some((t) => t.id === id);
  const selected = known(picked) ? picked : known(playback?.testId) ? playback.testId : (tests[0]?.id ?? "");
  const running = playback?.running === true;

  return (
    <section class="panel" aria-labelledby="playback-heading" data-testid="playback">
      <h2 id="playback-heading">Test case</h2>
      <div class="buttons">
        <label>
          Test{" "}
          <select
            data-testid="test-picker"
            value={selected}
            disabled={tests.length === 0}
            onChange={(event) => setPicked((event.currentTarget as HTMLSelectElement).value)}
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
          disabled={tests.length === 0}
          onClick={() => send({ type: "user.startPlayback", testId: selected })}
        >
          Start
        </button>
        <button type="button" disabled={!running} onClick={() => send({ type: "user.stopPlayback" })}>
          Stop
        </button>
      </div>
      {playback === null ? (
        <p class="empty">No test case has run yet.</p>
      ) : (
        <>
          <p class="run-line" data-testid="run-status">
            <strong>{playback.testName}</strong>{" "}
            <span class={running ? "tag tag-running" : "tag"}>{running ? "running" : "stopped"}</span>
          </p>
          <table class="commands">
            <thead>
              <tr>
                <th scope="col">Command</th>
                <th scope="col">Target</th>
                <th scope="col">Value</th>
                <th scope="col">State</th>
                <th scope="col">Message</th>
              </tr>
            </thead>
            <tbody>
              {playback.commands.map((row) => (
                <tr key={row.id} data-testid="command-row" data-command-id={row.id}>
                  <td class="command-name">{row.command}</td>
                  <td>
                    <code>{row.target}</code>
                  </td>
                  <td>{row.value}</td>
                  <td>
                    <span class={`badge state-${row.state ?? "none"}`} data-testid="command-state">
                      {row.state === null ? "not run" : (STATE_LABEL[row.state] ?? row.state)}
                    </span>
                  </td>
                  <td class="command-message" data-testid="command-message">
                    {row.message ?? ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
