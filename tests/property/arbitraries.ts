// Generators for the property tests: well-formed plugin requests and user events (the
// model's steps), and malformed and hostile messages. Hostile messages are generated as
// plain descriptions (`Hostile`) and built into objects by `buildHostile` inside the
// property, so a counterexample prints as data even when the message it describes is a
// proxy whose every trap throws.
import fc from "fast-check";
import type { IdeView, UserEvent } from "../../index.ts";
import { otherProject, shopProject } from "../support/shared.ts";

/** Runs per property: 1,000 unless FAST_CHECK_RUNS says otherwise. Read once. */
export const runs = readRuns(process.env.FAST_CHECK_RUNS);

/** A test's time limit that grows with `runs`, so a raised FAST_CHECK_RUNS is not cut short. */
export const timeoutFor = (msPerRun: number): number => Math.max(60_000, 10_000 + runs * msPerRun);

function readRuns(raw: string | undefined): number {
  const value = Number(raw ?? 1000);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new Error(`FAST_CHECK_RUNS must be a positive integer, got ${JSON.stringify(raw)}.`);
  }
  return value;
}

// ---------------------------------------------------------------------------------------
// The contract's vocabulary (CONTRACT sections 3, 4 and 5), written out here on purpose:
// the tests pin the contract, not whatever the production code happens to export.

export const ERROR_CODES: ReadonlySet<string> = new Set([
  "InvalidRequest",
  "NoRoute",
  "VerbNotAllowed",
  "PayloadTooLarge",
  "RateLimited",
  "IdeNotActive",
  "CannotAccessInControlMode",
  "NotControlled",
  "MissingPlugin",
  "CommandConflict",
  "StrategyTaken",
  "InvalidProject",
  "Busy",
  "NoRunningTest",
  "UnknownCommand",
  "UnknownTest",
  "NoTestSelected",
  "InvalidLocator",
  "ElementNotFound",
  "NoPage",
]);

export const COMMAND_STATES = ["failed", "fatal", "passed", "pending", "undetermined"] as const;
export type CommandState = (typeof COMMAND_STATES)[number];

const ROUTE_PATHS = [
  "/health",
  "/register",
  "/log",
  "/project",
  "/control",
  "/close",
  "/playback/location",
  "/playback/command",
  "/playback/log",
  "/playback/var",
  "/playback/start",
  "/playback/stop",
  "/record/command",
  "/record/tab",
  "/popup/alert",
  "/export/location",
  "/locator/strategy",
] as const;

const VERBS = ["get", "post", "put", "delete"] as const;

/** The three plugins of the model (one with an id that is also an Object.prototype key);
 * hostile runs add odd sender ids of their own. */
export const SENDERS = ["ext-a", "ext-b", "__proto__"] as const;

export const FIXTURES = { shop: shopProject(), other: otherProject() } as const;
export type FixtureName = keyof typeof FIXTURES;

const PLUGIN_COMMAND_IDS = ["cmd-x", "cmd-y", "cmd-z"] as const;

type FixtureTests = Array<{ id: string; commands: Array<{ id: string }> }>;

/** The ids of every fixture command, and two that are in neither. */
const COMMAND_IDS = [
  ...new Set(
    Object.values(FIXTURES).flatMap((project) =>
      (project.tests as FixtureTests).flatMap((t) => t.commands.map((c) => c.id)),
    ),
  ),
  "no-such-command",
  "__proto__",
];

/** Locators for fixtures/page.html: found, not found, and invalid (CONTRACT section 6). */
const LOCATIONS = [
  "id=user",
  "name=password",
  "css=#main a",
  "css=.product button",
  "xpath=//a[1]",
  "//input",
  "(//a)[2]",
  "linkText=Help and support",
  "link=Home",
  "partialLinkText=Add to",
  "id=nope",
  "css=#1",
  "css=[[[",
  "xpath=//*[",
  "xpath=count(//a)",
  "foo=bar",
  "constructor=x",
  "__proto__=x",
  "no strategy",
  "id=",
];

const TEST_IDS = [
  ...Object.values(FIXTURES).flatMap((project) => (project.tests as Array<{ id: string }>).map((t) => t.id)),
  "no-such-test",
];

const TEST_NAMES = [
  ...Object.values(FIXTURES).flatMap((project) => (project.tests as Array<{ name: string }>).map((t) => t.name)),
  "no such test",
];

type FixtureSuites = Array<{ id: string; name: string }>;
const SUITE_IDS = [...Object.values(FIXTURES).flatMap((p) => (p.suites as FixtureSuites).map((s) => s.id)), "no-such-suite"];
const SUITE_NAMES = [...Object.values(FIXTURES).flatMap((p) => (p.suites as FixtureSuites).map((s) => s.name)), "no such suite"];

/** The page commands of the fixtures: a "stuck" page under test never finishes any of them. */
export const FIXTURE_PAGE_COMMANDS: ReadonlySet<string> = new Set(
  Object.values(FIXTURES).flatMap((project) =>
    (project.tests as Array<{ commands: Array<{ command: string }> }>).flatMap((t) => t.commands.map((c) => c.command)),
  ),
);

// ---------------------------------------------------------------------------------------
// Well-formed steps: what plugins and the user do (the model's alphabet).

export type Spelling = "plain" | "v1" | "upper";
export type RequestForm = "flat" | "payload";

export type PluginRequest =
  | { route: "health" }
  | { route: "register"; commands: string[] }
  | { route: "log"; level: "error" | "warn" | null | undefined; message: string }
  | { route: "getProject" }
  | { route: "loadProject"; fixture: FixtureName }
  | { route: "control"; commands: string[] }
  | { route: "close" }
  | { route: "command"; commandId: string; state: CommandState; message?: string | null }
  | { route: "playbackLog"; message: string }
  | { route: "location"; location: string }
  | { route: "setVar"; name: string; contents: unknown }
  | { route: "startRun"; selector: RunSelector }
  | { route: "stopRun" };

