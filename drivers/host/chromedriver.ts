// Debian's chromedriver as a process of the host, beside the Chromium launcher (chromium.ts):
// where it is, starting it on a free port, waiting until it answers, noticing that it exited,
// and stopping it with the browser it started. Sessions and commands over it are browserPage.ts's.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { messageOf } from "../../services/errors.ts";

export const CHROMEDRIVER_PATH = process.env.CHROMEDRIVER_PATH ?? "/usr/bin/chromedriver";

export const CHROMEDRIVER_MISSING = (path: string) =>
  `chromedriver is not installed at ${path}, so page commands cannot run. Install it with ` +
  `"apt-get install -y chromium-driver" (as root), point CHROMEDRIVER_PATH at a chromedriver, ` +
  `or play through a WebDriver endpoint with --webdriver-url URL.`;

/** chromedriver is missing, exited while starting, or did not answer in time; the message says which. */
export class ChromedriverError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChromedriverError";
  }
}

/** A chromedriver this process started. */
export interface Chromedriver {
  /** Its WebDriver endpoint. */
  readonly url: string;
  /** Its process id while it runs, else null. */
  pid(): number | null;
  /** Calls `listener` once when it exits, however it ends. */
  onExit(listener: () => void): void;
  /** Stops it: SIGKILL when it is gone anyway, SIGTERM to let it end its browser first. */
  kill(signal: "SIGKILL" | "SIGTERM"): void;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts chromedriver on a free port and waits until it answers /status. */
export async function startChromedriver(path: string, timeoutMs: number): Promise<Chromedriver> {
  if (!existsSync(path)) throw new ChromedriverError(CHROMEDRIVER_MISSING(path));
  const port = await freePort();
  const child = spawn(path, [`--port=${port}`], { stdio: ["ignore", "ignore", "pipe"] });
  let exited: string | null = null;
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  child.once("error", (error) => (exited = messageOf(error)));
  child.once("exit", (code, signal) => (exited ??= `it exited (${signal ?? `code ${code}`})`));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== null) throw new ChromedriverError(`chromedriver at ${path} did not start: ${exited}${stderr ? `: ${stderr.trim()}` : ""}`);
    try {
      const response = await fetch(`${url}/status`);
      if (response.ok) return running(child, url);
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new ChromedriverError(`chromedriver at ${path} did not answer within ${timeoutMs} ms.`);
    }
    await sleep(50);
  }
}

function running(child: ChildProcess, url: string): Chromedriver {
  return {
    url,
    pid: () => (child.exitCode === null && child.signalCode === null ? (child.pid ?? null) : null),
    onExit: (listener) => void child.once("exit", listener),
    kill: (signal) => void child.kill(signal),
  };
}

/**
 * A chromedriver killed outright leaves its Chromium running; the local browser's processes
 * are the ones started with its own profile folder (Linux only; elsewhere nothing is done).
 */
export function killBrowser(userDataDir: string | null) {
  if (!userDataDir || !existsSync("/proc")) return;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (cmdline.includes(`--user-data-dir=${userDataDir}\0`) || cmdline.endsWith(`--user-data-dir=${userDataDir}`)) process.kill(Number(entry), "SIGKILL");
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
}
