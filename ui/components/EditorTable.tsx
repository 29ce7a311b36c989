// The displayed test's commands as a grid the user works in: a click selects a command, a
// double click edits it; from the keyboard (editorKeys.ts) arrows move the selection,
// Alt+arrows move the command, Enter starts a new command after it, F2 edits it, Delete
// removes it. One row is in the Tab order (the selected one, else the first), so Tab enters
// the grid and leaves it in one step. The selection is the IDE's (view.selectedCommandId);
// focus follows it when the user is working in the grid, also after a delete or a move
// re-renders the rows. While a run plays this test, each row shows its state, and the run's
// current command is marked. A test may have 10,000 commands: a row renders again only when
// its own command, run row, selection, tab stop or current mark changed.
import { memo } from "preact/compat";
import { useLayoutEffect, useRef } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";
import type { CommandOutline, CommandRow } from "../protocol.ts";
import { tableKeyAction } from "../editorKeys.ts";

/** What a row does with the user's input: one object for the grid's life, reading the grid's latest props. */
interface RowActions {
  click(id: string): void;
  doubleClick(id: string): void;
  keyDown(event: KeyboardEvent, index: number): void;
}

interface RowProps {
  command: CommandOutline;
  index: number;
  selected: boolean;
  current: boolean;
  tabStop: boolean;
  /** undefined: the run has no row for it; null: no states are shown. */
  run: CommandRow | undefined | null;
  actions: RowActions;
}

const EditorRow = memo(function EditorRow({ command, index, selected, current, tabStop, run, actions }: RowProps) {
  return (
    <tr
      data-testid="editor-row"
      data-command-id={command.id}
      aria-selected={selected ? "true" : "false"}
      aria-current={current ? "step" : undefined}
      class={[selected ? "selected" : "", current ? "current" : ""].filter(Boolean).join(" ") || undefined}
      tabIndex={tabStop ? 0 : -1}
      onClick={() => actions.click(command.id)}
      onDblClick={() => actions.doubleClick(command.id)}
      onKeyDown={(event) => actions.keyDown(event, index)}
    >
      <td class="command-index">{index + 1}</td>
      <td class="command-name" data-testid="editor-command">
        {command.command}
      </td>
      <td>
        <code data-testid="editor-target">{command.target}</code>
      </td>
      <td data-testid="editor-value">{command.value}</td>
      {run !== null && (
        <td>
          <span class={`badge state-${run?.state ?? "none"}`} data-testid="editor-state" title={run?.message ?? undefined}>
            {run?.state ?? "not run"}
          </span>
        </td>
      )}
    </tr>
  );
});

export interface EditorTableProps {
  testName: string;
  commands: CommandOutline[];
  selectedCommandId: string | null;
  /** The run's rows by command id when the last run played this test, else null (no states shown). */
  runRows: ReadonlyMap<string, CommandRow> | null;
  currentCommandId: string | null;
  editable: boolean;
  send: (event: UserEventMessage) => void;
  /** Enter on a row: a new command goes after it. */
  onInsertAfter(): void;
  /** F2 or a double click on a row: edit it in the form. */
  onEdit(): void;
  /** A click on a row: the form shows that command. */
  onPick(): void;
}

export function EditorTable(props: EditorTableProps) {
  const { testName, commands, selectedCommandId, runRows, currentCommandId, editable } = props;
  const body = useRef<HTMLTableSectionElement>(null);
  /** The user is working in the grid: focus follows the selection. */
  const working = useRef(false);
  const latest = useRef(props);
  latest.current = props;

  const rowAt = (index: number) => body.current?.querySelectorAll<HTMLTableRowElement>("tr")[index] ?? null;
  useLayoutEffect(() => {
    // Only focus that was lost (its row deleted, or moved and so re-inserted) is put back: a
    // row that has it is where the user's keys are, ahead of a selection still on its way.
    // Put back in the render that lost it, so a key pressed right after a Delete reaches a row.
    if (!working.current || selectedCommandId === null || body.current?.contains(document.activeElement)) return;
    const index = commands.findIndex((command) => command.id === selectedCommandId);
    rowAt(index)?.focus();
  }, [selectedCommandId, commands]);

  const actions = useRef<RowActions | null>(null);
  actions.current ??= {
    click(id) {
      working.current = true;
      select(id);
      latest.current.onPick();
    },
    doubleClick(id) {
      if (!latest.current.editable) return;
      select(id);
      latest.current.onEdit();
    },
    keyDown(event, index) {
      const { commands, editable, send, onInsertAfter, onEdit } = latest.current;
      const action = tableKeyAction(event, index, commands.length, editable);
      if (action === null) return;
      event.preventDefault();
      working.current = true;
      const command = commands[index];
      switch (action.kind) {
        case "select":
          rowAt(action.index)?.focus();
          select(commands[action.index].id);
          break;
        case "move":
          select(command.id);
          send({ type: "user.moveCommand", commandId: command.id, toIndex: action.toIndex });
          break;
        case "delete":
          send({ type: "user.deleteCommand", commandId: command.id });
          break;
        case "insertAfter":
          select(command.id);
          working.current = false;
          onInsertAfter();
          break;
        case "edit":
          select(command.id);
          working.current = false;
          onEdit();
          break;
      }
    },
  };
  function select(id: string) {
    const { selectedCommandId, send } = latest.current;
    if (id !== selectedCommandId) send({ type: "user.selectCommand", commandId: id });
  }

  const tabStop = commands.some((c) => c.id === selectedCommandId) ? selectedCommandId : (commands[0]?.id ?? null);
  return (
    <table
      class="commands editor-commands"
      role="grid"
      aria-label={`Commands of "${testName}"`}
      aria-readonly={editable ? undefined : "true"}
      data-testid="editor-commands"
      onFocusOut={(event) => {
        // Focus went elsewhere in the page (not lost with a row that was removed).
        const to = (event as FocusEvent).relatedTarget as Node | null;
        if (to !== null && !(event.currentTarget as HTMLElement).contains(to)) working.current = false;
      }}
    >
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Command</th>
          <th scope="col">Target</th>
          <th scope="col">Value</th>
          {runRows !== null && <th scope="col">State</th>}
        </tr>
      </thead>
      <tbody ref={body}>
        {commands.map((command, index) => (
          <EditorRow
            key={command.id}
            command={command}
            index={index}
            selected={command.id === selectedCommandId}
            current={command.id === currentCommandId}
            tabStop={command.id === tabStop}
            run={runRows === null ? null : runRows.get(command.id)}
            actions={actions.current!}
          />
        ))}
      </tbody>
    </table>
  );
}