/** What POST /playback/start names: nothing, one of the four keys, or (wrongly) two. */
export type RunSelector = Partial<Record<"testId" | "testName" | "suiteId" | "suiteName", string>>;

export type PluginStep = {
  kind: "plugin";
  sender: string;
  request: PluginRequest;
  form: RequestForm;
  spelling: Spelling;
  /** Sent with `openIDEIfClosed: true`. */
  open: boolean;
};

/** What the save port (`deliver` to the controller, or `save`) answers; "later" holds it. */
export type SaveOutcome = "ok" | "errorAnswer" | "reject" | "later";

export type UserStep = { kind: "user"; event: UserEvent; saveOutcome?: SaveOutcome };

/** The oldest save still held by the port finally answers. */
export type PortStep = { kind: "port"; outcome: Exclude<SaveOutcome, "later"> };

/** Plugin requests sent in one tick, with nothing settled in between. */
export type BurstStep = { kind: "burst"; steps: PluginStep[] };

export type ModelStep = PluginStep | UserStep | PortStep | BurstStep;

/** Routes that only the controller may call while the IDE is controlled (CONTRACT section 4). */
export const CONTROLLED_ONLY: ReadonlySet<PluginRequest["route"]> = new Set([
  "register",
  "log",
  "getProject",
  "loadProject",
  "close",
  "startRun",
  "stopRun",
]);

const ROUTE_OF: Record<PluginRequest["route"], { uri: string; verb: (typeof VERBS)[number] }> = {
  health: { uri: "/health", verb: "get" },
  register: { uri: "/register", verb: "post" },
  log: { uri: "/log", verb: "post" },
  getProject: { uri: "/project", verb: "get" },
  loadProject: { uri: "/project", verb: "post" },
  control: { uri: "/control", verb: "post" },
  close: { uri: "/close", verb: "post" },
  command: { uri: "/playback/command", verb: "post" },
  playbackLog: { uri: "/playback/log", verb: "post" },
  location: { uri: "/playback/location", verb: "get" },
  setVar: { uri: "/playback/var", verb: "put" },
  startRun: { uri: "/playback/start", verb: "post" },
  stopRun: { uri: "/playback/stop", verb: "post" },
};

function fieldsOf(request: PluginRequest, sender: string): Record<string, unknown> {
  switch (request.route) {
    case "register":
    case "control":
      return {
        name: `Plugin ${sender}`,
        version: "1.0.0",
        commands: request.commands.map((id) => ({ id, name: `Command ${id}`, type: "locator" })),
      };
    case "log": {
      const fields: Record<string, unknown> = { message: request.message };
      if (request.level !== undefined) fields.type = request.level;
      return fields;
    }
    case "playbackLog":
      return { message: request.message };
    case "location":
      return { location: request.location };
    case "loadProject":
      return { project: FIXTURES[request.fixture] };
    case "command": {
      const fields: Record<string, unknown> = { commandId: request.commandId, state: request.state };
      if (request.message !== undefined) fields.message = request.message;
      return fields;
    }
    case "setVar":
      return { name: request.name, contents: request.contents };
    case "startRun":
      return { ...request.selector };
    default:
      return {};
  }
}

// Stand-ins, resolved against the view when a step is sent, so that generated sequences
// often hit the running test case and the plugin in control rather than by chance.
/** A command id standing for the n-th command of the test case in the view. */
const RUNNING = "@playback:";
/** A sender standing for the plugin in control (the first plugin when there is none). */
const CONTROLLER = "@controller";

/** The step with its stand-ins replaced by what `view` shows. */
export function resolveStep(step: PluginStep, view: IdeView): PluginStep {
  let resolved = step;
  if (step.sender === CONTROLLER) resolved = { ...resolved, sender: view.control.controller ?? SENDERS[0] };
  const { request } = resolved;
  if (request.route === "command" && request.commandId.startsWith(RUNNING)) {
    const commands = view.playback?.commands ?? [];
    const n = Number(request.commandId.slice(RUNNING.length));
    const commandId = commands.length > 0 ? commands[n % commands.length].id : "no-such-command";
    resolved = { ...resolved, request: { ...request, commandId } };
  }
  return resolved;
}

/** The wire message of a plugin step, in the form and spelling it names. */
export function messageOf(step: PluginStep): Record<string, unknown> {
  const { uri, verb } = ROUTE_OF[step.request.route];
  const spelled =
    step.spelling === "v1"
      ? { uri: `/v1${uri}`, verb }
      : step.spelling === "upper"
        ? { uri: uri.toUpperCase(), verb: verb.toUpperCase() }
        : { uri, verb };
  const fields = fieldsOf(step.request, step.sender);
  if (step.open) fields.openIDEIfClosed = true;
  return step.form === "flat" ? { ...spelled, ...fields } : { ...spelled, payload: fields };
}

const pluginCommandsArb = fc.subarray([...PLUGIN_COMMAND_IDS], { minLength: 0, maxLength: 2 });

