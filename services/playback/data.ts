// Data-driven tests (CONTRACT section 22): `loadVars FILE` … `endLoadVars`, Katalon Recorder's
// commands. What a data file means (CSV with a header row, or JSON as an array of objects), and
// how a row shows in a failing command's message. Pure: the host reads the file (the run
// machine's `readData` port), this only parses its text, so a bad file fails the same way
// wherever it was read.
import { parse as parseCsv } from "csv-parse/sync";
import { parseDocument } from "yaml";
import type { DataRow } from "./dataLoop.ts";

export type { DataRow };

/** A data file as the host read it: where it was, and its text. */
export interface DataFile {
  path: string;
  text: string;
}

export class DataFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DataFileError";
  }
}

const lineAt = (text: string, offset: number) => text.slice(0, Math.max(0, offset)).split("\n").length;

/** The rows of a data file, or a DataFileError naming the file and the line. */
export function parseDataFile({ path, text }: DataFile): DataRow[] {
  const named = JSON.stringify(path);
  if (/\.json$/i.test(path)) return parseJsonRows(named, text);
  if (!/\.csv$/i.test(path)) throw new DataFileError(`loadVars reads a .csv or a .json file, not ${named}.`);
  try {
    return parseCsv(text, { columns: true, skip_empty_lines: true, bom: true }) as DataRow[];
  } catch (error) {
    const e = error as { code?: string; lines?: number; message?: string };
    const why = e.code === "CSV_RECORD_INCONSISTENT_COLUMNS" ? "a row has not as many values as the header has columns" : (e.message ?? String(error));
    throw new DataFileError(`The data file ${named} is not CSV with a header row: line ${e.lines ?? "?"}: ${why}.`);
  }
}

function parseJsonRows(named: string, text: string): DataRow[] {
  let rows: unknown;
  try {
    rows = JSON.parse(text);
  } catch (error) {
    // JSON.parse does not always say where (Node 20); the YAML parser reads JSON and does.
    const line = parseDocument(text).errors[0]?.linePos?.[0].line;
    throw new DataFileError(`The data file ${named} is not JSON${line ? `: line ${line}` : ""}: ${(error as Error).message}.`);
  }
  if (!Array.isArray(rows)) throw new DataFileError(`The data file ${named} is not an array of objects: line 1: its JSON is a ${typeof rows}.`);
  const bad = rows.findIndex((row) => row === null || typeof row !== "object" || Array.isArray(row));
  if (bad === -1) return rows as DataRow[];
  const items = (parseDocument(text).contents as { items?: Array<{ range?: [number] }> } | null)?.items;
  const offset = items?.[bad]?.range?.[0];
  const where = offset === undefined ? "" : `line ${lineAt(text, offset)}: `;
  throw new DataFileError(`The data file ${named} is not an array of objects: ${where}item ${bad + 1} is ${JSON.stringify(rows[bad])}.`);
}
