import { describe, expect, it } from "vitest";
import { createActor, fromCallback, fromPromise, getInitialMicrosteps, setup } from "xstate";
import type { SnapshotFrom } from "xstate";
import { getShortestPaths } from "xstate/graph";
import { ideMachine } from "../../machines/ide.machine.ts";
import type { IdeEmitted, IdeEvent, IdeInput, IdeRequestEvent, OutboundRequestedEvent, UserEvent } from "../../machines/ide.types.ts";
import { route } from "../../core/door.ts";
import { isUnsaved, projectFileMachine } from "../../machines/projectFile.machine.ts";
import { validDisplay } from "../../machines/editor.edits.ts";
import { eachTestRunner } from "../../machines/ide.selectors.ts";
import { playbackView } from "../../machines/run.view.ts";
import { suiteRunnerMachine } from "../../machines/suiteRunner.machine.ts";
import { testRunnerMachine } from "../../machines/testRunner.machine.ts";
import type { TellPluginsInput, TellPluginsOutput } from "../../machines/testRunner.types.ts";
import type { RequestAnsweredEvent } from "../../machines/shared.types.ts";
import type { Registration } from "../../services/plugins/index.ts";
import type { SideProject } from "../../services/side/index.ts";
import {
  controlledSavePort,
  expectEachRequestAnsweredOnce,
  other,
  registration,
  replayPath,
  settle,
  shop,
  statesAlong,
  transitionPaths,
  unreachedStateNodes,
} from "./support.ts";
import type { ModelPath } from "./support.ts";

type IdeSnapshot = SnapshotFrom<typeof ideMachine>;
type IdeLogic = typeof ideMachine;

const shopFixture = shop();
const otherFixture = other();
const A = "plugin-a";
const B = "plugin-b";
const C = "plugin-c";
const registrationA = registration("Plugin A", "a-check");
const registrationB = registration("Plugin B", "b-check");
const registrationC = registration("Plugin C", "a-check"); // clashes with A's command

const inputs: Record<IdeInput["window"], IdeInput> = {
  open: { project: shopFixture, window: "open" },
  closed: { project: shopFixture, window: "closed" },
};

// ---------------------------------------------------------------------------------------
// The model. The root decides only from its own context, which its children keep with facts
// (control.changed, control.granted, dialog.opened / dialog.closed, close.confirmed); the one
// child snapshot it reads is the editor's document, for what Play and Record mean. So the model
// is the root alone: xstate/graph is given the facts as
// events beside the protocol's and the user's (user.accept included), and each path is replayed
// on a root whose children are stand-ins that only record what the root forwards to them.
// Hand-written tests below cover the composition with the real children.
// ---------------------------------------------------------------------------------------

const EVENTS: IdeEvent[] = [
  { type: "request.open", requestId: 1, sender: A },
  { type: "request.register", requestId: 2, sender: A, registration: registrationA },
  { type: "request.register", requestId: 3, sender: B, registration: registrationB },
  { type: "request.register", requestId: 4, sender: C, registration: registrationC },
  { type: "request.control", requestId: 5, sender: A, registration: registrationA },
  { type: "request.loadProject", requestId: 6, sender: A, project: otherFixture },
  { type: "request.close", requestId: 7, sender: A },
  { type: "request.commandState", requestId: 8, sender: A, commandId: "c-open", state: "passed", message: null },
  // CONTRACT section 13: a plugin's alert (the root's own dialog), and edits it hands to the project.
  { type: "request.alert", requestId: 9, sender: A, message: "Accept the new baseline?" },
  { type: "request.addCommand", requestId: 10, sender: A, command: "eyesCheckWindow" },
  { type: "user.addCommand", command: "echo" },
  { type: "user.accept" },
  { type: "user.decline" },
  { type: "user.openWindow" },
  { type: "user.closeWindow" },
  { type: "user.editProject" },
  { type: "user.saveProject" },
  { type: "user.startPlayback" },
  { type: "user.stopPlayback" },
  // What the children tell the root.
  { type: "dialog.opened", owner: "control" },
  { type: "dialog.closed", owner: "control" },
  { type: "dialog.opened", owner: "projectFile" },
  { type: "dialog.closed", owner: "projectFile" },
  { type: "control.granted", controller: A, registration: registrationA },
  { type: "control.changed", controller: A },
  { type: "control.changed", controller: null },
  { type: "close.confirmed", requestId: 7 },
  { type: "run.playing", testIds: ["t-login"] },
  { type: "run.over" },
];

const pluginsOf = (snapshot: IdeSnapshot) => snapshot.context.plugins.map((p) => [p.id, p.registration.name]);

const serializeState = (snapshot: IdeSnapshot) =>
  JSON.stringify({
    value: snapshot.value,
    plugins: pluginsOf(snapshot),
    openAtStart: snapshot.context.openAtStart,
    controller: snapshot.context.controller,
    dialogs: snapshot.context.dialogs,
    alert: snapshot.context.alert && [snapshot.context.alert.sender, snapshot.context.alert.requestId],
  });

