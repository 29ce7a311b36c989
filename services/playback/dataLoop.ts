// A `loadVars` … `endLoadVars` block as a run plays it (CONTRACT section 22): the rows the host
// read, the row playing now, and how the rows show in a failing command's message. The file
// itself is read and parsed by the host (data.ts, the run machine's `readData` port).

/** One row: column (or key) to value; a CSV's values are strings, a JSON row's as written. */
export type DataRow = Readonly<Record<string, unknown>>;

/** A `loadVars` block being played: its rows and the one playing now (0-based). */
export interface DataLoop {
  readonly rows: ReadonlyArray<DataRow>;
  readonly row: number;
}

/** The variables a row sets: each column's value (a CSV's as strings). */
export const rowVariables = (row: DataRow): Record<string, unknown> => ({ ...row });

const shown = (value: unknown) => (typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? String(value));

/** `row N of M: ` with the row's values, for each data block open, outermost first; "" outside any. */
export function rowNote(loops: ReadonlyArray<DataLoop>): string {
  return loops
    .map(({ rows, row }) => {
      const values = Object.entries(rows[row] ?? {}).map(([k, v]) => `${k}=${shown(v)}`).join(", ");
      return `row ${row + 1} of ${rows.length}: (${values}) `;
    })
    .join("");
}
