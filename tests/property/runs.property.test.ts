// Runs under random interleavings (CONTRACT sections 9 to 12): the user starts, stops, pauses,
// resumes, steps, sets breakpoints and the delay, closes and opens the window, while two
// plugins answer what they are sent now, later or never (deliverTimeoutMs is 20 ms), set
// command states and variables, and start and stop runs; the page under test passes, fails,
// hangs or goes away. Time is XState's and the ports' timers, faked: a `wait` step moves it
// on, so a run plays the same way each time and a failure shrinks to a short sequence.
// After every step the view holds together; at the end (stop, then wait, bounded) the run
// is over, plugins heard one playbackStopped per playbackStarted, and every request settled
// with a contract reply.
import assert from "node:assert/strict";
import fc from "fast-check";
import { afterEach, describe, it, vi } from "vitest";
import { createIde } from "../../index.ts";
import type { Ide, IdeView } from "../../index.ts";
import { runs } from "./arbitraries.ts";
import { assertReplied, assertReplyShape, isErrorWithCode, settle, track } from "./harness.ts";
import type { Tracked } from "./harness.ts";
import {
  assertNothingAfterTheEnd,
  assertRunView,
  assertStopsMatchStarts,
  describeStep,
  isLive,
  isRequest,
  messageOfStep,
  pageUnderTest,
  pluginChannel,
  PLUGINS,
  PROJECT,
  registration,
  scenarioArb,
} from "./runs.support.ts";
import type { PlaybackView, PluginId, Scenario, Step } from "./runs.support.ts";

/** Runs of the property: 80 here (each plays whole runs), or FAST_CHECK_RUNS when it is set. */
const numRuns = process.env.FAST_CHECK_RUNS === undefined ? 80 : runs;
const DELIVER_TIMEOUT_MS = 20;
/** How long (in faked time) a run may take to be over once the user pressed Stop. */
const END_BOUND_MS = 5_000;
const TICK_MS = 10;

interface Call {
  what: string;
  step: Step;
  /** The view just before the request: requests reach the machines at once, in handle(). */
  before: IdeView;
  tracked: Tracked;
  /** The view when the reply arrived. */
  atReply?: IdeView;
}

const runKey = (playback: PlaybackView | null) => (playback ? `${playback.runId}|${playback.testId}` : "none");

/** Commands of the run and test in the view whose state a plugin set (POST /playback/command answered true). */
function setByPlugins(calls: readonly Call[], playback: PlaybackView): Set<string> {
  const key = runKey(playback);
  return new Set(
    calls
      .filter((c) => c.step.k === "report" && c.tracked.reply === true && runKey(c.before.playback) === key)
      .map((c) => (c.step as Extract<Step, { k: "report" }>).commandId),
  );
}

