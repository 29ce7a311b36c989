// The commands of the shown test case: a breakpoint toggle on each (a button with
// aria-pressed, so it is reachable and announced like any toggle), the command, its state as
// a badge whose class names the state (colour and text always agree), and its message. The
// current command is marked with aria-current="step". A command the run healed (CONTRACT
// section 18) says by which locator and score, with "Accept" to make that locator its target;
// "Accept all" above the table accepts every one. A test may have 10,000 commands: each
// row renders again only when its own row object, breakpoint or current mark changed. Once
// the run is paused or over a row can be selected (a click, Left/Right): the trace panel
// shows the page as it was after it.
import { memo } from "preact/compat";
import type { UserEventMessage } from "../connection.ts";
import type { CommandRow } from "../protocol.ts";
import { steppedIndex } from "./TracePanel.tsx";

const STATE_LABEL: Record<string, string> = {
  passed: "passed",
  failed: "failed",
  fatal: "fatal",
  pending: "pending",
  undetermined: "undetermined",
};

interface RowProps {
  row: CommandRow;
  index: number;
  breakpoint: boolean;
  current: boolean;
  paused: boolean;
  selected: boolean;
  onSelect?: (index: number) => void;
  send: (event: UserEventMessage) => void;
}

const CommandRowView = memo(function CommandRowView({ row, index, breakpoint, current, paused, selected, onSelect, send }: RowProps) {
  const classes = [current ? "current" : "", current && paused ? "current-paused" : "", breakpoint ? "has-breakpoint" : "", selected ? "selected" : ""].filter(Boolean);
  return (
    <tr
      data-testid="command-row"
      data-command-id={row.id}
      class={classes.length > 0 ? classes.join(" ") : undefined}
      aria-current={current ? "step" : undefined}
      data-selected={selected ? "true" : undefined}
      onClick={
        onSelect &&
        ((event) => {
          // The row's own buttons (breakpoint, Accept) do their own thing.
          if (!(event.target instanceof Element && event.target.closest("button"))) onSelect(index);
        })
      }
    >
      <td class="breakpoint-cell">
        <button
          type="button"
          class="breakpoint"
          data-testid="breakpoint"
          aria-pressed={breakpoint ? "true" : "false"}
          aria-label={`Breakpoint before command ${index + 1}, ${row.command}`}
          title={breakpoint ? "Remove the breakpoint" : "Pause the run before this command"}
          onClick={() => send({ type: "user.toggleBreakpoint", commandId: row.id })}
        >
          <span class="breakpoint-dot" aria-hidden="true" />
        </button>
      </td>
      <td class="command-index">{index + 1}</td>
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
        {row.healed && (
          <span class="healed" data-testid="command-healed">
            <span class="badge state-healed">healed</span> by <code>{row.healed.locator}</code> (score {row.healed.score.toFixed(2)}){" "}
            <button type="button" title={`Make ${row.healed.locator} the target of command ${index + 1}`} onClick={() => send({ type: "user.acceptHealed", commandId: row.id })}>
              Accept
            </button>
          </span>
        )}
      </td>
    </tr>
  );
});

export function CommandsTable({
  rows,
  breakpoints,
  currentCommandId,
  paused,
  selectedIndex = null,
  onSelect,
  send,
}: {
  rows: readonly CommandRow[];
  breakpoints: ReadonlySet<string>;
  currentCommandId: string | null;
  paused: boolean;
  /** Time travel (TracePanel): the command whose page is shown, and picking one (a click, Left/Right); absent while it cannot be. */
  selectedIndex?: number | null;
  onSelect?: (index: number) => void;
  send: (event: UserEventMessage) => void;
}) {
  const healed = rows.filter((row) => row.healed).length;
  return (
    <>
      {healed > 0 && (
        <p class="healed-summary" data-testid="healed-summary">
          {healed} command{healed === 1 ? "" : "s"} healed: the page changed, another locator found the element.{" "}
          <button type="button" onClick={() => send({ type: "user.acceptAllHealed" })}>
            Accept all
          </button>
        </p>
      )}
      <table
        class={onSelect ? "commands selectable" : "commands"}
        data-testid="commands"
        tabIndex={onSelect ? 0 : undefined}
        aria-label={onSelect ? "The run's commands: select one to see the page after it, Left/Right step" : undefined}
        onKeyDown={
          onSelect &&
          ((event) => {
            const next = steppedIndex(event.key, selectedIndex, rows.length);
            if (next === null) return;
            event.preventDefault();
            onSelect(next);
          })
        }
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
        <tbody>
          {rows.map((row, index) => (
            <CommandRowView
              key={row.id}
              row={row}
              index={index}
              breakpoint={breakpoints.has(row.id)}
              current={row.id === currentCommandId}
              paused={paused && row.id === currentCommandId}
              selected={onSelect !== undefined && index === selectedIndex}
              onSelect={onSelect}
              send={send}
            />
          ))}
        </tbody>
      </table>
    </>
  );
}