const pluginRequestArb: fc.Arbitrary<PluginRequest> = fc.oneof(
  fc.constant({ route: "health" as const }),
  { weight: 3, arbitrary: pluginCommandsArb.map((commands) => ({ route: "register" as const, commands })) },
  fc
    .record({
      level: fc.constantFrom("error" as const, "warn" as const, null, undefined),
      message: fc.string({ maxLength: 12 }),
    })
    .map(({ level, message }) => ({ route: "log" as const, level, message })),
  fc.constant({ route: "getProject" as const }),
  {
    weight: 3,
    arbitrary: fc
      .constantFrom<FixtureName>("shop", "other")
      .map((fixture) => ({ route: "loadProject" as const, fixture })),
  },
  { weight: 3, arbitrary: pluginCommandsArb.map((commands) => ({ route: "control" as const, commands })) },
  { weight: 3, arbitrary: fc.constant({ route: "close" as const }) },
  {
    weight: 2,
    arbitrary: fc
      .record(
        {
          commandId: fc.oneof(
            { weight: 3, arbitrary: fc.nat(9).map((n) => `${RUNNING}${n}`) },
            { weight: 1, arbitrary: fc.constantFrom(...COMMAND_IDS) },
          ),
          state: fc.constantFrom(...COMMAND_STATES),
          message: fc.option(fc.string({ maxLength: 8 }), { nil: null }),
        },
        { requiredKeys: ["commandId", "state"] },
      )
      .map((fields) => ({ route: "command" as const, ...fields })),
  },
  fc.string({ maxLength: 8 }).map((message) => ({ route: "playbackLog" as const, message })),
  fc
    .oneof({ weight: 4, arbitrary: fc.constantFrom(...LOCATIONS) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) })
    .map((location) => ({ route: "location" as const, location })),
  {
    weight: 2,
    arbitrary: fc
      .record({
        name: fc.constantFrom("n", "user", "__proto__", "constructor"),
        contents: fc.constantFrom<unknown>('"text"', '{"a":[1,2]}', "[1]", "507", 507, true, null, "not json", { a: 1 }, [1]),
      })
      .map(({ name, contents }) => ({ route: "setVar" as const, name, contents })),
  },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        { weight: 2, arbitrary: fc.constant<RunSelector>({}) },
        { weight: 3, arbitrary: fc.constantFrom(...TEST_IDS).map((testId): RunSelector => ({ testId })) },
        { weight: 1, arbitrary: fc.constantFrom(...TEST_NAMES).map((testName): RunSelector => ({ testName })) },
        { weight: 1, arbitrary: fc.constantFrom(...SUITE_IDS).map((suiteId): RunSelector => ({ suiteId })) },
        { weight: 1, arbitrary: fc.constantFrom(...SUITE_NAMES).map((suiteName): RunSelector => ({ suiteName })) },
        { weight: 1, arbitrary: fc.constant<RunSelector>({ testId: "t-login", suiteName: "Default Suite" }) },
      )
      .map((selector) => ({ route: "startRun" as const, selector })),
  },
  { weight: 2, arbitrary: fc.constant({ route: "stopRun" as const }) },
);

export const pluginStepArb: fc.Arbitrary<PluginStep> = fc.record({
  kind: fc.constant("plugin" as const),
  sender: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...SENDERS) }, { weight: 2, arbitrary: fc.constant(CONTROLLER) }),
  request: pluginRequestArb,
  form: fc.constantFrom<RequestForm>("flat", "payload"),
  spelling: fc.constantFrom<Spelling>("plain", "plain", "v1", "upper"),
  open: fc.constantFrom(false, false, false, true),
});

export const userStepArb: fc.Arbitrary<UserStep> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<UserStep>({ kind: "user", event: { type: "user.accept" } }) },
  { weight: 2, arbitrary: fc.constant<UserStep>({ kind: "user", event: { type: "user.decline" } }) },
  { weight: 3, arbitrary: fc.constant<UserStep>({ kind: "user", event: { type: "user.editProject" } }) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom<SaveOutcome>("ok", "ok", "errorAnswer", "reject", "later", "later")
      .map((saveOutcome): UserStep => ({ kind: "user", event: { type: "user.saveProject" }, saveOutcome })),
  },
  {
    weight: 2,
    arbitrary: fc
      .option(fc.constantFrom(...TEST_IDS), { nil: undefined })
      .map((testId): UserStep => ({
        kind: "user",
        event: testId === undefined ? { type: "user.startPlayback" } : { type: "user.startPlayback", testId },
      })),
  },
  fc
    .option(fc.constantFrom(...SUITE_IDS), { nil: undefined })
    .map((suiteId): UserStep => ({
      kind: "user",
      event: suiteId === undefined ? { type: "user.startSuite" } : { type: "user.startSuite", suiteId },
    })),
  fc.constant<UserStep>({ kind: "user", event: { type: "user.stopPlayback" } }),
  // The test editor (CONTRACT section 13): a value changed in place, so every test keeps its
  // commands and the model's runs stay as the fixtures say; an id of another test, or of no
  // test, is refused.
  fc
    .constantFrom("c-open", "c-user", "c2-add", "c-nowhere")
    .map((commandId): UserStep => ({ kind: "user", event: { type: "user.changeCommand", commandId, value: "edited" } })),
  fc.constant<UserStep>({ kind: "user", event: { type: "user.stopPlayback" } }),
  fc.constant<UserStep>({ kind: "user", event: { type: "user.openWindow" } }),
  fc.constant<UserStep>({ kind: "user", event: { type: "user.closeWindow" } }),
);

export const portStepArb: fc.Arbitrary<PortStep> = fc
  .constantFrom<PortStep["outcome"]>("ok", "ok", "errorAnswer", "reject")
  .map((outcome) => ({ kind: "port", outcome }));

// Without the open flag, every request of a burst is admitted in the tick it is sent.
export const burstStepArb: fc.Arbitrary<BurstStep> = fc
  .array(pluginStepArb.map((step) => ({ ...step, open: false })), { minLength: 2, maxLength: 4 })
  .map((steps) => ({ kind: "burst", steps }));

