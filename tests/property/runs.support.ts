// What the run property (runs.property.test.ts) is made of: a small inline project, two
// plugins whose every delivery is answered as the generated scenario says (now, later or
// never), a fake page under test whose commands pass, fail, hang or lose the page as the
// scenario says, the steps (user events and plugin requests), and the checks on the view.
import assert from "node:assert/strict";
import fc from "fast-check";
import type { IdeView, OutboundMessage } from "../../index.ts";
import type { PageOutcome } from "../../machines/testRunner.types.ts";
import { fakeExecutor } from "../support/executor.ts";
import type { FakeExecutor } from "../support/executor.ts";

// ---------------------------------------------------------------------------------------
// The project: plugin commands, the IDE's own commands (store, echo, times/end, if/else/end)
// and page commands in one test, a short test, a test whose control flow does not hold,
// and two suites.

type Row = [id: string, command: string, target?: string, value?: string];

const testOf = (id: string, name: string, rows: Row[]) => ({
  id,
  name,
  commands: rows.map(([cid, command, target = "", value = ""]) => ({ id: cid, command, target, value })),
});

export const PROJECT = {
  id: "runs-property",
  name: "Runs",
  url: "http://127.0.0.1:8080",
  tests: [
    testOf("t-mixed", "Mixed", [
      ["m01", "store", "1", "n"],
      ["m02", "echo", "n is ${n}"],
      ["m03", "aCheck", "${n}"],
      ["m04", "times", "2"],
      ["m05", "open", "/page"],
      ["m06", "bCheck", "in the loop"],
      ["m07", "end"],
      ["m08", "if", "${n} == 1"],
      ["m09", "click", "id=ok"],
      ["m10", "else"],
      ["m11", "echo", "the else branch"],
      ["m12", "end"],
      ["m13", "verifyText", "id=v", "v"],
      ["m14", "assertText", "id=msg", "hi"],
      ["m15", "aCheck", "last"],
    ]),
    testOf("t-short", "Short", [
      ["s01", "bCheck", ""],
      ["s02", "type", "id=user", "alice"],
      ["s03", "echo", "done ${n}"],
    ]),
    testOf("t-broken", "Broken", [
      ["b01", "echo", "never"],
      ["b02", "end"],
      ["b03", "aCheck", "never"],
    ]),
  ],
  suites: [
    { id: "suite-all", name: "All", persistSession: false, parallel: false, timeout: 300, tests: ["t-short", "t-broken", "t-mixed"] },
    { id: "suite-two", name: "Two", persistSession: false, parallel: false, timeout: 300, tests: ["t-mixed", "t-short"] },
  ],
  urls: [],
  plugins: [],
  version: "2.0",
};

const TEST_IDS = PROJECT.tests.map((t) => t.id);
const COMMAND_IDS = PROJECT.tests.flatMap((t) => t.commands.map((c) => c.id));
export const PAGE_COMMANDS = ["open", "click", "verifyText", "assertText", "type"] as const;
type PageCommand = (typeof PAGE_COMMANDS)[number];

/** Which plugin declares which command (CONTRACT section 10). */
export const PLUGINS = { "ext-a": ["aCheck"], "ext-b": ["bCheck"] } as const;
export type PluginId = keyof typeof PLUGINS;
const PLUGIN_IDS = Object.keys(PLUGINS) as PluginId[];
/** A sender that never registers: POST /playback/command needs no registration. */
const STRANGER = "ext-z";

export const registration = (plugin: PluginId) => ({
  name: `Plugin ${plugin}`,
  version: "1.0.0",
  commands: PLUGINS[plugin].map((id) => ({ id, name: id })),
});

/**
 * For each test, the commands that come after a command once it ended the run: those
 * after it in the file, outside every loop that holds it (inside one, the later commands
 * of its body ran in the turns before). Without `run`, play never goes back otherwise.
 */
export const AFTER: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>> = new Map(
  PROJECT.tests.map((test) => {
    const ids = test.commands.map((c) => c.id);
    const loopEnd = new Array<number>(ids.length).fill(-1);
    const open: Array<{ at: number; loop: boolean }> = [];
    test.commands.forEach((c, at) => {
      if (["if", "while", "times", "forEach", "do"].includes(c.command)) open.push({ at, loop: c.command !== "if" });
      else if (c.command === "end" || c.command === "repeatIf") {
        const block = open.pop();
        if (block?.loop) for (let i = block.at; i <= at; i++) loopEnd[i] = Math.max(loopEnd[i], at);
      }
    });
    return [test.id, new Map(ids.map((id, at) => [id, ids.slice(Math.max(at, loopEnd[at]) + 1)]))] as const;
  }),
);