const traversal = (window: IdeInput["window"]) => ({ input: inputs[window], events: EVENTS, serializeState });

/** The root with stand-in children that record what it forwards to them, and do nothing else. */
function rootAlone() {
  const forwarded: Array<{ to: string; event: IdeEvent }> = [];
  const standIn = (to: string) =>
    fromCallback(({ receive }) => {
      receive((event) => forwarded.push({ to, event: event as IdeEvent }));
    });
  // The editor's stand-in keeps a document, which the root reads for what Play means.
  const editor = setup({
    types: { input: {} as { project: SideProject } },
    actions: { record: ({ event }) => forwarded.push({ to: "editor", event: event as IdeEvent }) },
  }).createMachine({
    context: ({ input }) => ({ ...validDisplay(input.project, null, null), playing: [] as string[] }),
    on: { "*": { actions: "record" } },
  });
  const logic = ideMachine.provide({
    actors: { control: standIn("control"), projectFile: standIn("projectFile"), editor, suiteRunner: standIn("suiteRunner") } as never,
  });
  return { logic, forwarded };
}

/** The request an event carries: a request itself, or a plugin's start handed to the suite runner as run.start. */
const requestIdOf = (event: IdeEvent | { type: string; requestId?: number }): number | null =>
  "requestId" in event && (event.type.startsWith("request.") || event.type === "run.start") && typeof event.requestId === "number" ? event.requestId : null;

function startIde(options: { window?: IdeInput["window"]; project?: SideProject; logic?: IdeLogic } = {}) {
  const actor = createActor(options.logic ?? ideMachine, {
    input: { project: options.project ?? shopFixture, window: options.window ?? "open" },
  });
  const emitted: IdeEmitted[] = [];
  actor.on("*", (event) => emitted.push(event));
  // The root, each child and each test runner answer the requests they decide (the protocol
  // adapter listens to all of them); answers are collected in the order they come.
  const answered: RequestAnsweredEvent[] = [];
  const { control: controlRef, projectFile: projectRef, editor: editorRef, suiteRunner: suiteRunnerRef } = actor.getSnapshot().context;
  const collect = (event: RequestAnsweredEvent) => answered.push(event);
  actor.on("request.answered", collect);
  controlRef.on("request.answered", collect);
  projectRef.on("request.answered", collect);
  editorRef.on("request.answered", collect);
  suiteRunnerRef.on("request.answered", collect);
  eachTestRunner(suiteRunnerRef, (runner) => {
    const subscription = runner.on("request.answered", collect);
    return () => subscription.unsubscribe();
  });
  actor.start();
  let nextId = 100;
  /** Sends a request with a fresh id, and returns the id. */
  const request = <T extends { type: `request.${string}`; sender: string }>(event: T): number => {
    const requestId = nextId++;
    route(actor, { ...event, requestId } as unknown as IdeRequestEvent);
    return requestId;
  };
  /** A user event as the door gives it: to the machine that owns it. */
  const send = (event: UserEvent) => route(actor, event);
  const answers = () => [...answered];
  const answerTo = (requestId: number) => answers().filter((e) => e.requestId === requestId).map((e) => e.reply);
  const outbound = () => emitted.filter((e): e is OutboundRequestedEvent => e.type === "outbound.requested");
  const logs = () => emitted.filter((e) => e.type === "log.written");
  const control = () => actor.getSnapshot().context.control.getSnapshot();
  const project = () => actor.getSnapshot().context.projectFile.getSnapshot();
  /** The run as the view says it: its status ("idle" before the first) and its test. */
  const playback = () => {
    const view = playbackView(actor.getSnapshot().context.suiteRunner.getSnapshot());
    return { value: view?.status ?? "idle", testId: view?.testId ?? null };
  };
  const plugins = () => actor.getSnapshot().context.plugins;
  const windowState = () => actor.getSnapshot().value;
  const waitingIds = () =>
    [control().context.candidate?.requestId, project().context.pendingLoad?.requestId, project().context.pendingClose?.requestId].filter(
      (id): id is number => id !== undefined,
    );
  return { actor, send, emitted, request, answers, answerTo, outbound, logs, control, project, playback, plugins, windowState, waitingIds };
}

/** The root with a run machine whose plugin port records what it is asked to tell, and answers at once. */
function recordingRuns() {
  const calls: TellPluginsInput[] = [];
  const logic = ideMachine.provide({
    actors: {
      suiteRunner: suiteRunnerMachine.provide({
        actors: {
          testRunner: testRunnerMachine.provide({
            actors: {
              tellPlugins: fromPromise<TellPluginsOutput, TellPluginsInput>(async ({ input }) => {
                calls.push(input);
                return [];
              }),
            },
          }),
        },
      }),
    },
  });
  return { calls, logic };
}

