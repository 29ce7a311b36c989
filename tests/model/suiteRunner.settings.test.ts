// A suite's settings as the suite runner plays them (CONTRACT section 22): persistSession (one
// browser session and one set of variables, in order), a fresh session per test without it,
// the suite's `timeout` (a test still playing then ends failed, the next goes on), and a fatal
// test (its browser died) ending only itself, except in a persistSession suite. The suite
// runner is driven with stand-in test runners first, then with real ones on a simulated clock.
import { describe, expect, it } from "vitest";
import { createActor, fromPromise, setup, SimulatedClock } from "xstate";
import { suiteRunnerMachine } from "../../machines/suiteRunner.machine.ts";
import type { RunStartEvent, SuiteRunnerEmitted, SuiteRunnerEvent } from "../../machines/suiteRunner.types.ts";
import { testRunnerMachine } from "../../machines/testRunner.machine.ts";
import type { PageCommandInput, PageOutcome, TellPluginsInput, TellPluginsOutput, TestEnd, TestRunnerInput } from "../../machines/testRunner.types.ts";
import { commandRows } from "../../services/playback/commandTable.ts";
import { command, modelProject, runStartOf } from "./support.ts";

const project = modelProject(
  "p-settings",
  "Settings",
  [
    { id: "t-1", name: "logs in", commands: [command("a1", "open", "/login"), command("a2", "store", "secret", "token")] },
    { id: "t-2", name: "uses it", commands: [command("b1", "open", "/account"), command("b2", "assertText", "id=token", "${token}")] },
    { id: "t-3", name: "leaves", commands: [command("c1", "open", "/logout")] },
  ],
  [{ id: "s", name: "S", tests: ["t-1", "t-2", "t-3"] }],
);

const suite = (settings: Partial<NonNullable<RunStartEvent["suite"]>> = {}): RunStartEvent["suite"] => ({ id: "s", name: "S", ...settings });
const start = (settings: Partial<NonNullable<RunStartEvent["suite"]>> = {}) => runStartOf(project, ["t-1", "t-2", "t-3"], suite(settings));

const told = fromPromise<TellPluginsOutput, TellPluginsInput>(async () => []);

/** The suite runner with stand-in test runners that remember what they were started with. */
function standInRunner(workers = 1) {
  const started: TestRunnerInput[] = [];
  const standIn = setup({
    types: { input: {} as TestRunnerInput, context: {} as { input: TestRunnerInput } },
    actions: { remember: ({ context }) => void started.push(context.input) },
  }).createMachine({ id: "testRunnerStandIn", context: ({ input }) => ({ input }), entry: "remember" });
  const actor = createActor(suiteRunnerMachine.provide({ actors: { testRunner: standIn, tellPlugins: told } as never }), { input: { workers } });
  const emitted: SuiteRunnerEmitted[] = [];
  actor.on("*", (event) => emitted.push(event));
  actor.start();
  const send = (event: SuiteRunnerEvent) => actor.send(event);
  const run = () => actor.getSnapshot().context.run!;
  /** The test runner playing last tells that its test ended, with the variables it ended with. */
  const ends = (end: TestEnd, variables: Record<string, unknown> = {}, runner = run().runs.at(-1)!.runner) => {
    const testId = run().runs.find((r) => r.runner === runner)!.testId;
    send({ type: "test.ended", runner, testId, end, failed: end === "failed" || end === "fatal", started: true, audience: [], variables });
  };
  const plays = () => run().runs.map((r) => r.testId);
  const over = () => !actor.getSnapshot().matches({ busy: "playing" });
  return { actor, emitted, send, run, ends, plays, started, over };
}

