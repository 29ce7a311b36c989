// The project's tests, a list named "Tests" at the side: a click shows a test in the table
// (the IDE's displayed test); "New test", "Duplicate test", "Delete test" and renaming in place
// (F2 or a double click on a test, or "Rename") are edits, each one step the user can undo. The
// test the table shows is marked; while a run plays a test, it cannot be renamed or deleted.
import { useState } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";
import type { TestSummary } from "../protocol.ts";
import { testNameProblem } from "../../services/side/testName.ts";
import { NameField } from "./NameField.tsx";

type Naming = { kind: "add" } | { kind: "rename"; testId: string } | null;

export function TestList({
  tests,
  displayedTestId,
  shownTestId,
  playingTestIds,
  send,
  onPick,
}: {
  tests: TestSummary[];
  displayedTestId: string | null;
  /** The test the table shows (the run's while the page follows a run). */
  shownTestId: string | null;
  /** The tests a run is playing: not renamed or deleted under it. */
  playingTestIds: readonly string[];
  send: (event: UserEventMessage) => void;
  /** The user picked a test: the page stops following the run's. */
  onPick(testId: string): void;
}) {
  const [naming, setNaming] = useState<Naming>(null);
  const displayed = tests.find((t) => t.id === displayedTestId) ?? null;
  const busy = displayed !== null && playingTestIds.includes(displayed.id);
  const pickTest = (testId: string) => {
    onPick(testId);
    if (testId !== displayedTestId) send({ type: "user.selectTest", testId });
  };
  const rename = (test: TestSummary) => !playingTestIds.includes(test.id) && setNaming({ kind: "rename", testId: test.id });

  return (
    <section class="side-section" aria-labelledby="tests-heading" data-testid="tests">
      <h2 id="tests-heading">Tests</h2>
      <ul class="side-list" aria-labelledby="tests-heading">
        {tests.map((test) =>
          naming?.kind === "rename" && naming.testId === test.id ? (
            <li key={test.id}>
              <NameField
                label={`New name for "${test.name}"`}
                initial={test.name}
                testId="test-name"
                problemOf={(name) => testNameProblem(name, tests, test.id)}
                onCommit={(name) => {
                  send({ type: "user.renameTest", testId: test.id, name });
                  setNaming(null);
                }}
                onCancel={() => setNaming(null)}
              />
            </li>
          ) : (
            <li key={test.id} data-testid="test-item" data-test-id={test.id}>
              <button
                type="button"
                class={test.id === shownTestId ? "side-item shown" : "side-item"}
                aria-current={test.id === displayedTestId ? "true" : undefined}
                title="F2 or a double click renames it"
                onClick={() => pickTest(test.id)}
                onDblClick={() => rename(test)}
                onKeyDown={(event) => {
                  if (event.key === "F2") {
                    event.preventDefault();
                    pickTest(test.id);
                    rename(test);
                  }
                }}
              >
                {test.name}
                {playingTestIds.includes(test.id) && <span class="tag tag-running"> playing</span>}
              </button>
            </li>
          ),
        )}
        {naming?.kind === "add" && (
          <li>
            <NameField
              label="Name of the new test"
              initial=""
              testId="test-name"
              problemOf={(name) => testNameProblem(name, tests)}
              onCommit={(name) => {
                send({ type: "user.addTest", name });
                setNaming(null);
              }}
              onCancel={() => setNaming(null)}
            />
          </li>
        )}
      </ul>
      {tests.length === 0 && naming === null && <p class="empty">No tests yet.</p>}
      <div class="buttons side-buttons">
        <button type="button" onClick={() => setNaming({ kind: "add" })}>
          New test
        </button>
        <button type="button" disabled={displayed === null || busy} onClick={() => displayed && rename(displayed)}>
          Rename
        </button>
        <button type="button" disabled={displayed === null} onClick={() => displayed && send({ type: "user.duplicateTest", testId: displayed.id })}>
          Duplicate test
        </button>
        <button type="button" class="danger" disabled={displayed === null || busy} onClick={() => displayed && send({ type: "user.deleteTest", testId: displayed.id })}>
          Delete test
        </button>
      </div>
    </section>
  );
}
