// The suite runner and a command row's runs (CONTRACT section 20): what it hands the test runner
// for Play to here and Execute this command, the variables an execute starts with (those the last
// test ended with), and an execute refused while a run is under way. Its test runners are
// stand-ins that only remember what they were started with; the test sends the facts they would.
import { describe, expect, it } from "vitest";
import { createActor, fromPromise, setup } from "xstate";
import { suiteRunnerMachine } from "../../machines/suiteRunner.machine.ts";
import type { SuiteRunnerEmitted, SuiteRunnerEvent } from "../../machines/suiteRunner.types.ts";
import type { TellPluginsInput, TellPluginsOutput, TestRunnerInput } from "../../machines/testRunner.types.ts";
import { command, modelProject, runStartOf } from "./support.ts";

const project = modelProject(
  "p-rows",
  "Rows",
  [
    { id: "t-1", name: "one", commands: [command("a1", "open", "/1"), command("a2", "store", "v", "x")] },
    { id: "t-2", name: "two", commands: [command("b1", "open", "/2")] },
  ],
  [{ id: "s", name: "S", tests: ["t-1", "t-2"] }],
);

function suiteRunner(retries = 0) {
  const started: TestRunnerInput[] = [];
  const standIn = setup({
    types: { input: {} as TestRunnerInput, context: {} as { input: TestRunnerInput } },
    actions: { remember: ({ context }) => void started.push(context.input) },
  }).createMachine({ id: "testRunnerStandIn", context: ({ input }) => ({ input }), entry: "remember" });
  const tellPlugins = fromPromise<TellPluginsOutput, TellPluginsInput>(async () => []);
  const actor = createActor(suiteRunnerMachine.provide({ actors: { testRunner: standIn, tellPlugins } as never }), { input: { retries } });
  const emitted: SuiteRunnerEmitted[] = [];
  actor.on("*", (event) => emitted.push(event));
  actor.start();
  const send = (event: SuiteRunnerEvent) => actor.send(event);
  const lastRunner = () => actor.getSnapshot().context.run!.runs.at(-1)!;
  /** The last test runner tells that its test ended, with these variables. */
  const ends = (variables: Record<string, unknown>, end: "completed" | "failed" = "completed") =>
    send({ type: "test.ended", runner: lastRunner().runner, testId: lastRunner().testId, end, failed: end === "failed", started: true, audience: [], variables });
  return { actor, send, ends, started, emitted };
}

const playOne = (testId: string, more: Partial<ReturnType<typeof runStartOf>> = {}) => ({ ...runStartOf(project, [testId], null), ...more });

describe("suite runner, a command row's runs", () => {
  it("starts an execute with no variables the first time, then with those the last test ended with, an execute's own included", () => {
    const runner = suiteRunner();
    runner.send(playOne("t-1", { executeCommandId: "a2" }));
    expect(runner.started.at(-1)).toMatchObject({ testId: "t-1", executeCommandId: "a2", variables: {} });
    runner.ends({ v: "x" });
    runner.send(playOne("t-1"));
    expect(runner.started.at(-1)!.variables).toBeUndefined();
    runner.ends({ v: "from the run" });
    runner.send(playOne("t-2", { executeCommandId: "b1" }));
    expect(runner.started.at(-1)!.variables).toEqual({ v: "from the run" });
    runner.ends({ v: "from the run", w: 1 });
    runner.send(playOne("t-2", { executeCommandId: "b1" }));
    expect(runner.started.at(-1)!.variables).toEqual({ v: "from the run", w: 1 });
  });

  it("does not try an executed command again when it fails, whatever the retries", () => {
    const runner = suiteRunner(2);
    runner.send(playOne("t-1", { executeCommandId: "a1" }));
    runner.ends({}, "failed");
    expect(runner.started).toHaveLength(1);
    expect(runner.actor.getSnapshot().value).toBe("ended");
  });

  it("hands Play from here and Play to here to the run's test, and to its tries again", () => {
    const runner = suiteRunner(1);
    runner.send(playOne("t-1", { fromCommandId: "a1", untilCommandId: "a2" }));
    runner.ends({}, "failed");
    expect(runner.started.map((s) => [s.testId, s.fromCommandId, s.untilCommandId, s.executeCommandId])).toEqual([
      ["t-1", "a1", "a2", undefined],
      ["t-1", "a1", "a2", undefined],
    ]);
  });

  it("warns the user who executes a command while a run is under way, and starts nothing", () => {
    const runner = suiteRunner();
    runner.send(playOne("t-1"));
    runner.send(playOne("t-2", { executeCommandId: "b1" }));
    expect(runner.started.map((s) => s.testId)).toEqual(["t-1"]);
    expect(runner.emitted.filter((e) => e.type === "log.written")).toEqual([
      { type: "log.written", level: "warn", message: "A run is under way: a command can be executed by itself only once it is over. Nothing was executed." },
    ]);
  });
});
