/**
 * One code export (CONTRACT section 15): a test or a suite as a file of Selenium's code,
 * with the code of the plugins that export its language. Started per export by createIde().
 *
 * States: checking → askingPlugins → readingAnswers → writing → done, or → failed from any.
 * Invariants:
 * - The plugins are asked before the packages run, so the packages never wait on anything:
 *   every wait is in askingPlugins, and each of its deliveries is bounded by the port
 *   (deliverTimeoutMs); a plugin that never answers cannot hold the export.
 * - A plugin's command that is not answered, or answered `{ error }`, fails the export
 *   naming the test and the plugin; a hook that is not answered adds nothing (a warning).
 * - An unknown test or suite fails before any plugin is asked.
 * - It ends exactly once, with `outcome` as its output; nothing here touches the IDE's
 *   other machines, so an export never blocks or changes a run.
 */
import { assign, fromPromise, setup } from "xstate";
import { exportQuestions, planExport, readExportAnswers } from "../services/export/index.ts";
import { pluginStrategies } from "../services/plugins/index.ts";
import type {
  AskPluginsInput,
  AskPluginsOutput,
  ExportContext,
  ExportInput,
  ExportOutcome,
  WriteFileInput,
  WriteFileOutput,
} from "./export.types.ts";

const failedWith = (error: string): ExportOutcome => ({ errorCode: "ExportFailed", error, warnings: [] });

export const exportMachine = setup({
  types: {
    context: {} as ExportContext,
    input: {} as ExportInput,
    output: {} as ExportOutcome,
  },
  actors: {
    askPlugins: fromPromise<AskPluginsOutput, AskPluginsInput>(async ({ input }) =>
      input.questions.map(() => ({ answered: false as const, reason: "no channel to plugins" })),
    ),
    writeFile: fromPromise<WriteFileOutput, WriteFileInput>(async () => failedWith("No code-export packages are provided.")),
  },
  guards: {
    scopeIsUnknown: ({ context }) => context.plan === null,
    nobodyToAsk: ({ context }) => context.questions.length === 0,
    answersFailed: ({ context }) => context.answers !== null && "errorCode" in context.answers,
    fileRefused: (_, written: WriteFileOutput) => "errorCode" in written,
  },
  actions: {
    rememberAnswers: assign({
      answers: ({ context }, deliveries: AskPluginsOutput) => readExportAnswers(context.questions, deliveries),
    }),
    endWithAnswerFailure: assign({
      outcome: ({ context }) => ({ ...(context.answers as Extract<ExportContext["answers"], { errorCode: string }>), warnings: [] }),
    }),
    endWithFile: assign({
      outcome: ({ context }, written: WriteFileOutput) => ({
        ...written,
        warnings: context.answers && "warnings" in context.answers ? context.answers.warnings : [],
      }),
    }),
    endWithError: assign({
      outcome: (_, params: { error: unknown }) => failedWith(`The export could not be written: ${String(params.error)}`),
    }),
  },
}).createMachine({
  id: "export",
  context: ({ input }) => {
    const planned = planExport(input.project, input.scope);
    const strategies = pluginStrategies(input.plugins);
    if ("errorCode" in planned) {
      return { language: input.language, project: input.project, strategies, plan: null, questions: [], answers: null, outcome: { ...planned, warnings: [] } };
    }
    const questions = exportQuestions(input.plugins, input.language, input.project, planned.plan);
    return { language: input.language, project: input.project, strategies, plan: planned.plan, questions, answers: null, outcome: null };
  },
  initial: "checking",
  states: {
    checking: {
      always: [
        { guard: "scopeIsUnknown", target: "failed" },
        { guard: "nobodyToAsk", target: "writing" },
        { target: "askingPlugins" },
      ],
    },
    askingPlugins: {
      description: "The plugins that export this language write their commands and hooks; each answer waits at most deliverTimeoutMs.",
      invoke: {
        src: "askPlugins",
        input: ({ context }) => ({ questions: context.questions }),
        onDone: { target: "readingAnswers", actions: { type: "rememberAnswers", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: { type: "endWithError", params: ({ event }) => ({ error: event.error }) } },
      },
    },
    readingAnswers: {
      always: [{ guard: "answersFailed", target: "failed", actions: "endWithAnswerFailure" }, { target: "writing" }],
    },
    writing: {
      description: "Selenium's code-export package writes the file, with the plugins' code in its place.",
      invoke: {
        src: "writeFile",
        input: ({ context }) => ({
          language: context.language,
          project: context.project,
          strategies: context.strategies,
          plan: context.plan!,
          plugins: context.answers && "plugins" in context.answers ? context.answers.plugins : undefined,
        }),
        onDone: [
          {
            guard: { type: "fileRefused", params: ({ event }) => event.output },
            target: "failed",
            actions: { type: "endWithFile", params: ({ event }) => event.output },
          },
          { target: "done", actions: { type: "endWithFile", params: ({ event }) => event.output } },
        ],
        onError: { target: "failed", actions: { type: "endWithError", params: ({ event }) => ({ error: event.error }) } },
      },
    },
    done: { type: "final" },
    failed: { type: "final" },
  },
  output: ({ context }) => context.outcome ?? failedWith("The export ended without a file."),
});