const askControl = (sender: string, reg: Registration) => ({ type: "request.control" as const, sender, registration: reg });
const register = (sender: string, reg: Registration) => ({ type: "request.register" as const, sender, registration: reg });
const load = (sender: string, project: SideProject) => ({ type: "request.loadProject" as const, sender, project });
const closeRequest = (sender: string) => ({ type: "request.close" as const, sender });

const ok = (value: unknown) => ({ ok: true, value });
const failure = (errorCode: string) => ({ ok: false, errorCode, error: expect.any(String) });

/** An IDE controlled by A (granted through the consent dialog), with A as its only plugin. */
function controlledBy(sender = A, reg = registrationA, options: Parameters<typeof startIde>[0] = {}) {
  const ide = startIde(options);
  ide.request(askControl(sender, reg));
  ide.send({ type: "user.accept" });
  return ide;
}

async function replayOnActor(window: IdeInput["window"], path: ModelPath<IdeSnapshot, IdeEvent>) {
  const root = rootAlone();
  const actor = createActor(root.logic, { input: inputs[window] });
  const answered: number[] = [];
  actor.on("request.answered", ({ requestId }) => answered.push(requestId));
  actor.start();
  const asked: number[] = [];
  const closesConfirmedWhileOpen: number[] = [];
  let previous: IdeSnapshot | null = null;
  await replayPath(path, {
    send(event) {
      previous = actor.getSnapshot();
      const id = requestIdOf(event);
      if (id !== null) asked.push(id);
      if (event.type === "close.confirmed" && actor.getSnapshot().matches("open")) closesConfirmedWhileOpen.push(event.requestId);
      // Users' events and plugins' requests come through the door, which routes them to their owner.
      if (event.type.startsWith("user.") || event.type.startsWith("request.")) route(actor, event as UserEvent | IdeRequestEvent);
      else actor.send(event);
    },
    check(expected, where) {
      const actual = actor.getSnapshot();
      expect(actual.status, `status ${where}`).toBe(expected.status);
      expect(serializeState(actual), `root ${where}`).toBe(serializeState(expected));
      // Each request is answered by the root or handed to exactly one child, never both; and a
      // close the project confirmed is answered by the root as it closes the window.
      const handed = root.forwarded.map((f) => requestIdOf(f.event)).filter((id): id is number => id !== null);
      // A plugin's alert waits in the root until the user answers it (or the window closes).
      const waiting = actual.context.alert ? [actual.context.alert.requestId] : [];
      const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
      expect(sorted([...answered, ...handed, ...waiting]), `answered or handed on, ${where}`).toEqual(sorted([...asked, ...closesConfirmedWhileOpen]));
      // One dialog at a time: the alert opens only while no child's dialog is open.
      if (actual.context.alert && !previous?.context.alert) {
        expect(previous!.context.dialogs, `an alert over another dialog, ${where}`).toEqual({ control: false, projectFile: false });
      }
    },
  });
  actor.stop();
}

describe("ide machine, model-based", () => {
  for (const window of ["open", "closed"] as const) {
    describe(`starting with the window ${window}`, () => {
      const shortest = getShortestPaths(ideMachine, traversal(window));

      it("has a graph of the window, every plugin session the registrations allow, and every fact the children tell", () => {
        const states = statesAlong(shortest);
        // Sessions: [], [A], [B], [C], [A,B], [B,A], [B,C], [C,B] open; none closed; and a
        // granted control restarts the session with the controller alone.
        const sessions = new Set(states.filter((s) => s.matches("open")).map((s) => JSON.stringify(pluginsOf(s))));
        expect(sessions.size).toBe(8);
        expect(states.every((s) => s.matches("open") || s.context.plugins.length === 0)).toBe(true);
        expect(states.some((s) => pluginsOf(s).some(([id]) => id === A) && pluginsOf(s).some(([id]) => id === C))).toBe(false);
        expect(new Set(states.map((s) => s.context.controller))).toEqual(new Set([null, A]));
        expect(new Set(states.map((s) => JSON.stringify(s.context.dialogs))).size).toBe(4);
        // A plugin's alert is open in some states, and only with the window open.
        expect(states.some((s) => s.context.alert !== null), "an alert is open somewhere").toBe(true);
        expect(states.every((s) => s.context.alert === null || s.matches("open")), "an alert only with the window open").toBe(true);
      });

      it("follows every shortest path on a real root, with the same window, plugins and facts at each step", async () => {
        for (const path of shortest) await replayOnActor(window, path);
      });

      it("follows every transition of the graph on a real root, each after the shortest path to its source", async () => {
        const paths = transitionPaths(ideMachine, traversal(window));
        expect(paths.length).toBe(shortest.length * EVENTS.length);
        for (const path of paths) await replayOnActor(window, path);
      });
    });
  }

  it("starts in the initial window state the input names, passing through starting", () => {
    for (const window of ["open", "closed"] as const) {
      const microsteps = getInitialMicrosteps(ideMachine, inputs[window]).map(([snapshot]) => snapshot.value);
      expect(microsteps).toEqual(["starting", window]);
    }
  });

  it("reaches every state node, the transient starting state on the way in", () => {
    const snapshots = (["open", "closed"] as const).flatMap((window) => [
      ...getInitialMicrosteps(ideMachine, inputs[window]).map(([snapshot]) => snapshot),
      ...statesAlong(getShortestPaths(ideMachine, traversal(window))),
    ]);
    expect(unreachedStateNodes(ideMachine, snapshots)).toEqual([]);
  });
});

