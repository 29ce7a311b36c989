// The displayed test's commands as ONE table, edited and played in place (DESIGN, Round 5):
// each row carries the command (its description under it, `//` when disabled) and its last
// run's state and message, its breakpoint toggle, its healed mark with "Accept", and, once a
// run is paused or over, it is where the page after that command is picked (time travel).
// The user selects rows (click, Shift+click, Ctrl+click, Shift+arrows: selection.ts), moves
// them (Alt+arrows, or dragging a row onto another), and works on them with the keys of
// editorKeys.ts; copy, cut and paste go through the system clipboard's own events, so steps
// copied here paste elsewhere as .side JSON, and .side steps copied elsewhere paste here.
// A test may have 10,000 commands: a row renders again only when one of its own props changed.
import { memo } from "preact/compat";
import { useLayoutEffect, useRef } from "preact/hooks";
import type { UserEventMessage } from "../connection.ts";
import type { CommandOutline, CommandRow, DataRowView } from "../protocol.ts";
import { tableKeyAction } from "../editorKeys.ts";
import type { TableKeyAction } from "../editorKeys.ts";
import type { PickHow } from "../selection.ts";
import { steppedIndex } from "./TracePanel.tsx";
import { DataRowBadge } from "./DataRow.tsx";

const STATE_LABEL: Record<string, string> = { passed: "passed", failed: "failed", fatal: "fatal", pending: "pending", undetermined: "undetermined" };

/** A disabled command (Selenium IDE v3's form): its name starts with `//`. */
export const isDisabledCommand = (command: string) => command.startsWith("//");

/** What a row does with the user's input: one object for the table's life, reading its latest props. */
interface RowActions {
  click(event: MouseEvent, id: string, index: number): void;
  doubleClick(id: string): void;
  dragStart(event: DragEvent, id: string): void;
  drop(event: DragEvent, index: number): void;
}

interface RowProps {
  command: CommandOutline;
  index: number;
  run: CommandRow | undefined;
  /** A loadVars whose block plays: the row playing now. */
  data: DataRowView | undefined;
  breakpoint: boolean;
  selected: boolean;
  tabStop: boolean;
  current: boolean;
  paused: boolean;
  travelled: boolean;
  editable: boolean;
  actions: RowActions;
  send: (event: UserEventMessage) => void;
}

const Row = memo(function Row({ command, index, run, data, breakpoint, selected, tabStop, current, paused, travelled, editable, actions, send }: RowProps) {
  const disabled = isDisabledCommand(command.command);
  const classes = [
    selected ? "selected" : "",
    current ? "current" : "",
    current && paused ? "current-paused" : "",
    breakpoint ? "has-breakpoint" : "",
    travelled ? "travelled" : "",
    disabled ? "disabled-command" : "",
  ].filter(Boolean);
  const state = run?.state ?? null;
  return (
    <tr
      data-testid="command-row"
      data-command-id={command.id}
      aria-selected={selected ? "true" : "false"}
      aria-current={current ? "step" : undefined}
      data-selected={travelled ? "true" : undefined}
      class={classes.length > 0 ? classes.join(" ") : undefined}
      tabIndex={tabStop ? 0 : -1}
      draggable={editable}
      onClick={(event) => {
        // The row's own buttons (breakpoint, Accept) do their own thing.
        if (!(event.target instanceof Element && event.target.closest("button"))) actions.click(event, command.id, index);
      }}
      onDblClick={() => actions.doubleClick(command.id)}
      onDragStart={(event) => actions.dragStart(event, command.id)}
      onDragOver={(event) => editable && event.preventDefault()}
      onDrop={(event) => actions.drop(event, index)}
    >
      <td class="breakpoint-cell">
        <button
          type="button"
          class="breakpoint"
          data-testid="breakpoint"
          aria-pressed={breakpoint ? "true" : "false"}
          aria-label={`Breakpoint before command ${index + 1}, ${command.command}`}
          title={breakpoint ? "Remove the breakpoint" : "Pause the run before this command"}
          onClick={() => send({ type: "user.toggleBreakpoint", commandId: command.id })}
        >
          <span class="breakpoint-dot" aria-hidden="true" />
        </button>
      </td>
      <td class="command-index">{index + 1}</td>
      <td class="command-name">
        <span data-testid="editor-command">{command.command}</span>
        {data && <DataRowBadge data={data} />}
        {command.comment ? (
          <span class="command-comment" data-testid="editor-comment">
            {command.comment}
          </span>
        ) : null}
      </td>
      <td>
        <code data-testid="editor-target">{command.target}</code>
      </td>
      <td data-testid="editor-value">{command.value}</td>
      <td>
        <span class={`badge state-${state ?? "none"}`} data-testid="command-state" title={run?.message ?? undefined}>
          {state === null ? (disabled ? "disabled" : "not run") : (STATE_LABEL[state] ?? state)}
        </span>
      </td>
      <td class="command-message" data-testid="command-message">
        {run?.message ?? ""}
        {run?.healed && (
          <span class="healed" data-testid="command-healed">
            <span class="badge state-healed">healed</span> by <code>{run.healed.locator}</code> (score {run.healed.score.toFixed(2)}){" "}
            <button type="button" title={`Make ${run.healed.locator} the target of command ${index + 1}`} onClick={() => send({ type: "user.acceptHealed", commandId: command.id })}>
              Accept
            </button>
          </span>
        )}
      </td>
    </tr>
  );
});