// ---------------------------------------------------------------------------------------
// Plugin answers (CONTRACT section 10) and when they come.

export type AnswerValue =
  | "true"
  | "text"
  | "passed"
  | "failed"
  | "fatal"
  | "pending"
  | "undetermined"
  | "error"
  | "errorFatal"
  | "undefined"
  | "reject";
export type AnswerWhen = "now" | "later" | "never";
export interface Answer {
  when: AnswerWhen;
  value: AnswerValue;
}

function produce(value: AnswerValue): Promise<unknown> {
  switch (value) {
    case "true":
      return Promise.resolve(true);
    case "text":
      return Promise.resolve("checked 3 regions");
    case "error":
      return Promise.resolve({ error: "no baseline" });
    case "errorFatal":
      return Promise.resolve({ error: "browser gone", status: "fatal" });
    case "undefined":
      return Promise.resolve(undefined);
    case "reject":
      return Promise.reject(new Error("the port closed"));
    default:
      return Promise.resolve({ status: value, message: `said ${value}` });
  }
}

export interface Heard {
  to: string;
  kind: string;
  runId: string | undefined;
  testId: string | undefined;
  commandId: string | undefined;
  /** For `execute`: the command's name. */
  command: string | undefined;
}

/** How one plugin answers: its run events (start and stop) and its commands, each in order. */
export interface PluginScript {
  events: readonly Answer[];
  executes: readonly Answer[];
}

/**
 * The plugins' side of `deliver`: the n-th run event (or n-th `execute`) a plugin is sent is
 * answered as the n-th entry of that list of its script says, then `true` at once. "later"
 * waits for a `release` step (by then the IDE may have stopped waiting); "never" never answers.
 */
export function pluginChannel(scripts: Readonly<Record<PluginId, PluginScript>>) {
  const heard: Heard[] = [];
  const counts = new Map<string, number>();
  const held = new Map<string, Array<() => void>>();
  const deliver = (to: string, message: OutboundMessage): Promise<unknown> => {
    const options = (message as { options?: Record<string, unknown> }).options ?? {};
    const kind = "event" in message ? message.event : message.action;
    heard.push({
      to,
      kind,
      runId: options.runId as string | undefined,
      testId: options.testId as string | undefined,
      commandId: options.commandId as string | undefined,
      command: "command" in message ? (message.command as { command?: string }).command : undefined,
    });
    const list = kind === "execute" ? "executes" : "events";
    const n = counts.get(`${to}|${list}`) ?? 0;
    counts.set(`${to}|${list}`, n + 1);
    const answer = (scripts as Record<string, PluginScript | undefined>)[to]?.[list][n] ?? { when: "now", value: "true" };
    if (answer.when === "now") return produce(answer.value);
    if (answer.when === "never") return new Promise(() => {});
    return new Promise((resolve, reject) => {
      const queue = held.get(to) ?? [];
      queue.push(() => produce(answer.value).then(resolve, reject));
      held.set(to, queue);
    });
  };
  return {
    deliver,
    heard,
    /** The plugin answers the oldest message it held back. */
    release(plugin: string) {
      held.get(plugin)?.shift()?.();
    },
  };
}

// ---------------------------------------------------------------------------------------
// The page under test.

export type PageWay = "passed" | "failed" | "hang" | "gone";
export type PagePlan = Readonly<Record<PageCommand, PageWay>> & { latencyMs: number };

/**
 * Page commands answer as the plan says, each after `latencyMs` of (faked) time, so that the
 * run moves on as time does and the steps meet it mid-way; a name the page does not know
 * fails, naming it.
 */
