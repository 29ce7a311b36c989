// The displayed test, edited and played in place: the toolbar (CommandToolbar), the one
// command table (CommandTable) and, under it, the form that changes the selected command or
// types new ones (CommandForm, with the locator's "Find"). Every edit is a user event; what
// the test is comes back from the IDE, so a plugin's edit shows here the same way. The
// selection of several commands is the page's own (selection.ts); the IDE knows the one the
// form edits. While a run plays the test (a suite that holds it included), editing is off and
// the rows show the run's states as it goes; the IDE would refuse the edits anyway.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";
import type { CommandRow, RunSummary, TestSummary, UiView } from "../protocol.ts";
import { commandChoices } from "../commandNames.ts";
import { readSideCommands, sideCommandsText } from "../clipboard.ts";
import type { TableKeyAction } from "../editorKeys.ts";
import { awaitIde, followIde, NO_SELECTION, pick, selectedInOrder, settle } from "../selection.ts";
import type { CommandSelection, PickHow } from "../selection.ts";
import { CommandForm } from "./CommandForm.tsx";
import { CommandTable } from "./CommandTable.tsx";
import { CommandToolbar } from "./CommandToolbar.tsx";
import { dataRowsById } from "./DataRow.tsx";

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

export interface TestEditorProps {
  view: Pick<UiView, "displayedTestId" | "selectedCommandId" | "plugins"> & Partial<Pick<UiView, "recording">>;
  /** The test the table shows: the displayed one, or the run's while the page follows a run. */
  shown: TestSummary | null;
  playback: RunSummary | null;
  /** The run's rows (with their states). */
  runCommands: CommandRow[];
  breakpoints: ReadonlySet<string>;
  travel: { index: number | null; select(index: number): void } | null;
  send: (event: UserEventMessage) => void;
  resolveLocator: ((location: string) => Promise<unknown>) | null;
}

