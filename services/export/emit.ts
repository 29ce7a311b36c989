// Saving with plugins (CONTRACT section 15, v3's `emit` messages): which plugins can emit,
// what each is asked, and the `snapshot`, `dependencies` and `jest.extraGlobals` a saved
// `.side` carries, as v3's save wrote them (selianize with skipStdLibEmitting: the plugins'
// code only). Pure: the deliveries come from the caller.
import type { RegisteredPlugin } from "../plugins/index.ts";
import type { Delivery } from "../playback/pluginAnswer.ts";
import type { SideProject } from "../side/index.ts";

export type EmitMessage =
  | { action: "emit"; entity: "project" | "config"; project: SideProject }
  | { action: "emit"; entity: "suite"; suite: { id: string; name: string; tests: SideProject["tests"] } }
  | { action: "emit"; entity: "test"; test: SideProject["tests"][number] }
  | { action: "emit"; entity: "command"; command: { command: string; target: string; value: string } };

/** The first question of a save, to every registered plugin. */
export const emitProjectMessage = (project: SideProject): EmitMessage => ({ action: "emit", entity: "project", project });

/** Only `{ canEmit: true }` says yes. */
export function answersCanEmit(delivery: Delivery): boolean {
  if (!delivery.answered) return false;
  const answer = delivery.answer;
  return typeof answer === "object" && answer !== null && (answer as { canEmit?: unknown }).canEmit === true;
}

type Slot =
  | { kind: "config" }
  | { kind: "suite"; name: string; persistSession: unknown }
  | { kind: "test"; testId: string }
  | { kind: "command"; testId: string; commandId: string };

export interface EmitQuestion {
  pluginId: string;
  pluginName: string;
  message: EmitMessage;
  slot: Slot;
}

interface Suite {
  id: string;
  name: string;
  tests: string[];
  persistSession?: unknown;
}

function suitesOf(project: SideProject): Suite[] {
  return project.suites.filter((suite): suite is Suite => {
    const s = suite as Partial<Suite> | null;
    return typeof s?.id === "string" && typeof s.name === "string" && Array.isArray(s.tests) && s.tests.every((id) => typeof id === "string");
  });
}

/** Every question to the plugins that can emit, in the order v3 used their answers. */
export function emitQuestions(project: SideProject, emitting: ReadonlyArray<RegisteredPlugin>): EmitQuestion[] {
  const questions: EmitQuestion[] = [];
  const ask = (plugin: RegisteredPlugin, message: EmitMessage, slot: Slot) =>
    questions.push({ pluginId: plugin.id, pluginName: plugin.registration.name, message, slot });
  for (const plugin of emitting) ask(plugin, { action: "emit", entity: "config", project }, { kind: "config" });
  for (const suite of suitesOf(project)) {
    const tests = suite.tests.flatMap((id) => project.tests.filter((test) => test.id === id));
    for (const plugin of emitting) {
      ask(plugin, { action: "emit", entity: "suite", suite: { id: suite.id, name: suite.name, tests } }, { kind: "suite", name: suite.name, persistSession: suite.persistSession });
    }
  }
  const owners = new Map<string, RegisteredPlugin>();
  for (const plugin of emitting) for (const command of plugin.registration.commands ?? []) owners.set(command.id, plugin);
  for (const test of project.tests) {
    for (const plugin of emitting) ask(plugin, { action: "emit", entity: "test", test }, { kind: "test", testId: test.id });
    for (const command of test.commands) {
      const owner = owners.get(command.command);
      if (!owner) continue;
      const { command: name, target, value } = command;
      ask(owner, { action: "emit", entity: "command", command: { command: name, target, value } }, { kind: "command", testId: test.id, commandId: command.id });
    }
  }
  return questions;
}

const text = (value: unknown): string => (typeof value === "string" ? value : "");
const messageOf = (answer: unknown): string =>
  typeof answer === "string" ? answer : typeof answer === "object" && answer !== null ? text((answer as { message?: unknown }).message) : "";