export function pageUnderTest(plan: PagePlan): FakeExecutor {
  const hang = new Set(PAGE_COMMANDS.filter((c) => plan[c] === "hang"));
  const outcome = (command: string): PageOutcome | Promise<PageOutcome> => {
    const way = (plan as unknown as Record<string, PageWay>)[command];
    if (way === undefined) return { state: "failed", message: `The page under test has no command ${command}.` };
    if (way === "gone") return Promise.reject(new Error("the tab was closed"));
    if (way === "failed") return { state: "failed", message: `${command} did not hold` };
    return { state: "passed" };
  };
  return fakeExecutor({
    hang,
    answer: ({ command }) =>
      plan.latencyMs === 0
        ? outcome(command.command)
        : new Promise<void>((resolve) => setTimeout(resolve, plan.latencyMs)).then(() => outcome(command.command)),
  });
}

// ---------------------------------------------------------------------------------------
// Steps.

export type Step =
  | { k: "start"; testId?: string; fromCommandId?: string }
  | { k: "startSuite"; suiteId?: string }
  | { k: "stop" }
  | { k: "pause" }
  | { k: "resume" }
  | { k: "step" }
  | { k: "breakpoint"; commandId: string }
  | { k: "delay"; ms: number }
  | { k: "closeWindow" }
  | { k: "openWindow" }
  | { k: "register"; plugin: PluginId }
  | { k: "report"; sender: string; commandId: string; state: string; message?: string }
  | { k: "setVar"; sender: string; name: string; contents: unknown }
  | { k: "startRun"; sender: string; selector: Record<string, string> }
  | { k: "stopRun"; sender: string }
  | { k: "release"; plugin: PluginId }
  | { k: "wait"; ms: number };

const STATES = ["failed", "fatal", "passed", "pending", "undetermined"] as const;
const pluginArb = fc.constantFrom(...PLUGIN_IDS);
const senderArb = fc.constantFrom<string>(...PLUGIN_IDS, STRANGER);
const commandIdArb = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...COMMAND_IDS) }, { weight: 1, arbitrary: fc.constant("no-such-command") });

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record(
      {
        k: fc.constant("start" as const),
        testId: fc.constantFrom(...TEST_IDS, "t-mixed", "t-mixed"),
        fromCommandId: commandIdArb,
      },
      { requiredKeys: ["k"] },
    ),
  },
  { weight: 3, arbitrary: fc.record({ k: fc.constant("startSuite" as const), suiteId: fc.constantFrom("suite-all", "suite-two") }, { requiredKeys: ["k"] }) },
  { weight: 3, arbitrary: fc.constant<Step>({ k: "stop" }) },
  { weight: 3, arbitrary: fc.constant<Step>({ k: "pause" }) },
  { weight: 3, arbitrary: fc.constant<Step>({ k: "resume" }) },
  { weight: 3, arbitrary: fc.constant<Step>({ k: "step" }) },
  { weight: 3, arbitrary: commandIdArb.map((commandId): Step => ({ k: "breakpoint", commandId })) },
  { weight: 1, arbitrary: fc.constantFrom(0, 5, 40).map((ms): Step => ({ k: "delay", ms })) },
  { weight: 2, arbitrary: fc.constant<Step>({ k: "closeWindow" }) },
  { weight: 1, arbitrary: fc.constant<Step>({ k: "openWindow" }) },
  { weight: 2, arbitrary: pluginArb.map((plugin): Step => ({ k: "register", plugin })) },
  {
    weight: 5,
    arbitrary: fc.record(
      {
        k: fc.constant("report" as const),
        sender: senderArb,
        commandId: commandIdArb,
        state: fc.constantFrom(...STATES),
        message: fc.constantFrom("after the test", "diff found"),
      },
      { requiredKeys: ["k", "sender", "commandId", "state"] },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant("setVar" as const),
      sender: senderArb,
      name: fc.constantFrom("n", "user"),
      contents: fc.constantFrom<unknown>("2", '"alice"', "1", 507, null, "not json"),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant("startRun" as const),
      sender: senderArb,
      selector: fc.constantFrom<Record<string, string>>(
        {},
        { testId: "t-mixed" },
        { testName: "Short" },
        { testId: "t-broken" },
        { suiteId: "suite-two" },
        { suiteName: "All" },
        { testId: "no-such-test" },
      ),
    }),
  },
  { weight: 2, arbitrary: senderArb.map((sender): Step => ({ k: "stopRun", sender })) },
  { weight: 4, arbitrary: pluginArb.map((plugin): Step => ({ k: "release", plugin })) },
  { weight: 4, arbitrary: fc.constantFrom(5, 20, 60).map((ms): Step => ({ k: "wait", ms })) },
);

