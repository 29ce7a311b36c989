// The command table's keys, as in the table editors people know (a spreadsheet, Selenium
// IDE's own list): arrows move the selection, Alt+arrows move the command, Enter starts a new
// command after the selected one, F2 edits the selected one, Delete or Backspace removes it.
// Pure: the table calls it with the key and where the focus is, and does what it says.

export type TableKeyAction =
  | { kind: "select"; index: number }
  | { kind: "move"; toIndex: number }
  | { kind: "delete" }
  | { kind: "insertAfter" }
  | { kind: "edit" };

export interface KeyPress {
  key: string;
  altKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  shiftKey?: boolean;
}

/**
 * What a key on the row at `index` of `count` rows does, or null when the table leaves the
 * key alone (Tab, letters, a move past either end). A table that may not be edited (its test
 * is playing) still lets the selection move.
 */
export function tableKeyAction(press: KeyPress, index: number, count: number, editable: boolean): TableKeyAction | null {
  if (count === 0 || index < 0 || index >= count) return null;
  const moving = press.altKey === true;
  const last = count - 1;
  const clamp = (to: number) => Math.min(Math.max(to, 0), last);
  switch (press.key) {
    case "ArrowUp":
    case "ArrowDown": {
      const to = clamp(index + (press.key === "ArrowUp" ? -1 : 1));
      if (to === index) return null;
      if (!moving) return { kind: "select", index: to };
      return editable ? { kind: "move", toIndex: to } : null;
    }
    case "Home":
    case "End": {
      const to = press.key === "Home" ? 0 : last;
      if (to === index) return null;
      if (!moving) return { kind: "select", index: to };
      return editable ? { kind: "move", toIndex: to } : null;
    }
    case "PageUp":
    case "PageDown":
      return moving ? null : nonSame({ kind: "select", index: clamp(index + (press.key === "PageUp" ? -10 : 10)) }, index);
    case "Delete":
    case "Backspace":
      return editable && !moving ? { kind: "delete" } : null;
    case "Enter":
      return editable && !moving && !press.ctrlKey && !press.metaKey ? { kind: "insertAfter" } : null;
    case "F2":
      return editable ? { kind: "edit" } : null;
    default:
      return null;
  }
}

function nonSame(action: { kind: "select"; index: number }, index: number): TableKeyAction | null {
  return action.index === index ? null : action;
}