describe("ide machine, the window", () => {
  it("starts open, with the children at rest and no plugins, when the input window is open", () => {
    const ide = startIde({ window: "open" });
    expect(ide.windowState()).toBe("open");
    expect(ide.control().value).toBe("notControlled");
    expect(ide.project().value).toEqual({ dialog: "idle", saving: "idle" });
    expect(ide.project().context.project).toEqual(shopFixture);
    expect(ide.playback().value).toBe("idle");
    expect(ide.plugins()).toEqual([]);
  });

  it("starts closed when the input window is closed", () => {
    const ide = startIde({ window: "closed" });
    expect(ide.windowState()).toBe("closed");
    expect(ide.emitted).toEqual([]);
  });

  it("answers IdeNotActive to register, load, close and command states while the window is closed", () => {
    const ide = startIde({ window: "closed" });
    const ids = [
      ide.request(register(A, registrationA)),
      ide.request(load(A, otherFixture)),
      ide.request(closeRequest(A)),
      ide.request({ type: "request.commandState", sender: A, commandId: "c-open", state: "passed", message: null }),
    ];
    for (const id of ids) expect(ide.answerTo(id)).toEqual([failure("IdeNotActive")]);
    expect(ide.windowState()).toBe("closed");
    expect(ide.plugins()).toEqual([]);
    expect(ide.project().context.project).toEqual(shopFixture);
  });

  it("opens a closed window and answers true to an open request", () => {
    const ide = startIde({ window: "closed" });
    const id = ide.request({ type: "request.open", sender: A });
    expect(ide.windowState()).toBe("open");
    expect(ide.answerTo(id)).toEqual([ok(true)]);
  });

  it("opens a closed window with an empty plugin session and asks the user when a plugin asks for control", () => {
    const ide = startIde({ window: "closed" });
    const id = ide.request(askControl(A, registrationA));
    expect(ide.windowState()).toBe("open");
    expect(ide.plugins()).toEqual([]);
    expect(ide.control().value).toBe("awaitingConsent");
    expect(ide.control().context.candidate?.sender).toBe(A);
    expect(ide.answerTo(id)).toEqual([]);
  });

  it("leaves a window opened by a control request open when the user declines", () => {
    const ide = startIde({ window: "closed" });
    const id = ide.request(askControl(A, registrationA));
    ide.send({ type: "user.decline" });
    expect(ide.windowState()).toBe("open");
    expect(ide.control().value).toBe("notControlled");
    expect(ide.answerTo(id)).toEqual([ok(false)]);
  });

  it("drops the plugins, ends control and answers a waiting candidate IdeNotActive when the user closes the window", () => {
    const ide = controlledBy(A);
    ide.send({ type: "user.editProject" });
    const candidate = ide.request(askControl(B, registrationB));
    ide.send({ type: "user.closeWindow" });
    expect(ide.windowState()).toBe("closed");
    expect(ide.plugins()).toEqual([]);
    expect(ide.control().value).toBe("notControlled");
    expect(ide.actor.getSnapshot().context.controller).toBeNull();
    expect(ide.answerTo(candidate)).toEqual([failure("IdeNotActive")]);
    // The project and its unsaved changes stay.
    expect(ide.project().context.project).toEqual(shopFixture);
    expect(isUnsaved(ide.project().context)).toBe(true);
  });

  it("answers a load waiting for the user IdeNotActive when the user closes the window, keeping the changes", () => {
    const ide = startIde();
    ide.send({ type: "user.editProject" });
    const id = ide.request(load(A, otherFixture));
    expect(ide.answerTo(id)).toEqual([]);
    ide.send({ type: "user.closeWindow" });
    expect(ide.answerTo(id)).toEqual([failure("IdeNotActive")]);
    expect(ide.project().context.project).toEqual(shopFixture);
    expect(isUnsaved(ide.project().context)).toBe(true);
  });

  it("ends a running test case when the user closes the window", async () => {
    const ide = startIde();
    ide.send({ type: "user.startPlayback" });
    ide.send({ type: "user.closeWindow" });
    expect(ide.playback().value).toBe("finishing");
    await settle();
    expect(ide.playback().value).toBe("ended");
  });

  it("starts an empty plugin session when the user opens the window again", () => {
    const ide = startIde();
    ide.request(register(A, registrationA));
    ide.send({ type: "user.closeWindow" });
    ide.send({ type: "user.openWindow" });
    expect(ide.windowState()).toBe("open");
    expect(ide.plugins()).toEqual([]);
  });
});