export interface CommandTableProps {
  testName: string;
  commands: readonly CommandOutline[];
  /** The last run's rows by command id when it played this test, else null. */
  runRows: ReadonlyMap<string, CommandRow> | null;
  /** The data blocks the run plays in this test, by their loadVars' id (CONTRACT section 22); null when it plays none. */
  dataRows: ReadonlyMap<string, DataRowView> | null;
  breakpoints: ReadonlySet<string>;
  currentCommandId: string | null;
  paused: boolean;
  /** Every selected command id, and the one the IDE has selected (the form's). */
  selected: ReadonlySet<string>;
  focusId: string | null;
  editable: boolean;
  /** Time travel: the run's command whose page is shown (an index of the run's rows), and picking one; null while it cannot be. */
  travel: { index: number | null; select(index: number): void } | null;
  send: (event: UserEventMessage) => void;
  /** A row picked with the mouse or the arrows: how the selection takes it. */
  onPick(id: string, how: PickHow): void;
  /** A key of editorKeys.ts the table does not do itself (clipboard, undo, delete, ...). */
  onAction(action: TableKeyAction): void;
  /** The clipboard's own events on the table (the system clipboard). */
  onCopy(event: ClipboardEvent, cut: boolean): void;
  onPaste(event: ClipboardEvent): void;
  /** Enter on a row: a new command goes after it; F2 or a double click: edit it in the form. */
  onInsertAfter(): void;
  onEdit(): void;
}

