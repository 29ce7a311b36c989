// `npm run play`'s command line (CONTRACT sections 16 and 22): ours and side-runner's options
// (v3 and v4 names where they do not clash), the config file below them, every value checked
// before anything starts; a problem is one line (the kit's UsageError, apps/cli/), exit 2.
// Paths are read from the directory the command was run from (npm's INIT_CWD), as side-runner
// reads them from its own.
import { resolve } from "node:path";
import { globSync, isDynamicPattern } from "tinyglobby";
import { DEFAULT_PORT, DEFAULT_TOKEN_FILE } from "../../drivers/bridge/address.ts";
import { defaultCapabilities } from "../../drivers/host/capabilities.ts";
import type { Capabilities } from "../../drivers/host/capabilities.ts";
import { messageOf } from "../../services/errors.ts";
import { BROWSER_ARGS, readBrowserOptions } from "../cli/browser.ts";
import type { BrowserOptions } from "../cli/browser.ts";
import { targetChoice } from "../cli/targets.ts";
import type { TargetChoice } from "../cli/targets.ts";
import { readArgs, runDirectory, UsageError, wholeNumber } from "../cli/usage.ts";
import { readConfig } from "./config.ts";
import type { PlayConfig } from "./config.ts";
import { capabilitiesOf, deepMerge, paramsOf, proxyOf } from "./keyValues.ts";

/** side-runner's `--timeout` default: how long a command looks for its element. */
export const DEFAULT_TIMEOUT_MS = 15_000;

export const USAGE = `usage: npm run play -- FILE.side [MORE.side 'tests/**/*.side' ...] [options]

  --suite NAME           play this suite (default: every suite of the project, or every test when it has none)
  --test NAME            play this test only
  -f, --filter REGEX     play the suites whose name matches; in a project where none does, the tests whose name matches, each alone
  -s, --server URL       (= --webdriver-url URL) play through this WebDriver endpoint (a Selenium Grid: npm run grid) instead of starting chromedriver
  -c, --capabilities C   the session's capabilities: JSON, or side-runner's "browserName=chrome a.b=[x,y] c='d e'" laid over the default (Chromium headless)
  --proxy-type TYPE      direct, system, manual, pac or socks: the capabilities' proxy; --proxy-options gives its settings (key=value, or pac's URL)
  --base-url URL         play against this URL instead of the project's url
  -p, --params PAIRS     "name=value other='x y'": variables every test starts with (may be given more than once)
  -t, --timeout MS       how long a command looks for its element (default ${DEFAULT_TIMEOUT_MS}, as side-runner's)
  -w, --max-workers N    (= --workers N) play up to N suites at once, and a parallel suite's tests, never more than N tests (default 1)
  -r, --retries N        play a failed test again at once (a suite's before its next test), up to N more times; passing on a retry is flaky (default 0)
  -z, --screenshot-failure-directory DIR   write DIR/TEST_TIME.png for each failed test (its failing command's picture)
  --output-directory DIR with --output-format jest|junit   write side-runner's jest JSON (results-TIME.json, the default) or DIR/PROJECT.xml
  -n, --config-file FILE (= --configuration-file) side-runner's YAML config (default: .side.yml where the command was run, when there); the command line wins over it
  --junit FILE           write one JUnit XML report of every project to FILE (a failed command's picture attached)
  --report DIR           write an HTML report a person opens offline to DIR/index.html, its pictures beside it
  --executor KIND        devtools (default): page commands run in the page with trusted input over DevTools; webdriver: through Selenium's WebDriverExecutor
  --no-heal              fail a command whose target found nothing but another of its locators did, instead of passing it healed
  --files DIR            read a file input's relative upload paths here first (then beside FILE.side)
  --trace MODE           retain-on-failure (default), on or off: keep each test's trace in traces/ beside the token
  --wait-for-plugins N   start once N plugins have registered over the bridge (at most 30 s)
  --port N               the plugin bridge's port on 127.0.0.1 (default ${DEFAULT_PORT}; 0 picks a free one)
  --token-file FILE      where to write the bridge's token (default: ${DEFAULT_TOKEN_FILE})
  --force                accepted for side-runner's command lines: every project version is played here already
  -d, --debug            print the configuration the run uses (after the config file and the command line) before playing
  --help                 show this`;

export type OutputFormat = "jest" | "junit";

export interface PlayOptions extends BrowserOptions {
  /** The projects, absolute, each once, in the order named (a glob's matches sorted). */
  files: string[];
  /** --suite or --test, or neither (every suite, else every test). */
  target: TargetChoice;
  /** -f: side-runner v4's filter, or null for everything. */
  filter: RegExp | null;
  junit: string | null;
  /** --report DIR: where index.html and its pictures go. */
  report: string | null;
  waitForPlugins: number;
  /** -t: how long a command looks for its element. */
  timeoutMs: number;
  /** -p: the variables every test starts with. */
  params: Record<string, string>;
  /** -z: where each failed test's picture is copied. */
  screenshotDir: string | null;
  /** --output-directory and --output-format. */
  output: { dir: string; format: OutputFormat } | null;
  /** The config file read, or null. */
  configFile: string | null;
  debug: boolean;
}

const PLAY_ARGS = {
  ...BROWSER_ARGS,
  capabilities: { type: "string", short: "c" },
  server: { type: "string", short: "s" },
  workers: { type: "string" },
  "max-workers": { type: "string", short: "w" },
  retries: { type: "string", short: "r" },
  suite: { type: "string" },
  test: { type: "string" },
  filter: { type: "string", short: "f" },
  params: { type: "string", short: "p", multiple: true },
  timeout: { type: "string", short: "t" },
  "screenshot-failure-directory": { type: "string", short: "z" },
  "output-directory": { type: "string" },
  "output-format": { type: "string" },
  "proxy-type": { type: "string" },
  "proxy-options": { type: "string" },
  "config-file": { type: "string", short: "n" },
  "configuration-file": { type: "string" },
  junit: { type: "string" },
  report: { type: "string" },
  "wait-for-plugins": { type: "string" },
  force: { type: "boolean" },
  debug: { type: "boolean", short: "d" },
  help: { type: "boolean" },
} as const;


