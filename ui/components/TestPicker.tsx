// The test editor's first line: which test is shown (the IDE's displayed test), and the
// user's ways to add a test and to rename the shown one. A name is typed in a small inline
// form (Enter saves, Escape gives up) and checked here first, so a mistake is said at once,
// next to the field.
import { useEffect, useRef, useState } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";
import type { TestSummary } from "../protocol.ts";
import { testNameProblem } from "../../services/side/testName.ts";

type Naming = { kind: "add" } | { kind: "rename"; testId: string };

export function TestPicker({
  tests,
  displayedTestId,
  locked,
  send,
}: {
  tests: TestSummary[];
  displayedTestId: string | null;
  /** The shown test is being played: it may be looked at, not renamed. */
  locked: boolean;
  send: (event: UserEventMessage) => void;
}) {
  const [naming, setNaming] = useState<Naming | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const shown = tests.find((test) => test.id === displayedTestId) ?? null;

  useEffect(() => {
    if (naming !== null) field.current?.focus();
  }, [naming?.kind]);

  const open = (next: Naming, button: HTMLButtonElement) => {
    opener.current = button;
    setProblem(null);
    setNaming(next);
    if (field.current) field.current.value = next.kind === "rename" ? (shown?.name ?? "") : "";
  };
  const close = () => {
    setNaming(null);
    setProblem(null);
    opener.current?.focus();
  };
  const commit = () => {
    if (naming === null) return;
    const name = field.current?.value ?? "";
    const renaming = naming.kind === "rename" ? naming.testId : null;
    if (renaming !== null && name.trim() === shown?.name) return close(); // nothing to change
    const why = testNameProblem(name, tests, renaming);
    if (why !== null) {
      setProblem(why);
      return;
    }
    send(
      naming.kind === "add"
        ? { type: "user.addTest", name: name.trim() }
        : { type: "user.renameTest", testId: naming.testId, name: name.trim() },
    );
    close();
  };

  return (
    <div class="test-picker">
      <div class="buttons">
        <label>
          Test case{" "}
          <select
            data-testid="editor-test-picker"
            value={displayedTestId ?? ""}
            disabled={tests.length === 0}
            onChange={(event) => send({ type: "user.selectTest", testId: (event.currentTarget as HTMLSelectElement).value })}
          >
            {tests.length === 0 && <option value="">no tests</option>}
            {tests.map((test) => (
              <option key={test.id} value={test.id}>
                {test.name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={(event) => open({ kind: "add" }, event.currentTarget as HTMLButtonElement)}>
          New test
        </button>
        <button
          type="button"
          disabled={shown === null || locked}
          onClick={(event) => shown && open({ kind: "rename", testId: shown.id }, event.currentTarget as HTMLButtonElement)}
        >
          Rename
        </button>
      </div>
      {naming !== null && (
        <div class="naming" role="group" aria-label={naming.kind === "add" ? "New test" : "Rename the test"}>
          <label>
            {naming.kind === "add" ? "Name of the new test" : `New name for "${shown?.name ?? ""}"`}{" "}
            <input
              ref={field}
              type="text"
              data-testid="test-name"
              defaultValue={naming.kind === "rename" ? (shown?.name ?? "") : ""}
              aria-invalid={problem !== null ? "true" : undefined}
              aria-describedby={problem !== null ? "test-name-problem" : undefined}
              onKeyDown={(event) => {
                if (event.key === "Enter") {
                  event.preventDefault();
                  commit();
                } else if (event.key === "Escape") {
                  event.preventDefault();
                  close();
                }
              }}
              onInput={() => problem !== null && setProblem(null)}
            />
          </label>
          <button type="button" class="primary" onClick={commit}>
            {naming.kind === "add" ? "Add the test" : "Save the name"}
          </button>
          <button type="button" onClick={close}>
            Cancel
          </button>
          {problem !== null && (
            <p class="field-problem" id="test-name-problem" role="alert" data-testid="test-name-problem">
              {problem}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
