// Types of the export machine (export.machine.ts): one code export, from the plugins'
// answers to the file.
import type {
  ExportFailure,
  ExportLanguage,
  ExportPlan,
  ExportQuestion,
  ExportScope,
  ExportedFile,
  PluginCode,
  ReadAnswers,
} from "../services/export/index.ts";
import type { StrategyDeclaration } from "../services/locators/index.ts";
import type { PluginRegistry } from "../services/plugins/index.ts";
import type { Delivery } from "../services/playback/pluginAnswer.ts";
import type { SideProject } from "../services/side/index.ts";

export interface ExportInput {
  language: ExportLanguage;
  scope: ExportScope;
  /** The project as it is now, unsaved edits included. */
  project: SideProject;
  /** The registered plugins: those that export the language are asked. */
  plugins: PluginRegistry;
}

/** What an export ends with: the file or why not, and warnings for the log. */
export type ExportOutcome = (ExportedFile | ExportFailure) & { warnings: string[] };

export interface ExportContext {
  language: ExportLanguage;
  project: SideProject;
  /** The registered plugins' locator strategies, over the project's (CONTRACT section 23). */
  strategies: StrategyDeclaration[];
  plan: ExportPlan | null;
  questions: ExportQuestion[];
  answers: ReadAnswers | null;
  outcome: ExportOutcome | null;
}

/** The `askPlugins` port: one delivery per question, in order, each bounded by deliverTimeoutMs. */
export interface AskPluginsInput {
  questions: ExportQuestion[];
}
export type AskPluginsOutput = Delivery[];

/** The `writeFile` port: the packages. */
export interface WriteFileInput {
  language: ExportLanguage;
  project: SideProject;
  strategies: StrategyDeclaration[];
  plan: ExportPlan;
  plugins: PluginCode | undefined;
}
export type WriteFileOutput = ExportedFile | ExportFailure;
