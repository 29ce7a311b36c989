// The plugins' part of a code export (CONTRACT section 15, v3's `export` messages): who is
// asked what, and how their answers become code. Pure: the deliveries come from the caller.
import { z } from "zod";
import type { CommandShape } from "@seleniumhq/side-model";
import type { PluginRegistry } from "../plugins/index.ts";
import type { Delivery } from "../playback/pluginAnswer.ts";
import type { SideProject } from "../side/index.ts";
import type { ExportLanguage } from "./languages.ts";
import { PLUGIN_HOOKS } from "./packages.ts";
import type { PluginCode, PluginHook } from "./packages.ts";
import type { ExportFailure, ExportPlan } from "./plan.ts";

export type ExportCommandMessage = {
  action: "export";
  entity: "command";
  language: ExportLanguage;
  command: { command: string; target: string; value: string };
};
export type ExportHookMessage = {
  action: "export";
  entity: PluginHook;
  language: ExportLanguage;
  options: { name: string; tests: unknown[]; project: SideProject };
};
export type ExportMessage = ExportCommandMessage | ExportHookMessage;

/** One message to one plugin, and what its answer is for. */
export interface ExportQuestion {
  pluginId: string;
  pluginName: string;
  message: ExportMessage;
  /** For a command: the command and the name of the test it is in. */
  command?: { shape: CommandShape; testName: string };
}

const exportsSchema = z.looseObject({ languages: z.array(z.unknown()) });

/** Plugins that listed the language in their registration's `exports.languages`. */
function exportingPlugins(registry: PluginRegistry, language: ExportLanguage) {
  return registry.filter(({ registration }) => exportsSchema.safeParse(registration.exports).data?.languages.includes(language));
}

/** Every question of an export, in the order the answers are used. */
export function exportQuestions(
  registry: PluginRegistry,
  language: ExportLanguage,
  project: SideProject,
  plan: ExportPlan,
): ExportQuestion[] {
  const plugins = exportingPlugins(registry, language);
  if (plugins.length === 0) return [];
  const owners = new Map<string, { id: string; name: string }>();
  for (const { id, registration } of plugins) {
    for (const command of registration.commands ?? []) owners.set(command.id, { id, name: registration.name });
  }
  const questions: ExportQuestion[] = [];
  for (const test of plan.written) {
    for (const command of test.commands) {
      const owner = owners.get(command.command);
      if (!owner) continue;
      questions.push({
        pluginId: owner.id,
        pluginName: owner.name,
        message: { action: "export", entity: "command", language, command: { command: command.command, target: command.target, value: command.value } },
        command: { shape: command as unknown as CommandShape, testName: test.name },
      });
    }
  }
  for (const entity of PLUGIN_HOOKS) {
    for (const { id, registration } of plugins) {
      questions.push({
        pluginId: id,
        pluginName: registration.name,
        message: { action: "export", entity, language, options: { name: plan.name, tests: plan.tests, project } },
      });
    }
  }
  return questions;
}

/** A string or `{ message }` is code; anything else (false, "", null, undefined) is none. */
function codeOf(answer: unknown): string | null {
  if (typeof answer === "string") return answer === "" ? null : answer;
  if (typeof answer === "object" && answer !== null && "message" in answer) {
    const { message } = answer as { message: unknown };
    return typeof message === "string" && message !== "" ? message : null;
  }
  return null;
}

const errorOf = (answer: unknown): string | null => {
  if (typeof answer !== "object" || answer === null || !("error" in answer)) return null;
  const { error } = answer as { error: unknown };
  return typeof error === "string" ? error : (JSON.stringify(error) ?? String(error));
};

export type ReadAnswers = { plugins: PluginCode; warnings: string[] } | ExportFailure;

/**
 * The plugins' code from their answers, one delivery per question in order. A command's
 * error answer fails the export with v3's sentence and the plugin's name; so does a command
 * left unanswered. A hook left unanswered adds nothing, with a warning.
 */
export function readExportAnswers(questions: ReadonlyArray<ExportQuestion>, deliveries: ReadonlyArray<Delivery>): ReadAnswers {
  const commands = new Map<CommandShape, string | null>();
  const hooks: Partial<Record<PluginHook, string[]>> = {};
  const warnings: string[] = [];
  for (const [index, question] of questions.entries()) {
    const delivery = deliveries[index] ?? { answered: false, reason: "no answer" };
    const { command } = question;
    if (command) {
      if (!delivery.answered) {
        return failure(command.testName, `the plugin ${question.pluginName} did not answer the export of its command '${command.shape.command}' (${delivery.reason})`);
      }
      const error = errorOf(delivery.answer);
      if (error !== null) return failure(command.testName, `${error} (the plugin ${question.pluginName})`);
      commands.set(command.shape, codeOf(delivery.answer));
      continue;
    }
    const entity = question.message.entity as PluginHook;
    if (!delivery.answered) {
      warnings.push(`The plugin ${question.pluginName} did not answer the export's ${entity} hook (${delivery.reason}); it adds nothing there.`);
      continue;
    }
    const code = codeOf(delivery.answer);
    if (code !== null) (hooks[entity] ??= []).push(code);
  }
  return { plugins: { commands, hooks }, warnings };
}

function failure(testName: string, problem: string): ExportFailure {
  return { errorCode: "ExportFailed", error: `Test '${testName}' has a problem: ${problem}` };
}
