// npm run export -- FILE.side --language L [--test NAME | --suite NAME] [--out DIR]
// A project's test or suite as code, written by Selenium's own code-export packages, with no
// IDE and no plugins. Without --test or --suite, each suite is written (each test when the
// project has no suite). Exit 0 when every file was written, 1 when the packages refused a
// test (a plugin's command, say), 2 for a usage error, an unreadable project or an unknown
// language, test or suite: always one line on stderr, never a stack trace.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { EXPORT_LANGUAGES, exportCode, isExportLanguage } from "../services/export/index.ts";
import type { ExportLanguage, ExportScope } from "../services/export/index.ts";
import { messageOf } from "../services/errors.ts";
import { parseSideProject } from "../services/side/index.ts";
import type { SideProject } from "../services/side/index.ts";

const USAGE = `usage: npm run export -- FILE.side --language LANGUAGE [--test NAME | --suite NAME] [--out DIR]

  --language L   one of ${EXPORT_LANGUAGES.join(", ")}
  --test NAME    export this test (by its name)
  --suite NAME   export this suite (by its name); without --test or --suite, every suite
  --out DIR      write the files here (default: the current directory)`;

class UsageError extends Error {}
class ExportError extends Error {}

interface ExportOptions {
  file: string;
  language: ExportLanguage;
  test: string | null;
  suite: string | null;
  out: string;
}

function readOptions(argv: string[]): ExportOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        language: { type: "string" },
        test: { type: "string" },
        suite: { type: "string" },
        out: { type: "string" },
        help: { type: "boolean" },
      },
    });
  } catch (error) {
    throw new UsageError(messageOf(error));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (positionals.length !== 1) throw new UsageError("give exactly one .side file to export");
  if (values.language === undefined) throw new UsageError(`--language is needed: one of ${EXPORT_LANGUAGES.join(", ")}`);
  if (!isExportLanguage(values.language)) {
    throw new UsageError(`unknown language ${JSON.stringify(values.language)}: use one of ${EXPORT_LANGUAGES.join(", ")}`);
  }
  if (values.test !== undefined && values.suite !== undefined) throw new UsageError("give --test or --suite, not both");
  return {
    file: positionals[0],
    language: values.language,
    test: values.test ?? null,
    suite: values.suite ?? null,
    out: resolve(values.out ?? "."),
  };
}

function readProject(file: string): SideProject {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`cannot read ${file} as a .side project: ${messageOf(error)}`);
  }
  const parsed = parseSideProject(data);
  if (!parsed.ok) throw new UsageError(`${file} is not a usable .side project: ${parsed.problem}`);
  return parsed.project;
}

function suitesOf(project: SideProject): Array<{ id: string; name: string }> {
  return project.suites.flatMap((suite) => {
    const { id, name } = (suite ?? {}) as { id?: unknown; name?: unknown };
    return typeof id === "string" && typeof name === "string" ? [{ id, name }] : [];
  });
}

function scopesOf(project: SideProject, options: ExportOptions): ExportScope[] {
  if (options.test !== null) {
    const test = project.tests.find((candidate) => candidate.name === options.test);
    if (!test) throw new UsageError(`the project has no test named ${JSON.stringify(options.test)}`);
    return [{ testId: test.id }];
  }
  const suites = suitesOf(project);
  if (options.suite !== null) {
    const suite = suites.find((candidate) => candidate.name === options.suite);
    if (!suite) throw new UsageError(`the project has no suite named ${JSON.stringify(options.suite)}`);
    return [{ suiteId: suite.id }];
  }
  return suites.length > 0 ? suites.map((suite) => ({ suiteId: suite.id })) : project.tests.map((test) => ({ testId: test.id }));
}

async function main(argv: string[]): Promise<number> {
  const options = readOptions(argv);
  const project = readProject(options.file);
  const scopes = scopesOf(project, options);
  mkdirSync(options.out, { recursive: true });
  for (const scope of scopes) {
    const result = await exportCode(options.language, project, scope);
    if ("errorCode" in result) throw result.errorCode === "UnknownTest" ? new UsageError(result.error) : new ExportError(result.error);
    const path = join(options.out, result.filename);
    writeFileSync(path, result.body);
    console.log(path);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`export: ${messageOf(error)}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
