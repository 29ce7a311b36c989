// npm run grid: a Selenium Grid 4 on this machine (a hub and a node, or one standalone
// process), on 127.0.0.1 only, whose node drives Chromium through chromedriver. It prints its
// address for `npm start -- --webdriver-url URL` and `npm run play`, and stops on Ctrl-C.
import { parseArgs } from "node:util";
import { startGrid } from "../drivers/grid/grid.ts";
import { stopOnSignals } from "./signals.ts";

const USAGE = `usage: npm run grid [-- options]

  --port N           the Grid's port on 127.0.0.1 (default: a free one)
  --max-sessions N   how many browsers run at once (default 2)
  --standalone       one process instead of a hub and a node
  --help             show this`;

class UsageError extends Error {}

function readOptions(argv: string[]) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: { port: { type: "string" }, "max-sessions": { type: "string" }, standalone: { type: "boolean" }, help: { type: "boolean" } },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) {
    throw new UsageError(`--port must be a port number from 1 to 65535, not ${JSON.stringify(values.port)}`);
  }
  const maxSessions = values["max-sessions"] === undefined ? 2 : Number(values["max-sessions"]);
  if (!Number.isInteger(maxSessions) || maxSessions < 1) {
    throw new UsageError(`--max-sessions must be a whole number of at least 1, not ${JSON.stringify(values["max-sessions"])}`);
  }
  return { port, maxSessions, standalone: values.standalone ?? false };
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

main(process.argv.slice(2)).catch((error: Error) => {
  console.error(`npm run grid: ${error.message}`);
  if (error instanceof UsageError) console.error(`\n${USAGE}`);
  process.exit(2);
});
