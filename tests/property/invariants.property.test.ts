// Model-based sequences: three plugins and the user take turns at random, and after every
// step the invariants of CONTRACT sections 3 to 5 and 8 hold. Each step runs, then queued
// work settles (the ports answer at once, except saves held for a later `port` step), then
// the view and every reply that arrived are checked.
import assert from "node:assert/strict";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createIde } from "../../index.ts";
import { fixtureDocument } from "../support/shared.ts";
import type { IdeView } from "../../index.ts";
import {
  buildHostile,
  buildSender,
  CONTROLLED_ONLY,
  endingArb,
  FIXTURES,
  hostileMessageArb,
  hostileSenderArb,
  messageOf,
  modelStepArb,
  requestsOf,
  resolveStep,
  runs,
  timeoutFor,
  startArb,
} from "./arbitraries.ts";
import type { Ending, ModelStep, PluginStep, PortStep, SaveOutcome, Start } from "./arbitraries.ts";
import {
  applyPrelude,
  assertReplied,
  assertReplyShape,
  assertViewConsistent,
  describeStep,
  isErrorWithCode,
  looksLikeError,
  settle,
  startOptions,
  track,
} from "./harness.ts";
import type { Tracked } from "./harness.ts";

interface Request {
  step: PluginStep;
  what: string;
  tracked: Tracked;
  /** The view just before the request was sent. */
  before: IdeView;
  /** The only request of its step, so the view once it settled shows its effect alone. */
  alone: boolean;
  checked: boolean;
}

const fixtureOf = (step: PluginStep) =>
  step.request.route === "loadProject" ? FIXTURES[step.request.fixture] : undefined;

const document = fixtureDocument();

// "Restore unsaved changes" answers no request (and these runs start with no journal to offer).
const DIALOG_ROUTE = { controlConsent: "control", loadProject: "loadProject", closeWindow: "close", pluginAlert: "alert", restoreUnsaved: null } as const;

