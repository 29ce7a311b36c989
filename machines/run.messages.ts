// What plugins are sent about a run (CONTRACT sections 9 and 10), built from the run's data.
// The test runner and the suite runner decide when; these say what.
import { interpolate } from "../services/playback/variables.ts";
import type { SideCommand } from "../services/side/index.ts";
import type { ExecuteMessage, Run, RunEventMessage } from "./testRunner.types.ts";

/** playbackStarted, after suitePlaybackStarted when this test is the first of its suite to start. */
export function startMessages(run: Run): RunEventMessage[] {
  const { runId, test, projectName, suite } = run;
  const started: RunEventMessage = {
    action: "event",
    event: "playbackStarted",
    options: { runId, testId: test.id, testName: test.name, ...(suite ? { suiteName: suite.name } : {}), projectName, test },
  };
  if (!suite?.announce) return [started];
  return [{ action: "event", event: "suitePlaybackStarted", options: { runId: suite.runId, tests: suite.announce } }, started];
}

/** A suite's end is told on its own, by the suite runner, once its last test's end was answered. */
export const suiteStopped = (run: { runId: string; projectName: string; suite: { name: string } }): RunEventMessage => ({
  action: "event",
  event: "suitePlaybackStopped",
  options: { runId: run.runId, suiteName: run.suite.name, projectName: run.projectName },
});

/** playbackStopped, to the plugins that heard the test's playbackStarted. */
export function stopMessages(run: Run): RunEventMessage[] {
  const { runId, test, projectName, suite } = run;
  return [
    {
      action: "event",
      event: "playbackStopped",
      options: { runId, testId: test.id, testName: test.name, ...(suite ? { suiteName: suite.name } : {}), projectName },
    },
  ];
}

/** `execute` for a plugin's command, with `${...}` replaced in its target and value. */
export function executeMessage(run: Run, command: SideCommand, testId: string): ExecuteMessage {
  return {
    action: "execute",
    command: {
      command: command.command,
      target: interpolate(command.target, run.variables),
      value: interpolate(command.value, run.variables),
    },
    options: {
      runId: run.runId,
      testId,
      originalTestId: run.test.id,
      commandId: command.id,
      isNested: run.frames.length > 1,
      assertionsDisabled: false,
      // The adapter fills in the browser's ids of the page under test, where there are such.
      tabId: null,
      windowId: null,
      frameId: null,
    },
  };
}

/** Why a second run does not start while one is under way: a plugin's POST /playback/start, the user's Play, or Execute this command. */
export function secondRunRefused(asker: "plugin" | "user" | "execute"): string {
  if (asker === "plugin") return "A run is under way; stop it (POST /playback/stop) before starting another.";
  if (asker === "execute") return "A run is under way: a command can be executed by itself only once it is over. Nothing was executed.";
  return "A run is under way; stop it before starting another.";
}

/** A loop (`times`, `while`, `do … repeatIf`) that turned more than its limit: Selenium IDE's words. */
export const LOOP_LIMIT_REACHED = "Max retry limit exceeded. To override it, specify a new limit in the value input field.";