describe("ide machine, control and the plugin session", () => {
  it("restarts the plugin session with only the controller when the user grants control", () => {
    const ide = startIde();
    ide.request(register(A, registrationA));
    ide.request(register(B, registrationB));
    const id = ide.request(askControl(C, registrationC));
    expect(ide.plugins().map((p) => p.id)).toEqual([A, B]);
    ide.send({ type: "user.accept" });
    expect(ide.answerTo(id)).toEqual([ok(true)]);
    expect(ide.actor.getSnapshot().context.controller).toBe(C);
    expect(ide.plugins()).toEqual([{ id: C, registration: registrationC }]);
  });

  it("answers the controller asking for control again true, with no dialog and the same session", () => {
    const ide = controlledBy(A);
    const id = ide.request(askControl(A, registrationA));
    expect(ide.answerTo(id)).toEqual([ok(true)]);
    expect(ide.control().value).toBe("controlled");
    expect(ide.plugins().map((p) => p.id)).toEqual([A]);
  });

  it("keeps the old controller and its plugin session when the user declines a handover", () => {
    const ide = controlledBy(A);
    const id = ide.request(askControl(B, registrationB));
    ide.send({ type: "user.decline" });
    expect(ide.answerTo(id)).toEqual([ok(false)]);
    expect(ide.actor.getSnapshot().context.controller).toBe(A);
    expect(ide.plugins().map((p) => p.id)).toEqual([A]);
  });

  it("hands control and the plugin session over when the user accepts a handover", () => {
    const ide = controlledBy(A);
    const id = ide.request(askControl(B, registrationB));
    ide.send({ type: "user.accept" });
    expect(ide.answerTo(id)).toEqual([ok(true)]);
    expect(ide.actor.getSnapshot().context.controller).toBe(B);
    expect(ide.plugins()).toEqual([{ id: B, registration: registrationB }]);
  });

  it("answers CommandConflict and registers nothing when a command id clashes with another plugin's", () => {
    const ide = startIde();
    ide.request(register(A, registrationA));
    const id = ide.request(register(C, registrationC));
    expect(ide.answerTo(id)).toEqual([failure("CommandConflict")]);
    expect(ide.plugins().map((p) => p.id)).toEqual([A]);
  });
});

describe("ide machine, one dialog at a time", () => {
  it("answers Busy to a second plugin asking for control while a consent dialog is open", () => {
    const ide = startIde();
    const first = ide.request(askControl(A, registrationA));
    const second = ide.request(askControl(B, registrationB));
    expect(ide.answerTo(second)).toEqual([failure("Busy")]);
    expect(ide.answerTo(first)).toEqual([]);
    expect(ide.control().context.candidate?.sender).toBe(A);
  });

  it("answers Busy to the candidate asking again while its consent dialog is open", () => {
    const ide = startIde();
    ide.request(askControl(A, registrationA));
    const again = ide.request(askControl(A, registrationA));
    expect(ide.answerTo(again)).toEqual([failure("Busy")]);
  });

  it("answers Busy to a load over unsaved changes while a consent dialog is open", () => {
    const ide = startIde();
    ide.send({ type: "user.editProject" });
    ide.request(askControl(A, registrationA));
    const id = ide.request(load(B, otherFixture));
    expect(ide.answerTo(id)).toEqual([failure("Busy")]);
    expect(ide.project().value).toEqual({ dialog: "idle", saving: "idle" });
    expect(ide.project().context.project).toEqual(shopFixture);
  });

  it("still loads a project that needs no dialog while a consent dialog is open", () => {
    const ide = startIde();
    const candidate = ide.request(askControl(A, registrationA));
    const id = ide.request(load(B, otherFixture));
    expect(ide.answerTo(id)).toEqual([ok(true)]);
    expect(ide.project().context.project).toEqual(otherFixture);
    expect(ide.control().value).toBe("awaitingConsent");
    expect(ide.answerTo(candidate)).toEqual([]);
  });

  it("answers Busy to a plugin asking for control while a load dialog is open", () => {
    const ide = startIde();
    ide.send({ type: "user.editProject" });
    const loading = ide.request(load(A, otherFixture));
    const id = ide.request(askControl(B, registrationB));
    expect(ide.answerTo(id)).toEqual([failure("Busy")]);
    expect(ide.control().value).toBe("notControlled");
    expect(ide.answerTo(loading)).toEqual([]);
  });

  it("answers Busy to a close over unsaved changes while a load dialog is open", () => {
    const ide = controlledBy(A);
    ide.send({ type: "user.editProject" });
    ide.request(load(A, otherFixture));
    const id = ide.request(closeRequest(A));
    expect(ide.answerTo(id)).toEqual([failure("Busy")]);
    expect(ide.windowState()).toBe("open");
    expect(ide.project().value).toEqual({ dialog: "confirmingLoad", saving: "idle" });
  });

  it("answers Busy to a second load over unsaved changes while a load dialog is open", () => {
    const ide = startIde();
    ide.send({ type: "user.editProject" });
    const first = ide.request(load(A, otherFixture));
    const second = ide.request(load(B, shopFixture));
    expect(ide.answerTo(second)).toEqual([failure("Busy")]);
    expect(ide.project().context.pendingLoad?.requestId).toBe(first);
  });

  it("gives the user's answer to the one dialog that is open", () => {
    const ide = startIde();
    ide.send({ type: "user.editProject" });
    const id = ide.request(load(A, otherFixture));
    ide.send({ type: "user.accept" });
    expect(ide.answerTo(id)).toEqual([ok(true)]);
    expect(ide.project().context.project).toEqual(otherFixture);
    expect(ide.control().value).toBe("notControlled");
    expect(ide.plugins()).toEqual([]);
  });

  it("answers a load that arrives while a load dialog is open, after a save cleared the unsaved changes", async () => {
    // CONTRACT 3: no failure leaves the caller waiting. The save finishing under the open
    // dialog makes the root forward the second load (no unsaved changes) to the project
    // machine, still in confirmingLoad, which answers it Busy; the first load still waits.
    const port = controlledSavePort();
    const logic = ideMachine.provide({
      actors: { projectFile: projectFileMachine.provide({ actors: { saveProject: port.logic } }) },
    });
    const ide = startIde({ logic });
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.saveProject" });
    const first = ide.request(load(A, otherFixture));
    expect(ide.project().value).toEqual({ dialog: "confirmingLoad", saving: "saving" });
    await port.resolve({ ok: true });
    expect(isUnsaved(ide.project().context)).toBe(false);
    const second = ide.request(load(A, otherFixture));
    expect(ide.answerTo(second)).toHaveLength(1);
    expect(ide.answerTo(first)).toEqual([]);
  });
});

