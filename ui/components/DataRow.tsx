// CONTRACT section 22, "the IDE page shows the row being played": beside a loadVars command
// whose block is being played, which row of its data file plays now ("row 2 of 3"), with the
// row's values on hover and for screen readers; and the same for the run's status line.
import type { DataRowView } from "../protocol.ts";

const valuesText = (data: DataRowView) =>
  Object.entries(data.values)
    .map(([name, value]) => `${name} = ${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join("\n");

/** "row N of M" beside its loadVars command. */
export function DataRowBadge({ data }: { data: DataRowView }) {
  const values = valuesText(data);
  return (
    <span class="data-row" data-testid="data-row" title={values === "" ? "This row has no values" : values}>
      row {data.row} of {data.rows}
      <span class="visually-hidden">: {values.replaceAll("\n", ", ")}</span>
    </span>
  );
}

/** The rows being played, outermost block first, for the run's status: "row 2 of 3 (name = Bob)". */
export function DataRowsLine({ rows }: { rows: readonly DataRowView[] }) {
  if (rows.length === 0) return null;
  return (
    <p class="run-data" data-testid="run-data-rows">
      Data:{" "}
      {rows.map((data, index) => (
        <span key={data.commandId} data-testid="run-data-row" title={valuesText(data)}>
          {index > 0 && ", in it "}
          row {data.row} of {data.rows}
        </span>
      ))}
    </p>
  );
}

/** The blocks by their loadVars' id, made once per list. */
const byCommand = new WeakMap<readonly DataRowView[], ReadonlyMap<string, DataRowView>>();
export function dataRowsById(rows: readonly DataRowView[]): ReadonlyMap<string, DataRowView> {
  let map = byCommand.get(rows);
  if (!map) {
    map = new Map(rows.map((data) => [data.commandId, data]));
    byCommand.set(rows, map);
  }
  return map;
}