describe("suite runner, persistSession", () => {
  it("plays a persistSession suite's tests in order in one browser session, each with the variables the test before ended with", () => {
    const runner = standInRunner(4);
    runner.send(start({ persistSession: true }));
    expect(runner.started.map((i) => i.testId)).toEqual(["t-1"]);
    runner.ends("completed", { token: "secret" });
    runner.ends("completed", { token: "secret", seen: "yes" });
    expect(runner.started.map((i) => [i.testId, i.session, i.variables])).toEqual([
      ["t-1", "run-1", undefined],
      ["t-2", "run-1", { token: "secret" }],
      ["t-3", "run-1", { token: "secret", seen: "yes" }],
    ]);
  });

  it("starts each test of a suite without persistSession in a session of its own, with no variables from the test before", () => {
    const runner = standInRunner();
    runner.send(start());
    runner.ends("completed", { token: "secret" });
    runner.ends("failed", { token: "secret" });
    expect(runner.started.map((i) => [i.testId, i.session, i.variables])).toEqual([
      ["t-1", "run-1/0", undefined],
      ["t-2", "run-1/1", undefined],
      ["t-3", "run-1/2", undefined],
    ]);
  });

  it("names no session for a test played alone, so the page under test keeps the browser it has", () => {
    const runner = standInRunner();
    runner.send(runStartOf(project, ["t-2"], null));
    expect(runner.started.map((i) => i.session)).toEqual([undefined]);
  });

  it("lets persistSession win over parallel, saying so once, as side-runner 4 shares one session among such a suite's tests", () => {
    const runner = standInRunner(2);
    runner.send(start({ persistSession: true, parallel: true }));
    // Two workers, yet one test at a time: tests sharing a browser cannot play at once.
    expect(runner.started.map((i) => i.testId)).toEqual(["t-1"]);
    runner.ends("completed", { token: "secret" });
    expect(runner.started.map((i) => [i.testId, i.session, i.variables])).toEqual([
      ["t-1", "run-1", undefined],
      ["t-2", "run-1", { token: "secret" }],
    ]);
    const warnings = runner.emitted.filter((e) => e.type === "log.written" && e.level === "warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ message: expect.stringMatching(/"S" is marked both parallel and persistSession: persistSession wins/) });
  });

  it("hands each test its suite's timeout in seconds, and none when the suite has none", () => {
    const timed = standInRunner();
    timed.send(start({ timeout: 7 }));
    const untimed = standInRunner();
    untimed.send(start());
    expect(timed.started[0].suite?.timeoutS).toBe(7);
    expect(untimed.started[0].suite?.timeoutS).toBeNull();
  });
});

describe("suite runner, a browser that dies (CONTRACT section 22)", () => {
  it("goes on with the suite's next test after a fatal one, in a new session", () => {
    const runner = standInRunner();
    runner.send(start());
    runner.ends("fatal");
    expect(runner.plays()).toEqual(["t-1", "t-2"]);
    runner.ends("completed");
    runner.ends("completed");
    expect(runner.plays()).toEqual(["t-1", "t-2", "t-3"]);
    expect(new Set(runner.started.map((i) => i.session)).size).toBe(3);
    expect(runner.over()).toBe(true);
  });

  it("ends a persistSession suite at its fatal test, since its one session is gone", () => {
    const runner = standInRunner();
    runner.send(start({ persistSession: true }));
    runner.ends("completed");
    runner.ends("fatal");
    expect(runner.plays()).toEqual(["t-1", "t-2"]);
    expect(runner.over()).toBe(true);
  });

  it.each([
    ["the user's Stop", { type: "user.stopPlayback" } as SuiteRunnerEvent],
    ["the window closing", { type: "window.closed" } as SuiteRunnerEvent],
  ])("still ends the whole suite on %s", (_, event) => {
    const runner = standInRunner();
    runner.send(start());
    runner.ends("fatal");
    runner.send(event);
    runner.ends("stopped");
    expect(runner.plays()).toEqual(["t-1", "t-2"]);
    expect(runner.over()).toBe(true);
  });
});

/** The suite runner with real test runners on a simulated clock; a page command that `hangs` never answers. */
function clockedRunner(hangs: (input: PageCommandInput) => boolean) {
  const clock = new SimulatedClock();
  const page = fromPromise<PageOutcome, PageCommandInput>(({ input }) => (hangs(input) ? new Promise<PageOutcome>(() => {}) : Promise.resolve({ state: "passed" })));
  const testRunner = testRunnerMachine.provide({ actors: { runPageCommand: page, tellPlugins: told } as never });
  const actor = createActor(suiteRunnerMachine.provide({ actors: { testRunner, tellPlugins: told } as never }), { clock, input: {} }).start();
  const ends: Array<{ testId: string; end: TestEnd; failed: boolean }> = [];
  actor.on("*", () => {});
  const seen = new Set<string>();
  actor.subscribe((snapshot) => {
    for (const r of snapshot.context.run?.runs ?? []) {
      if (r.ended && !seen.has(r.runner)) {
        seen.add(r.runner);
        ends.push({ testId: r.testId, end: r.ended.end, failed: r.ended.failed });
      }
    }
  });
  /** Lets the promises of the commands and plugins' answers settle. */
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  return { clock, actor, ends, settle };
}

describe("suite runner, a suite's timeout", () => {
  it("ends a test still playing when its suite's timeout runs out, failed and saying so, and plays the next test", async () => {
    const runner = clockedRunner((input) => input.command.target === "/account");
    runner.actor.send(runStartOf(project, ["t-2", "t-3"], suite({ timeout: 2 })));
    await runner.settle();
    expect(runner.ends).toEqual([]);
    runner.clock.increment(1_999);
    await runner.settle();
    expect(runner.ends).toEqual([]);
    const shownBefore = runner.actor.getSnapshot().children[runner.actor.getSnapshot().context.run!.runs[0].runner];
    runner.clock.increment(1);
    await runner.settle();
    expect(runner.ends).toEqual([
      { testId: "t-2", end: "failed", failed: true },
      { testId: "t-3", end: "completed", failed: false },
    ]);
    const rows = commandRows((shownBefore!.getSnapshot() as unknown as { context: { run: { commands: never } } }).context.run.commands);
    expect(rows.map((r) => [r.id, r.state])).toEqual([
      ["b1", "failed"],
      ["b2", null],
    ]);
    expect(rows[0].message).toBe("The suite's timeout of 2 s ran out while the test was playing.");
    expect(runner.actor.getSnapshot().matches("ended")).toBe(true);
  });

  it("lets a test play on past any time when its suite has no timeout", async () => {
    const runner = clockedRunner((input) => input.command.target === "/account");
    runner.actor.send(runStartOf(project, ["t-2", "t-3"], suite()));
    await runner.settle();
    runner.clock.increment(24 * 3600 * 1000);
    await runner.settle();
    expect(runner.ends).toEqual([]);
    expect(runner.actor.getSnapshot().matches("busy")).toBe(true);
  });
});
