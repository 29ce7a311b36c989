// The displayed test and its edits (CONTRACT section 13), as pure steps the editor machine
// takes: each edit is either planned (its name, the immer recipe that makes it, what the user
// looks at afterwards) or refused with why, changing nothing. Plans read the project as it is
// (ids, positions, names are checked here); recipes only write. The machine commits a plan
// through the history (editor.history.ts), decides what an answer is (a reply to a plugin, a
// warning to the user) and that every edit makes the project unsaved.
import type { SideCommand, SideProject, SideTest } from "../services/side/index.ts";
import { checkTestName } from "../services/side/testName.ts";
import type { ErrorCode } from "./shared.types.ts";
import type { Edit, Place } from "./editor.history.ts";
import type { EditEvent, EditorContext, UserSelectEvent } from "./editor.types.ts";
import { parseLocator } from "../services/locators/index.ts";

/** What the editor keeps of the display. */
export type Display = Pick<EditorContext, "project" | "displayedTestId" | "selectedCommandId">;

export type RefusalCode = Extract<ErrorCode, "NoTestSelected" | "UnknownCommand" | "Busy" | "InvalidRequest" | "UnknownTest">;
export type Refused = { ok: false; errorCode: RefusalCode; problem: string };

/** An edit ready to commit: what it does and, where it says so, what the user looks at after it. */
export type Planned = { ok: true; edit: Edit; place?: Partial<Place> };
export type PlanResult = Planned | Refused;

export type SelectResult = { ok: true; display: Display } | Refused;

export const refused = (errorCode: RefusalCode, problem: string): Refused => ({ ok: false, errorCode, problem });

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
export const unknownCommand = (test: SideTest, id: string) => `The displayed test "${test.name}" has no command with the id "${id}".`;
export const unknownTest = (id: string) => `The project has no test case with the id "${id}".`;
export const beingPlayed = (test: Pick<SideTest, "name">) =>
  `The test "${test.name}" is being played; it cannot be changed until the run is over (stop it first).`;

/** The displayed test, where it sits, and that a run does not play it: what every command edit needs. */
export function editableDisplayed(context: Display & Pick<EditorContext, "playing">): { ok: true; test: SideTest; at: number } | Refused {
  const at = context.project.tests.findIndex((t) => t.id === context.displayedTestId);
  if (at < 0) return refused("NoTestSelected", NO_TEST);
  const test = context.project.tests[at];
  if (context.playing.includes(test.id)) return refused("Busy", beingPlayed(test));
  return { ok: true, test, at };
}