describe("ide machine, closing by the controller", () => {
  it("answers NotControlled to a close when not in control mode, and stays open", () => {
    const ide = startIde();
    const id = ide.request(closeRequest(A));
    expect(ide.answerTo(id)).toEqual([failure("NotControlled")]);
    expect(ide.windowState()).toBe("open");
  });

  it("closes at once and answers true when the controller closes with no unsaved changes", () => {
    const ide = controlledBy(A);
    const id = ide.request(closeRequest(A));
    expect(ide.answerTo(id)).toEqual([ok(true)]);
    expect(ide.windowState()).toBe("closed");
    expect(ide.actor.getSnapshot().context.controller).toBeNull();
    expect(ide.plugins()).toEqual([]);
    expect(ide.project().value).toEqual({ dialog: "idle", saving: "idle" });
  });

  it("asks the user before closing over unsaved changes, and keeps the window and the changes on decline", () => {
    const ide = controlledBy(A);
    ide.send({ type: "user.editProject" });
    const id = ide.request(closeRequest(A));
    expect(ide.project().value).toEqual({ dialog: "confirmingClose", saving: "idle" });
    expect(ide.answerTo(id)).toEqual([]);
    ide.send({ type: "user.decline" });
    expect(ide.answerTo(id)).toEqual([ok(false)]);
    expect(ide.windowState()).toBe("open");
    expect(ide.actor.getSnapshot().context.controller).toBe(A);
    expect(isUnsaved(ide.project().context)).toBe(true);
  });

  it("discards the unsaved changes, closes and answers true when the user accepts the close", () => {
    const ide = controlledBy(A, registrationA, { project: otherFixture });
    ide.send({ type: "user.editProject" });
    const id = ide.request(closeRequest(A));
    ide.send({ type: "user.accept" });
    expect(ide.answerTo(id)).toEqual([ok(true)]);
    expect(ide.windowState()).toBe("closed");
    expect(ide.project().context.project).toEqual(otherFixture);
    expect(isUnsaved(ide.project().context)).toBe(false);
    expect(ide.actor.getSnapshot().context.controller).toBeNull();
    expect(ide.plugins()).toEqual([]);
  });
});

