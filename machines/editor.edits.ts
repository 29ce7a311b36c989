// The displayed test and its edits (CONTRACT section 13), as pure steps the editor machine
// takes: each edit either gives the project, displayed test and selection that follow, or
// says why it cannot be done and changes nothing. The machine decides what an answer is
// (a reply to a plugin, a warning to the user) and that every edit makes the project unsaved.
import type { SideCommand, SideProject, SideTest } from "../services/side/index.ts";
import { checkTestName } from "../services/side/testName.ts";
import type { ErrorCode } from "./shared.types.ts";
import type { EditEvent, EditorContext, UserSelectEvent } from "./editor.types.ts";

/** What the editor keeps of the display. */
export type Display = Pick<EditorContext, "project" | "displayedTestId" | "selectedCommandId">;

export type EditResult =
  | { ok: true; display: Display }
  | { ok: false; errorCode: Extract<ErrorCode, "NoTestSelected" | "UnknownCommand" | "Busy" | "InvalidRequest" | "UnknownTest">; problem: string };

const refused = (errorCode: Extract<EditResult, { ok: false }>["errorCode"], problem: string): EditResult => ({
  ok: false,
  errorCode,
  problem,
});

/** The displayed test stays valid: a test of the project (else its first), a selection of its commands (else none). */
export function validDisplay(project: SideProject, displayedTestId: string | null, selectedCommandId: string | null): Display {
  const test = project.tests.find((t) => t.id === displayedTestId) ?? project.tests[0];
  if (!test) return { project, displayedTestId: null, selectedCommandId: null };
  const keepsSelection = test.id === displayedTestId && test.commands.some((c) => c.id === selectedCommandId);
  return { project, displayedTestId: test.id, selectedCommandId: keepsSelection ? selectedCommandId : null };
}

export const displayedTest = (display: Pick<Display, "project" | "displayedTestId">): SideTest | null =>
  display.project.tests.find((t) => t.id === display.displayedTestId) ?? null;

/** The refusal of every edit and read of the displayed test when the project has none (the door's GET /record/command too). */
export const NO_TEST = "There is no displayed test: the project has no test cases. Add one first.";
const unknownCommand = (test: SideTest, id: string) => `The displayed test "${test.name}" has no command with the id "${id}".`;
const beingPlayed = (test: SideTest) =>
  `The test "${test.name}" is being played; it cannot be changed until the run is over (stop it first).`;

function withTest(project: SideProject, test: SideTest): SideProject {
  return { ...project, tests: project.tests.map((t) => (t.id === test.id ? test : t)) };
}


/** Selecting is not editing: it changes what the user looks at, never the project. */
export function select(context: Display, event: UserSelectEvent): EditResult {
  if (event.type === "user.selectTest") {
    if (!context.project.tests.some((t) => t.id === event.testId)) {
      return refused("UnknownTest", `The project has no test case with the id "${event.testId}"; nothing was selected.`);
    }
    return { ok: true, display: { ...context, displayedTestId: event.testId, selectedCommandId: null } };
  }
  const test = displayedTest(context);
  if (event.commandId === null) return { ok: true, display: { ...context, selectedCommandId: null } };
  if (!test) return refused("NoTestSelected", NO_TEST);
  if (!test.commands.some((c) => c.id === event.commandId)) return refused("UnknownCommand", unknownCommand(test, event.commandId));
  return { ok: true, display: { ...context, selectedCommandId: event.commandId } };
}

