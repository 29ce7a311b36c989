// npm start: the IDE host. createIde() in this process, the UI page, the plugin bridge and,
// on request, the inspector and a live page in Chromium (apps/host/). Everything it needs
// ships in the repository, so a fresh clone runs with `npm install && npm start`.
import { readStartOptions, USAGE } from "../apps/host/args.ts";
import { startIde } from "../apps/host/start.ts";
import { messageOf } from "../services/errors.ts";
import { UsageError } from "../apps/cli/usage.ts";

async function main(argv: string[]) {
  const options = readStartOptions(argv);
  if (options === null) return console.log(USAGE);
  await startIde(options);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`npm start: ${messageOf(error)}`);
  if (error instanceof UsageError) console.error(`\n${USAGE}`);
  process.exit(1);
});
