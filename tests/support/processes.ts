// The project's commands as real processes (`npm start`, `npm run grid`, ...): `tsx FILE` under
// this Node, as npm runs the scripts, with what they print collected.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface Run {
  child: ChildProcess;
  /** stdout and stderr as they came, together. */
  output(): string;
  exited: Promise<number | null>;
}

/** Every process started here, for an afterEach that kills what is left. */
export const running: ChildProcess[] = [];

export function runScript(file: string, args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, ["--import", "tsx", file, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  running.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Resolves with the first match of `pattern` in the output; rejects if the process exits first. */
export async function waitForOutput(run: Run, pattern: RegExp): Promise<RegExpMatchArray> {
  for (;;) {
    const match = run.output().match(pattern);
    if (match) return match;
    if (run.child.exitCode !== null) throw new Error(`exited early:\n${run.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Kills whatever is still running (an afterEach). */
export function killLeftovers(): void {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
}

/**
 * Runs a program to its end without blocking this process (which may be serving the pages it
 * visits), with what it printed on both streams; killed after `limitMs`.
 */
export function runToEnd(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
  limitMs = 120_000,
): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), limitMs);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}
