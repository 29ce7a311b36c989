// The command lines' usage errors (npm start, npm run play, export, grid, build:extension):
// what the user typed is not what the command takes. Each is one line that names the bad
// option, found before anything starts; each command says it in its own words and exit code.
import { parseArgs } from "node:util";
import type { ParseArgsConfig } from "node:util";
import { messageOf } from "../../services/errors.ts";

/** Where the command was run: npm's INIT_CWD (npm runs scripts from the package's folder), else the process's; relative paths are read from it. */
export const runDirectory = (): string => process.env.INIT_CWD ?? process.cwd();

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** node:util's parseArgs, strict, with its refusals (an unknown option, a missing value) as UsageErrors. */
export function readArgs<const T extends Omit<ParseArgsConfig, "strict">>(config: T): ReturnType<typeof parseArgs<T & { strict: true }>> {
  try {
    return parseArgs({ ...config, strict: true }) as ReturnType<typeof parseArgs<T & { strict: true }>>;
  } catch (error) {
    // Node says "Option '--out <value>' argument missing", and over three lines that a value
    // starting with a dash is "ambiguous"; its other refusals read well, each said in one line.
    const message = messageOf(error);
    const missing = /^Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(message);
    const dashed = /^Option '(?:-\w, )?(--[\w-]+)' argument is ambiguous/.exec(message);
    if (missing) throw new UsageError(`${missing[1]} needs a value`);
    if (dashed) throw new UsageError(`${dashed[1]} needs a value; one that starts with a dash is written ${dashed[1]}=VALUE`);
    throw new UsageError(message.replace(/\s*\n\s*/g, " "));
  }
}

/** `--NAME`'s digits as a whole number of at least `least`; `fallback` when not given. */
export function wholeNumber(name: string, text: string | undefined, fallback: number, least: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < least) {
    throw new UsageError(`--${name} must be a whole number of at least ${least}, not ${JSON.stringify(text)}`);
  }
  return value;
}

/** `--NAME`'s digits as a port from `least` (0 picks a free one) to 65535; `fallback` when not given. */
export function portNumber<F extends number | undefined>(name: string, text: string | undefined, fallback: F, least: 0 | 1 = 0): number | F {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < least || value > 65535) {
    throw new UsageError(`--${name} must be a port number from ${least} to 65535, not ${JSON.stringify(text)}`);
  }
  return value;
}

/** `--NAME`'s value as an http or https URL; null when not given. */
export function httpUrl(name: string, text: string | undefined): string | null {
  if (text === undefined) return null;
  if (!/^https?:\/\/[^/]/i.test(text)) throw new UsageError(`--${name} must be an http or https URL, not ${JSON.stringify(text)}`);
  return text;
}
