// The options npm start and npm run play share, read once for both (CONTRACT section 16): where
// the browser comes from and what it plays against (`--webdriver-url`, `--capabilities`,
// `--workers`, `--base-url`), how page commands are played (`--executor`), where uploads are read from (`--files`), and where the plugin
// bridge listens (`--port`, `--token-file`), whether runs keep traces (`--trace`), and how often a
// failed test is played again (`--retries`).
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { DEFAULT_PORT, DEFAULT_TOKEN_FILE } from "../../drivers/bridge/address.ts";
import { parseCapabilities } from "../../drivers/host/capabilities.ts";
import type { PlayerKind } from "../../drivers/host/browserPage.ts";
import type { Capabilities } from "../../drivers/host/capabilities.ts";
import { messageOf } from "../../services/errors.ts";
import { traceModeOf } from "../../services/traces/index.ts";
import type { TraceMode } from "../../services/traces/index.ts";
import { httpUrl, portNumber, runDirectory, UsageError, wholeNumber } from "./usage.ts";

/** For readArgs: the shared options, spread into a command's own. */
export const BROWSER_ARGS = {
  "webdriver-url": { type: "string" },
  capabilities: { type: "string" },
  workers: { type: "string" },
  "base-url": { type: "string" },
  files: { type: "string" },
  executor: { type: "string" },
  "no-heal": { type: "boolean" },
  port: { type: "string" },
  "token-file": { type: "string" },
  trace: { type: "string" },
  retries: { type: "string" },
} as const;

type BrowserArgs = { [K in Exclude<keyof typeof BROWSER_ARGS, "no-heal">]?: string } & { "no-heal"?: boolean };

export interface BrowserOptions {
  /** A WebDriver endpoint (a Grid) instead of a chromedriver started here. */
  webdriverUrl: string | null;
  capabilities: Capabilities | undefined;
  /** Tests of a parallel suite played at once, each in a browser session of its own. */
  workers: number;
  /** Replaces the project's url (and the example site). */
  baseUrl: string | null;
  /** `--files DIR`, absolute: where `type` on a file input reads a relative path first; null when not given. */
  filesDir: string | null;
  /** `--executor`: who plays page commands, "devtools" (the one player, in the page with trusted input; the default) or "webdriver" (side-runtime's WebDriverExecutor). */
  player: PlayerKind;
  /** `--no-heal` gives false: a command healed by another locator fails instead (CONTRACT section 18). */
  heal: boolean;
  /** The host's port on 127.0.0.1 (0 picks a free one). */
  port: number;
  tokenFile: string;
  /** `--trace on|off|retain-on-failure` (CONTRACT section 17); the default is the command's own. */
  trace: TraceMode;
  /** `--retries N`: more tries, at once, for a failed or fatal test (createIde's `retries`); default 0. */
  retries: number;
}

/** The shared options' values as readArgs gave them, checked; a bad one is a UsageError naming it. */
export function readBrowserOptions(values: BrowserArgs, traceDefault: TraceMode): BrowserOptions {
  const baseUrl = httpUrl("base-url", values["base-url"]);
  const webdriverUrl = httpUrl("webdriver-url", values["webdriver-url"]);
  let capabilities: Capabilities | undefined;
  try {
    capabilities = values.capabilities === undefined ? undefined : parseCapabilities(values.capabilities);
  } catch (error) {
    throw new UsageError(messageOf(error));
  }
  return {
    webdriverUrl,
    capabilities,
    workers: wholeNumber("workers", values.workers, 1, 1),
    baseUrl,
    filesDir: folder("files", values.files),
    player: playerKind(values.executor),
    heal: values["no-heal"] !== true,
    port: portNumber("port", values.port, DEFAULT_PORT),
    tokenFile: values["token-file"] ?? DEFAULT_TOKEN_FILE,
    trace: traceOption(values.trace, traceDefault),
    retries: wholeNumber("retries", values.retries, 0, 0),
  };
}

/** `--trace on|off|retain-on-failure`, or the default when not given. */
function traceOption(text: string | undefined, fallback: TraceMode): TraceMode {
  if (text === undefined) return fallback;
  const mode = traceModeOf(text);
  if (mode === null) throw new UsageError(`--trace must be on, off or retain-on-failure, not ${JSON.stringify(text)}`);
  return mode;
}

const PLAYERS: readonly PlayerKind[] = ["devtools", "webdriver"];

/** `--executor devtools|webdriver`; devtools when not given. */
function playerKind(text: string | undefined): PlayerKind {
  if (text === undefined) return "devtools";
  const kind = PLAYERS.find((k) => k === text);
  if (!kind) throw new UsageError(`--executor must be devtools or webdriver, not ${JSON.stringify(text)}`);
  return kind;
}

/** `--NAME DIR` as an absolute path to a folder that exists; null when not given. */
function folder(name: string, text: string | undefined): string | null {
  if (text === undefined) return null;
  const path = resolve(runDirectory(), text);
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--${name} must be a folder that exists, not ${JSON.stringify(text)}`);
  return path;
}