describe("ide machine, messages to plugins", () => {
  it("tells every registered plugin that a project was loaded", () => {
    const ide = startIde();
    ide.request(register(A, registrationA));
    ide.request(register(B, registrationB));
    ide.request(load(A, otherFixture));
    const message = {
      action: "event",
      event: "projectLoaded",
      options: { projectId: otherFixture.id, projectName: otherFixture.name },
    };
    expect(ide.outbound()).toEqual([
      { type: "outbound.requested", to: A, message },
      { type: "outbound.requested", to: B, message },
    ]);
  });

  it("tells every registered plugin when a test case starts and when it stops", async () => {
    const told = recordingRuns();
    const ide = startIde({ logic: told.logic });
    ide.request(register(A, registrationA));
    ide.request(register(B, registrationB));
    ide.send({ type: "user.startPlayback", testId: "t-cart" });
    await settle();
    ide.send({ type: "user.stopPlayback" });
    await settle();
    expect(told.calls.map((c) => [c.plugins.map((p) => p.id), c.messages.map((m) => m.event)])).toEqual([
      [[A, B], ["playbackStarted"]],
      [[A, B], ["playbackStopped"]],
    ]);
    expect(told.calls[0].messages[0].options).toMatchObject({ testId: "t-cart", testName: "adds to cart", projectName: "Shop checkout" });
    expect(ide.outbound()).toEqual([]);
  });

  it("tells the plugins still registered when the window closes during a run, before dropping them", async () => {
    const told = recordingRuns();
    const ide = startIde({ logic: told.logic });
    ide.request(register(A, registrationA));
    ide.send({ type: "user.startPlayback" });
    await settle();
    ide.send({ type: "user.closeWindow" });
    await settle();
    expect(ide.plugins()).toEqual([]);
    expect(told.calls.map((c) => [c.plugins.map((p) => p.id), c.messages.map((m) => m.event)])).toEqual([
      [[A], ["playbackStarted"]],
      [[A], ["playbackStopped"]],
    ]);
  });

  it("tells the plugins once a fatal command state ends the test case", async () => {
    const told = recordingRuns();
    const ide = startIde({ logic: told.logic });
    ide.request(register(A, registrationA));
    ide.send({ type: "user.toggleBreakpoint", commandId: "c-open" });
    ide.send({ type: "user.startPlayback" });
    await settle();
    expect(ide.playback().value).toBe("paused");
    const id = ide.request({ type: "request.commandState", sender: A, commandId: "c-open", state: "fatal", message: "gone" });
    expect(ide.answerTo(id)).toEqual([ok(true)]);
    await settle();
    expect(ide.playback().value).toBe("ended");
    expect(told.calls.map((c) => c.messages.map((m) => m.event))).toEqual([["playbackStarted"], ["playbackStopped"]]);
  });

  it("tells nobody when no plugin is registered", () => {
    const ide = startIde();
    ide.request(load(A, otherFixture));
    ide.send({ type: "user.startPlayback" });
    expect(ide.outbound()).toEqual([]);
  });
});

describe("ide machine, playback and saving", () => {
  it("starts the project's first test case when no test id is given", () => {
    const ide = startIde();
    ide.send({ type: "user.startPlayback" });
    expect(ide.playback().value).toBe("starting");
    expect(ide.playback().testId).toBe("t-login");
  });

  it("logs a warning and starts nothing for a test case the project does not have", () => {
    const ide = startIde();
    ide.send({ type: "user.startPlayback", testId: "t-missing" });
    expect(ide.playback().value).toBe("idle");
    expect(ide.logs()).toEqual([{ type: "log.written", level: "warn", message: expect.stringContaining("t-missing") }]);
  });

  it("forwards command states of the running test case and answers them", () => {
    const ide = startIde();
    ide.send({ type: "user.startPlayback" });
    const known = ide.request({ type: "request.commandState", sender: A, commandId: "c-user", state: "failed", message: "x" });
    const unknown = ide.request({ type: "request.commandState", sender: A, commandId: "s-open", state: "passed", message: null });
    expect(ide.answerTo(known)).toEqual([ok(true)]);
    expect(ide.answerTo(unknown)).toEqual([failure("UnknownCommand")]);
  });

  it("saves to the plugin in control while controlled, and to the computer otherwise", async () => {
    const port = controlledSavePort();
    const logic = ideMachine.provide({
      actors: { projectFile: projectFileMachine.provide({ actors: { saveProject: port.logic } }) },
    });
    const ide = startIde({ logic });
    ide.send({ type: "user.saveProject" });
    await port.resolve({ ok: true });
    ide.request(askControl(A, registrationA));
    ide.send({ type: "user.accept" });
    ide.send({ type: "user.saveProject" });
    await port.resolve({ ok: true });
    expect(port.inputs.map((i) => i.controller)).toEqual([null, A]);
  });

  it("passes on the error log of a save that failed, keeping the changes unsaved", async () => {
    const port = controlledSavePort();
    const logic = ideMachine.provide({
      actors: { projectFile: projectFileMachine.provide({ actors: { saveProject: port.logic } }) },
    });
    const ide = startIde({ logic });
    ide.send({ type: "user.editProject" });
    ide.send({ type: "user.saveProject" });
    await port.resolve({ ok: false, reason: "refused" });
    expect(ide.logs()).toEqual([{ type: "log.written", level: "error", message: expect.stringContaining("refused") }]);
    expect(isUnsaved(ide.project().context)).toBe(true);
  });
});