/** What each request's reply says, checked against the view before it and when it arrived. */
function checkReply(call: Call): void {
  const { what, step, before, tracked, atReply } = call;
  assertReplied(tracked, what);
  const reply = tracked.reply;
  assertReplyShape(reply, what);
  if (before.window === "closed") {
    assert.ok(isErrorWithCode(reply, "IdeNotActive"), `${what}: answered ${JSON.stringify(reply)} while the window was closed`);
    return;
  }
  const playback = before.playback;
  const live = isLive(before);
  const registered = before.plugins.some((p) => p.id === (step as { sender?: string }).sender);
  switch (step.k) {
    case "report": {
      const known = playback?.commands.some((c) => c.id === step.commandId) ?? false;
      if (reply === true) assert.ok(live && known, `${what}: a state was accepted for ${step.commandId} while the run was ${playback?.status ?? "absent"}`);
      if (isErrorWithCode(reply, "UnknownCommand")) assert.ok(live && !known, `${what}: UnknownCommand for a command of the running test`);
      if (isErrorWithCode(reply, "NoRunningTest")) assert.ok(!live, `${what}: NoRunningTest while the run was ${playback?.status}`);
      assert.ok(reply === true || isErrorWithCode(reply, "UnknownCommand") || isErrorWithCode(reply, "NoRunningTest"), `${what}: ${JSON.stringify(reply)}`);
      break;
    }
    case "setVar": {
      const running = playback !== null && ["starting", "running", "paused"].includes(playback.status);
      if (!registered) assert.ok(isErrorWithCode(reply, "MissingPlugin"), `${what}: an unregistered sender got ${JSON.stringify(reply)}`);
      if (reply === true) assert.ok(running, `${what}: a variable was set while the run was ${playback?.status ?? "absent"}`);
      if (isErrorWithCode(reply, "NoRunningTest")) assert.ok(!running, `${what}: NoRunningTest while the run was ${playback?.status}`);
      break;
    }
    case "startRun": {
      if (!registered) assert.ok(isErrorWithCode(reply, "MissingPlugin"), `${what}: an unregistered sender got ${JSON.stringify(reply)}`);
      if (isErrorWithCode(reply, "Busy")) assert.ok(live, `${what}: Busy with no run under way`);
      const runId = (reply as { runId?: unknown }).runId;
      if (typeof runId === "string") {
        assert.ok(!live, `${what}: a second run started beside ${playback?.runId}`);
        assert.equal(atReply?.playback?.runId, runId, `${what}: answered { runId: ${runId} }, and the view shows another run`);
      }
      break;
    }
    case "stopRun": {
      if (!registered) assert.ok(isErrorWithCode(reply, "MissingPlugin"), `${what}: an unregistered sender got ${JSON.stringify(reply)}`);
      if (isErrorWithCode(reply, "NoRunningTest")) assert.ok(!live, `${what}: NoRunningTest while the run was ${playback?.status}`);
      if (reply === true) {
        assert.ok(live, `${what}: true with no run under way`);
        // CONTRACT section 12: true once the run is over (after playbackStopped's answers).
        assert.equal(atReply?.playback?.runId, playback!.runId, `${what}: the view shows another run when the stop was answered`);
        assert.equal(atReply?.playback?.status, "ended", `${what}: the stop was answered while the run was ${atReply?.playback?.status}`);
      }
      break;
    }
    default:
      break;
  }
}

