// The relay between createIde() and one UI page (drivers/view/relay.ts), through a sink that
// records what the page would get: hello first, then updates that carry only what changed,
// and user events back to the IDE, whatever form they arrive in.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createIde } from "../../index.ts";
import type { Ide } from "../../index.ts";
import { UPDATE_INTERVAL_MS, ViewRelay, helloMessage } from "../../drivers/view/relay.ts";
import type { RelaySink } from "../../drivers/view/relay.ts";
import type { PageOutcome } from "../../machines/testRunner.types.ts";
import { mergeCommands } from "../../ui/protocol.ts";
import type { CommandRow, HostMessage } from "../../drivers/view/messages.ts";
import { fakeExecutor } from "../support/executor.ts";

type Update = Extract<HostMessage, { type: "update" }>;

function recordingSink(extra: Partial<RelaySink> = {}): RelaySink & { messages: HostMessage[] } {
  const messages: HostMessage[] = [];
  return { messages, send: (message) => messages.push(message), ...extra };
}

const postLog = (ide: Ide, message: string) => ide.handle({ uri: "/log", verb: "post", message }, { id: "p" });
const unsaved = (ide: Ide) => ide.getSnapshot().project.unsaved;

let ide: Ide;
beforeEach(() => {
  vi.useFakeTimers();
  ide = createIde();
});
afterEach(() => {
  ide.stop();
  vi.useRealTimers();
});

