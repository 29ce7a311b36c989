// `npm start`'s command line: every option checked before anything starts; a problem is one
// UsageError naming it (bin/start.ts prints it with the usage, exit 1).
import { CHROMEDRIVER_PATH } from "../../drivers/host/chromedriver.ts";
import { BROWSER_ARGS, readBrowserOptions } from "../cli/browser.ts";
import type { BrowserOptions } from "../cli/browser.ts";
import { resolve } from "node:path";
import { readArgs, runDirectory, UsageError } from "../cli/usage.ts";
import { DEFAULT_PORT, DEFAULT_TOKEN_FILE } from "../../drivers/bridge/address.ts";

export const USAGE = `usage: npm start [-- options]

  --port N            listen on 127.0.0.1:N (default ${DEFAULT_PORT})
  --project FILE      load this .side project (default: examples/shop.side); "Save" writes it back
  --page URL          resolve locators in a live page in headless Chromium when no run has a page (default: the example page, in process)
  --base-url URL      play against this URL instead of the project's url (default for the example: the example site this starts)
  --files DIR         read a file input's relative upload paths here first (then beside the .side file)
  --webdriver-url URL play through this WebDriver endpoint (a Selenium Grid, a chromedriver started by hand) instead of starting chromedriver
  --executor KIND     devtools (default): page commands run in the page with trusted input over DevTools; webdriver: through Selenium's WebDriverExecutor
  --no-heal           fail a command whose target found nothing but another of its locators did, instead of passing it healed
  --workers N         play up to N tests of a parallel suite at once, each in its own browser session (default 1)
  --capabilities JSON the WebDriver session's capabilities, a JSON object (default: Chromium headless)
  --chromedriver PATH the chromedriver to start (default: CHROMEDRIVER_PATH or /usr/bin/chromedriver)
  --inspect           stream the actor system to Stately's inspector page (needs access to stately.ai)
  --inspect-log FILE  write every inspection event to FILE as JSON lines (works offline)
  --token-file FILE   where to write the token (default: ${DEFAULT_TOKEN_FILE})
  --trace MODE        on (default), off or retain-on-failure: keep each run's trace (pictures, failures) in traces/ beside the token
  --retries N         play a failed test again at once (a suite's before its next test), up to N more times (default 0)
  --help              show this`;

export interface StartOptions extends BrowserOptions {
  /** --project; null: the shipped example, whose saves go beside the token. */
  projectFile: string | null;
  page: string | null;
  chromedriver: string;
  inspect: boolean;
  inspectLog: string | null;
}

/** The options, or null for --help. */
export function readStartOptions(argv: string[]): StartOptions | null {
  const { values } = readArgs({
    args: argv,
    options: {
      ...BROWSER_ARGS,
      project: { type: "string" },
      page: { type: "string" },
      chromedriver: { type: "string" },
      inspect: { type: "boolean" },
      "inspect-log": { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) return null;
  const browser = readBrowserOptions(values, "on");
  if (values.page !== undefined && !/^(https?|file):/i.test(values.page)) {
    throw new UsageError(`--page must be an http, https or file URL, not ${JSON.stringify(values.page)}`);
  }
  const runDir = runDirectory();
  return {
    ...browser,
    projectFile: values.project === undefined ? null : resolve(runDir, values.project),
    page: values.page ?? null,
    chromedriver: values.chromedriver ?? CHROMEDRIVER_PATH,
    inspect: values.inspect ?? false,
    inspectLog: values["inspect-log"] === undefined ? null : resolve(runDir, values["inspect-log"]),
  };
}