/** Answers to `execute`: every row of CONTRACT section 10's table, now, later or never. */
const executeAnswerArb: fc.Arbitrary<Answer> = fc.record({
  when: fc.oneof(
    { weight: 5, arbitrary: fc.constant<AnswerWhen>("now") },
    { weight: 2, arbitrary: fc.constant<AnswerWhen>("later") },
    { weight: 1, arbitrary: fc.constant<AnswerWhen>("never") },
  ),
  value: fc.oneof(
    { weight: 4, arbitrary: fc.constant<AnswerValue>("true") },
    {
      weight: 8,
      arbitrary: fc.constantFrom<AnswerValue>("text", "passed", "failed", "fatal", "pending", "undetermined", "error", "errorFatal", "undefined", "reject"),
    },
  ),
});

/** Answers to run events: mostly a plain yes, sometimes late or never, sometimes a refusal of the start. */
const eventAnswerArb: fc.Arbitrary<Answer> = fc.oneof(
  { weight: 8, arbitrary: fc.constant<Answer>({ when: "now", value: "true" }) },
  { weight: 3, arbitrary: fc.constantFrom<AnswerWhen>("later", "never").map((when): Answer => ({ when, value: "true" })) },
  { weight: 2, arbitrary: fc.constantFrom<AnswerValue>("error", "errorFatal", "fatal", "undefined", "reject").map((value): Answer => ({ when: "now", value })) },
);

const scriptArb: fc.Arbitrary<PluginScript> = fc.record({
  events: fc.array(eventAnswerArb, { maxLength: 6 }),
  executes: fc.array(executeAnswerArb, { maxLength: 8 }),
});

/** Most scenarios start with a run, so that the steps after it meet one under way. */
const openingArb: fc.Arbitrary<Step[]> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Step[]>([]) },
  { weight: 3, arbitrary: fc.constant<Step[]>([{ k: "start", testId: "t-mixed" }]) },
  { weight: 2, arbitrary: fc.constantFrom("suite-all", "suite-two").map((suiteId): Step[] => [{ k: "startSuite", suiteId }]) },
);

export const scenarioArb = fc.record({
  scripts: fc.record({ "ext-a": scriptArb, "ext-b": scriptArb }),
  page: fc.record({
    open: fc.constantFrom<PageWay>("passed", "passed", "passed", "failed", "hang", "gone"),
    click: fc.constantFrom<PageWay>("passed", "passed", "failed", "hang"),
    verifyText: fc.constantFrom<PageWay>("passed", "failed"),
    assertText: fc.constantFrom<PageWay>("passed", "passed", "failed", "gone"),
    type: fc.constantFrom<PageWay>("passed", "passed", "failed", "hang"),
    latencyMs: fc.constantFrom(0, 5, 15),
  }),
  steps: fc.tuple(openingArb, fc.array(stepArb, { maxLength: 30 })).map(([opening, rest]) => [...opening, ...rest]),
});
export type Scenario = typeof scenarioArb extends fc.Arbitrary<infer S> ? S : never;

// ---------------------------------------------------------------------------------------
// The wire message of a plugin step.

export function messageOfStep(step: Step): Record<string, unknown> {
  switch (step.k) {
    case "register":
      return { uri: "/register", verb: "post", ...registration(step.plugin) };
    case "report": {
      const message: Record<string, unknown> = { uri: "/playback/command", verb: "post", commandId: step.commandId, state: step.state };
      if (step.message !== undefined) message.message = step.message;
      return message;
    }
    case "setVar":
      return { uri: "/playback/var", verb: "put", payload: { name: step.name, contents: step.contents } };
    case "startRun":
      return { uri: "/playback/start", verb: "post", ...step.selector };
    case "stopRun":
      return { uri: "/playback/stop", verb: "post" };
    default:
      throw new Error(`${step.k} is not a plugin request`);
  }
}

export const isRequest = (step: Step): boolean => ["register", "report", "setVar", "startRun", "stopRun"].includes(step.k);

// ---------------------------------------------------------------------------------------
// Checks on the view.

export type PlaybackView = NonNullable<IdeView["playback"]>;
const LIVE = new Set(["starting", "running", "paused", "finishing"]);
export const isLive = (view: IdeView): boolean => view.playback !== null && LIVE.has(view.playback.status);

