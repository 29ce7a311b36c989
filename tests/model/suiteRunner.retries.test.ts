// The suite runner's retries (createIde's `retries`, `npm run play -- --retries N`): a test that
// failed or ended fatal plays again at once, in a test runner of its own, before the suite's next
// test, up to N more tries; a stop ends the tries. Its test runners are stand-ins that only
// remember what they were started with; the test sends the facts they would send.
import { describe, expect, it } from "vitest";
import { createActor, fromPromise, setup } from "xstate";
import { suiteRunnerMachine } from "../../machines/suiteRunner.machine.ts";
import type { RunStartEvent, SuiteRunnerEvent } from "../../machines/suiteRunner.types.ts";
import type { TellPluginsInput, TellPluginsOutput, TestEnd, TestRunnerInput } from "../../machines/testRunner.types.ts";
import { command, modelProject, runStartOf } from "./support.ts";

const project = modelProject(
  "p-retries",
  "Retries",
  [
    { id: "t-1", name: "one", commands: [command("a1", "open", "/1")] },
    { id: "t-2", name: "two", commands: [command("b1", "open", "/2")] },
    { id: "t-3", name: "three", commands: [command("c1", "open", "/3")] },
    // Its control flow does not hold (an end with no block): it fails without starting.
    { id: "t-x", name: "broken", commands: [command("x1", "end")] },
  ],
  [{ id: "s", name: "S", tests: ["t-1", "t-2", "t-3"] }],
);

const start = (testIds: string[], suite: RunStartEvent["suite"] = { id: "s", name: "S" }) => runStartOf(project, testIds, suite);

function suiteRunner(retries: number | undefined, workers = 1) {
  const started: TestRunnerInput[] = [];
  const standIn = setup({
    types: { input: {} as TestRunnerInput, context: {} as { input: TestRunnerInput } },
    actions: { remember: ({ context }) => void started.push(context.input) },
  }).createMachine({ id: "testRunnerStandIn", context: ({ input }) => ({ input }), entry: "remember" });
  const told: TellPluginsInput[] = [];
  const tellPlugins = fromPromise<TellPluginsOutput, TellPluginsInput>(async ({ input }) => {
    told.push(input);
    return [];
  });
  const machine = suiteRunnerMachine.provide({ actors: { testRunner: standIn, tellPlugins } as never });
  const actor = createActor(machine, { input: retries === undefined ? { workers } : { workers, retries } }).start();
  const send = (event: SuiteRunnerEvent) => actor.send(event);
  const run = () => actor.getSnapshot().context.run!;
  /** The test runner `runner` (else the last started) tells that its test ended. */
  const ends = (end: TestEnd, runner = run().runs.at(-1)!.runner, started = true) => {
    const testId = run().runs.find((r) => r.runner === runner)!.testId;
    send({ type: "test.ended", runner, testId, end, failed: end === "failed" || end === "fatal", started, audience: started ? [{ id: "p", name: "P" }] : [], variables: {} });
  };
  /** Each test started, with its try: `t-2#2` is test t-2's second try. */
  const plays = () => run().runs.map((r) => `${r.testId}#${r.tryNo}`);
  return { actor, send, run, ends, plays, started, told };
}