export const modelStepArb: fc.Arbitrary<ModelStep> = fc.oneof(
  { weight: 6, arbitrary: pluginStepArb },
  { weight: 4, arbitrary: userStepArb },
  { weight: 1, arbitrary: portStepArb },
  { weight: 1, arbitrary: burstStepArb },
);

/** The plugin requests of a step, in the order they are sent. */
export const requestsOf = (step: ModelStep): PluginStep[] =>
  step.kind === "plugin" ? [step] : step.kind === "burst" ? step.steps : [];

/** How a run starts: the project, window and page under test of createIde's options. */
export type Start = {
  project: FixtureName | "untitled";
  window: "open" | "closed";
  /**
   * The page under test: none (a page command fails at once), "stuck" (every page command
   * executes until the run is stopped) or "passes" (every page command passes at once).
   */
  executor: "none" | "stuck" | "passes";
  /** Steps taken before the random ones, so deep states (a controller with unsaved changes) come up often. */
  prelude: "none" | "controlled" | "controlledUnsaved";
};

export const startArb: fc.Arbitrary<Start> = fc.record({
  project: fc.constantFrom<Start["project"]>("shop", "shop", "other", "untitled"),
  window: fc.constantFrom<Start["window"]>("open", "open", "open", "closed"),
  executor: fc.constantFrom<Start["executor"]>("none", "stuck", "stuck", "passes"),
  prelude: fc.constantFrom<Start["prelude"]>("none", "none", "controlled", "controlledUnsaved"),
});

/** Tight limits now and then (CONTRACT section 7), so RateLimited and PayloadTooLarge come up without huge messages. */
export const limitsArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        requestBytes: fc.integer({ min: 0, max: 400 }),
        projectRequestBytes: fc.integer({ min: 0, max: 4000 }),
        logMessageBytes: fc.integer({ min: 0, max: 16 }),
        requestsPerSecond: fc.integer({ min: 0, max: 5 }),
        requestBurst: fc.integer({ min: 0, max: 6 }),
      },
      { requiredKeys: [] },
    ),
  },
);

/** How a run ends: the user closes the window, or the embedder stops the IDE. */
export type Ending = "closeWindow" | "stop";
export const endingArb: fc.Arbitrary<Ending> = fc.constantFrom<Ending>("closeWindow", "stop");

// ---------------------------------------------------------------------------------------
// Hostile messages, described as data.

type ProxyTrap = "get" | "has" | "ownKeys" | "getOwnPropertyDescriptor" | "getPrototypeOf" | "every";

export type Hostile =
  /** A value used as it is; `json` when JSON.stringify/parse gives it back unchanged. */
  | { t: "value"; v: unknown; json: boolean }
  /** A string of `length` copies of `unit` (sizes near the limits of CONTRACT section 7). */
  | { t: "huge"; unit: string; length: number }
  /** An object; entries that are JSON go through JSON.parse, so `__proto__` stays an own key. */
  | { t: "object"; entries: Array<[string, Hostile]>; proto: "plain" | "null" | "inherited" | "array" }
  | { t: "array"; items: Hostile[] }
  /** As a property: a getter that throws. */
  | { t: "getterThrows"; message: string }
  /** As a property: a getter that gives the next of `values` on each read. */
  | { t: "getterFlips"; values: Hostile[] }
  | { t: "proxy"; target: Hostile; trap: ProxyTrap }
  | { t: "revokedProxy" }
  /** `target` with a property that points back at itself. */
  | { t: "cycle"; target: Hostile }
  | { t: "toJSON"; target: Hostile; mode: "throws" | "undefined" | "huge" }
  | { t: "bigint"; v: string }
  /** The text is parsed with JSON.parse: crafted `__proto__` and `constructor` keys. */
  | { t: "jsonText"; text: string };

const isJsonNode = (node: Hostile): boolean => {
  switch (node.t) {
    case "value":
      return node.json;
    case "huge":
    case "jsonText":
      return true;
    case "object":
      return node.proto === "plain" && node.entries.every(([, v]) => isJsonNode(v));
    case "array":
      return node.items.every(isJsonNode);
    default:
      return false;
  }
};

/** Whether the built message is plain JSON data (so it can be compared before and after). */
export const isJsonHostile = isJsonNode;

