// What Play and Record mean, as pure functions of the editor's project and displayed test:
// the tests a start plays (resolved against the project, CONTRACT section 12; from, to or only
// one of its commands, section 20) and the test a recording records into. The root asks these
// when the user or a plugin starts something, and hands the answer straight to the suite runner
// or the recording machine.
import { singleCommandProgram } from "../services/playback/flow.ts";
import { resolveRunTarget } from "../services/playback/targets.ts";
import { runStrategies } from "../services/playback/strategies.ts";
import { strategyTable } from "../services/locators/strategies.ts";
import type { StrategyDeclaration } from "../services/locators/strategies.ts";
import type { RunSelector } from "../services/playback/targets.ts";
import type { SideTest } from "../services/side/index.ts";
import { displayedTest } from "./editor.edits.ts";
import type { EditorContext } from "./editor.types.ts";
import type { RecordingRequestedEvent } from "./recording.types.ts";
import type { RequestRef } from "./shared.types.ts";
import type { RunStartEvent } from "./suiteRunner.types.ts";
import type { UserEventOf } from "./userEvents.schema.ts";

/** What the editor's document is to a start: the project and the test the user looks at. */
export type EditorDocument = Pick<EditorContext, "project" | "displayedTestId">;

/**
 * A start: the user's Play (a test, else the displayed one; from a command, to a command), Play
 * suite, or Execute this command (one command of the displayed test), or a plugin's POST /playback/start.
 */
export type StartEvent =
  | UserEventOf<"user.startPlayback" | "user.startSuite" | "user.executeCommand">
  | ({ type: "request.startRun"; selector: RunSelector } & RequestRef);

export type Resolved<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * The run a start means: the tests it plays, in order, with what the suite runner needs to play
 * them, and the locator strategies they may use (the project's, `pluginDeclarations` over them).
 */
export function runStartFor(document: EditorDocument, start: StartEvent, pluginDeclarations: readonly StrategyDeclaration[] = []): Resolved<RunStartEvent> {
  const { project } = document;
  const selector: RunSelector =
    start.type === "user.startPlayback"
      ? { testId: start.testId ?? document.displayedTestId ?? undefined }
      : start.type === "user.executeCommand"
        ? { testId: document.displayedTestId ?? undefined }
        : start.type === "user.startSuite"
          ? { suiteId: start.suiteId, wholeSuite: true }
          : start.selector;
  const target = resolveRunTarget(project, selector);
  if (!target.ok) return target;
  const test = project.tests.find((t) => t.id === target.testIds[0])!;
  const problem = commandsProblem(test, start);
  if (problem !== null) return { ok: false, problem };
  return {
    ok: true,
    value: {
      type: "run.start",
      projectName: project.name,
      baseUrl: project.url,
      heal: project.heal,
      // Taken once: a plugin that leaves mid-run does not take its strategies from the run (CONTRACT section 23).
      strategies: runStrategies(strategyTable(project.locatorStrategies, pluginDeclarations)),
      tests: project.tests,
      testIds: target.testIds,
      suite: target.suite,
      fromCommandId: start.type === "user.startPlayback" ? start.fromCommandId : undefined,
      untilCommandId: start.type === "user.startPlayback" ? start.untilCommandId : undefined,
      executeCommandId: start.type === "user.executeCommand" ? start.commandId : undefined,
      requestId: start.type === "request.startRun" ? start.requestId : undefined,
    },
  };
}

/** Why the commands a start names cannot be played in its test (each must be the test's own), or null. */
function commandsProblem(test: SideTest, start: StartEvent): string | null {
  const named =
    start.type === "user.startPlayback"
      ? [["Play from here", start.fromCommandId], ["Play to here", start.untilCommandId]]
      : start.type === "user.executeCommand"
        ? [["Execute this command", start.commandId]]
        : [];
  for (const [what, id] of named) {
    if (id !== undefined && !test.commands.some((c) => c.id === id)) return `${what}: the test "${test.name}" has no command with the id "${id}".`;
  }
  if (start.type !== "user.executeCommand") return null;
  const index = test.commands.findIndex((c) => c.id === start.commandId);
  const single = singleCommandProgram(test.commands[index]);
  return single.ok ? null : `Execute this command: command #${index + 1} of "${test.name}" cannot be executed by itself: ${single.reason}.`;
}

/** The recording the user's Record means: into the displayed test. */
export function recordingFor(document: EditorDocument): Resolved<RecordingRequestedEvent> {
  const test = displayedTest(document);
  if (!test) return { ok: false, problem: "There is no test to record into: add a test first. Nothing was recorded." };
  return {
    ok: true,
    value: { type: "recording.requested", testId: test.id, testName: test.name, empty: test.commands.length === 0, projectUrl: document.project.url },
  };
}
