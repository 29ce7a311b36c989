// Random edits for the editor's undo tests (tests/model/editor.undo.model.test.ts,
// tests/property/undo.property.test.ts). A step is generated as plain data that picks what it
// edits by position ("the 3rd command of the 2nd test") and is turned into an event against the
// project as it is when the step runs, so a shrunk counterexample still names real ids. Some
// steps are bad on purpose (an unknown id, an empty or taken name, a paste that is not .side
// commands): they must change nothing.
import fc from "fast-check";
import type { EditorContext, EditorEvent } from "../../machines/editor.types.ts";
import { parseSideProject } from "../../services/side/index.ts";
import type { SideProject } from "../../services/side/index.ts";
import { shop } from "../support/editor.ts";

export const EDIT_KINDS = [
  "addTest",
  "renameTest",
  "duplicateTest",
  "deleteTest",
  "selectTest",
  "selectCommand",
  "addCommand",
  "changeCommand",
  "moveCommand",
  "deleteCommand",
  "pluginAdd",
  "pluginChange",
  "pluginDelete",
  "recorded",
  "changeSettings",
  "changeProject",
  "addSuite",
  "renameSuite",
  "deleteSuite",
  "setSuiteTests",
  "changeSuite",
  "copy",
  "cut",
  "paste",
  "pasteSide",
  "toggleDisabled",
] as const;

export interface EditStep {
  kind: (typeof EDIT_KINDS)[number];
  /** Picks a test, a suite or a command by position (modulo how many there are). */
  a: number;
  b: number;
  /** A name or a field's text; "" and names already taken come up often, as a user's mistakes do. */
  text: string;
  flag: boolean;
  /** Names an id that exists nowhere. */
  unknown: boolean;
}

const text = fc.oneof(fc.constantFrom("", "  ", "logs in", "adds to cart", "Default Suite", "x"), fc.string({ maxLength: 8 }));

export const editStepArb: fc.Arbitrary<EditStep> = fc.record({
  kind: fc.constantFrom(...EDIT_KINDS),
  a: fc.nat(20),
  b: fc.nat(20),
  text,
  flag: fc.boolean(),
  unknown: fc.nat(4).map((n) => n === 0),
});

const pick = <T>(list: readonly T[], n: number): T | undefined => (list.length === 0 ? undefined : list[n % list.length]);
const suiteIds = (context: EditorContext) =>
  context.project.suites.flatMap((s) => (typeof s === "object" && s !== null && typeof (s as { id?: unknown }).id === "string" ? [(s as { id: string }).id] : []));

