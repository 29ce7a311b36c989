// A parallel suite (CONTRACT section 16) through createIde().handle and ide.send: with
// `workers`, a suite with `parallel: true` plays its tests at the same time, each with its own
// runId and variables; plugins hear each test's start and end with its id and the suite's once;
// the user picks which test the view shows; Stop ends them all. (That a command's state goes to
// the test holding the command is pinned on the suite runner itself: tests/model.)
import { describe, expect, it, vi } from "vitest";
import { createIde, fakeExecutor, recordingDeliver, register, settle } from "./support.ts";
import type { Ide, OutboundMessage } from "./support.ts";

const test = (id: string, rows: Array<[string, string, string?, string?]>) => ({
  id,
  name: `test ${id}`,
  commands: rows.map(([cid, command, target = "", value = ""]) => ({ id: cid, command, target, value })),
});

/** Three tests: each stores who it is, then waits on the plugin's pCheck (held until the test answers it). */
const project = (parallel: boolean) => ({
  id: "par",
  name: "Parallel",
  url: "http://127.0.0.1:8080",
  tests: ["a", "b", "c"].map((t) => test(`t-${t}`, [[`${t}1`, "store", t, "me"], [`${t}2`, "pCheck", "${me}"], [`${t}3`, "echo", "${me}"]])),
  suites: [{ id: "s", name: "Suite", tests: ["t-a", "t-b", "t-c"], parallel, persistSession: false }],
});

type Execute = Extract<OutboundMessage, { action: "execute" }>;

async function playing(workers: number, parallel = true) {
  const held = new Map<string, (answer: unknown) => void>();
  const deliver = recordingDeliver((_to, message) =>
    message.action === "execute" ? new Promise((resolve) => held.set((message as Execute).options.commandId, resolve)) : true,
  );
  /** The plugin answers its command `commandId`. */
  const answer = async (commandId: string, reply: unknown = true) => {
    await vi.waitFor(() => expect(held.has(commandId)).toBe(true));
    held.get(commandId)!(reply);
  };
  const executor = fakeExecutor();
  const ended: string[] = [];
  const ide = createIde({ project: project(parallel), deliver: deliver.deliver, executor: { ...executor, endRun: (runId) => ended.push(runId) }, workers });
  await register(ide, "p", { commands: [{ id: "pCheck", name: "pCheck" }] });
  ide.send({ type: "user.startSuite", suiteId: "s" });
  return { ide, deliver, executor, ended, answer };
}

const executes = (calls: ReturnType<typeof recordingDeliver>["calls"]) =>
  calls.flatMap((c) => (c.message.action === "execute" ? [c.message as Execute] : []));
const events = (calls: ReturnType<typeof recordingDeliver>["calls"]) =>
  calls.flatMap((c) => (c.message.action === "event" ? [[c.message.event, (c.message.options as { runId?: string }).runId] as const] : []));

