// The config file (CONTRACT section 22): `--config-file PATH` (`-n`), else `.side.yml` in the
// directory the command was run from when it is there. YAML with side-runner v4's keys, checked
// with zod at the door: a file that cannot be read, is not YAML, has a key v4 does not have or a
// value of the wrong kind is one UsageError naming the file and the line.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { z } from "zod";
import { messageOf } from "../../services/errors.ts";
import { UsageError } from "../cli/usage.ts";

const text = z.string().min(1);
const count = (least: number) => z.number().int().min(least);
const pairs = z.union([z.string(), z.record(z.string(), z.unknown())]);

const ConfigSchema = z.strictObject({
  baseUrl: text,
  capabilities: pairs,
  server: text,
  timeout: count(0),
  filter: text,
  maxWorkers: count(1),
  retries: count(0),
  screenshotFailureDirectory: text,
  proxyType: text,
  proxyOptions: pairs,
  params: pairs,
}).partial();

/** What the file may set; every key optional, the command line wins over each. */
export type PlayConfig = z.infer<typeof ConfigSchema>;

export const CONFIG_KEYS = Object.keys(ConfigSchema.shape);

export const DEFAULT_CONFIG_FILE = ".side.yml";

/** The config named on the command line (it must be there), else `.side.yml` in `runDir` when present; `file` null when none. */
export function readConfig(given: string | undefined, runDir: string): { file: string | null; config: PlayConfig } {
  const file = given === undefined ? join(runDir, DEFAULT_CONFIG_FILE) : resolve(runDir, given);
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (given === undefined && code === "ENOENT") return { file: null, config: {} };
    throw new UsageError(`cannot read the config file ${file}: ${code === "ENOENT" ? "there is no such file" : messageOf(error)}`);
  }
  return { file, config: parseConfig(source, file) };
}

/** The file's text as a config; a UsageError naming `file` and the line of its first problem. */
export function parseConfig(source: string, file: string): PlayConfig {
  // Loaded when there is a file to read: most starts have none.
  const { isMap, isScalar, LineCounter, parseDocument } = createRequire(import.meta.url)("yaml") as typeof import("yaml");
  const lines = new LineCounter();
  const doc = parseDocument(source, { lineCounter: lines, prettyErrors: false });
  const first = doc.errors[0];
  if (first) {
    const line = first.linePos?.[0].line ?? lines.linePos(first.pos[0]).line;
    throw new UsageError(`the config file ${file} is not YAML: line ${line}: ${first.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "")}`);
  }
  if (doc.contents === null) return {};
  if (!isMap(doc.contents)) throw new UsageError(`the config file ${file} must be a mapping of side-runner's keys (${CONFIG_KEYS.join(", ")})`);
  const lineOf = (key: PropertyKey | undefined): number | null => {
    const item = (isMap(doc.contents) ? doc.contents.items : []).find((pair) => isScalar(pair.key) && pair.key.value === key);
    const at = item && isScalar(item.key) ? item.key.range?.[0] : undefined;
    return at === undefined ? null : lines.linePos(at).line;
  };
  const parsed = ConfigSchema.safeParse(doc.toJS());
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0];
    throw new UsageError(`the config file ${file}, line ${lineOf(key) ?? "?"}: ${JSON.stringify(key)} is not a key side-runner's config has; its keys: ${CONFIG_KEYS.join(", ")}`);
  }
  const key = issue.path[0];
  throw new UsageError(`the config file ${file}, line ${lineOf(key) ?? "?"}: ${String(key)}: ${issue.message}`);
}