/** Checks a reply against the view before its request and the view once it settled. */
function checkReply(request: Request, settledView: IdeView): void {
  const { step, what, tracked, before } = request;
  assertReplied(tracked, what);
  const reply = tracked.reply;
  assertReplyShape(reply, what);
  const sender = step.sender;
  const controller = before.control.controller;

  // (b) A controlled-only route never succeeds for a sender that is not the controller.
  if (CONTROLLED_ONLY.has(step.request.route) && controller !== null && controller !== sender) {
    assert.ok(
      isErrorWithCode(reply, "CannotAccessInControlMode"),
      `${what}: ${sender} got ${JSON.stringify(reply)} from a controlled-only route while ${controller} controls the IDE`,
    );
  }
  if (controller === sender) {
    assert.ok(!isErrorWithCode(reply, "CannotAccessInControlMode"), `${what}: the controller was refused as a non-controller`);
  }

  const open = before.window === "open" || step.open;
  if (!open && step.request.route !== "control") {
    assert.ok(isErrorWithCode(reply, "IdeNotActive"), `${what}: answered ${JSON.stringify(reply)} while the window was closed`);
  }
  // CONTRACT section 12: only one run at a time; a stop needs a run. (A request alone in its
  // step: in a burst, an earlier request's run may not have started when this one was sent.)
  if (request.alone && (step.request.route === "startRun" || step.request.route === "stopRun")) {
    const live = before.playback?.running === true;
    if (isErrorWithCode(reply, "Busy")) assert.ok(live, `${what}: Busy with no run under way`);
    if (step.request.route === "startRun" && !looksLikeError(reply)) assert.ok(!live, `${what}: a second run started beside ${before.playback?.runId}`);
    if (isErrorWithCode(reply, "NoRunningTest")) assert.ok(!live, `${what}: NoRunningTest while ${before.playback?.runId} runs`);
    if (step.request.route === "stopRun" && reply === true) assert.ok(live, `${what}: stopped a run that was not under way`);
  }
  if (looksLikeError(reply)) return;

  switch (step.request.route) {
    case "health":
      // Registered in the session of the request; opening a closed window starts a new one.
      assert.equal(reply, before.window === "open" && before.plugins.some((p) => p.id === sender), `${what}: /health`);
      return;
    case "getProject":
      assert.deepEqual(reply, { id: before.project.id, name: before.project.name }, `${what}: GET /project`);
      return;
    case "location":
      assert.equal(typeof reply, "string", what);
      assert.ok(!(reply as string).startsWith("xpath="), `${what}: the xpath has a prefix`);
      return;
    case "log":
    case "playbackLog":
    case "register":
    case "command":
    case "setVar":
    case "stopRun":
      assert.equal(reply, true, what);
      break;
    case "startRun":
      assert.equal(typeof (reply as { runId?: unknown }).runId, "string", `${what}: POST /playback/start answered ${JSON.stringify(reply)}`);
      break;
    default:
      assert.equal(typeof reply, "boolean", what);
  }
  // What the view shows once the reply arrived, when no other request of its step changed it.
  if (!request.alone) return;
  switch (step.request.route) {
    case "register":
      assert.ok(settledView.plugins.some((p) => p.id === sender), `${what}: registered but not in the view`);
      break;
    case "command": {
      // A new state replaces the old state and its message; fatal ends the test case.
      const { commandId, state, message } = step.request;
      const row = settledView.playback?.commands.find((c) => c.id === commandId);
      const ranBefore = before.playback;
      if (!row && state === "fatal" && ranBefore?.suite && settledView.playback?.suite?.id === ranBefore.suite.id) {
        // Section 22: fatal ends one test, not the suite; the view shows the suite's next test.
        const ended = settledView.playback.suite.runs.find((r) => r.runId === ranBefore.runId);
        assert.ok(ended, `${what}: the suite lost the run of ${ranBefore.testId}`);
        assert.equal(ended.status, "ended", `${what}: a fatal state left ${ranBefore.testId} running`);
        assert.notEqual(ended.result, "passed", `${what}: a fatal test passed`);
        break;
      }
      assert.ok(row, `${what}: the command ${commandId} was accepted but is not in the view`);
      assert.deepEqual([row.state, row.message], [state, message ?? null], `${what}: the command's state and message`);
      if (state === "fatal") assert.equal(settledView.playback!.running, false, `${what}: a fatal state left the test case running`);
      break;
    }
    case "control":
      assert.equal(settledView.control.controller === sender, reply, `${what}: control answered ${reply}`);
      assert.equal(settledView.window, "open", `${what}: the window closed after POST /control`);
      break;
    case "close":
      assert.equal(settledView.window, reply ? "closed" : "open", `${what}: close answered ${reply}`);
      break;
    case "loadProject":
      if (reply) assert.equal(settledView.project.id, fixtureOf(step)!.id, `${what}: loaded, but the view shows another project`);
      break;
    case "startRun":
      assert.equal(settledView.playback?.runId, (reply as { runId: string }).runId, `${what}: the view shows another run`);
      break;
    case "stopRun":
      // The reply comes once the run is over (after playbackStopped's answers).
      assert.equal(settledView.playback?.status, "ended", `${what}: stopped, but the run is ${settledView.playback?.status}`);
      break;
    case "setVar": {
      const { name, contents } = step.request;
      const expected = typeof contents === "string" ? JSON.parse(contents) : contents;
      const variables = settledView.playback?.variables ?? {};
      assert.ok(Object.hasOwn(variables, name), `${what}: the variable ${name} is not in the view`);
      assert.deepEqual(variables[name], expected, `${what}: the variable's value`);
      assert.ok(
        settledView.logs.some((l) => l.group === "playback" && l.source === sender && l.message === `Plugin ${sender}: added variable ${name}`),
        `${what}: no playback log says the variable was added`,
      );
      break;
    }
  }
}