describe("a parallel suite with two workers", () => {
  it("plays two tests at once, each with its own runId and variables, and the third when one ends", async () => {
    const { ide, deliver, ended, answer } = await playing(2);
    await vi.waitFor(() => expect(executes(deliver.calls)).toHaveLength(2));
    expect(executes(deliver.calls).map((m) => [m.options.runId, m.options.commandId, m.command.target])).toEqual([
      ["run-1.1", "a2", "a"],
      ["run-1.2", "b2", "b"],
    ]);
    expect(events(deliver.calls)).toEqual([
      ["suitePlaybackStarted", "run-1"],
      ["playbackStarted", "run-1.1"],
      ["playbackStarted", "run-1.2"],
    ]);
    const view = ide.getSnapshot().playback!;
    expect(view.suite!.runs.map((r) => [r.testId, r.runId, r.status, r.result])).toEqual([
      ["t-a", "run-1.1", "running", null],
      ["t-b", "run-1.2", "running", null],
    ]);
    expect(view.runId).toBe("run-1.2");
    expect(view.running).toBe(true);

    // The user looks at the first test while the second ends.
    ide.send({ type: "user.showTestRun", runId: "run-1.1" });
    await answer("b2");
    await vi.waitFor(() => expect(ide.getSnapshot().playback!.suite!.runs[1]).toMatchObject({ status: "ended", result: "passed" }));
    expect(ended).toEqual(["run-1.2"]);
    // The shown test is the one the user picked, its commands with their states.
    expect(ide.getSnapshot().playback!.runId).toBe("run-1.1");
    expect(ide.getSnapshot().playback!.commands.map((c) => [c.id, c.state])).toEqual([
      ["a1", "passed"],
      ["a2", "pending"],
      ["a3", null],
    ]);
    // Its room went to the third test.
    await vi.waitFor(() => expect(executes(deliver.calls).map((m) => m.options.runId)).toEqual(["run-1.1", "run-1.2", "run-1.3"]));
    expect(executes(deliver.calls)[2].command.target).toBe("c");

    await answer("a2", { error: "a differs" });
    await answer("c2");
    await vi.waitFor(() => expect(ide.getSnapshot().playback!.status).toBe("ended"));
    const over = ide.getSnapshot().playback!;
    expect(over.result).toBe("failed");
    expect(over.suite!.runs.map((r) => [r.runId, r.status, r.result])).toEqual([
      ["run-1.1", "ended", "failed"],
      ["run-1.2", "ended", "passed"],
      ["run-1.3", "ended", "passed"],
    ]);
    expect(ended.sort()).toEqual(["run-1.1", "run-1.2", "run-1.3"]);
    // Each test's start and end once, with its own id; the suite's end once, after them all.
    const told = events(deliver.calls);
    expect(told.filter(([e]) => e === "playbackStopped").map(([, id]) => id).sort()).toEqual(["run-1.1", "run-1.2", "run-1.3"]);
    expect(told.filter(([e]) => e.startsWith("suite"))).toEqual([
      ["suitePlaybackStarted", "run-1"],
      ["suitePlaybackStopped", "run-1"],
    ]);
    expect(told.at(-1)).toEqual(["suitePlaybackStopped", "run-1"]);
    ide.stop();
  });

  it("ends every test playing on Stop, starts no more, and plays the next run", async () => {
    const { ide, deliver } = await playing(2);
    await vi.waitFor(() => expect(executes(deliver.calls)).toHaveLength(2));
    ide.send({ type: "user.stopPlayback" });
    await vi.waitFor(() => expect(ide.getSnapshot().playback!.status).toBe("ended"));
    const view = ide.getSnapshot().playback!;
    expect(view.result).toBe("stopped");
    expect(view.suite!.runs.map((r) => [r.runId, r.result])).toEqual([
      ["run-1.1", "stopped"],
      ["run-1.2", "stopped"],
    ]);
    await settle(20);
    expect(executes(deliver.calls)).toHaveLength(2);

    ide.send({ type: "user.startSuite", suiteId: "s" });
    await vi.waitFor(() => expect(executes(deliver.calls).map((m) => m.options.runId)).toEqual(["run-1.1", "run-1.2", "run-2.1", "run-2.2"]));
    ide.stop();
  });

  it("tells the suite's start and end once when its first test cannot start (its control flow does not hold)", async () => {
    const deliver = recordingDeliver(() => true);
    const broken = { ...project(true), tests: [test("t-x", [["x1", "end"]]), ...project(true).tests.slice(1)] };
    broken.suites = [{ ...broken.suites[0], tests: ["t-x", "t-b", "t-c"] }];
    const ide = createIde({ project: broken, deliver: deliver.deliver, executor: fakeExecutor(), workers: 2 });
    await register(ide, "p", { commands: [{ id: "pCheck", name: "pCheck" }] });
    ide.send({ type: "user.startSuite", suiteId: "s" });
    await vi.waitFor(() => expect(ide.getSnapshot().playback?.status).toBe("ended"));
    expect(ide.getSnapshot().playback!.suite!.runs.map((r) => [r.testId, r.result])).toEqual([
      ["t-x", "failed"],
      ["t-b", "passed"],
      ["t-c", "passed"],
    ]);
    const told = events(deliver.calls);
    expect(told.filter(([e]) => e.startsWith("suite"))).toEqual([
      ["suitePlaybackStarted", "run-1"],
      ["suitePlaybackStopped", "run-1"],
    ]);
    // The suite's start comes before any test's, and its end after every test's.
    expect(told[0]).toEqual(["suitePlaybackStarted", "run-1"]);
    expect(told.at(-1)).toEqual(["suitePlaybackStopped", "run-1"]);
    expect(told.filter(([e]) => e === "playbackStarted").map(([, id]) => id)).toEqual(["run-1.2", "run-1.3"]);
    ide.stop();
  });

  it("refuses to show a test the run does not have, with a warning", async () => {
    const { ide, deliver } = await playing(2);
    await vi.waitFor(() => expect(executes(deliver.calls)).toHaveLength(2));
    ide.send({ type: "user.showTestRun", runId: "run-7.1" });
    await vi.waitFor(() =>
      expect(ide.getSnapshot().logs.map((l) => l.message)).toContain('Cannot show the test run "run-7.1": the run has no test with that id.'),
    );
    expect(ide.getSnapshot().playback!.runId).toBe("run-1.2");
    ide.stop();
  });
});

describe("workers and suites that are not parallel", () => {
  it.each([
    ["a parallel suite with one worker", 1, true],
    ["a suite without parallel, with two workers", 2, false],
  ])("plays %s one test at a time, under the run's own id", async (_, workers, parallel) => {
    const { ide, deliver, answer } = await playing(workers, parallel);
    await vi.waitFor(() => expect(executes(deliver.calls)).toHaveLength(1));
    await settle(20);
    expect(executes(deliver.calls).map((m) => m.options.runId)).toEqual(["run-1"]);
    await answer("a2");
    await vi.waitFor(() => expect(executes(deliver.calls).map((m) => [m.options.runId, m.options.commandId])).toEqual([["run-1", "a2"], ["run-1", "b2"]]));
    ide.stop();
  });

  it("refuses workers that are not a whole number of at least 1", () => {
    expect(() => createIde({ workers: 0 })).toThrow("createIde: options.workers must be a whole number of at least 1, not 0.");
    expect(() => createIde({ workers: 1.5 })).toThrow(/options\.workers/);
  });
});