describe("suite runner, retries", () => {
  it("plays a failed test again at once, before the suite's next test, in the same run, then goes on", () => {
    const runner = suiteRunner(2);
    runner.send(start(["t-1", "t-2", "t-3"]));
    runner.ends("completed");
    runner.ends("failed");
    expect(runner.plays()).toEqual(["t-1#1", "t-2#1", "t-2#2"]);
    runner.ends("completed");
    expect(runner.plays()).toEqual(["t-1#1", "t-2#1", "t-2#2", "t-3#1"]);
    // Each try has a test runner of its own, in the suite's run (its runId), the suite told once.
    expect(runner.started.map((i) => [i.testId, i.runId, i.suite?.runId, i.suite?.announce !== null])).toEqual([
      ["t-1", "run-1", "run-1", true],
      ["t-2", "run-1", "run-1", false],
      ["t-2", "run-1", "run-1", false],
      ["t-3", "run-1", "run-1", false],
    ]);
    expect(new Set(runner.run().runs.map((r) => r.runner)).size).toBe(4);
    runner.ends("completed");
    expect(runner.actor.getSnapshot().value).toEqual({ busy: "closing" });
  });

  it("plays no test again with no retries, as without the setting", () => {
    for (const retries of [0, undefined]) {
      const runner = suiteRunner(retries);
      runner.send(start(["t-1", "t-2", "t-3"]));
      runner.ends("completed");
      runner.ends("failed");
      expect(runner.plays()).toEqual(["t-1#1", "t-2#1", "t-3#1"]);
    }
  });

  it("ends a test that fails every try failed after N+1 tries, and the suite goes on", () => {
    const runner = suiteRunner(2);
    runner.send(start(["t-1", "t-2", "t-3"]));
    runner.ends("completed");
    runner.ends("failed");
    runner.ends("failed");
    runner.ends("failed");
    expect(runner.plays()).toEqual(["t-1#1", "t-2#1", "t-2#2", "t-2#3", "t-3#1"]);
    expect(runner.run().runs.filter((r) => r.testId === "t-2").map((r) => r.ended?.end)).toEqual(["failed", "failed", "failed"]);
  });

  it("plays a fatal test again, and a suite in order goes on after its last try ended fatal (CONTRACT section 22)", () => {
    const runner = suiteRunner(1);
    runner.send(start(["t-1", "t-2", "t-3"]));
    runner.ends("fatal");
    expect(runner.plays()).toEqual(["t-1#1", "t-1#2"]);
    runner.ends("completed");
    expect(runner.plays()).toEqual(["t-1#1", "t-1#2", "t-2#1"]);
    runner.ends("fatal");
    runner.ends("fatal");
    expect(runner.plays()).toEqual(["t-1#1", "t-1#2", "t-2#1", "t-2#2", "t-3#1"]);
    expect(runner.started.map((i) => i.session)).toEqual(["run-1/0", "run-1/1", "run-1/2", "run-1/3", "run-1/4"]);
  });

  it("does not try again a fatal test of a persistSession suite, whose one session is gone: the suite ends there", () => {
    const runner = suiteRunner(2);
    runner.send(start(["t-1", "t-2", "t-3"], { id: "s", name: "S", persistSession: true }));
    runner.ends("completed");
    runner.ends("fatal");
    expect(runner.plays()).toEqual(["t-1#1", "t-2#1"]);
    expect(runner.actor.getSnapshot().value).toEqual({ busy: "closing" });
  });

  it("plays a single test again in its run, which ends with the last try", () => {
    const runner = suiteRunner(1);
    runner.send(start(["t-1"], null));
    runner.ends("failed");
    expect(runner.plays()).toEqual(["t-1#1", "t-1#2"]);
    expect(runner.started.map((i) => i.runId)).toEqual(["run-1", "run-1"]);
    runner.ends("completed");
    expect(runner.actor.getSnapshot().value).toBe("ended");
  });

  it("tries nothing again once stopped: the user's Stop ends the tries at once", () => {
    const runner = suiteRunner(3);
    runner.send(start(["t-1", "t-2"]));
    runner.ends("failed");
    expect(runner.plays()).toEqual(["t-1#1", "t-1#2"]);
    runner.send({ type: "user.stopPlayback" });
    runner.ends("failed");
    expect(runner.plays()).toEqual(["t-1#1", "t-1#2"]);
    expect(runner.actor.getSnapshot().value).toEqual({ busy: "closing" });

    // A single test stopped as it fails is not played again either.
    const single = suiteRunner(3);
    single.send(start(["t-1"], null));
    single.send({ type: "user.stopPlayback" });
    single.ends("failed");
    expect(single.plays()).toEqual(["t-1#1"]);
    expect(single.actor.getSnapshot().value).toBe("ended");
  });

  it("does not play again a test that could not start (its control flow is broken)", () => {
    const runner = suiteRunner(2);
    runner.send(start(["t-x", "t-1"]));
    runner.ends("failed", undefined, false);
    expect(runner.plays()).toEqual(["t-x#1", "t-1#1"]);
  });

  it("plays a parallel suite's failed test again as soon as a worker is free, before the tests not started yet", () => {
    const runner = suiteRunner(1, 2);
    runner.send(start(["t-1", "t-2", "t-3"], { id: "s", name: "S", parallel: true }));
    expect(runner.plays()).toEqual(["t-1#1", "t-2#1"]);
    runner.ends("failed", runner.run().runs[0].runner);
    expect(runner.plays()).toEqual(["t-1#1", "t-2#1", "t-1#2"]);
    expect(runner.started.map((i) => i.runId)).toEqual(["run-1.1", "run-1.2", "run-1.1"]);
    runner.ends("completed", runner.run().runs[1].runner);
    expect(runner.plays()).toEqual(["t-1#1", "t-2#1", "t-1#2", "t-3#1"]);
  });
});
