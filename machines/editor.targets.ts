// What Play and Record mean, as pure functions of the editor's project and displayed test:
// the tests a start plays (resolved against the project, CONTRACT section 12) and the test a
// recording records into. The root asks these when the user or a plugin starts something, and
// hands the answer straight to the suite runner or the recording machine.
import { resolveRunTarget } from "../services/playback/targets.ts";
import type { RunSelector } from "../services/playback/targets.ts";
import { displayedTest } from "./editor.edits.ts";
import type { EditorContext } from "./editor.types.ts";
import type { RecordingRequestedEvent } from "./recording.types.ts";
import type { RequestRef } from "./shared.types.ts";
import type { RunStartEvent } from "./suiteRunner.types.ts";
import type { UserEventOf } from "./userEvents.schema.ts";

/** What the editor's document is to a start: the project and the test the user looks at. */
export type EditorDocument = Pick<EditorContext, "project" | "displayedTestId">;

/** A start: the user's Play (a test, else the displayed one) or Play suite, or a plugin's POST /playback/start. */
export type StartEvent = UserEventOf<"user.startPlayback" | "user.startSuite"> | ({ type: "request.startRun"; selector: RunSelector } & RequestRef);

export type Resolved<T> = { ok: true; value: T } | { ok: false; problem: string };

/** The run a start means: the tests it plays, in order, with what the suite runner needs to play them. */
export function runStartFor(document: EditorDocument, start: StartEvent): Resolved<RunStartEvent> {
  const { project } = document;
  const selector: RunSelector =
    start.type === "user.startPlayback"
      ? { testId: start.testId ?? document.displayedTestId ?? undefined }
      : start.type === "user.startSuite"
        ? { suiteId: start.suiteId, wholeSuite: true }
        : start.selector;
  const target = resolveRunTarget(project, selector);
  if (!target.ok) return target;
  return {
    ok: true,
    value: {
      type: "run.start",
      projectName: project.name,
      baseUrl: project.url,
      heal: project.heal,
      tests: project.tests,
      testIds: target.testIds,
      suite: target.suite,
      fromCommandId: start.type === "user.startPlayback" ? start.fromCommandId : undefined,
      requestId: start.type === "request.startRun" ? start.requestId : undefined,
    },
  };
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