/** One step of a run, as the checks below see it. */
interface StepRecord {
  step: ModelStep;
  what: string;
  before: IdeView;
  after: IdeView;
  /** The requests sent in this step, in order. */
  sent: Request[];
  /** The requests whose replies arrived in this step (sent now, or waiting on a dialog). */
  settledNow: Request[];
  /** The request that waited on a dialog before this step. */
  waiting: Request | undefined;
  /** The save port answered ok in this step, for a save that started after the last edit. */
  saved: boolean;
}

const isUser = (step: ModelStep, type: string) => step.kind === "user" && step.event.type === type;
const answeredTrue = (r: Request, route: PluginStep["request"]["route"]) =>
  r.step.request.route === route && r.tracked.reply === true;

/** (a) Unsaved changes and the loaded project change only in the ways the contract allows. */
function checkProjectChange({ step, what, before, after, sent, waiting, saved }: StepRecord): void {
  const acceptsDialog = isUser(step, "user.accept");
  if (before.project.unsaved && !after.project.unsaved) {
    const acceptedLoss =
      acceptsDialog && (before.dialog?.kind === "loadProject" || before.dialog?.kind === "closeWindow");
    assert.ok(acceptedLoss || saved, `${what}: unsaved changes were dropped without the user's yes or a successful save`);
  }
  if (before.project.id !== after.project.id || before.project.name !== after.project.name) {
    const acceptedLoad = acceptsDialog && before.dialog?.kind === "loadProject";
    const loads = sent.filter((r) => answeredTrue(r, "loadProject"));
    const dialogFreeLoad = loads.some((r) => !r.before.project.unsaved);
    assert.ok(
      acceptedLoad || dialogFreeLoad,
      `${what}: the project changed from ${before.project.name} to ${after.project.name} with no accepted or dialog-free load`,
    );
    const loaded = fixtureOf((acceptedLoad ? waiting : loads.at(-1))!.step);
    assert.ok(loaded, `${what}: the project changed, but no load was waiting`);
    assert.deepEqual(after.project, { id: loaded.id, name: loaded.name, unsaved: false, path: null }, `${what}: the loaded project`);
  }
}

type FixtureTest = { id: string; name: string; commands: Array<{ id: string; command: string }> };

/**
 * The user's edit of a command (CONTRACT section 13): done and unsaved when the displayed test
 * has the command and no run plays that test (starting to finishing); else nothing changes and
 * a warning says why.
 */
function checkCommandEdit(commandId: string, what: string, before: IdeView, after: IdeView): void {
  const shown = testsOf(before).find((t) => t.id === before.displayedTestId);
  const played = before.playback?.running === true && (before.playback.suite?.tests ?? [before.playback.testId]).includes(before.displayedTestId ?? "");
  if (shown?.commands.some((c) => c.id === commandId) && !played) {
    assert.equal(after.project.unsaved, true, `${what}: the edit left the project saved`);
    return;
  }
  assert.equal(after.project.unsaved, before.project.unsaved, `${what}: a refused edit changed the unsaved changes`);
  const seen = new Set(before.logs.map((l) => l.id));
  const dropped = after.logsDropped.system !== before.logsDropped.system;
  const warned = after.logs.some((l) => !seen.has(l.id) && l.level === "warn" && l.source === "ide" && l.message.includes("Nothing was changed"));
  assert.ok(warned || dropped, `${what}: a refused edit (${played ? "the test is being played" : "no such command"}) said nothing`);
}
type FixtureSuite = { id: string; name: string; tests: string[] };

const fixtureOfView = (view: IdeView) => Object.values(FIXTURES).find((p) => p.id === view.project.id);

/** The test cases of the project the view shows (the untitled project has none). */
const testsOf = (view: IdeView): FixtureTest[] => (fixtureOfView(view)?.tests as FixtureTest[] | undefined) ?? [];
const suitesOf = (view: IdeView): FixtureSuite[] => (fixtureOfView(view)?.suites as FixtureSuite[] | undefined) ?? [];

