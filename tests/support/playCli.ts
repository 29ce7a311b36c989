// `npm run play -- ARGS` as npm runs it (node bin/run.mjs bin/play.ts: the kept build, made again
// when a source changed), in a real process, on a free port with
// a token file (and so a data folder, and its traces/) of its own.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface Played {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Plays with `dataDir` as the user's data folder (its token file there). Every run ends: the CLI's
 * own waits have limits. `whilePlaying` is handed the process id once it started (to find its browser).
 */
export function playCli(args: string[], dataDir: string, whilePlaying?: (pid: number) => Promise<void>): Promise<Played> {
  const child = spawn(process.execPath, ["bin/run.mjs", "bin/play.ts", ...args, "--port", "0", "--token-file", join(dataDir, "token")], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Played>((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
  if (!whilePlaying) return exited;
  return Promise.all([exited, whilePlaying(child.pid!)]).then(([played]) => played);
}
