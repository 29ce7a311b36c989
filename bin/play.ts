// npm run play: .side projects played without a UI, as CI does (side-runner's command line and
// .side.yml too): a line per test, a live progress line on a terminal, a summary, a JUnit report with --junit, and the exit code (0 every test passed, 1 a test failed or
// ended fatal, 2 a usage or project error). apps/play/ does the work.
import { readPlayOptions, USAGE } from "../apps/play/args.ts";
import { play } from "../apps/play/play.ts";
import { ProjectError } from "../apps/cli/project.ts";
import { UsageError } from "../apps/cli/usage.ts";
import { messageOf } from "../services/errors.ts";

async function main(argv: string[]): Promise<number> {
  const options = readPlayOptions(argv);
  if (options === null) {
    console.log(USAGE);
    return 0;
  }
  const stopping = new AbortController();
  const stop = () => {
    if (stopping.signal.aborted) process.exit(1);
    console.log("Stopping the run.");
    stopping.abort();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  const outcome = await play(options, { out: (line) => console.log(line), terminal: process.stdout.isTTY ? process.stdout : null }, stopping.signal);
  return outcome.exitCode;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // One line naming the problem first; a usage error adds how to ask for the usage.
    console.error(`npm run play: ${error instanceof UsageError || error instanceof ProjectError ? error.message : `unexpected: ${messageOf(error)}`}`);
    if (error instanceof UsageError) console.error("(npm run play -- --help shows the options)");
    process.exit(2);
  },
);