/**
 * A run that just started, as the page under test of `start` leaves it once queued work
 * settled (every port answers at once): "stuck" holds it on its first command; without an
 * executor that page command fails at once (CONTRACT section 9), and a suite goes on to its
 * next test; "passes" plays it to the end.
 */
function checkNewRun(start: Start, what: string, tests: FixtureTest[], after: IdeView): void {
  const playback = after.playback!;
  if (start.executor === "stuck") {
    const [test] = tests;
    assert.equal(playback.testId, test.id, `${what}: another test case started`);
    assert.equal(playback.status, "running", `${what}: the run is ${playback.status}`);
    assert.equal(playback.currentCommandId, test.commands[0].id, `${what}: the run is not on its first command`);
    assert.deepEqual(
      playback.commands.map((c) => [c.id, c.state, c.message]),
      test.commands.map((c, i) => [c.id, i === 0 ? "pending" : null, null]),
      `${what}: the first command executes, the others have no state yet`,
    );
    return;
  }
  const last = tests[tests.length - 1];
  assert.equal(playback.testId, last.id, `${what}: the run ended on another test case`);
  assert.equal(playback.status, "ended", `${what}: the run is ${playback.status}`);
  if (start.executor === "passes") {
    assert.equal(playback.result, "passed", `${what}: the result`);
    assert.ok(playback.commands.every((c) => c.state === "passed"), `${what}: a command did not pass`);
  } else {
    assert.equal(playback.result, "failed", `${what}: the result`);
    const [first, ...rest] = playback.commands;
    assert.equal(first.state, "failed", `${what}: a page command with no page under test`);
    assert.ok(first.message?.includes(first.command), `${what}: the failure does not name ${first.command}: ${first.message}`);
    assert.ok(rest.every((c) => c.state === null && c.message === null), `${what}: commands after the failure have a state`);
  }
}

/** The user's start, suite start and stop do what CONTRACT sections 5, 9 and 12 say. */
function checkPlayback(start: Start, step: ModelStep, what: string, before: IdeView, after: IdeView): void {
  if (step.kind !== "user" || before.window !== "open") return;
  const { event } = step;
  if (event.type === "user.startPlayback" || event.type === "user.startSuite") {
    let tests: FixtureTest[] = [];
    let suite: FixtureSuite | undefined;
    if (event.type === "user.startPlayback") {
      const test = event.testId === undefined ? testsOf(before)[0] : testsOf(before).find((t) => t.id === event.testId);
      if (test) tests = [test];
    } else {
      suite = event.suiteId === undefined ? suitesOf(before)[0] : suitesOf(before).find((s) => s.id === event.suiteId);
      if (suite) tests = suite.tests.map((id) => testsOf(before).find((t) => t.id === id)!);
    }
    if (tests.length === 0) {
      assert.deepEqual(after.playback, before.playback, `${what}: a test case or suite that does not exist changed the playback`);
      return;
    }
    if (before.playback?.running) {
      // One run at a time: the user's second start is refused.
      assert.equal(after.playback?.runId, before.playback.runId, `${what}: a second run started beside the first`);
      return;
    }
    assert.ok(after.playback, `${what}: no playback after starting ${tests[0].id}`);
    assert.notEqual(after.playback.runId, before.playback?.runId, `${what}: the run has the last run's id`);
    assert.deepEqual(after.playback.suite && [after.playback.suite.id, after.playback.suite.tests], suite ? [suite.id, suite.tests] : null, `${what}: the suite`);
    checkNewRun(start, what, tests, after);
  }
  if (event.type === "user.stopPlayback" && before.playback) {
    assert.equal(after.playback?.running, false, `${what}: the test case still runs`);
    if (!before.playback.running) {
      assert.deepEqual(after.playback, before.playback, `${what}: stopping a run that was over changed it`);
      return;
    }
    // The executing command becomes undetermined, and nothing is left pending; the rest stays.
    const executing = before.playback.status === "running" ? before.playback.currentCommandId : null;
    const expected = before.playback.commands.map((c) =>
      c.id === executing
        ? [c.id, "undetermined"]
        : [c.id, c.state === "pending" ? "undetermined" : c.state],
    );
    assert.deepEqual(after.playback.commands.map((c) => [c.id, c.state]), expected, `${what}: the commands' states after the stop`);
  }
}

