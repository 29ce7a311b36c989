// createIde's `retries` (`npm run play -- --retries N`, CONTRACT section 17) through ide.send and
// ide.onTestEnded: a suite's test that fails plays again at once, before the suite's next test,
// in the suite's run; onTestEnded tells each try with its tryNo; plugins hear each try's start and
// end with the suite's runId; with no retries nothing plays again; Stop ends the tries.
import { describe, expect, it, vi } from "vitest";
import type { TestEnded } from "../../index.ts";
import { createIde, fakeExecutor, recordingDeliver, register } from "./support.ts";
import type { OutboundMessage } from "./support.ts";

const test = (id: string, rows: Array<[string, string, string?, string?]>) => ({
  id,
  name: `test ${id}`,
  commands: rows.map(([cid, command, target = "", value = ""]) => ({ id: cid, command, target, value })),
});

/** t-a's assertion fails on its first `failures` tries, then passes; t-b passes. */
const project = () => ({
  id: "retries",
  name: "Retries",
  url: "http://127.0.0.1:8080",
  tests: [test("t-a", [["a1", "open", "/a"], ["a2", "assertText", "id=state", "ready"]]), test("t-b", [["b1", "open", "/b"]])],
  suites: [{ id: "s", name: "Suite", tests: ["t-a", "t-b"], parallel: false, persistSession: true }],
});

function playing(retries: number | undefined, failures: number, hangAfterFailures = false) {
  let asked = 0;
  const executor = fakeExecutor({
    answer: ({ command }) => {
      if (command.id !== "a2") return undefined;
      asked += 1;
      if (asked <= failures) return { state: "failed" as const, message: `not ready (${asked})` };
      return hangAfterFailures ? new Promise(() => {}) : undefined;
    },
  });
  const deliver = recordingDeliver();
  const ide = createIde({ project: project(), executor, deliver: deliver.deliver, retries });
  const ends: TestEnded[] = [];
  ide.onTestEnded((ended) => ends.push(ended));
  const tries = () => ends.map((e) => `${e.testId}#${e.tryNo} ${e.result}`);
  const over = () => vi.waitFor(() => expect(ide.getSnapshot().playback?.status).toBe("ended"));
  return { ide, deliver, executor, ends, tries, over };
}

const events = (calls: ReturnType<typeof recordingDeliver>["calls"]) =>
  calls.flatMap((c) => {
    const message = c.message as OutboundMessage & { options: { runId?: string; testId?: string } };
    return message.action === "event" ? [`${message.event} ${message.options.testId ?? "-"} ${message.options.runId}`] : [];
  });

describe("createIde's retries", () => {
  it("plays a suite's failed test again at once, before its next test, telling each try", async () => {
    const { ide, deliver, tries, ends, over } = playing(2, 1);
    await register(ide, "p", { commands: [] });
    ide.send({ type: "user.startSuite", suiteId: "s" });
    await over();
    expect(tries()).toEqual(["t-a#1 failed", "t-a#2 passed", "t-b#1 passed"]);
    expect(ends[0].failure).toMatchObject({ index: 2, command: "assertText", message: "not ready (1)" });
    expect(new Set(ends.map((e) => e.runId))).toEqual(new Set(["run-1"]));
    expect(events(deliver.calls)).toEqual([
      "suitePlaybackStarted - run-1",
      "playbackStarted t-a run-1",
      "playbackStopped t-a run-1",
      "playbackStarted t-a run-1",
      "playbackStopped t-a run-1",
      "playbackStarted t-b run-1",
      "playbackStopped t-b run-1",
      "suitePlaybackStopped - run-1",
    ]);
    expect(ide.getSnapshot().playback?.suite?.runs.map((r) => [r.testId, r.tryNo, r.result])).toEqual([
      ["t-a", 1, "failed"],
      ["t-a", 2, "passed"],
      ["t-b", 1, "passed"],
    ]);
    // The run passed: its failed try was played again and passed.
    expect(ide.getSnapshot().playback?.result).toBe("passed");
    ide.stop();
  });

  it("plays nothing again by default", async () => {
    const { ide, tries, over } = playing(undefined, 1);
    ide.send({ type: "user.startSuite", suiteId: "s" });
    await over();
    expect(tries()).toEqual(["t-a#1 failed", "t-b#1 passed"]);
    ide.stop();
  });

  it("ends a test that fails every try failed after N+1 tries, and plays a single test again too", async () => {
    const { ide, tries, over } = playing(2, 99);
    ide.send({ type: "user.startPlayback", testId: "t-a" });
    await over();
    expect(tries()).toEqual(["t-a#1 failed", "t-a#2 failed", "t-a#3 failed"]);
    expect(ide.getSnapshot().playback?.result).toBe("failed");
    ide.stop();
  });

  it("ends the tries at once on Stop", async () => {
    const { ide, executor, tries, over } = playing(3, 1, true);
    ide.send({ type: "user.startSuite", suiteId: "s" });
    // The second try hangs on its assertion: Stop ends it, and nothing plays after it.
    await vi.waitFor(() => expect(executor.executed.filter((c) => c.id === "a2")).toHaveLength(2));
    ide.send({ type: "user.stopPlayback" });
    await over();
    expect(tries()).toEqual(["t-a#1 failed", "t-a#2 stopped"]);
    ide.stop();
  });

  it("refuses retries that are not a whole number of at least 0", () => {
    expect(() => createIde({ retries: -1 })).toThrow("createIde: options.retries must be a whole number of at least 0, not -1.");
    expect(() => createIde({ retries: 1.5 })).toThrow(/options\.retries/);
  });
});