describe("ViewRelay", () => {
  it("sends hello with every machine's chart, then an update whose log is a reset", () => {
    const sink = recordingSink();
    new ViewRelay(ide, sink);
    expect(sink.messages.map((m) => m.type)).toEqual(["hello", "update"]);
    expect(sink.messages[0]).toEqual(helloMessage(ide));
    const update = sink.messages[1] as Update;
    expect(update.logs.reset).toBe(true);
    expect(update.logs.entries).toEqual(ide.getSnapshot().logs);
    expect(update.view.project).toEqual(ide.getSnapshot().project);
  });

  it("sends the hello it is given instead of building one", () => {
    const sink = recordingSink();
    const hello: HostMessage = { type: "hello", charts: [] };
    new ViewRelay(ide, sink, { hello });
    expect(sink.messages[0]).toBe(hello);
  });

  it("sends a later update with only the new log entry and no reset", async () => {
    await postLog(ide, "seen");
    const sink = recordingSink();
    new ViewRelay(ide, sink);
    expect((sink.messages[1] as Update).logs.entries.map((e) => e.message)).toEqual(["seen"]);
    const before = (sink.messages[1] as Update).logs.entries.length;
    await postLog(ide, "x");
    expect(sink.messages).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS + 1);
    expect(sink.messages).toHaveLength(3);
    const update = sink.messages[2] as Update;
    expect(update.type).toBe("update");
    expect(update.logs.reset).toBe(false);
    expect(update.logs.entries.map((e) => e.message)).toEqual(["x"]);
    expect(update.logs.kept.system + update.logs.kept.playback).toBe(before + 1);
  });

  it("folds a burst of changes into one update", async () => {
    const sink = recordingSink();
    new ViewRelay(ide, sink);
    await postLog(ide, "a");
    await postLog(ide, "b");
    await postLog(ide, "c");
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS + 1);
    expect(sink.messages).toHaveLength(3);
    expect((sink.messages[2] as Update).logs.entries.map((e) => e.message)).toEqual(["a", "b", "c"]);
  });

  it("holds updates back while the sink is backlogged and sends them when it drains", async () => {
    let backlogged = true;
    const sink = recordingSink({ backlogged: () => backlogged });
    new ViewRelay(ide, sink);
    await postLog(ide, "x");
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS * 4);
    expect(sink.messages).toHaveLength(2);
    backlogged = false;
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS + 1);
    expect(sink.messages).toHaveLength(3);
    expect((sink.messages[2] as Update).logs.entries.map((e) => e.message)).toEqual(["x"]);
  });

  it("passes a user event object to the IDE", () => {
    const relay = new ViewRelay(ide, recordingSink());
    expect(unsaved(ide)).toBe(false);
    relay.receive({ type: "user.editProject" });
    expect(unsaved(ide)).toBe(true);
  });

  it("passes a user event given as JSON text to the IDE", () => {
    const relay = new ViewRelay(ide, recordingSink());
    relay.receive('{"type":"user.editProject"}');
    expect(unsaved(ide)).toBe(true);
  });

  it("ignores events that are not user events, and text that is not JSON", () => {
    const sent = vi.spyOn(ide, "send");
    const relay = new ViewRelay(ide, recordingSink());
    const before = ide.getSnapshot();
    for (const event of [{ type: "notUser" }, "not json", '"user.editProject"', ["user.editProject"], null, 42, { type: 1 }]) {
      relay.receive(event);
    }
    expect(sent).not.toHaveBeenCalled();
    expect(ide.getSnapshot()).toBe(before);
    expect(unsaved(ide)).toBe(false);
  });

  it("answers the editor's Find with GET /playback/location's reply, as the IDE UI, to the page that asked", async () => {
    vi.useRealTimers();
    const page = { resolveLocator: vi.fn(async (location: string) => `//input[@id='${location.slice(3)}']`) };
    const located = createIde({ resolveLocator: page.resolveLocator });
    const sink = recordingSink();
    const other = recordingSink();
    new ViewRelay(located, other);
    new ViewRelay(located, sink).receive(JSON.stringify({ type: "locator.resolve", id: 7, location: "id=user" }));
    const answers = () => sink.messages.filter((m) => m.type === "locator.resolved");
    await vi.waitFor(() => expect(answers()).toHaveLength(1));
    expect(other.messages.some((m) => m.type === "locator.resolved")).toBe(false);
    expect(answers()[0]).toEqual({ type: "locator.resolved", id: 7, reply: "//input[@id='user']" });
    const bad = recordingSink();
    const relay = new ViewRelay(located, bad);
    relay.receive({ type: "locator.resolve", id: 8, location: "nonsense=1" });
    await vi.waitFor(() => expect(bad.messages.some((m) => m.type === "locator.resolved")).toBe(true));
    expect(bad.messages.find((m) => m.type === "locator.resolved")).toMatchObject({ id: 8, reply: { errorCode: "InvalidLocator" } });
    expect(located.getSnapshot().plugins).toEqual([]);
    located.stop();
  });

  it("answers Find target in page with ide.findInPage's answer to the page that asked, and ignores a question without a numeric id", async () => {
    vi.useRealTimers();
    const findInPage = vi.fn(async (location: string) => ({ count: location === "css=.item" ? 3 : 0, shown: true }));
    const finding = createIde({ findInPage });
    const sink = recordingSink();
    const relay = new ViewRelay(finding, sink);
    relay.receive({ type: "locator.find", id: "1", location: "css=.item", outline: true });
    relay.receive(JSON.stringify({ type: "locator.find", id: 4, location: "css=.item", outline: true }));
    relay.receive({ type: "locator.find", id: 5, location: 7, outline: false });
    const answers = () => sink.messages.filter((m) => m.type === "locator.found");
    await vi.waitFor(() => expect(answers()).toHaveLength(2));
    // Each is answered as it settles: the refused one needs no page, so it may come first.
    expect(answers().sort((a, b) => (a as { id: number }).id - (b as { id: number }).id)).toEqual([
      { type: "locator.found", id: 4, reply: { count: 3, shown: true } },
      { type: "locator.found", id: 5, reply: { error: expect.stringMatching(/location/), errorCode: "InvalidRequest" } },
    ]);
    expect(findInPage.mock.calls).toEqual([["css=.item", true]]);
    finding.stop();
  });

  it("sends a command's recorded alternatives as its targets' locators, once each", () => {
    vi.useRealTimers();
    const project = {
      id: "p", version: "2.0", name: "alts", url: "http://127.0.0.1/", urls: [], plugins: [], suites: [],
      tests: [{ id: "t", name: "t", commands: [
        { id: "a", command: "click", target: "id=a", value: "", targets: [["id=a", "id"], ["css=#a", "css:finder"], ["id=a", "id"], ["", "x"]] },
        { id: "b", command: "open", target: "/", value: "", targets: [] },
      ] }],
    };
    const withTargets = createIde({ project });
    const sink = recordingSink();
    new ViewRelay(withTargets, sink);
    const update = sink.messages.find((m) => m.type === "update") as Extract<HostMessage, { type: "update" }>;
    expect(update.tests?.[0].commands.map((c) => c.targets)).toEqual([["id=a", "css=#a"], undefined]);
    withTargets.stop();
  });

  it("ignores a Find without a numeric id or a string location, and answers nothing once stopped", async () => {
    vi.useRealTimers();
    const resolveLocator = vi.fn(async () => "//a");
    const located = createIde({ resolveLocator });
    const sink = recordingSink();
    const relay = new ViewRelay(located, sink);
    relay.receive({ type: "locator.resolve", id: "1", location: "id=a" });
    relay.receive({ type: "locator.resolve", id: 2, location: 5 });
    relay.receive({ type: "locator.resolve", id: 3, location: "id=a" });
    relay.stop();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(resolveLocator).toHaveBeenCalledTimes(1);
    expect(sink.messages.some((m) => m.type === "locator.resolved")).toBe(false);
    located.stop();
  });

  it("sends nothing after stop, however the IDE changes, and tells onGone once", async () => {
    const sink = recordingSink();
    const onGone = vi.fn();
    const relay = new ViewRelay(ide, sink, { onGone });
    await postLog(ide, "before stop");
    relay.stop();
    relay.stop();
    await postLog(ide, "after stop");
    relay.flush();
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS * 4);
    expect(sink.messages).toHaveLength(2);
    expect(onGone).toHaveBeenCalledTimes(1);
    expect(onGone).toHaveBeenCalledWith(relay);
  });

  it("takes no user events after stop", () => {
    const relay = new ViewRelay(ide, recordingSink());
    relay.stop();
    relay.receive({ type: "user.editProject" });
    expect(unsaved(ide)).toBe(false);
  });

  it("sends nothing to a sink that is not open", async () => {
    const sink = recordingSink({ isOpen: () => false });
    const relay = new ViewRelay(ide, sink);
    await postLog(ide, "x");
    relay.flush();
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS * 4);
    expect(sink.messages).toEqual([]);
  });

  it("never changes a message after sending it", async () => {
    const sink = recordingSink();
    new ViewRelay(ide, sink);
    const first = structuredClone(sink.messages);
    await postLog(ide, "x");
    ide.send({ type: "user.editProject" });
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS + 1);
    expect(sink.messages).toHaveLength(3);
    expect(sink.messages.slice(0, 2)).toEqual(first);
  });
});