/** The options, or null for --help (the usage is printed). */
export function readPlayOptions(argv: string[], runDir: string = runDirectory()): PlayOptions | null {
  const { values, positionals } = readArgs({ args: argv, allowPositionals: true, options: PLAY_ARGS });
  if (values.help) return null;
  if (positionals.length === 0) throw new UsageError("name the .side file to play, e.g. npm run play -- tests.side");
  const same = (a: string, b: string, x: string | undefined, y: string | undefined) => {
    if (x !== undefined && y !== undefined && x !== y) throw new UsageError(`--${a} and --${b} are the same option; give one of them`);
    return x ?? y;
  };
  // --configuration-file: early v3's name.
  const { file: configFile, config } = readConfig(same("config-file", "configuration-file", values["config-file"], values["configuration-file"]), runDir);
  const at = (path: string | undefined) => (path === undefined ? undefined : resolve(runDir, path));
  const count = (n: number | undefined) => (n === undefined ? undefined : String(n));
  const browser = readBrowserOptions(
    {
      ...values,
      "webdriver-url": same("webdriver-url", "server", values["webdriver-url"], values.server) ?? config.server,
      workers: same("workers", "max-workers", values.workers, values["max-workers"]) ?? count(config.maxWorkers),
      "base-url": values["base-url"] ?? config.baseUrl,
      retries: values.retries ?? count(config.retries),
      files: at(values.files),
      capabilities: undefined,
    },
    "retain-on-failure",
  );
  const outputFormat = values["output-format"];
  if (outputFormat !== undefined && outputFormat !== "jest" && outputFormat !== "junit") throw new UsageError(`--output-format must be jest or junit, not ${JSON.stringify(outputFormat)}`);
  if (outputFormat !== undefined && values["output-directory"] === undefined) throw new UsageError("--output-format needs --output-directory DIR");
  const outputDir = at(values["output-directory"]);
  const screenshotDir = at(values["screenshot-failure-directory"]) ?? (config.screenshotFailureDirectory ? resolve(runDir, config.screenshotFailureDirectory) : undefined);
  return {
    ...browser,
    capabilities: capabilitiesFrom(values, config),
    files: projectFiles(positionals, runDir),
    target: targetChoice(values),
    filter: filterOf(values.filter ?? config.filter),
    junit: at(values.junit) ?? null,
    report: at(values.report) ?? null,
    waitForPlugins: wholeNumber("wait-for-plugins", values["wait-for-plugins"], 0, 0),
    timeoutMs: wholeNumber("timeout", values.timeout ?? count(config.timeout), DEFAULT_TIMEOUT_MS, 0),
    params: paramsFrom(values.params ?? [], config.params),
    screenshotDir: screenshotDir ?? null,
    output: outputDir ? { dir: outputDir, format: outputFormat ?? "jest" } : null,
    configFile,
    debug: values.debug === true,
  };
}

/** Each positional as its file, or a glob as the files it matches (sorted); a glob that matches none is a UsageError naming it. */
export function projectFiles(positionals: readonly string[], runDir: string): string[] {
  const files = new Set<string>();
  for (const given of positionals) {
    if (!isDynamicPattern(given)) {
      files.add(resolve(runDir, given));
      continue;
    }
    const matches = globSync(given, { cwd: runDir, absolute: true, onlyFiles: true }).sort();
    if (matches.length === 0) throw new UsageError(`the glob ${JSON.stringify(given)} matches no file (looked in ${runDir})`);
    for (const match of matches) files.add(resolve(match));
  }
  return [...files];
}

function filterOf(text: string | undefined): RegExp | null {
  if (text === undefined) return null;
  try {
    return new RegExp(text);
  } catch (error) {
    throw new UsageError(`--filter is not a regular expression: ${messageOf(error)}`);
  }
}

/** What a usage problem in a parser says, as a UsageError. */
function checked<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new UsageError(messageOf(error));
  }
}

/** -c (else the config's capabilities), with the proxy options laid in as `proxy`; undefined for the default. */
function capabilitiesFrom(values: { capabilities?: string; "proxy-type"?: string; "proxy-options"?: string }, config: PlayConfig): Capabilities | undefined {
  return checked(() => {
    const given = values.capabilities ?? config.capabilities;
    let caps = given === undefined ? undefined : typeof given === "string" ? capabilitiesOf(given) : deepMerge(defaultCapabilities(), given);
    const proxyType = values["proxy-type"] ?? config.proxyType;
    const proxyOptions = values["proxy-options"] ?? config.proxyOptions;
    if (proxyType === undefined && proxyOptions !== undefined) throw new TypeError("--proxy-options needs --proxy-type");
    if (proxyType !== undefined) caps = { ...(caps ?? defaultCapabilities()), proxy: proxyOf(proxyType, proxyOptions) };
    return caps;
  });
}

/** The config's params, then each -p over them (the command line wins). */
function paramsFrom(given: readonly string[], fromConfig: PlayConfig["params"]): Record<string, string> {
  return checked(() => {
    const base = fromConfig === undefined ? {} : typeof fromConfig === "string" ? paramsOf(fromConfig) : Object.fromEntries(Object.entries(fromConfig).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
    return Object.assign(base, ...given.map(paramsOf)) as Record<string, string>;
  });
}
