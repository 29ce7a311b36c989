// npm run grid: a Selenium Grid 4 on this machine (a hub and a node, or one standalone
// process), on 127.0.0.1 only, whose node drives Chromium through chromedriver. It prints its
// address for `npm start -- --webdriver-url URL` and `npm run play`, and stops on Ctrl-C.
import { startGrid } from "../drivers/grid/grid.ts";
import { stopOnSignals } from "../apps/cli/signals.ts";
import { readArgs, portNumber, UsageError, wholeNumber } from "../apps/cli/usage.ts";
import { messageOf } from "../services/errors.ts";

const USAGE = `usage: npm run grid [-- options]

  --port N           the Grid's port on 127.0.0.1 (default: a free one)
  --max-sessions N   how many browsers run at once (default 2)
  --standalone       one process instead of a hub and a node
  --help             show this`;

function readOptions(argv: string[]) {
  const { values } = readArgs({
    args: argv,
    options: { port: { type: "string" }, "max-sessions": { type: "string" }, standalone: { type: "boolean" }, help: { type: "boolean" } },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  return {
    port: portNumber("port", values.port, undefined, 1),
    maxSessions: wholeNumber("max-sessions", values["max-sessions"], 2, 1),
    standalone: values.standalone ?? false,
  };
}

async function main(argv: string[]) {
  const options = readOptions(argv);
  console.log(`Starting Selenium Grid (${options.standalone ? "standalone" : "a hub and a node"}, ${options.maxSessions} Chromium sessions at most)...`);
  const grid = await startGrid(options);
  console.log(
    [
      `selenium grid  ${grid.url}`,
      `  status       ${grid.url}/status`,
      `  play here    npm start -- --webdriver-url ${grid.url}`,
      `               npm run play -- FILE.side --webdriver-url ${grid.url}`,
      "Press Ctrl-C to stop.",
    ].join("\n"),
  );
  stopOnSignals(async () => {
    console.log("\nStopping the Grid and its browsers.");
    await grid.stop();
  });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`npm run grid: ${messageOf(error)}`);
  if (error instanceof UsageError) console.error(`\n${USAGE}`);
  process.exit(2);
});