/** Selecting is not editing: it changes what the user looks at, never the project. */
export function select(context: Display, event: UserSelectEvent): SelectResult {
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

const planned = (label: string, recipe: Edit["recipe"], place?: Partial<Place>): Planned => ({ ok: true, edit: { label, recipe }, place });

/** One edit of CONTRACT section 13 (the user's or a plugin's); `playing` holds the tests a run plays, which are not changed. */
export function planEdit(context: Display & Pick<EditorContext, "playing">, event: EditEvent): PlanResult {
  const { project } = context;
  if (event.type === "user.changeSettings") {
    // Nothing given, or what the project has already: no change, so nothing becomes unsaved.
    const changes = (p: Pick<SideProject, "locatorOrder" | "testIdAttributes" | "heal">) => {
      if (event.locatorOrder !== undefined) p.locatorOrder = [...event.locatorOrder];
      if (event.testIdAttributes !== undefined) p.testIdAttributes = [...event.testIdAttributes];
      // Healing is on unless the project says `heal: false`: turning it on drops the field, so a
      // project that never turned it off keeps its file as it was.
      if (event.heal === false) p.heal = false;
      if (event.heal === true) delete p.heal;
    };
    const seen = { locatorOrder: project.locatorOrder, testIdAttributes: project.testIdAttributes, heal: project.heal };
    changes(seen);
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    if (same(seen.locatorOrder, project.locatorOrder) && same(seen.testIdAttributes, project.testIdAttributes) && seen.heal === project.heal) {
      return refused("InvalidRequest", "The recording settings are already so.");
    }
    return planned("Change the recording settings", changes);
  }
  if (event.type === "user.addTest") {
    const name = checkTestName(event.name, project.tests);
    if (!name.ok) return refused("InvalidRequest", name.problem);
    const test: SideTest = { id: globalThis.crypto.randomUUID(), name: name.name, commands: [] };
    return planned(`Add test "${test.name}"`, (p) => void p.tests.push(test), { displayedTestId: test.id, selectedCommandId: null });
  }
  if (event.type === "user.renameTest") {
    const at = project.tests.findIndex((t) => t.id === event.testId);
    if (at < 0) return refused("UnknownTest", unknownTest(event.testId));
    const test = project.tests[at];
    if (context.playing.includes(test.id)) return refused("Busy", beingPlayed(test));
    const name = checkTestName(event.name, project.tests, test.id);
    if (!name.ok) return refused("InvalidRequest", name.problem);
    return planned(`Rename test "${test.name}" to "${name.name}"`, (p) => void (p.tests[at].name = name.name));
  }

  const shown = editableDisplayed(context);
  if (!shown.ok) return shown;
  const { test, at: testAt } = shown;
  const commands = test.commands;

  if (event.type === "user.addCommand" || event.type === "request.addCommand") {
    const selectedAt = commands.findIndex((c) => c.id === context.selectedCommandId);
    const index = event.index ?? (selectedAt >= 0 ? selectedAt + 1 : commands.length);
    if (index > commands.length) {
      return refused("InvalidRequest", `index ${index} is past the end of the displayed test, which has ${commands.length} commands.`);
    }
    const command: SideCommand = { id: globalThis.crypto.randomUUID(), command: event.command, target: event.target ?? "", value: event.value ?? "" };
    const selects = event.type === "user.addCommand" || event.select === true;
    return planned(`Add command "${command.command}"`, (p) => void p.tests[testAt].commands.splice(index, 0, command), {
      selectedCommandId: selects ? command.id : context.selectedCommandId,
    });
  }

  const id = event.type === "request.changeCommand" || event.type === "request.deleteCommand" ? event.id : event.commandId;
  const at = commands.findIndex((c) => c.id === id);
  if (at < 0) return refused("UnknownCommand", unknownCommand(test, id));
  const name = commands[at].command;

  if (event.type === "user.changeCommand" || event.type === "request.changeCommand") {
    return planned(`Change command "${name}"`, (p) => {
      const changed = p.tests[testAt].commands[at] as SideCommand & { fingerprint?: unknown; comment?: string };
      if (event.command !== undefined) changed.command = event.command;
      if (event.target !== undefined) changed.target = event.target;
      if (event.value !== undefined) changed.value = event.value;
      if (event.type === "user.changeCommand" && event.comment !== undefined) changed.comment = event.comment;
      if (event.type === "user.changeCommand" && event.fingerprint !== undefined) changed.fingerprint = event.fingerprint;
      // A plugin's change, or Select target in page (editor.machine.ts), sets the alternatives too.
      if ("targets" in event && event.targets !== undefined) changed.targets = event.targets as SideCommand["targets"];
    });
  }

  if (event.type === "user.chooseLocator") {
    const command = commands[at];
    const pairs = targetPairs(command.targets);
    const where = `command #${at + 1} "${name}"`;
    if (!pairs.some(([locator]) => locator === event.locator)) {
      return refused("InvalidRequest", `"${event.locator}" is not one of the alternative locators of ${where}.`);
    }
    if (command.target === event.locator) return refused("InvalidRequest", `"${event.locator}" is the target of ${where} already.`);
    return planned(`Use "${event.locator}" as the target of "${name}"`, (p) => {
      const changed = p.tests[testAt].commands[at];
      const old = changed.target ?? "";
      changed.target = event.locator;
      // The old target stays at hand among the alternatives, named by its strategy as v3 names a builder.
      if (old !== "" && !pairs.some(([locator]) => locator === old)) changed.targets = [...pairs, [old, strategyOf(old)]];
    });
  }

  if (event.type === "user.moveCommand") {
    if (event.toIndex > commands.length - 1) {
      return refused("InvalidRequest", `toIndex ${event.toIndex} is past the end: the displayed test has ${commands.length} commands (0 to ${commands.length - 1}).`);
    }
    return planned(`Move command "${name}"`, (p) => {
      const list = p.tests[testAt].commands;
      const [moved] = list.splice(at, 1);
      list.splice(event.toIndex, 0, moved);
    });
  }

  // Delete. The user's delete moves the selection to the next command (else the previous,
  // else none); a plugin's keeps the user's selection unless it removed that command.
  const neighbour = (commands[at + 1] ?? commands[at - 1])?.id ?? null;
  const selectedCommandId = event.type === "user.deleteCommand" || context.selectedCommandId === id ? neighbour : context.selectedCommandId;
  return planned(`Delete command "${name}"`, (p) => void p.tests[testAt].commands.splice(at, 1), { selectedCommandId });
}

/**
 * Recorded commands (CONTRACT section 14) go into the test recorded into: after its selected
 * command when it is the displayed test, else at its end; the last of them becomes the
 * selection when the test is displayed. A test that is gone takes nothing (null).
 */
export function planRecorded(context: Display, testId: string, commands: SideCommand[]): Planned | null {
  const testAt = context.project.tests.findIndex((t) => t.id === testId);
  if (testAt < 0 || commands.length === 0) return null;
  const test = context.project.tests[testAt];
  const displayed = context.displayedTestId === testId;
  const selectedAt = displayed ? test.commands.findIndex((c) => c.id === context.selectedCommandId) : -1;
  const at = selectedAt >= 0 ? selectedAt + 1 : test.commands.length;
  const label = commands.length === 1 ? `Record command "${commands[0].command}"` : `Record ${commands.length} commands`;
  // Copies: the history and the project keep them frozen, the recording keeps its own.
  const copies = commands.map((c) => ({ ...c }));
  return planned(label, (p) => void p.tests[testAt].commands.splice(at, 0, ...copies), {
    selectedCommandId: displayed ? commands[commands.length - 1].id : context.selectedCommandId,
  });
}

/** A plugin's mutation of a recorded command (commandRecorded's answer): changed, or removed; null when it is gone. */
export function planRecordedChange(
  context: Display,
  testId: string,
  commandId: string,
  change: Pick<SideCommand, "command" | "target" | "value"> & { targets?: unknown; window?: { opensWindow: true; windowHandleName: string } } | "delete",
): Planned | null {
  const testAt = context.project.tests.findIndex((t) => t.id === testId);
  const test = context.project.tests[testAt];
  const at = test ? test.commands.findIndex((c) => c.id === commandId) : -1;
  if (!test || at < 0) return null;
  const name = test.commands[at].command;
  if (change === "delete") {
    const neighbour = (test.commands[at + 1] ?? test.commands[at - 1])?.id ?? null;
    const moved = context.selectedCommandId === commandId ? neighbour : context.selectedCommandId;
    return planned(`Remove recorded command "${name}"`, (p) => void p.tests[testAt].commands.splice(at, 1), { selectedCommandId: moved });
  }
  return planned(`Change recorded command "${name}"`, (p) => {
    const changed = p.tests[testAt].commands[at];
    changed.command = change.command;
    changed.target = change.target;
    changed.value = change.value;
    if (change.targets !== undefined) changed.targets = change.targets;
    if (change.window !== undefined) Object.assign(changed, change.window);
  });
}

/** The project had no url: the recorded page's origin becomes it (null: it has one, nothing to do). */
export function planUrlFromPage(project: SideProject, url: string): Planned | null {
  if (project.url !== "") return null;
  return planned(`Set the base URL to "${url}"`, (p) => void (p.url = url));
}

/** Where a plugin's POST /record/command goes during a recording: right after the last recorded command of the displayed test. */
export function indexAfterRecorded(context: Display, lastRecordedId: string | null): number | undefined {
  const test = displayedTest(context);
  const at = test && lastRecordedId ? test.commands.findIndex((c) => c.id === lastRecordedId) : -1;
  return at >= 0 ? at + 1 : undefined;
}

/** A command's recorded `targets` as `[locator, builder]` pairs; anything else in the file's list is left out. */
export function targetPairs(targets: unknown): Array<[string, string]> {
  if (!Array.isArray(targets)) return [];
  return targets.flatMap((t): Array<[string, string]> =>
    Array.isArray(t) && typeof t[0] === "string" && t[0] !== "" ? [[t[0], typeof t[1] === "string" ? t[1] : strategyOf(t[0])]] : [],
  );
}

function strategyOf(locator: string): string {
  try {
    return parseLocator(locator).strategy;
  } catch {
    return "target";
  }
}
