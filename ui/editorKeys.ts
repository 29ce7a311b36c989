// The command table's keys, as in the table editors people know (a spreadsheet, Selenium
// IDE's own list): arrows move the selection and Shift+arrows stretch it, Alt+arrows move the
// command, Enter starts a new command after the selected one, F2 edits it, Delete or Backspace
// removes the selected ones, Ctrl+A selects them all, Ctrl+Z undoes and Ctrl+Shift+Z or Ctrl+Y
// redoes (CONTRACT section 20). Ctrl+C, Ctrl+X and Ctrl+V are left to the browser, whose
// clipboard events the table takes (the system clipboard). Pure: the table calls it with the
// key and where the focus is, and does what it says.

export type TableKeyAction =
  | { kind: "select"; index: number }
  | { kind: "extend"; index: number }
  | { kind: "selectAll" }
  | { kind: "move"; toIndex: number }
  | { kind: "delete" }
  | { kind: "insertAfter" }
  | { kind: "edit" }
  | { kind: "undo" }
  | { kind: "redo" };

export interface KeyPress {
  key: string;
  altKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  shiftKey?: boolean;
}

/**
 * What a key on the row at `index` of `count` rows does, or null when the table leaves the
 * key alone (Tab, letters, the clipboard's keys, a move past either end). A table that may not
 * be edited (its test is playing) still lets the selection move.
 */
export function tableKeyAction(press: KeyPress, index: number, count: number, editable: boolean): TableKeyAction | null {
  const command = press.ctrlKey === true || press.metaKey === true;
  if (command && !press.altKey) {
    const key = press.key.toLowerCase();
    if (key === "z") return editable ? { kind: press.shiftKey ? "redo" : "undo" } : null;
    if (key === "y" && !press.shiftKey) return editable ? { kind: "redo" } : null;
    if (key === "a" && !press.shiftKey) return count > 0 ? { kind: "selectAll" } : null;
    return null;
  }
  if (count === 0 || index < 0 || index >= count) return null;
  const moving = press.altKey === true;
  const stretching = press.shiftKey === true && !moving;
  const last = count - 1;
  const clamp = (to: number) => Math.min(Math.max(to, 0), last);
  const go = (to: number): TableKeyAction | null => (to === index ? null : { kind: stretching ? "extend" : "select", index: to });
  switch (press.key) {
    case "ArrowUp":
    case "ArrowDown": {
      const to = clamp(index + (press.key === "ArrowUp" ? -1 : 1));
      if (!moving) return go(to);
      return editable && to !== index ? { kind: "move", toIndex: to } : null;
    }
    case "Home":
    case "End": {
      const to = press.key === "Home" ? 0 : last;
      if (!moving) return go(to);
      return editable && to !== index ? { kind: "move", toIndex: to } : null;
    }
    case "PageUp":
    case "PageDown":
      return moving ? null : go(clamp(index + (press.key === "PageUp" ? -10 : 10)));
    case "Delete":
    case "Backspace":
      return editable && !moving ? { kind: "delete" } : null;
    case "Enter":
      return editable && !moving && !press.shiftKey ? { kind: "insertAfter" } : null;
    case "F2":
      return editable ? { kind: "edit" } : null;
    default:
      return null;
  }
}
