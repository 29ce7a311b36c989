// The traced executor's pictures (drivers/traces/tracedExecutor.ts, through the host's camera): a command's picture is the
// first capture started after it ended; with spacing captures start at most that often, but a
// failed command's at once, and a put-off one before the run lets its page go (under
// "after-failure", only when a command failed).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { tracedExecutor } from "../../drivers/host/tracedExecutor.ts";
import type { TracedPage } from "../../drivers/host/tracedExecutor.ts";
import type { StepCapture, TraceStore } from "../../drivers/host/traceStore.ts";
import type { PageCommandInput } from "../../machines/testRunner.types.ts";

function fakePage(states: Record<string, "passed" | "failed">) {
  const captures: number[] = [];
  const ended: string[] = [];
  const page: TracedPage = {
    async execute(input) {
      return { state: states[input.command.command] ?? "passed" };
    },
    async evaluate() {
      return true;
    },
    async capturePage() {
      captures.push(Date.now());
      return { url: "http://127.0.0.1/", title: "t", image: `picture-${captures.length}`, at: Date.now() };
    },
    async witnessOf() {
      return null;
    },
    endRun(runId) {
      ended.push(runId);
    },
  };
  return { page, captures, ended };
}

function fakeStore() {
  const attached: StepCapture[] = [];
  const store = { attach: (_runId: string, capture: StepCapture) => void attached.push(capture) } as unknown as TraceStore;
  return { store, attached };
}

/** The fake page and store under a traced executor; `run(command)` plays one command with the fake page. */
function tracing(states: Record<string, "passed" | "failed">, options?: Parameters<typeof tracedExecutor>[2]) {
  const { page, captures, ended } = fakePage(states);
  const { store, attached } = fakeStore();
  const traced = tracedExecutor(page, store, options);
  const signal = new AbortController().signal;
  const run = (command: string) => traced.execute(input(command), signal);
  return { traced, run, captures, ended, attached };
}

const input = (command: string): PageCommandInput => ({ runId: "run-1", command: { id: command, command, target: "id=x", value: "" }, variables: {}, baseUrl: "http://127.0.0.1/" }) as unknown as PageCommandInput;

describe("the traced executor's pictures", () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  it("gives the commands that end within the spacing one shared picture, started after the last of them ended", async () => {
    const { run, captures, attached } = tracing({}, { spacingMs: 250 });
    await run("click");
    await vi.advanceTimersByTimeAsync(10);
    await run("type");
    await vi.advanceTimersByTimeAsync(10);
    await run("assertText");
    // The spacing counts from the test's first command's start.
    expect(captures).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(250);
    expect(captures).toHaveLength(1);
    expect(captures[0]).toBeGreaterThanOrEqual(1_000_000 + 20);
    await run("click");
    await vi.advanceTimersByTimeAsync(250);
    expect(captures).toHaveLength(2);
    expect(await Promise.all(attached.map((c) => c.image))).toEqual(["picture-1", "picture-1", "picture-1", "picture-2"]);
  });

  it("starts captures one after another without spacing", async () => {
    const { run, captures, attached } = tracing({});
    for (const command of ["click", "type", "assertText"]) {
      await run(command);
      await vi.advanceTimersByTimeAsync(1);
    }
    expect(captures).toHaveLength(3);
    expect(await Promise.all(attached.map((c) => c.image))).toEqual(["picture-1", "picture-2", "picture-3"]);
  });

  it("takes a failed command's picture at once whatever the spacing", async () => {
    const { run, captures, attached } = tracing({ assertText: "failed" }, { spacingMs: 60_000 });
    await run("click");
    await vi.advanceTimersByTimeAsync(5);
    expect(captures).toHaveLength(0);
    await run("assertText");
    expect(captures).toHaveLength(1);
    expect(await Promise.all(attached.map((c) => c.image))).toEqual(["picture-1", "picture-1"]);
    expect(attached[1].failure).toBeDefined();
  });

  it("takes a put-off picture before the run lets its page go", async () => {
    const { traced, run, captures, ended, attached } = tracing({}, { spacingMs: 60_000 });
    await run("click");
    await vi.advanceTimersByTimeAsync(5);
    await run("type");
    expect(captures).toHaveLength(0);
    traced.endRun!("run-1");
    expect(captures).toHaveLength(1);
    expect(ended).toEqual(["run-1"]);
    expect(await Promise.all(attached.map((c) => c.image))).toEqual(["picture-1", "picture-1"]);
  });

  it("drops a put-off picture at the end of a test without a failure when only failures keep their trace", async () => {
    const { traced, run, captures, attached } = tracing({}, { spacingMs: 60_000, endPicture: "after-failure" });
    await run("click");
    await vi.advanceTimersByTimeAsync(5);
    await run("type");
    traced.endRun!("run-1");
    await vi.advanceTimersByTimeAsync(120_000);
    expect(captures).toHaveLength(0);
    expect(await Promise.all(attached.map((c) => c.image))).toEqual([null, null]);
  });

  it("takes a put-off picture at the end of a test that had a failure when only failures keep their trace", async () => {
    const { traced, run, captures, attached } = tracing({ verifyText: "failed" }, { spacingMs: 60_000, endPicture: "after-failure" });
    await run("verifyText");
    await vi.advanceTimersByTimeAsync(5);
    await run("type");
    expect(captures).toHaveLength(1);
    traced.endRun!("run-1");
    expect(captures).toHaveLength(2);
    expect(await attached[1].image).toBe("picture-2");
  });

  it("plays the next test's first command only once the test that ended before it has its last picture", async () => {
    // The next test may start a fresh browser in place of this one's (CONTRACT section 22).
    const order: string[] = [];
    let finish!: () => void;
    const page: TracedPage = {
      async execute(input) {
        order.push(`execute ${input.runId}`);
        return { state: "passed" };
      },
      evaluate: async () => true,
      capturePage: () =>
        new Promise((resolve) => {
          order.push("capture started");
          finish = () => {
            order.push("capture done");
            resolve({ url: "http://127.0.0.1/", title: "t", image: "picture", at: Date.now() });
          };
        }),
      witnessOf: async () => null,
    };
    const { store, attached } = fakeStore();
    const traced = tracedExecutor(page, store);
    const signal = new AbortController().signal;
    await traced.execute(input("click"), signal);
    traced.endRun!("run-1");
    const next = traced.execute({ ...input("open"), runId: "run-2" }, signal);
    await vi.advanceTimersByTimeAsync(50);
    expect(order).toEqual(["execute run-1", "capture started"]);
    finish();
    await next;
    expect(order).toEqual(["execute run-1", "capture started", "capture done", "execute run-2", "capture started"]);
    expect(await attached[0].image).toBe("picture");
  });
});