/** Defines `key` on `target` as `node` says; a key the target cannot take (an array's `length`) is left as it is. */
function defineOn(target: object, key: string, node: Hostile): void {
  try {
    defineHostileProperty(target, key, node);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}

function defineHostileProperty(target: object, key: string, node: Hostile): void {
  if (node.t === "getterThrows") {
    Object.defineProperty(target, key, {
      enumerable: true,
      configurable: true,
      get() {
        throw new Error(node.message);
      },
    });
    return;
  }
  if (node.t === "getterFlips") {
    const values = node.values.map(buildHostile);
    let reads = 0;
    Object.defineProperty(target, key, {
      enumerable: true,
      configurable: true,
      get: () => values[reads++ % values.length],
    });
    return;
  }
  Object.defineProperty(target, key, { value: buildHostile(node), enumerable: true, writable: true, configurable: true });
}

/** The message a description stands for; a fresh object on every call. */
export function buildHostile(node: Hostile): unknown {
  switch (node.t) {
    case "value":
      return node.json ? JSON.parse(JSON.stringify(node.v) ?? "null") : node.v;
    case "huge":
      return node.unit.repeat(node.length);
    case "jsonText":
      return JSON.parse(node.text);
    case "bigint":
      return BigInt(node.v);
    case "array":
      return node.items.map(buildHostile);
    case "object": {
      const jsonEntries = node.entries.filter(([, v]) => isJsonNode(v));
      const text = `{${jsonEntries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(buildHostile(v))}`).join(",")}}`;
      const parsed = JSON.parse(text) as Record<string, unknown>;
      let target: object;
      if (node.proto === "null") target = Object.assign(Object.create(null), parsed);
      else if (node.proto === "inherited") target = Object.create(parsed);
      else if (node.proto === "array") target = Object.assign([], parsed);
      else target = parsed;
      if (node.proto === "null" && Object.hasOwn(parsed, "__proto__")) {
        Object.defineProperty(target, "__proto__", { value: parsed.__proto__, enumerable: true, writable: true, configurable: true });
      }
      for (const [k, v] of node.entries) {
        if (!isJsonNode(v)) defineOn(node.proto === "inherited" ? Object.getPrototypeOf(target) : target, k, v);
      }
      return target;
    }
    case "getterThrows":
    case "getterFlips": {
      const holder = {};
      defineOn(holder, "value", node);
      return (holder as { value: unknown }).value;
    }
    case "proxy": {
      const target = buildHostile(node.target);
      const box = typeof target === "object" && target !== null ? target : { value: target };
      const fail = (trap: string) => () => {
        throw new Error(`the ${trap} trap refuses`);
      };
      const handler: ProxyHandler<object> =
        node.trap === "every"
          ? {
              get: fail("get"),
              has: fail("has"),
              ownKeys: fail("ownKeys"),
              getOwnPropertyDescriptor: fail("getOwnPropertyDescriptor"),
              getPrototypeOf: fail("getPrototypeOf"),
              defineProperty: fail("defineProperty"),
              set: fail("set"),
              deleteProperty: fail("deleteProperty"),
            }
          : { [node.trap]: fail(node.trap) };
      return new Proxy(box, handler);
    }
    case "revokedProxy": {
      const { proxy, revoke } = Proxy.revocable({ uri: "/health", verb: "get" }, {});
      revoke();
      return proxy;
    }
    case "cycle": {
      const target = buildHostile(node.target);
      if (typeof target === "object" && target !== null) (target as Record<string, unknown>).self = target;
      return target;
    }
    case "toJSON": {
      const target = buildHostile(node.target);
      if (typeof target !== "object" || target === null) return target;
      Object.defineProperty(target, "toJSON", {
        enumerable: false,
        value: () => {
          if (node.mode === "throws") throw new Error("toJSON refuses");
          return node.mode === "huge" ? "z".repeat(1024 * 1024 + 1) : undefined;
        },
      });
      return target;
    }
  }
}

const value = (v: unknown, json = true): Hostile => ({ t: "value", v, json });

// Strings near each limit of CONTRACT section 7: 64 KiB for log messages, 1 MiB for a
// request; one-, two- and four-byte characters, and lone surrogates.
const hugeArb: fc.Arbitrary<Hostile> = fc
  .record({
    unit: fc.constantFrom("x", "é", "😀", "\ud800", "<a href='javascript:x'>"),
    length: fc.constantFrom(64 * 1024 + 1, 40_000, 22_000, 1024 * 1024 + 1, 350_000),
  })
  .map(({ unit, length }): Hostile => ({ t: "huge", unit, length: Math.ceil(length / unit.length) }));

const anythingArb = fc.anything({
  maxDepth: 3,
  maxKeys: 5,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  stringUnit: "binary",
  key: fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.constantFrom("__proto__", "constructor", "prototype", "toString", "valueOf", "uri", "verb", "payload"),
  ),
});

const anyValueArb: fc.Arbitrary<Hostile> = anythingArb.map((v) => value(v, false));

const jsonValueArb: fc.Arbitrary<Hostile> = fc.jsonValue({ maxDepth: 3 }).map((v) => value(v));

const realRouteUri = fc
  .record({
    path: fc.constantFrom(...ROUTE_PATHS),
    prefix: fc.constantFrom("", "", "/v1"),
  })
  .chain(({ path, prefix }) => fc.mixedCase(fc.constant(prefix + path)));

const privateUri = fc
  .tuple(
    fc.constantFrom("", "/v1", "/V1"),
    fc.constantFrom("/private", "/private/", "/private/control", "/private/close", "/private/window/open", "/privateX", "/private/../health"),
  )
  .chain(([prefix, path]) => fc.mixedCase(fc.constant(prefix + path)));

const nearMissUri = fc
  .tuple(
    fc.constantFrom(...ROUTE_PATHS),
    fc.constantFrom(
      (p: string) => `${p}/`,
      (p: string) => `${p}?x=1`,
      (p: string) => `${p}#top`,
      (p: string) => `/${p}`,
      (p: string) => p.slice(1),
      (p: string) => `/v2${p}`,
      (p: string) => `/v1/v1${p}`,
      (p: string) => ` ${p}`,
      (p: string) => `${p}\u0000`,
      (p: string) => p.replace("/", "\\"),
      (p: string) => `http://localhost${p}`,
    ),
  )
  .map(([path, spoil]) => spoil(path));

const uriArb: fc.Arbitrary<Hostile> = fc.oneof(
  { weight: 8, arbitrary: realRouteUri.map((v) => value(v)) },
  { weight: 2, arbitrary: privateUri.map((v) => value(v)) },
  { weight: 2, arbitrary: nearMissUri.map((v) => value(v)) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 10 }).map((v) => value(v)) },
  { weight: 1, arbitrary: hugeArb },
  { weight: 1, arbitrary: anyValueArb },
  { weight: 1, arbitrary: fc.constant<Hostile>({ t: "getterThrows", message: "uri refuses" }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(realRouteUri, privateUri)
      .map(([real, hidden]): Hostile => ({ t: "getterFlips", values: [value(real), value(hidden), value(42)] })),
  },
);

