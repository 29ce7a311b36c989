// The command table's selection, as in the lists people know (a file manager, Selenium IDE's
// own list): a click selects one command, Ctrl+click adds or takes away one, Shift+click and
// Shift+arrows select the range from the anchor. The IDE knows one selected command (the one
// the form edits, `selectedCommandId`); the others selected with it are the page's own, since
// only copy, cut, disable and delete read them. Pure: the table calls it and keeps the result.

export interface CommandSelection {
  /** Where a range starts: the command last picked without Shift. */
  anchor: string | null;
  /** Every selected command, the IDE's own included. */
  ids: ReadonlySet<string>;
  /**
   * The page's last pick the IDE has not taken yet (`target`), and the selections the IDE may
   * still pass through on the way to it: the one it had then and the page's earlier picks
   * (three quick ↑ send three picks, and their answers arrive one by one). Until the IDE's
   * selection reaches the target or moves elsewhere, the page's pick stands.
   */
  awaiting?: { target: string; passing: ReadonlySet<string | null> };
}

export const NO_SELECTION: CommandSelection = Object.freeze({ anchor: null, ids: new Set<string>() });

export type PickHow = "only" | "toggle" | "range";

/** The selection after the user picked `id` (a click; with Ctrl: toggle; with Shift: range from the anchor). */
export function pick(order: readonly string[], current: CommandSelection, id: string, how: PickHow): CommandSelection {
  if (!order.includes(id)) return current;
  if (how === "only") return { anchor: id, ids: new Set([id]) };
  if (how === "toggle") {
    const ids = new Set(current.ids);
    if (ids.has(id) && ids.size > 1) ids.delete(id);
    else ids.add(id);
    return { anchor: id, ids };
  }
  const anchor = current.anchor !== null && order.includes(current.anchor) ? current.anchor : id;
  const [from, to] = [order.indexOf(anchor), order.indexOf(id)].sort((a, b) => a - b);
  return { anchor, ids: new Set(order.slice(from, to + 1)) };
}

/**
 * The selection once the IDE's selected command is known: commands gone from the test are
 * dropped; a selected command the page did not pick (a plugin's insert, a paste, a new test)
 * becomes the whole selection; none selected in the IDE is none here. While the page's last
 * pick waits for the IDE (its selection is one it passes through on the way: stillAwaiting),
 * the pick stands.
 */
export function followIde(order: readonly string[], current: CommandSelection, selectedId: string | null): CommandSelection {
  if (stillAwaiting(order, current, selectedId)) {
    const kept = [...current.ids].filter((id) => order.includes(id));
    return kept.length === current.ids.size ? current : { anchor: current.anchor, ids: new Set(kept), awaiting: current.awaiting };
  }
  if (selectedId === null || !order.includes(selectedId)) return current.ids.size === 0 ? current : NO_SELECTION;
  if (!current.ids.has(selectedId)) return { anchor: selectedId, ids: new Set([selectedId]) };
  const kept = [...current.ids].filter((id) => order.includes(id));
  if (kept.length === current.ids.size) return current;
  return { anchor: current.anchor !== null && order.includes(current.anchor) ? current.anchor : selectedId, ids: new Set(kept) };
}

/**
 * Whether the IDE's selection is still on its way to the page's last pick: not there yet, on one
 * it may pass through, and the pick still a command of the test (a pick deleted before the IDE
 * took it is never reached: the IDE's selection is then the delete's, whatever it is).
 */
const stillAwaiting = (order: readonly string[], current: CommandSelection, selectedId: string | null) =>
  current.awaiting !== undefined &&
  current.awaiting.target !== selectedId &&
  current.awaiting.passing.has(selectedId) &&
  order.includes(current.awaiting.target);

/**
 * The selection after a pick the IDE is asked to take: `focus` becomes its selected command,
 * and until the IDE shows it, the IDE's `selectedId` (and any earlier pick still on its way)
 * is passed through without undoing the page's pick.
 */
export function awaitIde(order: readonly string[], next: CommandSelection, current: CommandSelection, focus: string, selectedId: string | null): CommandSelection {
  const passing = new Set<string | null>([selectedId]);
  if (stillAwaiting(order, current, selectedId) && current.awaiting) {
    for (const id of current.awaiting.passing) passing.add(id);
    passing.add(current.awaiting.target);
  }
  passing.delete(focus);
  return { anchor: next.anchor, ids: next.ids, awaiting: { target: focus, passing } };
}

/** The selection once the IDE's selection moved: a pick it reached, or left behind, waits no more. */
export function settle(order: readonly string[], current: CommandSelection, selectedId: string | null): CommandSelection {
  return current.awaiting === undefined || stillAwaiting(order, current, selectedId) ? current : { anchor: current.anchor, ids: current.ids };
}

/** The selected commands in the table's order. */
export function selectedInOrder(order: readonly string[], selection: CommandSelection): string[] {
  return order.filter((id) => selection.ids.has(id));
}