/**
 * CONTRACT sections 9 and 12: `running` is exactly starting to finishing, a result only once
 * ended, every state one of the five, and an ended run has no current command, nothing
 * pending, and a failed result when a command shows failed or fatal.
 */
export function assertRunView(view: IdeView, what: string): void {
  const playback = view.playback;
  if (playback === null) return;
  const { status } = playback;
  assert.ok(["idle", ...LIVE, "ended"].includes(status), `${what}: the run's status is ${status}`);
  assert.equal(playback.running, LIVE.has(status), `${what}: running is ${playback.running} while the run is ${status}`);
  assert.equal(playback.result === null, status !== "ended", `${what}: the result is ${playback.result} while the run is ${status}`);
  for (const command of playback.commands) {
    assert.ok(
      command.state === null || (STATES as readonly string[]).includes(command.state),
      `${what}: the command ${command.id} has the state ${String(command.state)}`,
    );
  }
  if (status !== "ended") return;
  assert.equal(playback.currentCommandId, null, `${what}: the ended run still has the current command ${playback.currentCommandId}`);
  const pending = playback.commands.filter((c) => c.state === "pending").map((c) => c.id);
  assert.deepEqual(pending, [], `${what}: commands are left pending in the ended run`);
  const failed = playback.commands.filter((c) => c.state === "failed" || c.state === "fatal").map((c) => c.id);
  if (failed.length > 0) assert.equal(playback.result, "failed", `${what}: ${failed.join(", ")} ended failed or fatal, and the run passed`);
}

/**
 * CONTRACT section 9: the run ends after the first command that fails (but a verify*) or is
 * fatal; the commands after it keep no state, unless a plugin set one (POST /playback/command).
 */
export function assertNothingAfterTheEnd(playback: PlaybackView, setByPlugins: ReadonlySet<string>, what: string): void {
  const ending = playback.commands.filter(
    (c) => (c.state === "failed" || c.state === "fatal") && !c.command.startsWith("verify") && !setByPlugins.has(c.id),
  );
  assert.ok(ending.length <= 1, `${what}: more than one command ended the run: ${ending.map((c) => `${c.id} ${c.state}`).join(", ")}`);
  if (ending.length === 0) return;
  const after = AFTER.get(playback.testId)?.get(ending[0].id) ?? [];
  const stated = playback.commands.filter((c) => after.includes(c.id) && c.state !== null && !setByPlugins.has(c.id));
  assert.deepEqual(
    stated.map((c) => `${c.id} ${c.state}`),
    [],
    `${what}: commands after ${ending[0].id} (${ending[0].state}), which ended the run, have states no plugin set`,
  );
}

/**
 * Every playbackStarted a plugin heard is followed by exactly one playbackStopped (per run and
 * test), and every suitePlaybackStarted by one suitePlaybackStopped (per run). A plugin that
 * registered while a test played hears only its end: a stop with no start before it counts
 * only for a plugin that never heard that start.
 */
export function assertStopsMatchStarts(heard: readonly Heard[], what: string): void {
  const sequences = new Map<string, Array<{ started: boolean; at: number }>>();
  heard.forEach((h, at) => {
    const suite = h.kind.startsWith("suitePlayback");
    if (!suite && h.kind !== "playbackStarted" && h.kind !== "playbackStopped") return;
    const key = suite ? `${h.to} suite events of ${h.runId}` : `${h.to} test events of ${h.runId}, ${h.testId}`;
    const list = sequences.get(key) ?? [];
    list.push({ started: h.kind.endsWith("Started"), at });
    sequences.set(key, list);
  });
  for (const [key, list] of sequences) {
    if (!list.some((e) => e.started)) continue;
    const shown = list.map((e) => `${e.started ? "started" : "stopped"}@${e.at}`).join(", ");
    let open = 0;
    for (const event of list) {
      if (event.started) open += 1;
      else {
        assert.ok(open > 0, `${what}: ${key}: a stop with no start open before it (${shown})`);
        open -= 1;
      }
    }
    assert.equal(open, 0, `${what}: ${key}: a start never heard its stop (${shown})`);
  }
}

/** A short name of a step for failure messages. */
export function describeStep(step: Step, index: number): string {
  const { k, ...rest } = step;
  const fields = Object.entries(rest).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  return `step ${index} (${[k, ...fields].join(" ")})`;
}