const verbArb: fc.Arbitrary<Hostile> = fc.oneof(
  { weight: 8, arbitrary: fc.mixedCase(fc.constantFrom(...VERBS)).map((v) => value(v)) },
  { weight: 1, arbitrary: fc.constantFrom("patch", "head", "options", "", " get", "GET\n").map((v) => value(v)) },
  { weight: 1, arbitrary: anyValueArb },
  { weight: 1, arbitrary: fc.constant<Hostile>({ t: "getterThrows", message: "verb refuses" }) },
);

// Registration-shaped values: valid ones, duplicate and clashing command ids, wrong types.
const commandsValueArb: fc.Arbitrary<Hostile> = fc.oneof(
  fc
    .array(
      fc.record({
        id: fc.oneof(fc.constantFrom(...PLUGIN_COMMAND_IDS, "", "__proto__"), fc.string({ maxLength: 4 })),
        name: fc.string({ maxLength: 4 }),
        type: fc.constantFrom("locator", "region", "other"),
      }),
      { maxLength: 3 },
    )
    .map((v) => value(v)),
  fc.constantFrom<unknown>("cmd-x", { id: "cmd-x" }, [null], [{ name: "no id" }]).map((v) => value(v)),
);

/** `.side`-shaped values: the fixtures, and the fixtures broken in one place. */
const projectValueArb: fc.Arbitrary<Hostile> = fc.oneof(
  fc.constantFrom<FixtureName>("shop", "other").map((name) => value(FIXTURES[name])),
  fc
    .tuple(
      fc.constantFrom<FixtureName>("shop", "other"),
      fc.constantFrom(
        (p: Record<string, unknown>) => ({ ...p, tests: "none" }),
        (p: Record<string, unknown>) => ({ ...p, id: "" }),
        (p: Record<string, unknown>) => {
          const { name: _name, ...rest } = p;
          return rest;
        },
        (p: Record<string, unknown>) => ({ ...p, tests: [...(p.tests as unknown[]), ...(p.tests as unknown[])] }),
        (p: Record<string, unknown>) => ({ ...p, tests: [{ id: "t", name: "n", commands: [{ id: 1, command: "open" }] }] }),
        (p: Record<string, unknown>) => ({ ...p, suites: {} }),
      ),
    )
    .map(([name, breakIt]) => value(breakIt(FIXTURES[name]))),
  fc
    .constantFrom(
      `{"id":"p","name":"Proto","tests":[],"__proto__":{"polluted":"project"}}`,
      `{"id":"p","name":"Ctor","tests":[{"id":"t","name":"t","commands":[],"constructor":{"prototype":{"polluted":"test"}}}]}`,
      `{"__proto__":{"id":"p","name":"Inherited","tests":[]}}`,
    )
    .map((text): Hostile => ({ t: "jsonText", text })),
);

const FIELD_NAMES = [
  "name",
  "version",
  "commands",
  "dependencies",
  "jest",
  "exports",
  "type",
  "message",
  "project",
  "commandId",
  "state",
  "location",
  "openIDEIfClosed",
  "openSeleniumIDEIfClosed",
  "sender",
  "contents",
  "testId",
  "testName",
  "suiteId",
  "suiteName",
] as const;

const DANGEROUS_KEYS = ["__proto__", "constructor", "prototype"] as const;

/** A JSON object whose keys include `__proto__`, `constructor` or `prototype`. */
const dangerousObjectArb: fc.Arbitrary<Hostile> = fc
  .record({
    key: fc.constantFrom(...DANGEROUS_KEYS),
    inner: fc.constantFrom(
      `{"polluted":"yes"}`,
      `{"prototype":{"polluted":"yes"}}`,
      `{"uri":"/register","verb":"post","name":"Inherited","version":"1"}`,
      `{"message":"from the prototype","openIDEIfClosed":true}`,
      `{"__proto__":{"polluted":"deep"}}`,
      `[1,2,3]`,
      `null`,
      `"/health"`,
    ),
  })
  .map(({ key, inner }): Hostile => ({ t: "jsonText", text: `{${JSON.stringify(key)}:${inner},"polluted2":false}` }));

const fieldValueArb: fc.Arbitrary<Hostile> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .constantFrom<unknown>(
        "Plugin",
        "1.0.0",
        "",
        "error",
        "warn",
        "info",
        null,
        true,
        false,
        0,
        "true",
        ...COMMAND_STATES,
        "c-open",
        "t-login",
        ...LOCATIONS,
        "link=",
        "name=",
        { "dep": "1.0" },
        { "dep": 1 },
        [],
        {},
      )
      .map((v) => value(v)),
  },
  { weight: 2, arbitrary: commandsValueArb },
  { weight: 2, arbitrary: projectValueArb },
  { weight: 2, arbitrary: jsonValueArb },
  { weight: 2, arbitrary: anyValueArb },
  { weight: 1, arbitrary: hugeArb },
  { weight: 1, arbitrary: dangerousObjectArb },
  { weight: 1, arbitrary: fc.constant<Hostile>({ t: "getterThrows", message: "field refuses" }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(jsonValueArb, jsonValueArb)
      .map(([a, b]): Hostile => ({ t: "getterFlips", values: [a, b] })),
  },
  { weight: 1, arbitrary: fc.bigInt().map((v): Hostile => ({ t: "bigint", v: v.toString() })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom<ProxyTrap>("get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf", "every")
      .map((trap): Hostile => ({ t: "proxy", target: value({ id: "cmd-x", name: "p", version: "1" }), trap })),
  },
);

type Placement = "flat" | "payload" | "both" | "conflict";

/** `arb` one time in six, else undefined. */
const sometimes = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

const fieldArb = fc.record({
  key: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...FIELD_NAMES) },
    { weight: 1, arbitrary: fc.constantFrom(...DANGEROUS_KEYS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  ),
  value: fieldValueArb,
  placement: fc.constantFrom<Placement>("flat", "flat", "payload", "payload", "both", "conflict"),
  other: jsonValueArb,
});

