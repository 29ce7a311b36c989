// Saving with plugins (CONTRACT section 15, v3's `emit`): before the project is saved, each
// registered plugin is asked whether it can emit; those that answer `{ canEmit: true }` are
// asked for their config, suite hooks, test setup and teardown and their commands' code, and
// the saved file carries it as v3's `snapshot` with their dependencies. Every wait is bounded
// by deliverTimeoutMs: a plugin that does not answer in time is left out, with a warn log.
// The saved file also carries the declarations of the plugins' locator strategies its commands
// use (CONTRACT section 23), so it plays with the plugins gone.
import type { OutboundMessage } from "../machines/ide.types.ts";
import { answersCanEmit, emitProjectMessage, emitQuestions, snapshotProject } from "../services/export/index.ts";
import type { EmitMessage } from "../services/export/index.ts";
import { pluginStrategies } from "../services/plugins/index.ts";
import type { PluginRegistry } from "../services/plugins/index.ts";
import { carryingStrategies } from "../services/side/index.ts";
import type { SideProject } from "../services/side/index.ts";
import { deliverAndWait } from "./ports.ts";
import type { Deliver } from "./ports.ts";

export interface EmitSetting {
  plugins(): PluginRegistry;
  deliver: Deliver | undefined;
  timeoutMs: number;
  warn(message: string): void;
}

// `deliver` carries every outbound message; v3's emit messages are one more kind.
const ask = (setting: EmitSetting, to: string, message: EmitMessage) =>
  deliverAndWait(setting.deliver, setting.timeoutMs, to, message as unknown as OutboundMessage);

/** What a save writes: the project with the locator strategies it uses, then the plugins' snapshot. Never rejects. */
export function projectToSave(project: SideProject, setting: EmitSetting): Promise<SideProject> {
  return withPluginSnapshot(carryingStrategies(project, pluginStrategies(setting.plugins())), setting);
}

/** The project as it is to be saved; the project itself when no plugin can emit. Never rejects. */
export async function withPluginSnapshot(project: SideProject, setting: EmitSetting): Promise<SideProject> {
  const plugins = setting.plugins();
  if (plugins.length === 0 || !setting.deliver) return project;
  try {
    const first = await Promise.all(plugins.map((plugin) => ask(setting, plugin.id, emitProjectMessage(project))));
    first.forEach((delivery, index) => {
      if (!delivery.answered) setting.warn(`The plugin ${plugins[index].registration.name} did not answer whether it can emit the project (${delivery.reason}); it is left out of the save.`);
    });
    const emitting = plugins.filter((_, index) => answersCanEmit(first[index]));
    if (emitting.length === 0) return project;
    const questions = emitQuestions(project, emitting);
    const deliveries = await Promise.all(questions.map((question) => ask(setting, question.pluginId, question.message)));
    const emitted = snapshotProject(project, emitting, questions, deliveries);
    for (const warning of emitted.warnings) setting.warn(warning);
    return emitted.project;
  } catch (error) {
    setting.warn(`The plugins' code could not be added to the save: ${String(error)}; the project is saved without it.`);
    return project;
  }
}