/** One edit of the project's tests; `playing` holds the tests a run plays, which are not changed. */
export function edit(context: Display & Pick<EditorContext, "playing">, event: EditEvent): EditResult {
  const { project } = context;
  if (event.type === "user.changeSettings") {
    // Nothing given, or what the project has already: no change, so nothing becomes unsaved.
    const changed = { ...project };
    if (event.locatorOrder !== undefined) changed.locatorOrder = [...event.locatorOrder];
    if (event.testIdAttributes !== undefined) changed.testIdAttributes = [...event.testIdAttributes];
    // Healing is on unless the project says `heal: false`: turning it on drops the field, so a
    // project that never turned it off keeps its file as it was.
    if (event.heal === false) changed.heal = false;
    if (event.heal === true) delete changed.heal;
    if (JSON.stringify(changed) === JSON.stringify(project)) return refused("InvalidRequest", "The recording settings are already so.");
    return { ok: true, display: { ...context, project: changed } };
  }
  if (event.type === "user.addTest") {
    const name = checkTestName(event.name, project.tests);
    if (!name.ok) return refused("InvalidRequest", name.problem);
    const test: SideTest = { id: globalThis.crypto.randomUUID(), name: name.name, commands: [] };
    return { ok: true, display: { project: { ...project, tests: [...project.tests, test] }, displayedTestId: test.id, selectedCommandId: null } };
  }
  if (event.type === "user.renameTest") {
    const test = project.tests.find((t) => t.id === event.testId);
    if (!test) return refused("UnknownTest", `The project has no test case with the id "${event.testId}".`);
    if (context.playing.includes(test.id)) return refused("Busy", beingPlayed(test));
    const name = checkTestName(event.name, project.tests, test.id);
    if (!name.ok) return refused("InvalidRequest", name.problem);
    return { ok: true, display: { ...context, project: withTest(project, { ...test, name: name.name }) } };
  }

  const test = displayedTest(context);
  if (!test) return refused("NoTestSelected", NO_TEST);
  if (context.playing.includes(test.id)) return refused("Busy", beingPlayed(test));
  const commands = test.commands;

  if (event.type === "user.addCommand" || event.type === "request.addCommand") {
    const selectedAt = commands.findIndex((c) => c.id === context.selectedCommandId);
    const index = event.index ?? (selectedAt >= 0 ? selectedAt + 1 : commands.length);
    if (index > commands.length) {
      return refused("InvalidRequest", `index ${index} is past the end of the displayed test, which has ${commands.length} commands.`);
    }
    const command: SideCommand = { id: globalThis.crypto.randomUUID(), command: event.command, target: event.target ?? "", value: event.value ?? "" };
    const next = [...commands.slice(0, index), command, ...commands.slice(index)];
    const selects = event.type === "user.addCommand" || event.select === true;
    return {
      ok: true,
      display: { project: withTest(project, { ...test, commands: next }), displayedTestId: test.id, selectedCommandId: selects ? command.id : context.selectedCommandId },
    };
  }

  const id = event.type === "request.changeCommand" || event.type === "request.deleteCommand" ? event.id : event.commandId;
  const at = commands.findIndex((c) => c.id === id);
  if (at < 0) return refused("UnknownCommand", unknownCommand(test, id));

  if (event.type === "user.changeCommand" || event.type === "request.changeCommand") {
    const changed: SideCommand = { ...commands[at] };
    if (event.command !== undefined) changed.command = event.command;
    if (event.target !== undefined) changed.target = event.target;
    if (event.value !== undefined) changed.value = event.value;
    if (event.type === "user.changeCommand" && event.fingerprint !== undefined) (changed as SideCommand & { fingerprint?: unknown }).fingerprint = event.fingerprint;
    if (event.type === "request.changeCommand" && event.targets !== undefined) changed.targets = event.targets;
    const next = commands.map((c, i) => (i === at ? changed : c));
    return { ok: true, display: { ...context, project: withTest(project, { ...test, commands: next }) } };
  }

  if (event.type === "user.moveCommand") {
    if (event.toIndex > commands.length - 1) {
      return refused("InvalidRequest", `toIndex ${event.toIndex} is past the end: the displayed test has ${commands.length} commands (0 to ${commands.length - 1}).`);
    }
    const rest = commands.filter((_, i) => i !== at);
    const next = [...rest.slice(0, event.toIndex), commands[at], ...rest.slice(event.toIndex)];
    return { ok: true, display: { ...context, project: withTest(project, { ...test, commands: next }) } };
  }

  // Delete. The user's delete moves the selection to the next command (else the previous,
  // else none); a plugin's keeps the user's selection unless it removed that command.
  const next = commands.filter((_, i) => i !== at);
  const neighbour = (next[at] ?? next[at - 1])?.id ?? null;
  const selectedCommandId = event.type === "user.deleteCommand" || context.selectedCommandId === id ? neighbour : context.selectedCommandId;
  return { ok: true, display: { project: withTest(project, { ...test, commands: next }), displayedTestId: test.id, selectedCommandId } };
}

/**
 * Recorded commands (CONTRACT section 14) go into the test recorded into: after its selected
 * command when it is the displayed test, else at its end; the last of them becomes the
 * selection when the test is displayed. A test that is gone takes nothing (null).
 */
export function insertRecorded(context: Display, testId: string, commands: SideCommand[]): Display | null {
  const test = context.project.tests.find((t) => t.id === testId);
  if (!test || commands.length === 0) return null;
  const displayed = context.displayedTestId === testId;
  const selectedAt = displayed ? test.commands.findIndex((c) => c.id === context.selectedCommandId) : -1;
  const at = selectedAt >= 0 ? selectedAt + 1 : test.commands.length;
  const next = [...test.commands.slice(0, at), ...commands, ...test.commands.slice(at)];
  return {
    ...context,
    project: withTest(context.project, { ...test, commands: next }),
    selectedCommandId: displayed ? commands[commands.length - 1].id : context.selectedCommandId,
  };
}

/** A plugin's mutation of a recorded command (commandRecorded's answer): changed, or removed; null when it is gone. */
export function mutateRecorded(
  context: Display,
  testId: string,
  commandId: string,
  change: Pick<SideCommand, "command" | "target" | "value"> & { targets?: unknown; window?: { opensWindow: true; windowHandleName: string } } | "delete",
): Display | null {
  const test = context.project.tests.find((t) => t.id === testId);
  const at = test ? test.commands.findIndex((c) => c.id === commandId) : -1;
  if (!test || at < 0) return null;
  if (change === "delete") {
    const next = test.commands.filter((_, i) => i !== at);
    const moved = context.selectedCommandId === commandId ? ((next[at] ?? next[at - 1])?.id ?? null) : context.selectedCommandId;
    return { ...context, project: withTest(context.project, { ...test, commands: next }), selectedCommandId: moved };
  }
  const changed: SideCommand = { ...test.commands[at], command: change.command, target: change.target, value: change.value };
  if (change.targets !== undefined) changed.targets = change.targets;
  if (change.window !== undefined) Object.assign(changed, change.window);
  return { ...context, project: withTest(context.project, { ...test, commands: test.commands.map((c, i) => (i === at ? changed : c)) }) };
}

/** Where a plugin's POST /record/command goes during a recording: right after the last recorded command of the displayed test. */
export function indexAfterRecorded(context: Display, lastRecordedId: string | null): number | undefined {
  const test = displayedTest(context);
  const at = test && lastRecordedId ? test.commands.findIndex((c) => c.id === lastRecordedId) : -1;
  return at >= 0 ? at + 1 : undefined;
}
