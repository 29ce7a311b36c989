// What an export is about, named apart from the code that does it (index.ts) so that the
// plugins' questions and answers (pluginAnswers.ts) can speak of the same plan without
// importing the exporter that asks them.
import type { CommandShape, SuiteShape } from "@seleniumhq/side-model";
import type { SideTest } from "../side/index.ts";

/** What to export: one test, or one suite's tests in its order. */
export type ExportScope = { testId: string } | { suiteId: string };

export interface ExportedFile {
  filename: string;
  body: string;
}

export type ExportFailure = { errorCode: "UnknownTest" | "ExportFailed"; error: string };

/** The tests an export writes, found once: what the plugins are asked about and named by. */
export interface ExportPlan {
  /** The exported test's or suite's name. */
  name: string;
  /** The exported tests, as in the `.side` file. */
  tests: SideTest[];
  /** Every test whose commands the packages will write: the exported ones and those they `run`. */
  written: SideTest[];
  scope: { test: SideTest } | { suite: SuiteShape };
  lists: ReadonlyArray<ReadonlyArray<CommandShape>>;
}