const payloadOddArb: fc.Arbitrary<Hostile> = fc.oneof(
  fc.constantFrom<unknown>(null, "payload", 1, [], [{ message: "x" }], true).map((v) => value(v)),
  anyValueArb,
  fc.constant<Hostile>({ t: "getterThrows", message: "payload refuses" }),
  fc
    .constantFrom<ProxyTrap>("get", "ownKeys", "getOwnPropertyDescriptor", "every")
    .map((trap): Hostile => ({ t: "proxy", target: value({ message: "hi" }), trap })),
  dangerousObjectArb,
);

/** A request-shaped object: uri, verb, fields flat or under payload, and odd extras. */
const requestShapedArb: fc.Arbitrary<Hostile> = fc
  .record({
    uri: fc.option(uriArb, { nil: undefined, freq: 10 }),
    verb: fc.option(verbArb, { nil: undefined, freq: 10 }),
    fields: fc.array(fieldArb, { maxLength: 5 }),
    oddPayload: sometimes(payloadOddArb),
    payloadDanger: sometimes(dangerousObjectArb),
    topDanger: sometimes(fc.tuple(fc.constantFrom(...DANGEROUS_KEYS), dangerousObjectArb)),
    proto: fc.constantFrom<"plain" | "null" | "inherited" | "array">("plain", "plain", "plain", "plain", "null", "inherited", "array"),
  })
  .map(({ uri, verb, fields, oddPayload, payloadDanger, topDanger, proto }): Hostile => {
    const top: Array<[string, Hostile]> = [];
    const payload: Array<[string, Hostile]> = [];
    if (uri) top.push(["uri", uri]);
    if (verb) top.push(["verb", verb]);
    for (const field of fields) {
      if (field.placement === "flat" || field.placement === "both" || field.placement === "conflict") {
        top.push([field.key, field.value]);
      }
      if (field.placement === "payload" || field.placement === "both") payload.push([field.key, field.value]);
      if (field.placement === "conflict") payload.push([field.key, field.other]);
    }
    if (payloadDanger && payloadDanger.t === "jsonText") {
      const danger = JSON.parse(payloadDanger.text) as Record<string, unknown>;
      for (const key of Object.keys(danger)) payload.push([key, value(danger[key])]);
    }
    if (topDanger) top.push([topDanger[0], topDanger[1]]);
    if (oddPayload) top.push(["payload", oddPayload]);
    else if (payload.length > 0) top.push(["payload", { t: "object", entries: payload, proto: "plain" }]);
    return { t: "object", entries: top, proto };
  });

/** A JSON request as a description, `payload` as a nested object. */
function describeJson(message: Record<string, unknown>): Extract<Hostile, { t: "object" }> {
  return {
    t: "object",
    proto: "plain",
    entries: Object.entries(message).map(([key, v]): [string, Hostile] =>
      key === "payload" && typeof v === "object" && v !== null && !Array.isArray(v)
        ? [key, describeJson(v as Record<string, unknown>)]
        : [key, value(v)],
    ),
  };
}

type Mutation = { where: "top" | "payload"; key: string; to: Hostile | "delete" };

const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  where: fc.constantFrom<"top" | "payload">("top", "payload"),
  key: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...FIELD_NAMES, "uri", "verb") },
    { weight: 2, arbitrary: fc.constantFrom(...DANGEROUS_KEYS) },
  ),
  to: fc.oneof({ weight: 4, arbitrary: fieldValueArb }, { weight: 1, arbitrary: fc.constant("delete" as const) }),
});

/** A well-formed request of the model, then one to three fields changed, added or removed. */
const mutatedRequestArb: fc.Arbitrary<Hostile> = fc
  .record({ step: pluginStepArb, mutations: fc.array(mutationArb, { minLength: 1, maxLength: 3 }) })
  .map(({ step, mutations }): Hostile => {
    const node = describeJson(messageOf(step));
    for (const { where, key, to } of mutations) {
      const payload = node.entries.find(([k, v]) => k === "payload" && v.t === "object")?.[1];
      const entries = where === "payload" && payload?.t === "object" ? payload.entries : node.entries;
      const at = entries.findIndex(([k]) => k === key);
      if (to === "delete") {
        if (at !== -1) entries.splice(at, 1);
      } else if (at === -1) entries.push([key, to]);
      else entries[at] = [key, to];
    }
    return node;
  });

/** Hand-written hostile texts: crafted keys that JSON.parse keeps as own properties. */
const craftedTextArb: fc.Arbitrary<Hostile> = fc
  .constantFrom(
    `{"uri":"/register","verb":"post","__proto__":{"polluted":"yes"},"name":"N","version":"1"}`,
    `{"uri":"/log","verb":"post","payload":{"__proto__":{"message":"from the prototype"},"type":null}}`,
    `{"__proto__":{"uri":"/health","verb":"get"}}`,
    `{"uri":"/health","verb":"get","constructor":{"prototype":{"polluted":"yes"}}}`,
    `{"uri":"/register","verb":"post","payload":{"name":"N","version":"1","dependencies":{"__proto__":"1.0"}}}`,
    `{"uri":"/register","verb":"post","name":"N","version":"1","commands":[{"id":"__proto__","name":"p"},{"id":"constructor","name":"c"}]}`,
    `{"uri":"/control","verb":"post","name":"N","version":"1","__proto__":{"sender":"ext-a"}}`,
    `{"uri":"/playback/command","verb":"post","commandId":"__proto__","state":"passed"}`,
    `{"uri":"/v1/private/control","verb":"post","name":"N","version":"1"}`,
    `{"openIDEIfClosed":true,"__proto__":{"openIDEIfClosed":true}}`,
    `{"payload":{"openIDEIfClosed":true},"openIDEIfClosed":false}`,
    `{"uri":"/project","verb":"post","project":{"id":"p","name":"n","tests":[],"__proto__":{"polluted":"yes"}}}`,
    `[{"uri":"/health","verb":"get"}]`,
    `"{\\"uri\\":\\"/health\\",\\"verb\\":\\"get\\"}"`,
  )
  .map((text): Hostile => ({ t: "jsonText", text }));