/** The event a step means against the editor as it is now. */
export function eventOf(step: EditStep, context: EditorContext, counter: number): EditorEvent {
  const { project } = context;
  const test = step.unknown ? { id: "t-unknown", commands: [] } : (pick(project.tests, step.a) ?? { id: "t-none", commands: [] });
  const shown = project.tests.find((t) => t.id === context.displayedTestId);
  const commands = shown?.commands ?? [];
  const commandId = step.unknown ? "c-unknown" : (pick(commands, step.b)?.id ?? "c-none");
  const someIds = step.unknown ? ["c-unknown"] : commands.filter((_, i) => (i + step.b) % 3 === 0).map((c) => c.id);
  const suiteId = step.unknown ? "s-unknown" : (pick(suiteIds(context), step.a) ?? "s-none");
  switch (step.kind) {
    case "addTest":
      return { type: "user.addTest", name: step.text };
    case "renameTest":
      return { type: "user.renameTest", testId: test.id, name: step.text };
    case "duplicateTest":
      return { type: "user.duplicateTest", testId: test.id };
    case "deleteTest":
      return { type: "user.deleteTest", testId: test.id };
    case "selectTest":
      return { type: "user.selectTest", testId: test.id };
    case "selectCommand":
      return { type: "user.selectCommand", commandId: step.flag ? null : commandId };
    case "addCommand":
      return { type: "user.addCommand", command: step.text || "click", target: `id=${counter}`, ...(step.flag ? { index: step.b } : {}) };
    case "changeCommand":
      return step.flag
        ? { type: "user.changeCommand", commandId, comment: step.text }
        : { type: "user.changeCommand", commandId, target: `css=#${counter}`, value: step.text };
    case "moveCommand":
      return { type: "user.moveCommand", commandId, toIndex: step.a % Math.max(1, commands.length + (step.flag ? 1 : 0)) };
    case "deleteCommand":
      return { type: "user.deleteCommand", commandId };
    case "pluginAdd":
      return { type: "request.addCommand", requestId: counter, sender: "p", command: "echo", target: step.text, select: step.flag };
    case "pluginChange":
      return { type: "request.changeCommand", requestId: counter, sender: "p", id: commandId, value: step.text, targets: [[`id=${counter}`, "id"]] };
    case "pluginDelete":
      return { type: "request.deleteCommand", requestId: counter, sender: "p", id: commandId };
    case "recorded":
      return {
        type: "recording.commandsRecorded",
        testId: test.id,
        commands: Array.from({ length: 1 + (step.b % 3) }, (_, i) => ({ id: `r-${counter}-${i}`, command: "click", target: `id=r${i}`, value: "", targets: [] })),
      };
    case "changeSettings":
      return step.flag ? { type: "user.changeSettings", heal: step.b % 2 === 0 } : { type: "user.changeSettings", testIdAttributes: step.b % 2 === 0 ? ["data-test"] : ["data-qa", "data-test"] };
    case "changeProject":
      return step.flag ? { type: "user.changeProject", name: step.text } : { type: "user.changeProject", url: step.text === "" ? `https://shop${counter}.test/` : step.text };
    case "addSuite":
      return { type: "user.addSuite", name: step.text };
    case "renameSuite":
      return { type: "user.renameSuite", suiteId, name: step.text };
    case "deleteSuite":
      return { type: "user.deleteSuite", suiteId };
    case "setSuiteTests": {
      const ids = project.tests.filter((_, i) => (i + step.b) % 2 === 0).map((t) => t.id);
      return { type: "user.setSuiteTests", suiteId, testIds: step.flag ? ids.reverse() : step.unknown ? [...ids, "t-unknown"] : ids };
    }
    case "changeSuite":
      return { type: "user.changeSuite", suiteId, parallel: step.flag, timeoutS: 1 + step.b };
    case "copy":
      return { type: "user.copyCommands", commandIds: someIds.length > 0 ? someIds : [commandId] };
    case "cut":
      return { type: "user.cutCommands", commandIds: someIds.length > 0 ? someIds : [commandId] };
    case "paste":
      return { type: "user.pasteCommands", ...(step.flag ? { afterCommandId: commandId } : {}) };
    case "pasteSide":
      return {
        type: "user.pasteCommands",
        commands: step.unknown ? [{ target: "no command" }] : [{ id: "side-1", command: "type", target: "id=q", value: step.text, comment: "pasted" }],
      };
    case "toggleDisabled":
      return { type: "user.toggleCommandsDisabled", commandIds: someIds.length > 0 ? someIds : [commandId] };
  }
}

/** The shop, and a project with tests long enough that an insertion shifts many commands (the history keeps such steps compacted). */
export function longer(): SideProject {
  const tests = Array.from({ length: 4 }, (_, t) => ({
    id: `t${t}`,
    name: `test ${t}`,
    commands: Array.from({ length: 12 + t * 5 }, (_, c) => ({ id: `t${t}-c${c}`, command: c % 4 === 0 ? "//click" : "click", target: `id=b${c}`, value: "", comment: "" })),
  }));
  const parsed = parseSideProject({
    id: "p-long",
    name: "Long",
    url: "http://127.0.0.1:8080",
    tests,
    suites: [
      { id: "s-all", name: "All", persistSession: false, parallel: false, timeout: 300, tests: tests.map((t) => t.id) },
      { id: "s-two", name: "Two", persistSession: false, parallel: true, timeout: 60, tests: ["t3", "t1"] },
    ],
  });
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.project;
}

/** The project the edits start from. */
export const projectArb = fc.constantFrom("shop", "longer").map((name) => (name === "shop" ? shop() : longer()));
