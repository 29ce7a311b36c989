// The layout of an exported file. The packages describe code as blocks of statements, each
// with a level relative to where the block starts, and blocks that open or close a
// control-flow body say so with starting and ending level adjustments. Their 4.0.13 renderer
// reads a statement's level as absolute and drops the adjustments of commands, so hook
// bodies and everything after the first control-flow block come out at column 0 (which
// Python does not even parse). Here the same lines are laid out as their own snapshot tests
// show them: each line indented by where its block stands. Nothing is added or reworded.
import type { ExportCommandShape, ExportFlexCommandShape } from "side-code-export";

/** One line of code and its indentation level, relative to the start of its list. */
export interface PlacedLine {
  level: number;
  text: string;
}

/**
 * Places a list of emitted results (one per command, or one hook's whole output) one after
 * the other, carrying the level from each to the next as the packages mean it to be.
 */
export function placeAll(emitted: ReadonlyArray<ExportFlexCommandShape>): PlacedLine[][] {
  let level = 0;
  return emitted.map((entry) => {
    const placed = place(entry, level);
    level = placed.endingLevel;
    return placed.lines;
  });
}

function place(entry: ExportFlexCommandShape, level: number): { lines: PlacedLine[]; endingLevel: number } {
  if (typeof entry === "string") return { lines: linesOf(entry, level), endingLevel: level };
  if ("statement" in entry) return { lines: linesOf(entry.statement, level + entry.level), endingLevel: level };
  const start = Math.max(0, level + (entry.startingLevelAdjustment ?? 0));
  const commands = entry.commands ?? [];
  const last = commands[commands.length - 1];
  const endingLevel = start + (last !== undefined && typeof last !== "string" ? last.level : 0) + (entry.endingLevelAdjustment ?? 0);
  if (entry.skipEmitting) return { lines: [], endingLevel };
  const lines = commands.flatMap((command: ExportCommandShape) =>
    typeof command === "string" ? linesOf(command, start) : linesOf(command.statement, start + command.level),
  );
  return { lines, endingLevel };
}

function linesOf(text: string, level: number): PlacedLine[] {
  return text.split("\n").map((line) => ({ level, text: line }));
}

/**
 * Each entry's lines as one string to hand back to the packages' renderer, which indents
 * every string line by the level of the place it goes (test body, method): only the
 * relative indentation is written here. Blank lines stay blank, with no trailing spaces.
 * The same placing as placeAll, without its line objects: a test's commands are many, and
 * most of them are one line at the body's own level, given back as they came.
 */
export function relativeTexts(emitted: ReadonlyArray<ExportFlexCommandShape>, padding: string): string[] {
  let level = 0;
  const texts: string[] = new Array(emitted.length);
  for (let index = 0; index < emitted.length; index++) {
    const entry = emitted[index];
    if (typeof entry === "string") {
      texts[index] = indented(entry, level, padding);
    } else if ("statement" in entry) {
      texts[index] = indented(entry.statement, level + entry.level, padding);
    } else {
      const start = Math.max(0, level + (entry.startingLevelAdjustment ?? 0));
      const commands = entry.commands ?? [];
      const last = commands[commands.length - 1];
      level = start + (last !== undefined && typeof last !== "string" ? last.level : 0) + (entry.endingLevelAdjustment ?? 0);
      texts[index] = entry.skipEmitting
        ? ""
        : commands.map((command) => (typeof command === "string" ? indented(command, start, padding) : indented(command.statement, start + command.level, padding))).join("\n");
    }
  }
  return texts;
}

const NOT_BLANK = /\S/;

function indented(text: string, level: number, padding: string): string {
  if (!text.includes("\n")) return NOT_BLANK.test(text) ? (level === 0 ? text : padding.repeat(level) + text) : "";
  return text
    .split("\n")
    .map((line) => (NOT_BLANK.test(line) ? padding.repeat(level) + line : ""))
    .join("\n");
}
