// A test's data blocks (CONTRACT section 22) as pure functions from one Run to the next: a
// loadVars that has its rows goes into its block with the first row's variables, and its
// endLoadVars goes back with the next row's, until the rows are played.
import type { DataRow } from "../services/playback/dataLoop.ts";
import { rowVariables } from "../services/playback/dataLoop.ts";
import { currentStep, settleStep, topFrame, withVariables } from "./testRunner.run.ts";
import type { Run, RunFrame } from "./testRunner.types.ts";

function withLoop(run: Run, frame: RunFrame, loadVars: number, loop: { rows: ReadonlyArray<DataRow>; row: number } | null): Run {
  const data = { ...frame.data };
  if (loop) data[loadVars] = loop;
  else delete data[loadVars];
  const frames = run.frames.slice();
  frames[frames.length - 1] = { ...frame, data };
  return { ...run, frames };
}

/** `loadVars` read its file: the block plays with its first row, or is passed over when the file has none. */
export function startRows(run: Run, rows: ReadonlyArray<DataRow>): Run {
  const frame = topFrame(run);
  const step = currentStep(run);
  if (!frame || !step) return run;
  if (rows.length === 0) return settleStep(run, { state: "passed", message: null, holds: false });
  const entered = withVariables(withLoop(run, frame, step.index, { rows, row: 0 }), rowVariables(rows[0]));
  return settleStep(entered, { state: "passed", message: null, holds: true });
}

/** `endLoadVars`: the next row plays the block again; after the last, the block is over. */
export function nextRow(run: Run): Run {
  const frame = topFrame(run);
  const step = currentStep(run);
  if (!frame || !step || step.opens === undefined) return run;
  const loop = frame.data?.[step.opens];
  if (!loop || loop.row + 1 >= loop.rows.length) return settleStep(withLoop(run, frame, step.opens, null), { state: "passed", message: null, holds: false });
  const row = loop.row + 1;
  const turned = withVariables(withLoop(run, frame, step.opens, { rows: loop.rows, row }), rowVariables(loop.rows[row]));
  return settleStep(turned, { state: "passed", message: null, holds: true });
}