describe("ViewRelay and a run", () => {
  const PROJECT = {
    id: "p",
    name: "Shop",
    tests: [
      {
        id: "t1",
        name: "buys",
        commands: [
          { id: "c1", command: "open", target: "/shop", value: "" },
          { id: "c2", command: "storeText", target: "css=.price", value: "price" },
          { id: "c3", command: "click", target: "id=buy", value: "" },
        ],
      },
      { id: "t2", name: "browses", commands: [{ id: "d1", command: "open", target: "/", value: "" }] },
    ],
    suites: [{ id: "s1", name: "All", tests: ["t1", "t2"] }, { id: "broken", name: 42 }],
  };

  /** A page under test whose commands each wait until the test lets them go. */
  function gatedExecutor() {
    const gates = new Map<string, () => void>();
    const executor = fakeExecutor({
      answer: ({ command }) =>
        new Promise<PageOutcome>((resolve) =>
          gates.set(command.id, () =>
            resolve(command.command === "storeText" ? { state: "passed", variables: { [command.value]: "12.50" } } : { state: "passed" }),
          ),
        ),
    });
    const letGo = async (id: string) => {
      await vi.advanceTimersByTimeAsync(0);
      gates.get(id)!();
      gates.delete(id);
    };
    return { executor, letGo };
  }

  let runIde: Ide;
  let gate: ReturnType<typeof gatedExecutor>;
  let sink: ReturnType<typeof recordingSink>;
  const updates = () => sink.messages.filter((m): m is Update => m.type === "update");
  const last = () => updates()[updates().length - 1];
  const tick = () => vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS + 1);

  beforeEach(() => {
    gate = gatedExecutor();
    runIde = createIde({ project: PROJECT, executor: gate.executor });
    sink = recordingSink();
  });
  afterEach(() => runIde.stop());

  it("sends each test's commands and the usable suites first, and again only when the project changes", async () => {
    new ViewRelay(runIde, sink);
    expect(last().tests).toEqual([
      {
        id: "t1",
        name: "buys",
        commands: [
          { id: "c1", command: "open", target: "/shop", value: "" },
          { id: "c2", command: "storeText", target: "css=.price", value: "price" },
          { id: "c3", command: "click", target: "id=buy", value: "" },
        ],
      },
      { id: "t2", name: "browses", commands: [{ id: "d1", command: "open", target: "/", value: "" }] },
    ]);
    // With its settings, which the suite editor shows (CONTRACT section 20); the .side defaults when the file has none.
    expect(last().suites).toEqual([{ id: "s1", name: "All", tests: ["t1", "t2"], parallel: false, persistSession: false, timeout: 300 }]);
    expect(last()).toMatchObject({ playback: null, view: { runControls: { breakpoints: [], delayMs: 0 } } });
    expect(last().commands).toBeUndefined();

    runIde.send({ type: "user.toggleBreakpoint", commandId: "c3" });
    await tick();
    expect(last().view.runControls.breakpoints).toEqual(["c3"]);
    expect(last()).not.toHaveProperty("tests");
    expect(last()).not.toHaveProperty("suites");
    expect(last()).not.toHaveProperty("playback");

    runIde.send({ type: "user.loadProject", project: { ...PROJECT, tests: [PROJECT.tests[1]], suites: [] } });
    await tick();
    expect(last().tests?.map((t) => t.id)).toEqual(["t2"]);
    expect(last().suites).toEqual([]);
  });

  it("sends the run when its status, current command, variables, breakpoints or delay change, and only the rows that changed", async () => {
    new ViewRelay(runIde, sink);
    runIde.send({ type: "user.startPlayback", testId: "t1" });
    await tick();
    // The first update of a run: its summary and every row.
    const started = last();
    expect(started.playback).toMatchObject({ testId: "t1", status: "running", currentCommandId: "c1", result: null, variables: {} });
    expect(started.playback).not.toHaveProperty("commands");
    expect(started.commands).toMatchObject({ reset: true });
    expect(started.commands?.reset && started.commands.rows.map((r) => [r.id, r.state])).toEqual([
      ["c1", "pending"],
      ["c2", null],
      ["c3", null],
    ]);

    // The next command: two rows changed, and the current command.
    await gate.letGo("c1");
    await tick();
    expect(last().playback).toMatchObject({ currentCommandId: "c2", status: "running" });
    expect(last().commands).toEqual({
      reset: false,
      changed: [
        { index: 0, row: expect.objectContaining({ id: "c1", state: "passed" }) },
        { index: 1, row: expect.objectContaining({ id: "c2", state: "pending" }) },
      ],
    });

    // Only the delay: the summary goes, the rows do not.
    const before = updates().length;
    runIde.send({ type: "user.setPlaybackDelay", ms: 40 });
    await tick();
    expect(updates()).toHaveLength(before + 1);
    expect(last().playback).toMatchObject({ delayMs: 40 });
    expect(last().view.runControls.delayMs).toBe(40);
    expect(last()).not.toHaveProperty("commands");

    // A breakpoint ahead, then the stored variable: the run pauses before c3.
    runIde.send({ type: "user.toggleBreakpoint", commandId: "c3" });
    await tick();
    expect(last().playback?.breakpoints).toEqual(["c3"]);
    expect(last()).not.toHaveProperty("commands");
    await gate.letGo("c2");
    await vi.advanceTimersByTimeAsync(100);
    await tick();
    expect(last().playback).toMatchObject({ status: "paused", currentCommandId: "c3", variables: { price: "12.50" } });

    // Nothing of the run changes: an update carries neither.
    await postLog(runIde, "while paused");
    await tick();
    expect(last().logs.entries.map((e) => e.message)).toEqual(["while paused"]);
    expect(last()).not.toHaveProperty("playback");
    expect(last()).not.toHaveProperty("commands");

    runIde.send({ type: "user.resumePlayback" });
    await gate.letGo("c3");
    await vi.advanceTimersByTimeAsync(100);
    await tick();
    expect(last().playback).toMatchObject({ status: "ended", result: "passed", currentCommandId: null });

    // A new run of the same test: the rows start over.
    runIde.send({ type: "user.startPlayback", testId: "t1" });
    await tick();
    expect(last().commands).toMatchObject({ reset: true });
  });

  it("gives a page that applies every update the IDE's rows, keeping the rows that did not change", async () => {
    new ViewRelay(runIde, sink);
    runIde.send({ type: "user.startSuite", suiteId: "s1" });
    let rows: CommandRow[] = [];
    const apply = () => {
      for (const update of updates()) if (update.commands) rows = mergeCommands(rows, update.commands);
      sink.messages.length = 0;
    };
    await tick();
    apply();
    const first = rows;
    await gate.letGo("c1");
    await tick();
    apply();
    expect(rows).toEqual(runIde.getSnapshot().playback?.commands);
    expect(rows[2]).toBe(first[2]);
    expect(first.map((r) => r.state)).toEqual(["pending", null, null]);
    await gate.letGo("c2");
    await gate.letGo("c3");
    await tick();
    // The suite's next test: a reset to its rows.
    await gate.letGo("d1");
    await tick();
    apply();
    expect(rows).toEqual(runIde.getSnapshot().playback?.commands);
    expect(rows.map((r) => r.id)).toEqual(["d1"]);
  });
});
