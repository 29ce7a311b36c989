// A variable in a command's target or value (`assertText id=out ${expected}`, `open
// /form/${page}`, `id=${id}`) as exported code. The 4.0.13 packages put the variable's lookup
// inside the string literal they write (`assert.equal(text, "vars[\"expected\"]")`, and a
// second variable is left as `${…}`): the exported test compares with the lookup's own text,
// or does not even parse. Data-driven tests (dataLoops.ts) live on such commands. Here each
// variable is given to the package as a placeholder word, and the literal the package wrote
// around it becomes the language's lookup, joined by `+` with the literal's other pieces, as
// the players substitute the variable into the text. Parameters the package reads itself
// (scripts, `sendKeys`' keys) are left to it, and so is any output where a placeholder lands
// outside a string literal (`times ${n}` writes it as code, which is right).
import type { CommandShape } from "@seleniumhq/side-model";
import type { ExportCommandShape, ExportFlexCommandShape } from "side-code-export";
import type { ExportLanguage } from "./names.ts";

const LOOKUP: Record<ExportLanguage, (name: string) => string> = {
  "csharp-nunit": (name) => `vars["${name}"].ToString()`,
  "csharp-xunit": (name) => `vars["${name}"].ToString()`,
  "java-junit": (name) => `vars.get("${name}").toString()`,
  "javascript-mocha": (name) => `vars["${name}"]`,
  "python-pytest": (name) => `str(self.vars["${name}"])`,
  "ruby-rspec": (name) => `@vars['${name}'].to_s`,
};

const VARIABLE = /\$\{(\w+)\}/g;
const placeholder = (index: number) => `QqSideVar${index}Qq`;
const PLACEHOLDER = /QqSideVar(\d+)Qq/g;

/** The package's emitter of one command, with the preprocessors it reads its parameters with. */
export interface CommandEmitter {
  targetPreprocessor?: unknown;
  valuePreprocessor?: unknown;
}

/**
 * The command with each `${name}` of a parameter the package does not preprocess itself as a
 * placeholder, and the names in placeholder order; null when there is none. `${KEY_…}` stays:
 * it is a key, not a variable.
 */
export function withPlaceholders(command: CommandShape, emitter: CommandEmitter): { command: CommandShape; names: string[] } | null {
  const names: string[] = [];
  const swap = (text: string | undefined) =>
    (text ?? "").replace(VARIABLE, (whole, name: string) => {
      if (name.startsWith("KEY_")) return whole;
      names.push(name);
      return placeholder(names.length - 1);
    });
  const target = emitter.targetPreprocessor ? command.target : swap(command.target);
  const value = emitter.valuePreprocessor ? command.value : swap(command.value);
  return names.length === 0 ? null : { command: { ...command, target, value }, names };
}

/** Spans of the string literals on one line of code: [start, end) with their quote. */
function literals(line: string): Array<{ start: number; end: number; quote: string }> {
  const spans: Array<{ start: number; end: number; quote: string }> = [];
  let open: { start: number; quote: string } | null = null;
  for (let at = 0; at < line.length; at++) {
    const c = line[at];
    if (open) {
      if (c === "\\") at++;
      else if (c === open.quote) {
        spans.push({ start: open.start, end: at + 1, quote: open.quote });
        open = null;
      }
    } else if (c === '"' || c === "'" || c === "`") open = { start: at, quote: c };
  }
  return spans;
}

/** One line with each literal holding placeholders written as its pieces joined by `+`; null when one cannot be. */
function rewriteLine(language: ExportLanguage, line: string, names: ReadonlyArray<string>): string | null {
  if (!line.includes("QqSideVar")) return line;
  let out = "";
  let from = 0;
  for (const { start, end, quote } of literals(line)) {
    const body = line.slice(start + 1, end - 1);
    if (!body.includes("QqSideVar")) continue;
    // A literal the code formats afterwards (Python's "{}".format) would format only its last piece.
    if (line.startsWith(".format(", end)) return null;
    const pieces: string[] = [];
    let last = 0;
    for (const match of body.matchAll(PLACEHOLDER)) {
      if (match.index > last) pieces.push(quote + body.slice(last, match.index) + quote);
      const name = names[Number(match[1])];
      if (name === undefined) return null;
      pieces.push(LOOKUP[language](name));
      last = match.index + match[0].length;
    }
    if (last < body.length) pieces.push(quote + body.slice(last) + quote);
    out += line.slice(from, start) + pieces.join(" + ");
    from = end;
  }
  out += line.slice(from);
  // A placeholder outside every literal is code the package wrote on purpose (times' count).
  return out.includes("QqSideVar") ? null : out;
}

function rewriteText(language: ExportLanguage, text: string, names: ReadonlyArray<string>): string | null {
  const lines = text.split("\n").map((line) => rewriteLine(language, line, names));
  return lines.some((line) => line === null) ? null : lines.join("\n");
}

/** The package's code with each placeholder as the variable's lookup; null to keep the package's own code. */
export function withLookups(language: ExportLanguage, emitted: ExportFlexCommandShape, names: ReadonlyArray<string>): ExportFlexCommandShape | null {
  if (typeof emitted === "string") return rewriteText(language, emitted, names);
  if ("statement" in emitted) {
    const statement = rewriteText(language, emitted.statement, names);
    return statement === null ? null : { ...emitted, statement };
  }
  const commands: ExportCommandShape[] = [];
  for (const line of emitted.commands) {
    const text = rewriteText(language, typeof line === "string" ? line : line.statement, names);
    if (text === null) return null;
    commands.push(typeof line === "string" ? text : { ...line, statement: text });
  }
  return { ...emitted, commands };
}
