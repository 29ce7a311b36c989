// The picked suite's settings and tests, as Selenium IDE's suite editor has them: "Run in
// parallel", "Persist session" and "Timeout (seconds)" (user.changeSuite, the .side file's
// `parallel`, `persistSession` and `timeout`), and which tests it plays in what order: each of
// its tests moves up or down or leaves it, and "Add to the suite" adds one (each change one
// user.setSuiteTests, the whole list, so one undo step).
import { useEffect, useRef, useState } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";
import type { SuiteSummary, TestSummary } from "../protocol.ts";

const MAX_TIMEOUT_S = 86_400;

/** The suite's tests with the one at `index` moved by `by`; the same order past either end. */
export function movedTest(ids: readonly string[], index: number, by: -1 | 1): string[] {
  const to = index + by;
  const next = ids.slice();
  if (to < 0 || to >= next.length) return next;
  [next[index], next[to]] = [next[to], next[index]];
  return next;
}

function TimeoutField({ suite, locked, send }: { suite: SuiteSummary; locked: boolean; send: (event: UserEventMessage) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (input.current && document.activeElement !== input.current) input.current.value = String(suite.timeout);
  }, [suite.timeout]);
  const commit = () => {
    const text = input.current?.value ?? "";
    const seconds = Number(text);
    if (text.trim() === "" || !Number.isInteger(seconds) || seconds < 1 || seconds > MAX_TIMEOUT_S) {
      setProblem("The timeout is a whole number of seconds from 1 to 86,400.");
      return;
    }
    setProblem(null);
    if (seconds !== suite.timeout) send({ type: "user.changeSuite", suiteId: suite.id, timeoutS: seconds });
  };
  return (
    <div class="field">
      <label>
        Timeout (seconds){" "}
        <input
          ref={input}
          type="number"
          min={1}
          max={MAX_TIMEOUT_S}
          data-testid="suite-timeout"
          defaultValue={String(suite.timeout)}
          disabled={locked}
          aria-invalid={problem !== null ? "true" : undefined}
          onChange={commit}
          onKeyDown={(event) => event.key === "Enter" && commit()}
        />
      </label>
      {problem !== null && (
        <p class="field-problem" role="alert" data-testid="suite-timeout-problem">
          {problem}
        </p>
      )}
    </div>
  );
}

export function SuiteEditor({ suite, tests, locked, send }: { suite: SuiteSummary; tests: TestSummary[]; locked: boolean; send: (event: UserEventMessage) => void }) {
  const nameOf = (id: string) => tests.find((t) => t.id === id)?.name ?? id;
  const setTests = (testIds: string[]) => send({ type: "user.setSuiteTests", suiteId: suite.id, testIds });
  const others = tests.filter((t) => !suite.tests.includes(t.id));
  const [adding, setAdding] = useState("");
  const toAdd = others.some((t) => t.id === adding) ? adding : (others[0]?.id ?? "");
  return (
    <div class="suite-editor" role="group" aria-label={`The suite "${suite.name}"`} data-testid="suite-editor">
      <h3>Suite "{suite.name}"</h3>
      <label class="check">
        <input type="checkbox" checked={suite.parallel} disabled={locked} onChange={(event) => send({ type: "user.changeSuite", suiteId: suite.id, parallel: (event.currentTarget as HTMLInputElement).checked })} />{" "}
        Run in parallel
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={suite.persistSession}
          disabled={locked || suite.parallel}
          title={suite.parallel ? "A parallel suite's tests each have their own session" : undefined}
          onChange={(event) => send({ type: "user.changeSuite", suiteId: suite.id, persistSession: (event.currentTarget as HTMLInputElement).checked })}
        />{" "}
        Persist session
      </label>
      <TimeoutField suite={suite} locked={locked} send={send} />
      <ol class="suite-tests" aria-label="In this suite, in order" data-testid="suite-tests">
        {suite.tests.map((id, index) => (
          <li key={id} data-testid="suite-test" data-test-id={id}>
            <span class="suite-test-name">{nameOf(id)}</span>
            <button type="button" aria-label={`Move "${nameOf(id)}" up in the suite`} disabled={locked || index === 0} onClick={() => setTests(movedTest(suite.tests, index, -1))}>
              ↑
            </button>
            <button
              type="button"
              aria-label={`Move "${nameOf(id)}" down in the suite`}
              disabled={locked || index === suite.tests.length - 1}
              onClick={() => setTests(movedTest(suite.tests, index, 1))}
            >
              ↓
            </button>
            <button type="button" aria-label={`Take "${nameOf(id)}" out of the suite`} disabled={locked} onClick={() => setTests(suite.tests.filter((t) => t !== id))}>
              ✕
            </button>
          </li>
        ))}
      </ol>
      {suite.tests.length === 0 && <p class="empty">The suite has no tests: add one below.</p>}
      {others.length > 0 && (
        <div class="buttons">
          <label>
            Test to add{" "}
            <select data-testid="suite-add-test" value={toAdd} disabled={locked} onChange={(event) => setAdding((event.currentTarget as HTMLSelectElement).value)}>
              {others.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
          <button type="button" disabled={locked || toAdd === ""} onClick={() => setTests([...suite.tests, toAdd])}>
            Add to the suite
          </button>
        </div>
      )}
    </div>
  );
}
