// ide.exportCode (CONTRACT section 15): the request read at the door, one export machine
// started for it with its ports (the plugins through `deliver`, each answer bounded by
// deliverTimeoutMs; the packages), and its outcome as the embedding API's answer.
import { createActor, fromPromise, toPromise } from "xstate";
import type { InspectionEvent, Observer } from "xstate";
import { z } from "zod";
import { exportMachine } from "../machines/export.machine.ts";
import type { AskPluginsInput, AskPluginsOutput, WriteFileInput, WriteFileOutput } from "../machines/export.types.ts";
import type { OutboundMessage } from "../machines/ide.types.ts";
import { CHROME_RECORDER, testToFlow } from "../services/chromeRecorder/index.ts";
import { messageOf } from "../services/errors.ts";
import { EXPORT_LANGUAGES, exportPlan, isExportLanguage } from "../services/export/index.ts";
import type { ExportScope } from "../services/export/index.ts";
import type { PluginRegistry } from "../services/plugins/index.ts";
import type { SideProject } from "../services/side/index.ts";
import { describeZodIssue } from "../services/validation.ts";
import { deliverAndWait } from "./ports.ts";
import type { Deliver } from "./ports.ts";

export type ExportRequest = { language: string; testId: string } | { language: string; suiteId: string };
export type ExportReply = { filename: string; body: string } | { error: string; errorCode: "UnknownTest" | "InvalidRequest" | "ExportFailed" };

const requestSchema = z.union([
  z.strictObject({ language: z.string(), testId: z.string() }),
  z.strictObject({ language: z.string(), suiteId: z.string() }),
]);

/** The export machine's ports: the plugins' answers and Selenium's packages. */
export function exportPorts(deliver: Deliver | undefined, timeoutMs: number) {
  return {
    askPlugins: fromPromise<AskPluginsOutput, AskPluginsInput>(({ input }) =>
      Promise.all(
        // `deliver` carries every outbound message; v3's export messages are one more kind.
        input.questions.map((question) => deliverAndWait(deliver, timeoutMs, question.pluginId, question.message as unknown as OutboundMessage)),
      ),
    ),
    writeFile: fromPromise<WriteFileOutput, WriteFileInput>(({ input }) => exportPlan(input.language, input.project, input.plan, input.plugins, {}, input.strategies)),
  };
}

export interface ExportSetting {
  deliver: Deliver | undefined;
  timeoutMs: number;
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
  warn(message: string): void;
}

/**
 * ide.exportCode for one IDE: the export machine with its ports is made once, and each call
 * starts an actor of it on the project and plugins as they are then. Never rejects: every
 * problem is an `{ error, errorCode }` answer.
 */
export function exporter(setting: ExportSetting) {
  const machine = exportMachine.provide({ actors: exportPorts(setting.deliver, setting.timeoutMs) });
  return async function exportCode(request: unknown, project: SideProject, plugins: PluginRegistry): Promise<ExportReply> {
    const parsed = requestSchema.safeParse(request, { reportInput: true });
    if (!parsed.success) {
      return { errorCode: "InvalidRequest", error: `exportCode takes { language, testId } or { language, suiteId }: ${describeZodIssue(parsed.error, "request")}` };
    }
    const { language } = parsed.data;
    if (language === CHROME_RECORDER || language === `${CHROME_RECORDER}:comments`) return exportFlow(parsed.data, project, setting.warn);
    if (!isExportLanguage(language)) {
      return { errorCode: "InvalidRequest", error: `Unknown language ${JSON.stringify(language)}: use one of ${EXPORT_LANGUAGES.join(", ")}.` };
    }
    const scope: ExportScope = "testId" in parsed.data ? { testId: parsed.data.testId } : { suiteId: parsed.data.suiteId };
    try {
      const actor = createActor(machine, { input: { language, scope, project, plugins }, inspect: setting.inspect });
      const done = toPromise(actor);
      actor.start();
      const outcome = await done;
      for (const warning of outcome.warnings) setting.warn(warning);
      return "errorCode" in outcome ? { error: outcome.error, errorCode: outcome.errorCode } : { filename: outcome.filename, body: outcome.body };
    } catch (error) {
      return { errorCode: "ExportFailed", error: `The export could not be written: ${messageOf(error)}` };
    }
  };
}

/**
 * Chrome Recorder's flow of one test (CONTRACT section 23), written here rather than by the
 * export machine: no package and no plugin takes part. `chrome-recorder:comments` keeps the
 * commands with no step as customSteps instead of refusing them.
 */
function exportFlow(request: z.infer<typeof requestSchema>, project: SideProject, warn: (message: string) => void): ExportReply {
  if (!("testId" in request)) return { errorCode: "InvalidRequest", error: "A Chrome Recorder flow holds one test: export a test, not a suite." };
  if (!project.tests.some((t) => t.id === request.testId)) return { errorCode: "UnknownTest", error: `The project has no test with id ${JSON.stringify(request.testId)}.` };
  const flow = testToFlow(project, request.testId, { comments: request.language.endsWith(":comments") });
  if (!flow.ok) return { errorCode: "ExportFailed", error: `The flow could not be written: ${flow.problem}.` };
  for (const warning of flow.warnings) warn(warning);
  return { filename: flow.filename, body: flow.text };
}
