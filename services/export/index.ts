// Code export (CONTRACT section 15): a test or a suite as a file of Selenium's own code,
// written by `side-code-export` and the `@seleniumhq/code-export-<language>` package, with
// the plugins' code (asked for beforehand by the caller) in its place. Nothing here waits on
// anything but the packages.
import type { CommandShape, ProjectShape, SuiteShape, TestShape } from "@seleniumhq/side-model";
import { z } from "zod";
import { messageOf } from "../errors.ts";
import type { SideProject, SideTest } from "../side/index.ts";
import { isExportLanguage, loadLanguage } from "./languages.ts";
import type { ExportLanguage } from "./languages.ts";
import type { DataOptions } from "./dataLoops.ts";
import { findReusedTestMethods, isolatedLanguage } from "./packages.ts";
import type { PluginCode } from "./packages.ts";
import type { ExportedFile, ExportFailure, ExportPlan, ExportScope } from "./plan.ts";
import { expandLocator, strategyTable } from "../locators/templates.ts";
import type { StrategyDeclaration } from "../locators/templates.ts";

export { EXPORT_LANGUAGES, isExportLanguage } from "./languages.ts";
export type { ExportLanguage } from "./languages.ts";
export { PLUGIN_HOOKS } from "./packages.ts";
export type { PluginCode, PluginHook } from "./packages.ts";
export { exportQuestions, readExportAnswers } from "./pluginAnswers.ts";
export type { ExportMessage, ExportQuestion, ReadAnswers } from "./pluginAnswers.ts";
export { answersCanEmit, emitProjectMessage, emitQuestions, pluginDependencies, snapshotProject } from "./emit.ts";
export type { EmitMessage, EmitQuestion, EmittedProject } from "./emit.ts";
export type { ExportedFile, ExportFailure, ExportPlan, ExportScope } from "./plan.ts";
export type { DataOptions } from "./dataLoops.ts";

const suiteSchema = z.looseObject({ id: z.string(), name: z.string(), tests: z.array(z.string()) });

/** Finds what a scope exports, or says why it cannot be exported. */
export function planExport(project: SideProject, scope: ExportScope): { plan: ExportPlan } | ExportFailure {
  let name: string;
  let tests: SideTest[];
  let planScope: ExportPlan["scope"];
  if ("testId" in scope) {
    const test = project.tests.find((candidate) => candidate.id === scope.testId);
    if (!test) return { errorCode: "UnknownTest", error: `The project has no test with id '${scope.testId}'.` };
    name = test.name;
    tests = [test];
    planScope = { test };
  } else {
    const found = project.suites.find((candidate) => suiteSchema.safeParse(candidate).data?.id === scope.suiteId);
    if (!found) return { errorCode: "UnknownTest", error: `The project has no suite with id '${scope.suiteId}'.` };
    const suite = suiteSchema.parse(found);
    tests = [];
    for (const testId of suite.tests) {
      const test = project.tests.find((candidate) => candidate.id === testId);
      if (!test) return { errorCode: "ExportFailed", error: `Suite '${suite.name}' names a test that the project does not have ('${testId}').` };
      tests.push(test);
    }
    name = suite.name;
    planScope = { suite: { persistSession: false, parallel: false, timeout: 300, ...suite } as SuiteShape };
  }
  const all = project.tests as unknown as TestShape[];
  const written = new Set<SideTest>(tests);
  for (const test of tests) {
    for (const reused of findReusedTestMethods(test as unknown as TestShape, all)) written.add(reused as unknown as SideTest);
  }
  const lists = [...written].map((test) => test.commands as unknown as CommandShape[]);
  return { plan: { name, tests, written: [...written], scope: planScope, lists } };
}

/** What the packages' emit.test and emit.suite take besides the test or suite, as Selenium IDE gives it. */
export function packageOptions(project: SideProject) {
  return {
    baseUrl: project.url,
    tests: project.tests as unknown as TestShape[],
    project: project as unknown as ProjectShape,
    enableOriginTracing: false,
    enableDescriptionAsComment: false,
    beforeEachOptions: {},
  };
}

const NO_PLUGIN_CODE: PluginCode = { commands: new Map(), hooks: {} };

/**
 * The file the packages write for the plan, with the plugins' code; a failure (an invalid
 * command, a package's error, an undeclared locator strategy) is `ExportFailed` with the
 * packages' sentence. `strategies` are the registered plugins' declarations, over the
 * project's own `locatorStrategies` (CONTRACT section 23). Never rejects.
 */
export async function exportPlan(
  language: ExportLanguage,
  project: SideProject,
  plan: ExportPlan,
  plugins: PluginCode = NO_PLUGIN_CODE,
  data: DataOptions = {},
  strategies: ReadonlyArray<StrategyDeclaration> = [],
): Promise<ExportedFile | ExportFailure> {
  try {
    const base = await loadLanguage(language);
    const table = strategyTable(project.locatorStrategies, strategies);
    const emitter = isolatedLanguage(language, base, plan.lists, plugins, data, table);
    const common = packageOptions(project);
    const file =
      "test" in plan.scope
        ? await emitter.emit.test({ ...common, test: plan.scope.test as unknown as TestShape })
        : await emitter.emit.suite({ ...common, suite: plan.scope.suite });
    return { filename: file.filename, body: flattened(file.body) };
  } catch (error) {
    return { errorCode: "ExportFailed", error: messageOf(error) };
  }
}

/**
 * The packages build a file by joining thousands of pieces, which V8 keeps as a tree of
 * strings until the text is first read by index; reading one character makes it one flat
 * string and lets the pieces go. Done once here, so a file that outlives a garbage collection
 * (the export machine's outcome, a reply on its way) is one object to keep, not thousands.
 */
function flattened(text: string): string {
  if (text.length > 0) text.charCodeAt(0);
  return text;
}

/**
 * One call: plan and write, with no plugins; `data` says where the file's data blocks read
 * their relative files. Unknown languages are the caller's to refuse.
 */
export async function exportCode(
  language: ExportLanguage,
  project: SideProject,
  scope: ExportScope,
  data: DataOptions = {},
): Promise<ExportedFile | ExportFailure> {
  const planned = planExport(project, scope);
  if ("errorCode" in planned) return planned;
  return exportPlan(language, project, planned.plan, NO_PLUGIN_CODE, data);
}

/**
 * A locator as the language's package writes it (`By.ID, "user"` in python-pytest); a declared
 * `NAME=VALUE` of `table` as the css= or xpath= it stands for (CONTRACT section 23).
 */
export async function locatorIn(language: ExportLanguage, location: string, table: ReadonlyMap<string, StrategyDeclaration> = new Map()): Promise<string> {
  const base = await loadLanguage(language);
  return base.emit.locator(expandLocator(location, table));
}