/** The controller changes only when the user accepts a handover, or when the window closes. */
function checkControlChange({ step, what, before, after, sent }: StepRecord): void {
  if (before.control.controller === after.control.controller) return;
  if (isUser(step, "user.accept") && before.dialog?.kind === "controlConsent") {
    assert.equal(after.control.controller, before.control.candidate, `${what}: control went to someone other than the candidate`);
    return;
  }
  const windowClosed = after.window === "closed" || sent.some((r) => answeredTrue(r, "close"));
  assert.ok(
    windowClosed && after.control.controller === null,
    `${what}: control moved from ${before.control.controller} to ${after.control.controller} without the user's yes`,
  );
}

/** The window opens and closes only when the user or an admitted request asks for it. */
function checkWindowChange({ step, what, before, after, sent, settledNow }: StepRecord): void {
  if (before.window === after.window) return;
  if (after.window === "closed") {
    const userCloses = isUser(step, "user.closeWindow");
    const acceptsClose = isUser(step, "user.accept") && before.dialog?.kind === "closeWindow";
    const controllerClosesSavedProject = sent.some(
      (r) => answeredTrue(r, "close") && r.before.control.controller === r.step.sender && !r.before.project.unsaved,
    );
    assert.ok(
      userCloses || acceptsClose || controllerClosesSavedProject,
      `${what}: the window closed without the user or the controller closing a saved project`,
    );
    if (acceptsClose) {
      assert.ok(settledNow.some((r) => answeredTrue(r, "close")), `${what}: the user accepted, but no close request was answered true`);
    }
  } else {
    const userOpens = isUser(step, "user.openWindow");
    const requestOpens = sent.some((r) => r.step.open || r.step.request.route === "control");
    assert.ok(userOpens || requestOpens, `${what}: the window opened by itself`);
  }
}

/** One call of the save port, the edits made before it, and how it ended. */
interface PortCall {
  editsAtStart: number;
  /** Set once the port answered: its outcome and the step it answered in. */
  answered?: { outcome: PortStep["outcome"]; step: number };
}

