// `npm run play`'s command line (CONTRACT section 16): every option checked before anything
// starts; a problem is one line (UsageError), and the process exits 2.
import { parseArgs } from "node:util";
import { DEFAULT_PORT, DEFAULT_TOKEN_FILE } from "../host/host.ts";
import { parseCapabilities } from "../../drivers/host/capabilities.ts";
import type { Capabilities } from "../../drivers/host/capabilities.ts";

export const USAGE = `usage: npm run play -- FILE.side [options]

  --suite NAME           play this suite (default: every suite of the project, or every test when it has none)
  --test NAME            play this test only
  --webdriver-url URL    play through this WebDriver endpoint (a Selenium Grid: npm run grid) instead of starting chromedriver
  --capabilities JSON    the WebDriver session's capabilities (default: Chromium headless)
  --workers N            play up to N tests of a parallel suite at once (default 1)
  --base-url URL         play against this URL instead of the project's url
  --junit FILE           write a JUnit XML report to FILE
  --wait-for-plugins N   start once N plugins have registered over the bridge (at most 30 s)
  --port N               the plugin bridge's port on 127.0.0.1 (default ${DEFAULT_PORT}; 0 picks a free one)
  --token-file FILE      where to write the bridge's token (default: ${DEFAULT_TOKEN_FILE})
  --help                 show this`;

export class UsageError extends Error {}

export interface PlayOptions {
  file: string;
  suite: string | null;
  test: string | null;
  webdriverUrl: string | null;
  capabilities: Capabilities | undefined;
  workers: number;
  baseUrl: string | null;
  junit: string | null;
  waitForPlugins: number;
  port: number;
  tokenFile: string;
}

const wholeNumber = (name: string, text: string | undefined, fallback: number, least: number): number => {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isInteger(value) || value < least) {
    throw new UsageError(`--${name} must be a whole number of at least ${least}, not ${JSON.stringify(text)}`);
  }
  return value;
};

/** The options, or null for --help (the usage is printed). */
export function readPlayOptions(argv: string[]): PlayOptions | null {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        suite: { type: "string" },
        test: { type: "string" },
        "webdriver-url": { type: "string" },
        capabilities: { type: "string" },
        workers: { type: "string" },
        "base-url": { type: "string" },
        junit: { type: "string" },
        "wait-for-plugins": { type: "string" },
        port: { type: "string" },
        "token-file": { type: "string" },
        help: { type: "boolean" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return null;
  if (positionals.length === 0) throw new UsageError("name the .side file to play, e.g. npm run play -- tests.side");
  if (positionals.length > 1) throw new UsageError(`play one .side file at a time, not ${positionals.length} (${positionals.join(", ")})`);
  if (values.suite !== undefined && values.test !== undefined) throw new UsageError("give --suite or --test, not both");
  for (const name of ["base-url", "webdriver-url"] as const) {
    const value = values[name];
    if (value !== undefined && !/^https?:\/\/[^/]/i.test(value)) throw new UsageError(`--${name} must be an http or https URL, not ${JSON.stringify(value)}`);
  }
  let capabilities: Capabilities | undefined;
  try {
    capabilities = values.capabilities === undefined ? undefined : parseCapabilities(values.capabilities);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const port = wholeNumber("port", values.port, DEFAULT_PORT, 0);
  if (port > 65535) throw new UsageError(`--port must be a port number from 0 to 65535, not ${JSON.stringify(values.port)}`);
  return {
    file: positionals[0],
    suite: values.suite ?? null,
    test: values.test ?? null,
    webdriverUrl: values["webdriver-url"] ?? null,
    capabilities,
    workers: wholeNumber("workers", values.workers, 1, 1),
    baseUrl: values["base-url"] ?? null,
    junit: values.junit ?? null,
    waitForPlugins: wholeNumber("wait-for-plugins", values["wait-for-plugins"], 0, 0),
    port,
    tokenFile: values["token-file"] ?? DEFAULT_TOKEN_FILE,
  };
}