export function TestEditor({ view, shown, playback, runCommands, breakpoints, travel, send, resolveLocator }: TestEditorProps) {
  const displayed = shown !== null && shown.id === view.displayedTestId;
  const commands = shown?.commands ?? [];
  const order = useMemo(() => commands.map((c) => c.id), [commands]);
  const focusId = displayed ? view.selectedCommandId : null;
  const focusIndex = focusId === null ? -1 : order.indexOf(focusId);
  const focused = focusIndex >= 0 ? commands[focusIndex] : null;
  const locked = !displayed || playsTest(playback, shown?.id ?? null);
  const running = playback?.running === true;
  const choices = useMemo(() => commandChoices(view.plugins), [view.plugins]);

  // The page's own part of the selection: the commands selected beside the IDE's one.
  const [selection, setSelection] = useState<CommandSelection>(NO_SELECTION);
  const current = followIde(order, selection, focusId);
  const selectedIds = selectedInOrder(order, current);
  const selected = commands.filter((c) => current.ids.has(c.id));
  useEffect(() => setSelection(NO_SELECTION), [shown?.id]);
  // Once the IDE's selection moves, the page's pick no longer waits for it.
  useEffect(() => setSelection((s) => settle(order, s, focusId)), [focusId, order]);

  const [addingAsked, setAddingAsked] = useState(false);
  useEffect(() => setAddingAsked(false), [shown?.id]);
  // With nothing selected, the form types a new command (at the end): a test starts that way.
  const adding = addingAsked || focused === null;

  const root = useRef<HTMLElement>(null);
  const commandField = useRef<HTMLInputElement>(null);
  const focusTable = () => {
    const row =
      root.current?.querySelector<HTMLElement>('[data-testid="command-row"][tabindex="0"]') ?? root.current?.querySelector<HTMLElement>('[data-testid="command-row"]');
    (row ?? commandField.current)?.focus();
  };
  const startAdding = () => {
    setAddingAsked(true);
    commandField.current?.focus();
  };

  const onPick = (id: string, how: PickHow) => {
    setAddingAsked(false);
    const next = pick(order, current, id, how);
    // The IDE's selected command is always one of the selected: the one picked, unless Ctrl+click took it away.
    const focus = next.ids.has(id) ? id : focusId !== null && next.ids.has(focusId) ? focusId : (selectedInOrder(order, next)[0] ?? null);
    const asks = focus !== null && focus !== focusId;
    setSelection(asks ? awaitIde(order, next, current, focus, focusId) : next);
    if (asks) send({ type: "user.selectCommand", commandId: focus });
  };

  // The clipboard: the IDE's own (copy, cut, paste without commands), and the system's as .side JSON.
  const copy = (cut: boolean, clipboard: DataTransfer | null) => {
    if (selectedIds.length === 0 || (cut && locked)) return false;
    const text = sideCommandsText(selected);
    if (clipboard) clipboard.setData("text/plain", text);
    else void navigator.clipboard?.writeText(text).catch(() => undefined);
    send({ type: cut ? "user.cutCommands" : "user.copyCommands", commandIds: selectedIds });
    return true;
  };
  const paste = (text: string | null) => {
    if (locked) return;
    const fromSystem = text === null ? null : readSideCommands(text);
    // After the last command the table shows selected: the IDE's selection may still be a message away.
    const after = selectedIds.at(-1) ?? (focusIndex >= 0 ? focusId : null);
    send({ type: "user.pasteCommands", ...(after != null ? { afterCommandId: after } : {}), ...(fromSystem ? { commands: fromSystem } : {}) });
  };
  const pasteFromButton = async () => {
    let text: string | null = null;
    try {
      text = (await navigator.clipboard?.readText()) ?? null;
    } catch {
      text = null; // the browser would not let the page read it: the IDE's own clipboard is pasted
    }
    paste(text);
  };
  const remove = () => {
    if (locked) return;
    for (const commandId of selectedIds) send({ type: "user.deleteCommand", commandId });
  };
  const onAction = (action: TableKeyAction) => {
    switch (action.kind) {
      case "delete":
        return remove();
      case "undo":
        return send({ type: "user.undo" });
      case "redo":
        return send({ type: "user.redo" });
      case "selectAll":
        return setSelection({ anchor: order[0] ?? null, ids: new Set(order) });
    }
  };
  const testId = shown?.id;

  return (
    <section class="panel test-editor" aria-labelledby="editor-heading" data-testid="test-editor" ref={root}>
      <h2 id="editor-heading">{shown ? shown.name : "Test"}</h2>
      {shown !== null && !displayed && (
        <p class="note playing-note" role="status" data-testid="shown-run-note">
          Showing "{shown.name}", the test the run plays; pick a test in Tests to edit it.
        </p>
      )}
      {displayed && locked && (
        <p class="note playing-note" role="status" data-testid="editor-locked">
          "{shown!.name}" is being played: it can be edited again once the run has ended.
        </p>
      )}
      {shown === null ? (
        <p class="empty" data-testid="editor-empty">
          The project has no test yet: add one with "New test".
        </p>
      ) : (
        <>
          <CommandToolbar
            selected={selected}
            focusIndex={focusIndex}
            count={commands.length}
            locked={locked}
            recording={Boolean(view.recording)}
            running={running}
            actions={{
              record: () => send({ type: view.recording ? "user.stopRecording" : "user.startRecording" }),
              addCommand: startAdding,
              move: (by) => focused && send({ type: "user.moveCommand", commandId: focused.id, toIndex: focusIndex + by }),
              remove,
              copy: (cut) => copy(cut, null),
              paste: () => void pasteFromButton(),
              toggleDisabled: () => selectedIds.length > 0 && send({ type: "user.toggleCommandsDisabled", commandIds: selectedIds }),
              playFrom: () => focused && send({ type: "user.startPlayback", testId, fromCommandId: focused.id }),
              playTo: () => focused && send({ type: "user.startPlayback", testId, untilCommandId: focused.id }),
              execute: () => focused && send({ type: "user.executeCommand", commandId: focused.id }),
            }}
          />
          {commands.length === 0 ? (
            <p class="empty" data-testid="editor-no-commands">
              "{shown.name}" has no commands yet: type the first one below.
            </p>
          ) : (
            <div class="table-scroll">
              <CommandTable
                testName={shown.name}
                commands={commands}
                runRows={playback !== null && playback.testId === shown.id ? byId(runCommands) : null}
                dataRows={playback !== null && playback.testId === shown.id && playback.dataRows.length > 0 ? dataRowsById(playback.dataRows) : null}
                breakpoints={breakpoints}
                currentCommandId={playback !== null && playback.testId === shown.id && playback.running ? playback.currentCommandId : null}
                paused={playback?.status === "paused"}
                selected={current.ids}
                focusId={focusId}
                editable={!locked}
                travel={travel}
                send={send}
                onPick={onPick}
                onAction={onAction}
                onCopy={(event, cut) => {
                  if (copy(cut, event.clipboardData)) event.preventDefault();
                }}
                onPaste={(event) => {
                  event.preventDefault();
                  paste(event.clipboardData?.getData("text/plain") ?? null);
                }}
                onInsertAfter={startAdding}
                onEdit={() => {
                  setAddingAsked(false);
                  commandField.current?.focus();
                }}
              />
            </div>
          )}
          <CommandForm
            selected={focused}
            adding={adding}
            position={focused ? `after command ${focusIndex + 1}` : "at the end"}
            choices={choices}
            locked={locked}
            commandField={commandField}
            resolveLocator={resolveLocator}
            send={send}
            onAdded={() => setAddingAsked(true)}
            onLeave={() => {
              setAddingAsked(false);
              focusTable();
            }}
          />
        </>
      )}
    </section>
  );
}