async function runModel(start: Start, steps: ModelStep[], ending: Ending): Promise<void> {
  // A save runs when the user asks, or later if one is under way; either way the port
  // answers as the latest user.saveProject step said, now or (for "later") at a port step.
  let requestedOutcome: SaveOutcome = "ok";
  let edits = 0;
  let stepIndex = -1;
  const portCalls: PortCall[] = [];
  const held: Array<(outcome: PortStep["outcome"]) => void> = [];
  // One port for both kinds of save: `deliver` to the controller (where an error answer is
  // a failure) and `save` (where only a rejection is).
  const savePort = (errorAnswer: () => unknown) => (): Promise<unknown> => {
    const call: PortCall = { editsAtStart: edits };
    portCalls.push(call);
    const answer = (outcome: PortStep["outcome"]) => {
      call.answered = { outcome, step: stepIndex };
      return outcome === "ok"
        ? Promise.resolve(true)
        : outcome === "errorAnswer"
          ? Promise.resolve().then(errorAnswer)
          : Promise.reject(new Error("the plugin is unreachable"));
    };
    if (requestedOutcome !== "later") return answer(requestedOutcome);
    return new Promise((resolve) => held.push((outcome) => resolve(answer(outcome))));
  };
  const deliverSave = savePort(() => ({ error: "the plugin refuses to save" }));
  const saveToDisk = savePort(() => {
    throw new Error("the disk is full");
  });
  /** Whether a save that started after the last edit succeeded in this step. */
  const savedInThisStep = () =>
    portCalls.some((c) => c.answered?.step === stepIndex && c.answered.outcome === "ok" && c.editsAtStart === edits);
  const ide = createIde({
    ...startOptions(start),
    document,
    deliver: async (_to, message) => ("event" in message && message.event === "saveProject" ? deliverSave() : true),
    save: async () => {
      await saveToDisk();
    },
  });
  // (d) at the source: the root and each child answer the requests they decide (the protocol
  // adapter listens to all four); together they answer each request id once, and only real ids.
  const answers = new Map<number, number>();
  const count = ({ requestId }: { requestId: number }) => answers.set(requestId, (answers.get(requestId) ?? 0) + 1);
  const { control, projectFile, editor, suiteRunner } = ide.actor.getSnapshot().context;
  ide.actor.on("request.answered", count);
  control.on("request.answered", count);
  projectFile.on("request.answered", count);
  editor.on("request.answered", count);
  suiteRunner.on("request.answered", count);
  const checkAnswers = (what: string) => {
    for (const [requestId, count] of answers) {
      assert.ok(Number.isInteger(requestId) && requestId > 0, `${what}: a reply went to the request id ${requestId}`);
      assert.equal(count, 1, `${what}: request ${requestId} was answered ${count} times`);
    }
  };

  const requests: Request[] = [];
  try {
    await applyPrelude(ide, start);
    checkAnswers("the prelude");
    for (const [index, step] of steps.entries()) {
      const what = describeStep(step, index);
      const before = ide.getSnapshot();
      const waiting = requests.find((r) => r.tracked.outcome === "pending");
      stepIndex = index;
      const sent: Request[] = [];
      for (const [i, planned] of requestsOf(step).entries()) {
        const partBefore = i === 0 ? before : ide.getSnapshot();
        const part = resolveStep(planned, partBefore);
        const tracked = track(() => ide.handle(messageOf(part), { id: part.sender }));
        const partWhat = step.kind === "burst" ? `${what}, request ${i}` : what;
        sent.push({ step: part, what: partWhat, tracked, before: partBefore, alone: step.kind === "plugin", checked: false });
      }
      requests.push(...sent);
      if (step.kind === "port") {
        held.shift()?.(step.outcome);
      } else if (step.kind === "user") {
        if (step.event.type === "user.saveProject") requestedOutcome = step.saveOutcome ?? "ok";
        if (step.event.type === "user.editProject" && before.window === "open") edits += 1;
        ide.send(step.event);
      }
      await settle();
      const after = ide.getSnapshot();

      // (d) every request is answered in its step, except the one a dialog waits on.
      const settledNow = requests.filter((r) => !r.checked && r.tracked.outcome !== "pending");
      for (const request of settledNow) {
        request.checked = true;
        checkReply(request, after);
      }
      const record: StepRecord = { step, what, before, after, sent, settledNow, waiting, saved: savedInThisStep() };
      checkProjectChange(record);
      checkWindowChange(record);
      checkControlChange(record);
      checkPlayback(start, step, what, before, after);
      // (c) the view is consistent with itself.
      assertViewConsistent(after, what);
      if (step.kind === "user" && step.event.type === "user.editProject" && after.window === "open") {
        assert.equal(after.project.unsaved, true, `${what}: an edit left the project saved`);
      }
      if (step.kind === "user" && step.event.type === "user.changeCommand" && before.window === "open") {
        checkCommandEdit(step.event.commandId, what, before, after);
      }
      const pending = requests.filter((r) => r.tracked.outcome === "pending");
      assert.equal(pending.length, after.dialog ? 1 : 0, `${what}: ${pending.length} requests wait with the dialog ${after.dialog?.kind ?? "closed"}`);
      if (after.dialog) {
        assert.equal(pending[0].step.sender, after.dialog.requester, `${what}: the dialog names another requester`);
        assert.equal(pending[0].step.request.route, DIALOG_ROUTE[after.dialog.kind], `${what}: the dialog is not for the waiting request`);
      }
      checkAnswers(what);
    }

    const what = `the ending (${ending})`;
    if (ending === "closeWindow") ide.send({ type: "user.closeWindow" });
    else ide.stop();
    for (const release of held.splice(0)) release("ok");
    await settle();
    for (const request of requests) {
      if (request.checked) continue;
      assertReplied(request.tracked, `${request.what}, after ${what}`);
      assertReplyShape(request.tracked.reply, request.what);
      assert.ok(isErrorWithCode(request.tracked.reply, "IdeNotActive"), `${request.what}: still waiting at ${what}, then got ${JSON.stringify(request.tracked.reply)}`);
    }
    checkAnswers(what);
    if (ending === "closeWindow") assertViewConsistent(ide.getSnapshot(), what);
  } finally {
    ide.stop();
  }
}

