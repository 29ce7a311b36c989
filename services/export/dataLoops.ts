// `loadVars FILE` … `endLoadVars` in exported code (CONTRACT section 22): the block becomes a
// loop over the file's rows, read when the test runs, each row's values set as variables
// before the block's commands, and a failure inside rethrown with the row named first
// (`row N of M: (k="v") …`), as the players write it. Nested blocks are loops in loops, their
// names numbered by depth so an inner one never hides an outer one. The packages know neither
// command: the loops are written here, in the shape of the packages' own control flow
// (`times` … `end`), and the helpers they call (dataHelpers.ts) are added to the file once.
import type { CommandShape } from "@seleniumhq/side-model";
import type { ExportFlexCommandShape } from "side-code-export";
import { DATA_HELPERS } from "./dataHelpers.ts";
import type { ExportLanguage } from "./names.ts";

export const DATA_COMMANDS = new Set(["loadVars", "endLoadVars"]);

/** Where the export's data folder is, as a path for the exported file to use (see docs/export.md). */
export interface DataOptions {
  /** Relative to the exported file (the working directory in Java), or absolute; "." by default. */
  dataDir?: string;
}

interface Loop {
  open: string[];
  close: string[];
}

// Each loop as lines indented two spaces per level; `open` ends inside the row's body, one
// level deeper than it starts (the close's first line is back at the level of that body's
// opening line). § is the block's depth, FILE the data file's name as a string literal.
const LOOPS: Record<ExportLanguage, Loop> = {
  "javascript-mocha": {
    open: ["{", "  const rows§ = dataRows(FILE)", "  for (let index§ = 0; index§ < rows§.length; index§++) {", "    Object.assign(vars, rows§[index§])", "    try {"],
    close: ["    } catch (error§) {", "      throw rowFailure(error§, rows§, index§)", "    }", "  }", "}"],
  },
  "python-pytest": {
    open: ["rows_§ = self.data_rows(FILE)", "for index_§, row_§ in enumerate(rows_§):", "  self.vars.update(row_§)", "  try:"],
    close: ["  except Exception as error_§:", "    raise self.row_failure(error_§, rows_§, index_§) from error_§"],
  },
  "ruby-rspec": {
    open: ["rows_§ = data_rows(FILE)", "rows_§.each_with_index do |row_§, index_§|", "  @vars.merge!(row_§)", "  begin"],
    close: ["  rescue StandardError, RSpec::Expectations::ExpectationNotMetError => error_§", "    raise row_failure(error_§, rows_§, index_§)", "  end", "end"],
  },
  "java-junit": {
    open: ["{", "  List<Map<String, Object>> rows§ = dataRows(FILE);", "  for (int index§ = 0; index§ < rows§.size(); index§++) {", "    vars.putAll(rows§.get(index§));", "    try {"],
    close: ["    } catch (RuntimeException | AssertionError error§) {", "      throw rowFailure(error§, rows§, index§);", "    }", "  }", "}"],
  },
  "csharp-nunit": CSHARP_LOOP(),
  "csharp-xunit": CSHARP_LOOP(),
};

function CSHARP_LOOP(): Loop {
  return {
    open: ["{", "  var rows§ = DataRows(FILE);", "  for (int index§ = 0; index§ < rows§.Count; index§++) {", "    foreach (var pair§ in rows§[index§]) vars[pair§.Key] = pair§.Value;", "    try {"],
    close: ["    } catch (Exception error§) {", "      throw RowFailure(error§, rows§, index§);", "    }", "  }", "}"],
  };
}

/** Lines indented two spaces per level as the packages' level and statement pairs. */
export function leveled(lines: ReadonlyArray<string>): Array<{ level: number; statement: string }> {
  return lines.map((line) => {
    const text = line.trimStart();
    return { level: text === "" ? 0 : (line.length - text.length) / 2, statement: text };
  });
}

const LITERAL: Record<ExportLanguage, (text: string) => string> = {
  "csharp-nunit": JSON.stringify,
  "csharp-xunit": JSON.stringify,
  "java-junit": JSON.stringify,
  "javascript-mocha": JSON.stringify,
  "python-pytest": JSON.stringify,
  // Ruby's double quotes would read `#{…}`: single quotes take only \\ and \' as escapes.
  "ruby-rspec": (text) => `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`,
};

/** A string literal of the language for `text`. */
export const literalIn = (language: ExportLanguage, text: string): string => LITERAL[language](text);

/**
 * The depth (1 for the outermost) of each data block's `loadVars` and `endLoadVars` in a
 * command list, by index; throws when a block is not closed or an `endLoadVars` has no block,
 * in the players' words, since the loop's code would not parse.
 */
export function dataDepths(list: ReadonlyArray<CommandShape>): Map<number, number> {
  const depths = new Map<number, number>();
  let depth = 0;
  list.forEach((command, index) => {
    if (command.command === "loadVars") depths.set(index, (depth += 1));
    else if (command.command === "endLoadVars") {
      if (depth === 0) throw new Error("endLoadVars without loadVars before it");
      depths.set(index, depth);
      depth -= 1;
    }
  });
  if (depth > 0) throw new Error("loadVars without endLoadVars after it");
  return depths;
}

/** The code of a `loadVars` (the loop's start) or an `endLoadVars` (its end) at a depth. */
export function dataCommand(language: ExportLanguage, command: CommandShape, depth: number): ExportFlexCommandShape {
  const loop = LOOPS[language];
  const named = (line: string) => line.replaceAll("§", String(depth)).replace("FILE", () => literalIn(language, (command.target ?? "").trim()));
  if (command.command === "loadVars") {
    if ((command.target ?? "").trim() === "") throw new Error("'loadVars' needs the path of a .csv or .json file as its target");
    return { commands: leveled(loop.open.map(named)), endingLevelAdjustment: 1 };
  }
  const close = leveled(loop.close.map(named));
  // Back from the row's body (one deeper than the open's last line) to the open's first line.
  const openLast = leveled(loop.open)[loop.open.length - 1].level;
  return { commands: close, startingLevelAdjustment: -(openLast + 1), endingLevelAdjustment: -close[close.length - 1].level };
}

/** Whether any of the lists has a data block, so that the helpers are written. */
export const usesData = (lists: ReadonlyArray<ReadonlyArray<CommandShape>>): boolean =>
  lists.some((list) => list.some((command) => command.command === "loadVars"));

/** The helpers' imports and methods for the language, with its data folder in place. */
export function dataHelpers(language: ExportLanguage, options: DataOptions) {
  const folder = literalIn(language, options.dataDir ?? ".");
  const { dependencies, methods } = DATA_HELPERS[language];
  return { dependencies: leveled(dependencies), methods: leveled(methods.map((line) => line.replace("DATA_DIR", () => folder))) };
}
