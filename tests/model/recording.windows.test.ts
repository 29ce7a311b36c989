// Recording across windows (CONTRACT section 19): a click that opens a tab records v3's
// opensWindow and windowHandleName, the first window's handle is stored, and commands in
// another window get selectWindow first; a closed opened window is recorded as close.
import { describe, expect, it, vi } from "vitest";
import { createActor, fromPromise } from "xstate";
import { recordingMachine } from "../../machines/recording.machine.ts";
import type { AskPluginsInput, PluginAnswers, RecorderCommandEvent, RecordingEmitted, RecordingEvent } from "../../machines/recording.types.ts";
import { openWindow, noWindows, switchTo } from "../../services/recording/windows.ts";
import { readRecorderReport } from "../../core/recorder.ts";
import { planRecordedChange, validDisplay } from "../../machines/editor.edits.ts";
import { commit } from "../../machines/editor.history.ts";
import { parseSideProject, untitledProject } from "../../services/side/index.ts";

const requested: RecordingEvent = { type: "recording.requested", testId: "t1", testName: "Shop", empty: false, projectUrl: "http://shop.test" };
const click = (target: string, tabId: number, frame: number[] = []): RecorderCommandEvent => ({
  type: "recorder.commandRecorded",
  command: "click",
  target,
  targets: [[target, "id"]],
  value: "",
  frame,
  tabId,
  plugins: [],
});
const opened = (tabId: number, openerTabId: number): RecordingEvent => ({ type: "recorder.windowOpened", tabId, openerTabId, plugins: [] });
const closed = (tabId: number): RecordingEvent => ({ type: "recorder.windowClosed", tabId, plugins: [] });

function start() {
  const actor = createActor(recordingMachine);
  const emitted: RecordingEmitted[] = [];
  actor.on("*", (event) => emitted.push(event as RecordingEmitted));
  actor.start();
  actor.send(requested);
  /** Every command recorded and every change, as `command target` lines in order. */
  const lines = () =>
    emitted.flatMap((e) =>
      e.type === "recording.commandsRecorded"
        ? e.commands.map((c) => `${c.command} ${c.target}`.trim())
        : e.type === "recording.commandChanged"
          ? [`changed ${e.command} ${e.target} ${JSON.stringify(e.window)}`]
          : [],
    );
  return { actor, emitted, lines };
}