async function play(scenario: Scenario): Promise<void> {
  const channel = pluginChannel(scenario.scripts);
  const page = pageUnderTest(scenario.page);
  /** Page commands and conditions that reached the page under test while the window was closed. */
  const whileClosed: string[] = [];
  const executor: typeof page = {
    ...page,
    execute(input, signal) {
      if (ide.getSnapshot().window === "closed") whileClosed.push(`${input.command.id} ${input.command.command}`);
      return page.execute(input, signal);
    },
    evaluate(input, signal) {
      if (ide.getSnapshot().window === "closed") whileClosed.push(`the condition ${input.script}`);
      return page.evaluate(input, signal);
    },
  };
  const ide: Ide = createIde({
    project: PROJECT,
    deliver: channel.deliver,
    executor,
    limits: { deliverTimeoutMs: DELIVER_TIMEOUT_MS },
  });
  const calls: Call[] = [];
  /** The commands of each run as first seen ended: an ended run never changes afterwards. */
  const endedAs = new Map<string, string>();

  const checkView = (what: string) => {
    const view = ide.getSnapshot();
    assertRunView(view, what);
    // ide.machine.ts: closing the window stops playback; nothing runs until the user opens it
    // again, and only the plugins' answers to playbackStopped may still be awaited.
    assert.deepEqual(whileClosed, [], `${what}: the page under test was used while the window was closed`);
    const playback = view.playback;
    if (playback === null) return;
    if (view.window === "closed") {
      assert.ok(!["starting", "running", "paused"].includes(playback.status), `${what}: the run is ${playback.status} while the window is closed`);
    }
    if (playback.status !== "ended") return;
    assertNothingAfterTheEnd(playback, setByPlugins(calls, playback), what);
    const rows = JSON.stringify(playback.commands);
    const seen = endedAs.get(playback.runId);
    if (seen === undefined) endedAs.set(playback.runId, rows);
    else assert.equal(rows, seen, `${what}: the commands of the ended run ${playback.runId} changed`);
  };

  try {
    for (const plugin of Object.keys(PLUGINS) as PluginId[]) {
      assert.equal(await ide.handle({ uri: "/register", verb: "post", ...registration(plugin) }, { id: plugin }), true);
    }
    for (const [index, step] of scenario.steps.entries()) {
      const what = describeStep(step, index);
      if (isRequest(step)) {
        const sender = step.k === "register" ? step.plugin : (step as { sender: string }).sender;
        const before = ide.getSnapshot();
        const call: Call = { what, step, before, tracked: { outcome: "pending" } };
        call.tracked = track(() =>
          ide.handle(messageOfStep(step), { id: sender }).then((reply) => {
            call.atReply = ide.getSnapshot();
            return reply;
          }),
        );
        calls.push(call);
      } else {
        switch (step.k) {
          case "start":
            ide.send({ type: "user.startPlayback", testId: step.testId, fromCommandId: step.fromCommandId });
            break;
          case "startSuite":
            ide.send({ type: "user.startSuite", suiteId: step.suiteId });
            break;
          case "stop":
            ide.send({ type: "user.stopPlayback" });
            break;
          case "pause":
            ide.send({ type: "user.pausePlayback" });
            break;
          case "resume":
            ide.send({ type: "user.resumePlayback" });
            break;
          case "step":
            ide.send({ type: "user.stepPlayback" });
            break;
          case "breakpoint":
            ide.send({ type: "user.toggleBreakpoint", commandId: step.commandId });
            break;
          case "delay":
            ide.send({ type: "user.setPlaybackDelay", ms: step.ms });
            break;
          case "closeWindow":
            ide.send({ type: "user.closeWindow" });
            break;
          case "openWindow":
            ide.send({ type: "user.openWindow" });
            break;
          case "release":
            channel.release(step.plugin);
            break;
          case "wait":
            await vi.advanceTimersByTimeAsync(step.ms);
            break;
        }
      }
      await settle();
      checkView(what);
    }

    // The end: the user stops, and the run is over within a bound (plugins that never answer
    // playbackStopped time out after deliverTimeoutMs).
    ide.send({ type: "user.stopPlayback" });
    await settle();
    for (let waited = 0; waited < END_BOUND_MS && isLive(ide.getSnapshot()); waited += TICK_MS) {
      await vi.advanceTimersByTimeAsync(TICK_MS);
      await settle();
    }
    const view = ide.getSnapshot();
    assert.ok(
      view.playback === null || view.playback.status === "ended",
      `the run is still ${view.playback?.status} ${END_BOUND_MS} ms after the user pressed Stop (window ${view.window})`,
    );
    checkView("at the end");

    const playback = ide.actor.getSnapshot().context.suiteRunner.getSnapshot();
    assert.equal(ide.actor.getSnapshot().status, "active", "the IDE's root actor is no longer active");
    assert.equal(playback.status, "active", `the run machine is ${playback.status}: ${String(playback.error)}`);

    assertStopsMatchStarts(channel.heard, "at the end");
    for (const h of channel.heard) {
      if (h.kind !== "execute") continue;
      const declared = (PLUGINS as Record<string, readonly string[]>)[h.to] ?? [];
      assert.ok(declared.includes(h.command ?? ""), `${h.to} was sent execute for ${h.command} (${h.commandId}), which it did not declare`);
    }
    for (const call of calls) checkReply(call);
  } finally {
    ide.stop();
  }
}

describe("runs under random interleavings of the user, plugins and the page under test", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("end once stopped, leave nothing pending, tell every plugin of each start's end, and answer every request", async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
        try {
          await play(scenario);
        } finally {
          vi.useRealTimers();
        }
      }),
      { numRuns },
    );
  });
});