describe("ide machine, answers", () => {
  it("answers every request exactly once through consent, a handover, load and close dialogs and a closed window", () => {
    const ide = startIde();
    const asked: number[] = [];
    const ask = <T extends { type: `request.${string}`; sender: string }>(event: T) => asked.push(ide.request(event));
    const user = (type: "user.accept" | "user.decline" | "user.editProject" | "user.closeWindow") => ide.send({ type });

    ask(register(A, registrationA));
    ask(askControl(A, registrationA));
    ask(askControl(B, registrationB)); // Busy
    user("user.accept");
    ask(askControl(A, registrationA)); // already in control
    ask(askControl(B, registrationB));
    user("user.decline");
    user("user.editProject");
    ask(load(A, otherFixture));
    ask(load(A, shopFixture)); // Busy
    user("user.decline");
    ask(closeRequest(A));
    user("user.decline");
    ask(askControl(B, registrationB));
    user("user.closeWindow"); // the candidate: IdeNotActive
    ask(load(A, otherFixture)); // IdeNotActive
    ask(askControl(B, registrationB)); // opens the window
    user("user.accept");
    ask(load(B, otherFixture)); // unsaved: dialog
    user("user.accept");
    ask(closeRequest(B)); // no unsaved changes: closes at once

    expectEachRequestAnsweredOnce(asked, ide.answers().map((a) => a.requestId), [], "at the end");
    expect(ide.waitingIds()).toEqual([]);
    expect(ide.windowState()).toBe("closed");
  });
});

describe("ide machine, a plugin's alert and the displayed test", () => {
  const alert = (sender: string, extra: Record<string, unknown> = {}) => ({ type: "request.alert" as const, sender, message: "Accept?", ...extra });

  it("answers the alert true on accept and false on decline, and the children hear neither answer", () => {
    const ide = startIde();
    ide.request(register(A, registrationA));
    const yes = ide.request(alert(A, { confirm: "Accept", cancel: "Reject" }));
    expect(ide.actor.getSnapshot().context.alert).toMatchObject({ title: "Plugin A says...", text: "Accept?", confirmLabel: "Accept", cancelLabel: "Reject" });
    ide.send({ type: "user.accept" });
    const no = ide.request(alert(A));
    expect(ide.actor.getSnapshot().context.alert).toMatchObject({ confirmLabel: "OK", cancelLabel: null });
    ide.send({ type: "user.decline" });
    expect(ide.answerTo(yes)).toEqual([ok(true)]);
    expect(ide.answerTo(no)).toEqual([ok(false)]);
    expect(ide.control().value).toBe("notControlled");
    expect(ide.actor.getSnapshot().context.alert).toBeNull();
  });

  it("keeps a load over unsaved changes Busy while the alert is open, and asks the user about it once the alert is answered", () => {
    const ide = startIde();
    ide.send({ type: "user.editProject" });
    const asked = ide.request(alert(A));
    const busy = ide.request(load(A, otherFixture));
    expect(ide.answerTo(busy)).toEqual([failure("Busy")]);
    ide.send({ type: "user.accept" });
    expect(ide.answerTo(asked)).toEqual([ok(true)]);
    const later = ide.request(load(A, otherFixture));
    expect(ide.project().matches({ dialog: "confirmingLoad" })).toBe(true);
    ide.send({ type: "user.decline" });
    expect(ide.answerTo(later)).toEqual([ok(false)]);
    expect(isUnsaved(ide.project().context)).toBe(true);
  });

  it("answers the alert IdeNotActive when the controller's close goes through at once", () => {
    const ide = controlledBy();
    const asked = ide.request(alert(A));
    const closed = ide.request(closeRequest(A));
    expect(ide.windowState()).toBe("closed");
    expect(ide.answerTo(closed)).toEqual([ok(true)]);
    expect(ide.answerTo(asked)).toEqual([failure("IdeNotActive")]);
    expect(ide.actor.getSnapshot().context.alert).toBeNull();
  });

  it("refuses edits of the test a real run plays, told by the run through the root, until the run has ended", async () => {
    const ide = startIde();
    ide.send({ type: "user.toggleBreakpoint", commandId: "c-open" });
    ide.send({ type: "user.startPlayback" });
    await settle();
    expect(ide.playback().value).toBe("paused");
    const refused = ide.request({ type: "request.addCommand" as const, sender: A, command: "echo" });
    ide.send({ type: "user.deleteCommand", commandId: "c-open" });
    expect(ide.answerTo(refused)).toEqual([failure("Busy")]);
    expect(ide.project().context.project).toBe(shopFixture);
    ide.send({ type: "user.stopPlayback" });
    await settle();
    expect(ide.playback().value).toBe("ended");
    const taken = ide.request({ type: "request.addCommand" as const, sender: A, command: "echo" });
    expect(ide.answerTo(taken)).toEqual([ok(true)]);
    expect(isUnsaved(ide.project().context)).toBe(true);
    expect(ide.logs()).toContainEqual(expect.objectContaining({ level: "warn", message: expect.stringContaining("is being played") }));
  });
});
