// The test editor: the IDE's displayed test, which the user picks, adds and renames
// (TestPicker), its commands in a grid the user selects, moves and deletes in (EditorTable),
// and the form that changes the selected command or types new ones (CommandForm, with the
// locator's "Find"). Every edit is a user event; what the test is comes back from the IDE,
// so a plugin's edit shows here the same way. While a run plays the displayed test (a suite
// that holds it included), editing is off and the grid shows the run's states instead; the
// IDE would refuse the edits anyway, with a warning.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";
import type { CommandRow, RunSummary, TestSummary, UiView } from "../protocol.ts";
import { commandChoices } from "../commandNames.ts";
import { CommandForm } from "./CommandForm.tsx";
import { EditorTable } from "./EditorTable.tsx";
import { TestPicker } from "./TestPicker.tsx";

/** Whether the run (from its start until it has ended) plays the test `testId`: the IDE says which it plays. */
export const playsTest = (run: RunSummary | null, testId: string | null): boolean =>
  testId !== null && run !== null && run.playingTestIds.includes(testId);

/** The run's rows by command id, made once per rows array. */
const rowsById = new WeakMap<readonly CommandRow[], Map<string, CommandRow>>();
function byId(rows: readonly CommandRow[]): Map<string, CommandRow> {
  let map = rowsById.get(rows);
  if (!map) {
    map = new Map(rows.map((row) => [row.id, row]));
    rowsById.set(rows, map);
  }
  return map;
}

export function TestEditor({
  view,
  tests,
  playback,
  runCommands,
  send,
  resolveLocator,
}: {
  view: Pick<UiView, "displayedTestId" | "selectedCommandId" | "plugins"> & Partial<Pick<UiView, "recording">>;
  tests: TestSummary[];
  playback: RunSummary | null;
  /** The run's rows (with their states). */
  runCommands: CommandRow[];
  send: (event: UserEventMessage) => void;
  resolveLocator: ((location: string) => Promise<unknown>) | null;
}) {
  const displayed = tests.find((test) => test.id === view.displayedTestId) ?? null;
  const selectedIndex = displayed?.commands.findIndex((c) => c.id === view.selectedCommandId) ?? -1;
  const selected = selectedIndex >= 0 ? displayed!.commands[selectedIndex] : null;
  const locked = playsTest(playback, displayed?.id ?? null);
  const choices = useMemo(() => commandChoices(view.plugins), [view.plugins]);

  const [addingAsked, setAddingAsked] = useState(false);
  useEffect(() => setAddingAsked(false), [displayed?.id]);
  // With nothing selected, the form types a new command (at the end): a test starts that way.
  const adding = addingAsked || selected === null;

  const root = useRef<HTMLElement>(null);
  const commandField = useRef<HTMLInputElement>(null);
  /** Moves the focus at once: the field and the rows are there in either mode of the form. */
  const focus = (where: "command" | "grid") => {
    if (where === "command") return commandField.current?.focus();
    const row =
      root.current?.querySelector<HTMLElement>('[data-testid="editor-row"][tabindex="0"]') ??
      root.current?.querySelector<HTMLElement>('[data-testid="editor-row"]');
    (row ?? commandField.current)?.focus();
  };
  const startAdding = () => {
    setAddingAsked(true);
    focus("command");
  };
  const edit = () => {
    setAddingAsked(false);
    focus("command");
  };
  const leaveForm = () => {
    setAddingAsked(false);
    focus("grid");
  };

  // The run's states show when the last run (or the one under way) played this test.
  const runRows = playback !== null && displayed !== null && playback.testId === displayed.id ? byId(runCommands) : null;
  const count = displayed?.commands.length ?? 0;

  return (
    <section class="panel test-editor" aria-labelledby="editor-heading" data-testid="test-editor" ref={root}>
      <h2 id="editor-heading">Test editor</h2>
      <TestPicker tests={tests} displayedTestId={displayed?.id ?? null} locked={locked} send={send} />
      {locked && (
        <p class="note playing-note" role="status" data-testid="editor-locked">
          "{displayed!.name}" is being played: it can be edited again once the run has ended.
        </p>
      )}
      {displayed === null ? (
        <p class="empty" data-testid="editor-empty">
          The project has no test yet: add one with "New test".
        </p>
      ) : (
        <>
          <div class="buttons editor-toolbar" role="group" aria-label="Commands">
            {/* CONTRACT section 14: records the user's actions in the page under test into this test; never beside a run. */}
            <button
              type="button"
              class={view.recording ? "danger recording" : "primary"}
              disabled={!view.recording && playback?.running === true}
              onClick={() => send({ type: view.recording ? "user.stopRecording" : "user.startRecording" })}
            >
              {view.recording ? "Stop recording" : "Record"}
            </button>
            <button type="button" disabled={locked} onClick={startAdding}>
              New command
            </button>
            <button
              type="button"
              disabled={locked || selected === null || selectedIndex === 0}
              onClick={() => selected && send({ type: "user.moveCommand", commandId: selected.id, toIndex: selectedIndex - 1 })}
            >
              Move up
            </button>
            <button
              type="button"
              disabled={locked || selected === null || selectedIndex === count - 1}
              onClick={() => selected && send({ type: "user.moveCommand", commandId: selected.id, toIndex: selectedIndex + 1 })}
            >
              Move down
            </button>
            <button
              type="button"
              class="danger"
              disabled={locked || selected === null}
              onClick={() => selected && send({ type: "user.deleteCommand", commandId: selected.id })}
            >
              Delete command
            </button>
            <span class="hint keys-hint">
              Keys in the list: ↑↓ select, Alt+↑↓ move, Enter new command after, F2 edit, Delete remove
            </span>
          </div>
          {count === 0 ? (
            <p class="empty" data-testid="editor-no-commands">
              "{displayed.name}" has no commands yet: type the first one below.
            </p>
          ) : (
            <EditorTable
              testName={displayed.name}
              commands={displayed.commands}
              selectedCommandId={selected?.id ?? null}
              runRows={runRows}
              currentCommandId={runRows !== null && playback!.running ? playback!.currentCommandId : null}
              editable={!locked}
              send={send}
              onInsertAfter={startAdding}
              onEdit={edit}
              onPick={() => setAddingAsked(false)}
            />
          )}
          <CommandForm
            selected={selected}
            adding={adding}
            position={selected ? `after command ${selectedIndex + 1}` : "at the end"}
            choices={choices}
            locked={locked}
            commandField={commandField}
            resolveLocator={resolveLocator}
            send={send}
            onAdded={() => setAddingAsked(true)}
            onLeave={leaveForm}
          />
        </>
      )}
    </section>
  );
}
