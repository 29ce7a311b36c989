// IdeView.playback.dataRows (CONTRACT section 22, "the IDE page shows the row being played"):
// the data blocks (loadVars … endLoadVars) of the shown test that are being played, each with
// the row playing now and its values, read from the test runner's first frame. A block of a
// test that a `run` command called is not the shown test's, so it is not shown.
import type { Run } from "./testRunner.types.ts";

/** A `loadVars` block being played: its command, the row playing (1-based) of how many, and that row's values as JSON. */
export interface DataRowView {
  commandId: string;
  row: number;
  rows: number;
  values: Record<string, unknown>;
}

const NONE: DataRowView[] = Object.freeze([]) as unknown as DataRowView[];
// A view is built after every command: the blocks are rebuilt only when a row turned.
const viewsOfData = new WeakMap<object, DataRowView[]>();

const asJson = (value: unknown): unknown => {
  try {
    return JSON.parse(JSON.stringify(value ?? null)) ?? null;
  } catch {
    return String(value);
  }
};

/** The shown test's open data blocks, outermost first; the same array while no row turned. */
export function dataRowsOf(run: Run): DataRowView[] {
  const frame = run.frames[0];
  const data = frame?.data;
  if (!frame || !data || Object.keys(data).length === 0) return NONE;
  let views = viewsOfData.get(data);
  if (!views) {
    views = Object.freeze(
      Object.entries(data)
        .map(([index, loop]) => ({ index: Number(index), loop }))
        .sort((a, b) => a.index - b.index)
        .map(({ index, loop }) =>
          Object.freeze({
            commandId: frame.program[index].command.id,
            row: loop.row + 1,
            rows: loop.rows.length,
            values: Object.freeze(Object.fromEntries(Object.entries(loop.rows[loop.row] ?? {}).map(([key, value]) => [key, asJson(value)]))),
          }),
        ),
    ) as DataRowView[];
    viewsOfData.set(data, views);
  }
  return views;
}
