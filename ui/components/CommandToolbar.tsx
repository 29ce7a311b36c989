// The buttons above the command table, each doing what a key does in the table (editorKeys.ts)
// or what Selenium IDE v3's row menu does: record, new, move, delete; copy, cut, paste; disable
// or enable; and play from, play to, or execute the selected command (CONTRACT section 20's
// accessible names). They act on the selected commands; the ones that need a command are off
// without one, and the editing ones while the test is being played.
import type { CommandOutline } from "../protocol.ts";
import { isDisabledCommand } from "./CommandTable.tsx";

export interface ToolbarActions {
  record(): void;
  addCommand(): void;
  move(by: -1 | 1): void;
  remove(): void;
  copy(cut: boolean): void;
  paste(): void;
  toggleDisabled(): void;
  playFrom(): void;
  playTo(): void;
  execute(): void;
}

export function CommandToolbar({
  selected,
  focusIndex,
  count,
  locked,
  recording,
  running,
  actions,
}: {
  /** The selected commands, in the table's order. */
  selected: readonly CommandOutline[];
  /** Where the IDE's selected command is (-1: none). */
  focusIndex: number;
  count: number;
  locked: boolean;
  recording: boolean;
  running: boolean;
  actions: ToolbarActions;
}) {
  const none = selected.length === 0;
  const one = focusIndex >= 0;
  const allDisabled = !none && selected.every((c) => isDisabledCommand(c.command));
  return (
    <div class="command-toolbar">
      <div class="buttons" role="group" aria-label="Edit the commands">
        {/* CONTRACT section 14: records the user's actions in the page under test into this test; never beside a run. */}
        <button type="button" class={recording ? "danger recording" : "primary"} disabled={!recording && running} onClick={actions.record}>
          {recording ? "Stop recording" : "Record"}
        </button>
        <button type="button" disabled={locked} onClick={actions.addCommand}>
          New command
        </button>
        <button type="button" disabled={locked || !one || focusIndex === 0} onClick={() => actions.move(-1)}>
          Move up
        </button>
        <button type="button" disabled={locked || !one || focusIndex === count - 1} onClick={() => actions.move(1)}>
          Move down
        </button>
        <button type="button" class="danger" disabled={locked || none} onClick={actions.remove}>
          Delete command
        </button>
        <button type="button" disabled={none} title="Ctrl+C" onClick={() => actions.copy(false)}>
          Copy
        </button>
        <button type="button" disabled={locked || none} title="Ctrl+X" onClick={() => actions.copy(true)}>
          Cut
        </button>
        <button type="button" disabled={locked} title="Ctrl+V: commands copied here, or .side commands from the system clipboard" onClick={actions.paste}>
          Paste
        </button>
        <button type="button" disabled={locked || none} title="A disabled command (//) is skipped by a run" onClick={actions.toggleDisabled}>
          {allDisabled ? "Enable command" : "Disable command"}
        </button>
      </div>
      <div class="buttons" role="group" aria-label="Play the selected command">
        <button type="button" disabled={running || !one} title="Plays the test from the selected command" onClick={actions.playFrom}>
          Play from here
        </button>
        <button type="button" disabled={running || !one} title="Plays the test and pauses before the selected command" onClick={actions.playTo}>
          Play to here
        </button>
        <button type="button" disabled={running || !one} title="Plays the selected command alone, in the page under test" onClick={actions.execute}>
          Execute this command
        </button>
      </div>
      <p class="hint keys-hint">
        Keys in the list: ↑↓ select (Shift: more), Alt+↑↓ move, Enter new, F2 edit, Delete remove, Ctrl+C/X/V copy, cut, paste, Ctrl+Z undo, Ctrl+Shift+Z or Ctrl+Y redo; drag a row to move it
      </p>
    </div>
  );
}