export function CommandTable(props: CommandTableProps) {
  const { testName, commands, runRows, dataRows, breakpoints, currentCommandId, paused, selected, focusId, editable, travel, send } = props;
  const body = useRef<HTMLTableSectionElement>(null);
  /** The user is working in the table: focus follows the IDE's selection. */
  const working = useRef(false);
  const latest = useRef(props);
  latest.current = props;
  const rowAt = (index: number) => body.current?.querySelectorAll<HTMLTableRowElement>("tr")[index] ?? null;

  useLayoutEffect(() => {
    // Only focus that was lost (its row deleted, or moved and so re-inserted) is put back: a
    // row that has it is where the user's keys are, ahead of a selection still on its way.
    if (!working.current || focusId === null || body.current?.contains(document.activeElement)) return;
    rowAt(commands.findIndex((command) => command.id === focusId))?.focus();
  }, [focusId, commands]);

  const actions = useRef<RowActions | null>(null);
  actions.current ??= {
    click(event, id, index) {
      working.current = true;
      const { editable, travel, onPick } = latest.current;
      if (editable) onPick(id, event.shiftKey ? "range" : event.ctrlKey || event.metaKey ? "toggle" : "only");
      travel?.select(index);
    },
    doubleClick(id) {
      const { editable, onPick, onEdit } = latest.current;
      if (!editable) return;
      onPick(id, "only");
      onEdit();
    },
    dragStart(event, id) {
      if (!latest.current.editable || !event.dataTransfer) return;
      event.dataTransfer.setData("application/x-ide-command", id);
      event.dataTransfer.effectAllowed = "move";
    },
    drop(event, index) {
      const { editable, commands, send } = latest.current;
      const id = event.dataTransfer?.getData("application/x-ide-command");
      if (!editable || !id) return;
      event.preventDefault();
      const from = commands.findIndex((c) => c.id === id);
      if (from >= 0 && from !== index) send({ type: "user.moveCommand", commandId: id, toIndex: index });
    },
  };

  const keyDown = (event: KeyboardEvent) => {
    const { commands, editable, travel, onPick, onAction, onInsertAfter, onEdit, focusId } = latest.current;
    if (event.target instanceof Element && event.target.closest("button, input, select, textarea")) return;
    // Left/Right step the page after a command (time travel) once a run is paused or over.
    if (travel && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      const next = steppedIndex(event.key, travel.index, commands.length);
      if (next === null) return;
      event.preventDefault();
      travel.select(next);
      rowAt(next)?.focus();
      return;
    }
    const rowIndex = rowIndexOf(event.target, commands);
    const index = rowIndex >= 0 ? rowIndex : commands.findIndex((c) => c.id === focusId);
    const action = tableKeyAction(event, index, commands.length, editable);
    if (action === null) return;
    event.preventDefault();
    working.current = true;
    const command = commands[index];
    switch (action.kind) {
      case "select":
      case "extend":
        rowAt(action.index)?.focus();
        if (editable) onPick(commands[action.index].id, action.kind === "extend" ? "range" : "only");
        travel?.select(action.index);
        break;
      case "move":
        send({ type: "user.moveCommand", commandId: command.id, toIndex: action.toIndex });
        break;
      case "insertAfter":
        working.current = false;
        onInsertAfter();
        break;
      case "edit":
        working.current = false;
        onEdit();
        break;
      default:
        onAction(action);
    }
  };

  const tabStop = commands.some((c) => c.id === focusId) ? focusId : (commands[0]?.id ?? null);
  return (
    <table
      class={travel ? "commands editor-commands selectable" : "commands editor-commands"}
      role="grid"
      aria-label={`Commands of "${testName}"`}
      aria-multiselectable="true"
      aria-readonly={editable ? undefined : "true"}
      data-testid="commands"
      tabIndex={-1}
      onKeyDown={keyDown}
      onCopy={(event) => props.onCopy(event as ClipboardEvent, false)}
      onCut={(event) => props.onCopy(event as ClipboardEvent, true)}
      onPaste={(event) => props.onPaste(event as ClipboardEvent)}
      onFocusOut={(event) => {
        // Focus went elsewhere in the page (not lost with a row that was removed).
        const to = (event as FocusEvent).relatedTarget as Node | null;
        if (to !== null && !(event.currentTarget as HTMLElement).contains(to)) working.current = false;
      }}
    >
      <thead>
        <tr>
          <th scope="col">
            <span class="visually-hidden">Breakpoint</span>
          </th>
          <th scope="col">#</th>
          <th scope="col">Command</th>
          <th scope="col">Target</th>
          <th scope="col">Value</th>
          <th scope="col">State</th>
          <th scope="col">Message</th>
        </tr>
      </thead>
      <tbody ref={body}>
        {commands.map((command, index) => (
          <Row
            key={command.id}
            command={command}
            index={index}
            run={runRows?.get(command.id)}
            data={dataRows?.get(command.id)}
            breakpoint={breakpoints.has(command.id)}
            selected={selected.has(command.id)}
            tabStop={command.id === tabStop}
            current={command.id === currentCommandId}
            paused={paused}
            travelled={travel !== null && travel.index === index}
            editable={editable}
            actions={actions.current!}
            send={send}
          />
        ))}
      </tbody>
    </table>
  );
}

function rowIndexOf(target: EventTarget | null, commands: readonly CommandOutline[]): number {
  const row = target instanceof Element ? target.closest("tr[data-command-id]") : null;
  const id = row?.getAttribute("data-command-id");
  return id ? commands.findIndex((c) => c.id === id) : -1;
}
