// The project's suites, a list named "Suites" at the side: a click picks a suite (the page's
// own choice), whose settings and tests show under the list (SuiteEditor) and which "Play
// suite" plays; "New suite", "Delete suite" and renaming in place (F2 or a double click) are
// edits, each one step the user can undo.
import { useState } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";
import type { SuiteSummary, TestSummary } from "../protocol.ts";
import { suiteNameProblem } from "../suiteName.ts";
import { NameField } from "./NameField.tsx";
import { SuiteEditor } from "./SuiteEditor.tsx";

type Naming = { kind: "add" } | { kind: "rename"; suiteId: string } | null;

export function SuiteList({
  suites,
  tests,
  pickedSuiteId,
  running,
  send,
  onPick,
}: {
  suites: SuiteSummary[];
  tests: TestSummary[];
  pickedSuiteId: string | null;
  running: boolean;
  send: (event: UserEventMessage) => void;
  onPick(suiteId: string): void;
}) {
  const [naming, setNaming] = useState<Naming>(null);
  const picked = suites.find((s) => s.id === pickedSuiteId) ?? null;
  const rename = (suite: SuiteSummary) => setNaming({ kind: "rename", suiteId: suite.id });
  return (
    <section class="side-section" aria-labelledby="suites-heading" data-testid="suites">
      <h2 id="suites-heading">Suites</h2>
      <ul class="side-list" aria-labelledby="suites-heading">
        {suites.map((suite) =>
          naming?.kind === "rename" && naming.suiteId === suite.id ? (
            <li key={suite.id}>
              <NameField
                label={`New name for the suite "${suite.name}"`}
                initial={suite.name}
                testId="suite-name"
                problemOf={(name) => suiteNameProblem(name, suites, suite.id)}
                onCommit={(name) => {
                  send({ type: "user.renameSuite", suiteId: suite.id, name });
                  setNaming(null);
                }}
                onCancel={() => setNaming(null)}
              />
            </li>
          ) : (
            <li key={suite.id} data-testid="suite-item" data-suite-id={suite.id}>
              <button
                type="button"
                class="side-item"
                aria-pressed={suite.id === pickedSuiteId ? "true" : "false"}
                title="F2 or a double click renames it"
                onClick={() => onPick(suite.id)}
                onDblClick={() => rename(suite)}
                onKeyDown={(event) => {
                  if (event.key === "F2") {
                    event.preventDefault();
                    onPick(suite.id);
                    rename(suite);
                  }
                }}
              >
                {suite.name} <span class="hint">({suite.tests.length})</span>
              </button>
            </li>
          ),
        )}
        {naming?.kind === "add" && (
          <li>
            <NameField
              label="Name of the new suite"
              initial=""
              testId="suite-name"
              problemOf={(name) => suiteNameProblem(name, suites)}
              onCommit={(name) => {
                send({ type: "user.addSuite", name });
                setNaming(null);
              }}
              onCancel={() => setNaming(null)}
            />
          </li>
        )}
      </ul>
      {suites.length === 0 && naming === null && <p class="empty">No suites yet.</p>}
      <div class="buttons side-buttons">
        <button type="button" onClick={() => setNaming({ kind: "add" })}>
          New suite
        </button>
        <button type="button" class="danger" disabled={picked === null || running} onClick={() => picked && send({ type: "user.deleteSuite", suiteId: picked.id })}>
          Delete suite
        </button>
        <button type="button" disabled={picked === null || running} onClick={() => picked && send({ type: "user.startSuite", suiteId: picked.id })}>
          Play suite
        </button>
      </div>
      {picked !== null && <SuiteEditor key={picked.id} suite={picked} tests={tests} locked={running} send={send} />}
    </section>
  );
}
