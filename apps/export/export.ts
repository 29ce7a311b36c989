// `npm run export`'s work: a project's suites or tests as code, written by Selenium's own
// code-export packages (services/export/), with no IDE and no plugins. Its options are checked
// before anything is read; what to export is the kit's target choice (apps/cli/targets.ts).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { CHROME_RECORDER, testToFlow } from "../../services/chromeRecorder/index.ts";
import { EXPORT_LANGUAGES, exportCode, isExportLanguage } from "../../services/export/index.ts";
import type { ExportLanguage } from "../../services/export/index.ts";
import { suitesOf } from "../../services/playback/targets.ts";
import type { SideProject } from "../../services/side/index.ts";
import { ProjectError, readProjectFile } from "../cli/project.ts";
import { chooseTargets, targetChoice } from "../cli/targets.ts";
import type { Target, TargetChoice } from "../cli/targets.ts";
import { readArgs, runDirectory, UsageError } from "../cli/usage.ts";

const LANGUAGES = [...EXPORT_LANGUAGES, CHROME_RECORDER];

export const USAGE = `usage: npm run export -- FILE.side --language LANGUAGE [--suite NAME | --test NAME] [--out DIR] [--comments]

  --language L   one of ${LANGUAGES.join(", ")}
                 (chrome-recorder: each test as a Chrome Recorder flow, TITLE.json)
  --comments     chrome-recorder: a command with no step is written as a customStep, not refused
  --suite NAME   export this suite (by its name); without --suite or --test, every suite
  --test NAME    export this test (by its name)
  --out DIR      write the files here (default: the current directory)`;

/** The packages refused a test (a plugin's command, say): exit 1, where a usage or project error is 2. */
export class ExportError extends Error {}

export interface ExportOptions {
  file: string;
  language: ExportLanguage | typeof CHROME_RECORDER;
  target: TargetChoice;
  out: string;
  comments?: boolean;
}

/** The options, or null for --help. */
export function readExportOptions(argv: string[]): ExportOptions | null {
  const { values, positionals } = readArgs({
    args: argv,
    allowPositionals: true,
    options: {
      language: { type: "string" },
      test: { type: "string" },
      suite: { type: "string" },
      out: { type: "string" },
      comments: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) return null;
  if (positionals.length !== 1) throw new UsageError("give exactly one .side file to export");
  if (values.language === undefined) throw new UsageError(`--language is needed: one of ${LANGUAGES.join(", ")}`);
  const language = values.language;
  if (language !== CHROME_RECORDER && !isExportLanguage(language)) {
    throw new UsageError(`unknown language ${JSON.stringify(language)}: use one of ${LANGUAGES.join(", ")}`);
  }
  if (values.comments && language !== CHROME_RECORDER) throw new UsageError("--comments is for --language chrome-recorder only");
  const runDir = runDirectory();
  return { file: resolve(runDir, positionals[0]), language, target: targetChoice(values), out: resolve(runDir, values.out ?? "."), comments: values.comments === true };
}

/** Writes each file and gives its path as it goes; rejects with a ProjectError or an ExportError. */
export async function exportProject(options: ExportOptions, wrote: (path: string) => void): Promise<void> {
  const project = readProjectFile(options.file);
  const targets = chooseTargets(project, options.target);
  mkdirSync(options.out, { recursive: true });
  if (options.language === CHROME_RECORDER) return exportFlows(options, project, targets, wrote);
  // loadVars reads a relative file beside the .side file, as the players do: the exported file
  // finds that folder from its own (Java, which cannot know its own, by its absolute path).
  const sideDir = dirname(resolve(options.file));
  const data = { dataDir: options.language === "java-junit" ? sideDir : relative(options.out, sideDir) || "." };
  for (const target of targets) {
    const result = await exportCode(options.language, project, target.kind === "suite" ? { suiteId: target.id } : { testId: target.id }, data);
    if ("errorCode" in result) throw result.errorCode === "UnknownTest" ? new ProjectError(result.error) : new ExportError(result.error);
    const path = join(options.out, result.filename);
    writeFileSync(path, result.body);
    wrote(path);
  }
}

/** Chrome Recorder's flows: one file per test (a suite gives its tests'); a test with a command no step plays is an ExportError. */
function exportFlows(options: ExportOptions, project: SideProject, targets: Target[], wrote: (path: string) => void): void {
  const ids = targets.flatMap((target) => (target.kind === "test" ? [target.id] : testsOfSuite(project, target.id)));
  for (const id of [...new Set(ids)]) {
    const flow = testToFlow(project, id, { comments: options.comments });
    if (!flow.ok) throw new ExportError(flow.problem);
    for (const warning of flow.warnings) process.stderr.write(`${warning}\n`);
    const path = join(options.out, flow.filename);
    writeFileSync(path, flow.text);
    wrote(path);
  }
}

const testsOfSuite = (project: SideProject, suiteId: string) => suitesOf(project).find((s) => s.id === suiteId)?.tests ?? [];
