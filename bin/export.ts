// npm run export -- FILE.side --language L [--suite NAME | --test NAME] [--out DIR]
// A project's test or suite as code, written by Selenium's own code-export packages, with no
// IDE and no plugins (apps/export/). Without --suite or --test, each suite is written (each
// test when the project has no suite). Exit 0 when every file was written, 1 when the
// packages refused a test (a plugin's command, say), 2 for a usage error, an unreadable
// project or an unknown language, test or suite: always one line on stderr, never a stack trace.
import { exportProject, readExportOptions, USAGE } from "../apps/export/export.ts";
import { ProjectError } from "../apps/cli/project.ts";
import { UsageError } from "../apps/cli/usage.ts";
import { messageOf } from "../services/errors.ts";

async function main(argv: string[]): Promise<void> {
  const options = readExportOptions(argv);
  if (options === null) return console.log(USAGE);
  await exportProject(options, (path) => console.log(path));
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`export: ${messageOf(error)}`);
    process.exit(error instanceof UsageError || error instanceof ProjectError ? 2 : 1);
  },
);