const openRequestArb: fc.Arbitrary<Hostile> = fc
  .constantFrom<unknown>(
    { openIDEIfClosed: true },
    { openSeleniumIDEIfClosed: true },
    { payload: { openIDEIfClosed: true } },
    { openIDEIfClosed: "true" },
    { openIDEIfClosed: 1 },
    { openIDEIfClosed: true, uri: "/control", verb: "post", name: "Opener", version: "1" },
    { openIDEIfClosed: true, verb: "get" },
  )
  .map((v) => value(v));

/** Any message a plugin (or an attacker posing as one) might send. */
export const hostileMessageArb: fc.Arbitrary<Hostile> = fc.oneof(
  { weight: 6, arbitrary: requestShapedArb },
  { weight: 6, arbitrary: mutatedRequestArb },
  { weight: 2, arbitrary: anyValueArb },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom<unknown>(null, 0, -1, Number.MAX_VALUE, "", "/health", [], [1, 2], true)
      .map((v) => value(v)),
  },
  { weight: 2, arbitrary: craftedTextArb },
  { weight: 1, arbitrary: openRequestArb },
  {
    weight: 1,
    arbitrary: fc
      .record({
        target: requestShapedArb,
        trap: fc.constantFrom<ProxyTrap>("get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf", "every"),
      })
      .map(({ target, trap }): Hostile => ({ t: "proxy", target, trap })),
  },
  { weight: 1, arbitrary: fc.constant<Hostile>({ t: "revokedProxy" }) },
  { weight: 1, arbitrary: requestShapedArb.map((target): Hostile => ({ t: "cycle", target })) },
  {
    weight: 1,
    arbitrary: fc
      .record({ target: requestShapedArb, mode: fc.constantFrom<"throws" | "undefined" | "huge">("throws", "undefined", "huge") })
      .map(({ target, mode }): Hostile => ({ t: "toJSON", target, mode })),
  },
);

/** Sender ids: the model's plugins, ids that are also Object.prototype keys, and noise. */
export type SenderSpec = { t: "id"; id: string } | { t: "odd"; sender: "null" | "undefined" | "noId" | "numberId" };

export const hostileSenderArb: fc.Arbitrary<SenderSpec> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...SENDERS).map((id): SenderSpec => ({ t: "id", id })) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(fc.constantFrom("", "__proto__", "constructor", "toString", "hasOwnProperty", "ide"), fc.string({ maxLength: 8 }))
      .map((id): SenderSpec => ({ t: "id", id })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom<"null" | "undefined" | "noId" | "numberId">("null", "undefined", "noId", "numberId")
      .map((sender): SenderSpec => ({ t: "odd", sender })),
  },
);

export function buildSender(spec: SenderSpec): { id: string } {
  if (spec.t === "id") return { id: spec.id };
  const odd: Record<typeof spec.sender, unknown> = { null: null, undefined: undefined, noId: {}, numberId: { id: 7 } };
  return odd[spec.sender] as { id: string };
}

export type HostileStep =
  | { kind: "hostile"; message: Hostile; sender: SenderSpec; settle: boolean }
  | ModelStep;

/** Hostile messages, mixed with well-formed requests and user events so dialogs open and close. */
export const hostileStepArb: fc.Arbitrary<HostileStep> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("hostile" as const),
      message: hostileMessageArb,
      sender: hostileSenderArb,
      settle: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: modelStepArb },
  { weight: 1, arbitrary: odderUserStepArb() },
);

/**
 * User events as a careless UI might send them: the right type with extra fields (an event
 * is not a request, so `requestId` and `sender` in it mean nothing), a testId that names
 * nothing, or a type that is not a user event at all (which send() ignores).
 */
function odderUserStepArb(): fc.Arbitrary<UserStep> {
  const types = [
    "user.openWindow",
    "user.closeWindow",
    "user.accept",
    "user.decline",
    "user.editProject",
    "user.saveProject",
    "user.startPlayback",
    "user.stopPlayback",
  ];
  return fc
    .record({
      type: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...types) },
        {
          weight: 1,
          arbitrary: fc.constantFrom("request.control", "user.", "USER.ACCEPT", "xstate.init", "control.granted", "close.confirmed"),
        },
      ),
      extra: fc.dictionary(
        fc.constantFrom("requestId", "sender", "project", "registration", "controller", "state", "commandId"),
        fc.jsonValue({ maxDepth: 2 }),
        { maxKeys: 3 },
      ),
      testId: fc.option(fc.oneof(fc.constantFrom(...TEST_IDS, "", "__proto__", "constructor"), fc.string({ maxLength: 6 })), {
        nil: undefined,
      }),
    })
    .map(({ type, extra, testId }): UserStep => {
      const event = { ...extra, type, ...(testId === undefined ? {} : { testId }) };
      return { kind: "user", event: event as UserEvent };
    });
}