describe("random interleavings of three plugins and the user", () => {
  it("keeps unsaved changes, the controller's rights, a consistent view and one reply per request through every step", async () => {
    await fc.assert(
      fc.asyncProperty(startArb, fc.array(modelStepArb, { minLength: 1, maxLength: 30, size: "max" }), endingArb, runModel),
      { numRuns: runs },
    );
  }, timeoutFor(4));
});

/** The view survives JSON and structuredClone unchanged. */
function assertPlain(view: IdeView, what: string): void {
  assert.deepStrictEqual(JSON.parse(JSON.stringify(view)), view, `${what}: the view does not survive JSON`);
  assert.deepStrictEqual(structuredClone(view), view, `${what}: the view does not survive structuredClone`);
}

describe("the view", () => {
  const stepArb = fc.oneof(
    { weight: 3, arbitrary: modelStepArb },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant("hostile" as const), message: hostileMessageArb, sender: hostileSenderArb }),
    },
  );

  it("is always plain data that JSON and structuredClone give back unchanged, and subscribers hear every change", async () => {
    await fc.assert(
      fc.asyncProperty(startArb, fc.array(stepArb, { minLength: 1, maxLength: 15, size: "medium" }), async (start, steps) => {
        const ide = createIde({ ...startOptions(start), deliver: async () => true });
        const seen: IdeView[] = [];
        const subscription = ide.subscribe((view) => seen.push(view));
        try {
          await applyPrelude(ide, start);
          assertPlain(ide.getSnapshot(), "at the start");
          let previous = JSON.stringify(ide.getSnapshot());
          for (const [index, step] of steps.entries()) {
            const what = describeStep(step, index);
            if (step.kind === "hostile") {
              const message = buildHostile(step.message);
              void ide.handle(message, buildSender(step.sender));
            } else {
              for (const planned of requestsOf(step)) {
                const request = resolveStep(planned, ide.getSnapshot());
                void ide.handle(messageOf(request), { id: request.sender });
              }
              if (step.kind === "user") ide.send(step.event);
            }
            await settle();
            const current = ide.getSnapshot();
            assertPlain(current, what);
            const heard = seen.splice(0);
            for (const view of heard) assertPlain(view, `${what}, as a subscriber saw it`);
            const currentJson = JSON.stringify(current);
            if (currentJson !== previous) {
              assert.ok(heard.length > 0, `${what}: the view changed, but no subscriber heard of it`);
              assert.equal(JSON.stringify(heard.at(-1)), currentJson, `${what}: a subscriber's last view is not the current one`);
            }
            previous = currentJson;
          }
          expect(ide.getSnapshot().window).toMatch(/^(open|closed)$/);
        } finally {
          subscription.unsubscribe();
          ide.stop();
        }
      }),
      { numRuns: runs },
    );
  }, timeoutFor(6));
});
