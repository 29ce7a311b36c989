// `npm run play`'s command line (CONTRACT section 16): every option checked before anything
// starts; a problem is one line (the kit's UsageError, apps/cli/), and the process exits 2.
import { DEFAULT_PORT, DEFAULT_TOKEN_FILE } from "../../drivers/bridge/address.ts";
import { BROWSER_ARGS, readBrowserOptions } from "../cli/browser.ts";
import type { BrowserOptions } from "../cli/browser.ts";
import { targetChoice } from "../cli/targets.ts";
import type { TargetChoice } from "../cli/targets.ts";
import { readArgs, UsageError, wholeNumber } from "../cli/usage.ts";

export const USAGE = `usage: npm run play -- FILE.side [options]

  --suite NAME           play this suite (default: every suite of the project, or every test when it has none)
  --test NAME            play this test only
  --webdriver-url URL    play through this WebDriver endpoint (a Selenium Grid: npm run grid) instead of starting chromedriver
  --capabilities JSON    the WebDriver session's capabilities (default: Chromium headless)
  --executor KIND        devtools (default): page commands run in the page with trusted input over DevTools; webdriver: through Selenium's WebDriverExecutor
  --no-heal              fail a command whose target found nothing but another of its locators did, instead of passing it healed
  --workers N            play up to N tests of a parallel suite at once (default 1)
  --base-url URL         play against this URL instead of the project's url
  --files DIR            read a file input's relative upload paths here first (then beside FILE.side)
  --junit FILE           write a JUnit XML report to FILE (a failed command's picture attached)
  --report DIR           write an HTML report a person opens offline to DIR/index.html, its pictures beside it
  --retries N            play a failed test again at once (a suite's before its next test), up to N more times; passing on a retry is flaky (default 0)
  --trace MODE           retain-on-failure (default), on or off: keep each test's trace in traces/ beside the token
  --wait-for-plugins N   start once N plugins have registered over the bridge (at most 30 s)
  --port N               the plugin bridge's port on 127.0.0.1 (default ${DEFAULT_PORT}; 0 picks a free one)
  --token-file FILE      where to write the bridge's token (default: ${DEFAULT_TOKEN_FILE})
  --help                 show this`;

export interface PlayOptions extends BrowserOptions {
  file: string;
  /** --suite or --test, or neither (every suite, else every test). */
  target: TargetChoice;
  junit: string | null;
  /** --report DIR: where index.html and its pictures go. */
  report: string | null;
  waitForPlugins: number;
}

/** The options, or null for --help (the usage is printed). */
export function readPlayOptions(argv: string[]): PlayOptions | null {
  const { values, positionals } = readArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...BROWSER_ARGS,
      suite: { type: "string" },
      test: { type: "string" },
      junit: { type: "string" },
      report: { type: "string" },
      "wait-for-plugins": { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) return null;
  if (positionals.length === 0) throw new UsageError("name the .side file to play, e.g. npm run play -- tests.side");
  if (positionals.length > 1) throw new UsageError(`play one .side file at a time, not ${positionals.length} (${positionals.join(", ")})`);
  const target = targetChoice(values);
  return {
    ...readBrowserOptions(values, "retain-on-failure"),
    file: positionals[0],
    target,
    junit: values.junit ?? null,
    report: values.report ?? null,
    waitForPlugins: wholeNumber("wait-for-plugins", values["wait-for-plugins"], 0, 0),
  };
}