describe("recording windows", () => {
  it("marks the click that opened a tab opensWindow, stores the first window's handle, and selects the new window before its first command", () => {
    const { actor, lines } = start();
    actor.send(click("id=help", 7));
    actor.send(opened(9, 7));
    actor.send(click("id=faq", 9));
    actor.send(click("id=faq", 9));
    actor.send(click("id=buy", 7));
    expect(lines()).toEqual([
      "click id=help",
      'changed click id=help {"opensWindow":true,"windowHandleName":"win_ser_1"}',
      "storeWindowHandle win_ser_local",
      "selectWindow handle=${win_ser_1}",
      "click id=faq",
      "click id=faq",
      "selectWindow handle=${win_ser_local}",
      "click id=buy",
    ]);
  });

  it("names each further window win_ser_N and stores the first window's handle only once", () => {
    const { actor, lines } = start();
    actor.send(click("id=a", 7));
    actor.send(opened(9, 7));
    actor.send(click("id=b", 7));
    actor.send(opened(11, 7));
    actor.send(click("id=c", 11));
    expect(lines().filter((l) => l.startsWith("storeWindowHandle"))).toEqual(["storeWindowHandle win_ser_local"]);
    expect(lines()).toContain('changed click id=b {"opensWindow":true,"windowHandleName":"win_ser_2"}');
    expect(lines().slice(-2)).toEqual(["selectWindow handle=${win_ser_2}", "click id=c"]);
  });

  it("records close in an opened window that was closed, and selects the first window again before the next command there", () => {
    const { actor, lines } = start();
    actor.send(click("id=help", 7));
    actor.send(opened(9, 7));
    actor.send(click("id=faq", 9));
    actor.send(closed(9));
    actor.send(click("id=buy", 7));
    expect(lines().slice(-4)).toEqual(["click id=faq", "close", "selectWindow handle=${win_ser_local}", "click id=buy"]);
  });

  it("starts the frame at the top in a window it selects", () => {
    const { actor, lines } = start();
    actor.send(click("id=pay", 7, [0]));
    actor.send(opened(9, 7));
    actor.send(click("id=faq", 9));
    actor.send(click("id=buy", 7, [0]));
    expect(lines().slice(-5)).toEqual(["selectWindow handle=${win_ser_1}", "click id=faq", "selectWindow handle=${win_ser_local}", "selectFrame index=0", "click id=buy"]);
  });

  it("ignores a tab opened by a tab the recording does not know, and closing the first tab records no close", () => {
    const { actor, lines } = start();
    actor.send(click("id=a", 7));
    actor.send(opened(12, 3));
    actor.send(closed(7));
    expect(lines()).toEqual(["click id=a"]);
  });

  it("does not mark a command when the opening tab has recorded nothing (a window a page opened by itself)", () => {
    const { actor, lines } = start();
    actor.send(click("id=a", 7));
    actor.send(opened(9, 7));
    actor.send(click("id=b", 9));
    actor.send(opened(10, 7));
    expect(lines().filter((l) => l.startsWith("changed"))).toHaveLength(1);
  });

  it("marks the command as a plugin changed it, not as it was recorded", async () => {
    const actor = createActor(
      recordingMachine.provide({
        actors: {
          askPlugins: fromPromise<PluginAnswers, AskPluginsInput>(async ({ input }) => ({
            testId: input.testId,
            commandId: input.commandId,
            answers: [{ plugin: "p", answer: { mutation: "update", command: "clickAt", target: "id=help", value: "1,1" } }],
          })),
        },
      }),
    );
    const changes: RecordingEmitted[] = [];
    actor.on("recording.commandChanged", (event) => changes.push(event));
    actor.start();
    actor.send(requested);
    actor.send({ ...click("id=help", 7), plugins: ["p"] });
    await vi.waitFor(() => expect(changes).toHaveLength(1), { timeout: 2_000 });
    actor.send(opened(9, 7));
    expect(changes.at(-1)).toMatchObject({ command: "clickAt", value: "1,1", window: { opensWindow: true, windowHandleName: "win_ser_1" } });
  });

  it("tells plugins the browser's tab id of a recorded command, and null for a host's page (numbered below 0)", async () => {
    const toldIn = async (root: number, opened: number, expected: number) => {
      const told: Array<number | null> = [];
      const actor = createActor(
        recordingMachine.provide({
          actors: {
            askPlugins: fromPromise<PluginAnswers, AskPluginsInput>(async ({ input }) => {
              told.push((input.message.options as { tabId: number | null }).tabId);
              return { testId: input.testId, commandId: input.commandId, answers: [] };
            }),
          },
        }),
      );
      actor.start();
      actor.send(requested);
      actor.send({ ...click("id=help", root), plugins: ["p"] });
      actor.send({ type: "recorder.windowOpened", tabId: opened, openerTabId: root, plugins: ["p"] });
      actor.send({ ...click("id=faq", opened), plugins: ["p"] });
      // The click, storeWindowHandle (in the first window), selectWindow and the click in the new one.
      await vi.waitFor(() => expect(told).toHaveLength(expected), { timeout: 2_000 });
      actor.stop();
      return told;
    };
    expect(await toldIn(7, 9, 4)).toEqual([7, 7, 9, 9]);
    expect(await toldIn(-1, -2, 4)).toEqual([null, null, null, null]);
  });

  it("selects no window for a command from a tab it was never told of", () => {
    expect(switchTo(noWindows(), 7).select).toBeNull();
    const root = switchTo(noWindows(), 7).windows;
    expect(switchTo(root, 99).select).toBeNull();
    expect(openWindow(root, 9, 7)?.name).toBe("win_ser_1");
    expect(openWindow(root, 7, 7)).toBeNull();
  });
});

describe("windows at the recorder's door and in the project", () => {
  it("admits a window opened or closed with integer tab ids and refuses one without", () => {
    expect(readRecorderReport({ type: "recorder.windowOpened", tabId: 9, openerTabId: 7, extra: 1 })).toEqual({ type: "recorder.windowOpened", tabId: 9, openerTabId: 7 });
    expect(readRecorderReport({ type: "recorder.windowClosed", tabId: 9 })).toEqual({ type: "recorder.windowClosed", tabId: 9 });
    expect(readRecorderReport({ type: "recorder.windowOpened", tabId: "9", openerTabId: 7 })).toBeNull();
    expect(readRecorderReport({ type: "recorder.windowClosed" })).toBeNull();
  });

  it("keeps opensWindow and windowHandleName on the recorded command the change names", () => {
    const project = { ...untitledProject(), tests: [{ id: "t1", name: "Shop", commands: [{ id: "c1", command: "click", target: "id=help", value: "" }] }] };
    const plan = planRecordedChange(validDisplay(project, "t1", null), "t1", "c1", {
      command: "click",
      target: "id=help",
      value: "",
      window: { opensWindow: true, windowHandleName: "win_ser_1" },
    });
    const display = plan && commit(project, plan.edit, { displayedTestId: "t1", selectedCommandId: null });
    expect(display?.project.tests[0].commands[0]).toEqual({ id: "c1", command: "click", target: "id=help", value: "", opensWindow: true, windowHandleName: "win_ser_1" });
    const parsed = parseSideProject(display?.project);
    expect(parsed.ok && parsed.project.tests[0].commands[0]).toMatchObject({ opensWindow: true, windowHandleName: "win_ser_1" });
  });
});