// v3's suite hook: each plugin's beforeAll, before, after and afterAll as jest hooks.
function suiteHook(answer: unknown): string {
  if (typeof answer !== "object" || answer === null) return "";
  const { beforeAll, before, after, afterAll } = answer as Record<string, unknown>;
  return (
    (text(beforeAll) ? `beforeAll(async () => {${text(beforeAll)}});` : "") +
    (text(before) ? `beforeEach(async () => {${text(before)}});` : "") +
    (text(after) ? `afterEach(async () => {${text(after)}});` : "") +
    (text(afterAll) ? `afterAll(async () => {${text(afterAll)}});` : "")
  );
}

interface TestSnapshot {
  commands: Record<string, string>;
  setupHooks: string[];
  teardownHooks: string[];
}

export interface EmittedProject {
  /** The project to save: with `snapshot`, `dependencies` and `jest` when any plugin wrote code. */
  project: SideProject;
  warnings: string[];
}

/**
 * The saved project, from each question's delivery in order. A plugin that does not answer
 * in time adds nothing there, with a warning; the save goes on.
 */
export function snapshotProject(
  project: SideProject,
  emitting: ReadonlyArray<RegisteredPlugin>,
  questions: ReadonlyArray<EmitQuestion>,
  deliveries: ReadonlyArray<Delivery>,
): EmittedProject {
  const warnings: string[] = [];
  let config = "";
  const suites = new Map<string, { name: string; persistSession: unknown; hook: string }>();
  const tests = new Map<string, TestSnapshot>();
  const testOf = (id: string) => {
    let entry = tests.get(id);
    if (!entry) tests.set(id, (entry = { commands: {}, setupHooks: [], teardownHooks: [] }));
    return entry;
  };
  for (const [index, question] of questions.entries()) {
    const delivery = deliveries[index] ?? { answered: false as const, reason: "no answer" };
    if (!delivery.answered) {
      warnings.push(`The plugin ${question.pluginName} did not answer the save's ${question.message.entity} message (${delivery.reason}); it is left out there.`);
      continue;
    }
    const { answer } = delivery;
    const { slot } = question;
    if (slot.kind === "config") config += messageOf(answer);
    else if (slot.kind === "suite") {
      const entry = suites.get(slot.name) ?? { name: slot.name, persistSession: slot.persistSession, hook: "" };
      entry.hook += suiteHook(answer);
      suites.set(slot.name, entry);
    } else if (slot.kind === "test") {
      const { setup, teardown } = (typeof answer === "object" && answer !== null ? answer : {}) as Record<string, unknown>;
      if (text(setup)) testOf(slot.testId).setupHooks.push(text(setup));
      if (text(teardown)) testOf(slot.testId).teardownHooks.push(text(teardown));
    } else {
      const code = messageOf(answer);
      if (code) testOf(slot.testId).commands[slot.commandId] = code;
    }
  }
  const snapshot: Record<string, unknown> = {};
  if (config) snapshot.globalConfig = { snapshot: config };
  const hooked = [...suites.values()].filter((suite) => suite.hook !== "");
  if (hooked.length) snapshot.suites = hooked.map(({ name, persistSession, hook }) => ({ name, persistSession, snapshot: { hook } }));
  const snapshotted = project.tests.filter((test) => tests.has(test.id));
  if (snapshotted.length) snapshot.tests = snapshotted.map((test) => ({ id: test.id, snapshot: tests.get(test.id)! }));
  if (Object.keys(snapshot).length === 0) return { project, warnings };
  return { project: { ...project, snapshot, ...pluginDependencies(emitting) }, warnings };
}

/** The `dependencies` and `jest.extraGlobals` of the plugins that can emit, merged in registration order. */
export function pluginDependencies(emitting: ReadonlyArray<RegisteredPlugin>) {
  const dependencies: Record<string, string> = {};
  const extraGlobals: string[] = [];
  for (const { registration } of emitting) {
    Object.assign(dependencies, registration.dependencies ?? {});
    const globals = (registration.jest as { extraGlobals?: unknown } | undefined)?.extraGlobals;
    if (Array.isArray(globals)) for (const name of globals) if (typeof name === "string" && !extraGlobals.includes(name)) extraGlobals.push(name);
  }
  return { dependencies, jest: { extraGlobals } };
}
